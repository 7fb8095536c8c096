"""Start-up of the ``referee`` command (issue 12): a person types ``referee play`` hundreds of times a
game. What ``referee play`` imports is held to what it needs (typer, msgspec, the engine, the store and
its own match's game; not pydantic, not the HTTP stack, not another game, not rich for ``--json``);
``--help`` loads typer's rich help without markdown; and the lazy group and plain coercion of
:mod:`cli.lazy` answer exactly as typer's own eager app does."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys

import pytest
import typer.main

from cli import lazy, main
from conftest import ROOT

PROBE = """
import sys
from cli.main import run
code = 0
try:
    run(sys.argv[2:])
except SystemExit as exc:
    code = exc.code
modules = sorted(sys.modules)
import json, rich.markdown
with open(sys.argv[1], "w") as fh:
    json.dump({"code": code, "modules": modules, "real_markdown": hasattr(rich.markdown, "__file__")}, fh)
"""


@pytest.fixture(scope="module")
def match(tmp_path_factory):
    from referee.service import Referee
    from referee.store.sqlite import SqliteStore

    db = str(tmp_path_factory.mktemp("startup") / "s.db")
    store = SqliteStore(db, create=True)
    referee = Referee(store)
    ids = [referee.new_match("by_all_means", ["alice", "bob"], seed=i).id for i in range(4)]
    store.close()
    return db, ids


def _env(db: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")} | {"REFEREE_LANG": "en"}
    return dict(env, REFEREE_DB=db, COLUMNS="100")


def bare(env: dict[str, str]) -> set[str]:
    """What a bare Python imports in this environment (site, .pth hooks of editable installs...): asked of
    a Python once for each environment but the database's path, which a Python that imports nothing of
    ours does not read."""
    return set(_bare(tuple(sorted((k, v) for k, v in env.items() if k != "REFEREE_DB"))))


@functools.lru_cache(maxsize=None)
def _bare(env: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    out = subprocess.run([sys.executable, "-c", "import sys; print(' '.join(sys.modules))"],
                         cwd=ROOT, env=dict(env), capture_output=True, text=True, timeout=60, check=True)
    return tuple(out.stdout.split())


def imported(db: str, tmp_path, *argv: str, **settings: str) -> tuple[int, set[str], bool]:
    """Run ``referee ARGV`` in a fresh Python (its standard output a pipe): its exit code, the modules
    it imported beyond a bare Python's, and whether ``rich.markdown`` imports as itself afterwards."""
    env = _env(db) | settings
    out = tmp_path / "modules.json"
    proc = subprocess.run([sys.executable, "-c", PROBE, str(out), *argv], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert out.exists(), proc.stderr
    found = json.loads(out.read_text())
    return found["code"], set(found["modules"]) - bare(env), found["real_markdown"]


def roots(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


#: not for a command line: typer's parameter coercion through pydantic, the HTTP stack, the other
#: front ends, markdown and tracebacks of rich, what a server or an audit over processes needs
NEVER_ON_PLAY = {"pydantic", "pydantic_core", "click", "litestar", "uvicorn", "httptools", "uvloop", "anyio",
                 "markdown_it", "sqlite_utils", "asyncio", "multiprocessing", "concurrent", "email", "http", "ssl",
                 "xml", "json"}
#: the third-party packages ``referee play`` may import: typer (and what it imports), msgspec
PLAY_THIRD_PARTY = {"typer", "annotated_doc", "shellingham", "typing_extensions", "msgspec"}
NOT_OUR_PLAY = {"referee.http", "referee.access", "referee.export", "referee.transcript", "referee.scenario",
                "referee.games.war_of_shadows", "cli.client", "cli.serve", "typer.rich_utils", "importlib.metadata",
                "cli.tournament", "referee.tournament"}


def test_playing_imports_only_what_play_needs(match, tmp_path):
    db, ids = match
    code, modules, _ = imported(db, tmp_path, "play", ids[0], "alice", "draw_opening_hand", "--json")
    assert code == 0
    assert roots(modules) & NEVER_ON_PLAY == set()
    third_party = roots(modules) - set(sys.stdlib_module_names) - {"cli", "referee", "schemas"}
    assert third_party <= PLAY_THIRD_PARTY, third_party - PLAY_THIRD_PARTY
    assert "rich" not in roots(modules) and "cli.render" not in modules
    assert modules & NOT_OUR_PLAY == set()
    games = {m for m in modules if m.startswith("referee.games.") and m.count(".") == 2}
    assert games == {"referee.games.by_all_means"}


def test_playing_for_people_loads_no_rich(match, tmp_path):
    db, ids = match
    code, modules, _ = imported(db, tmp_path, "play", ids[1], "alice", "draw_opening_hand")
    assert code == 0 and "rich" not in roots(modules) and "cli.render" not in modules
    assert roots(modules) & NEVER_ON_PLAY == set() and modules & NOT_OUR_PLAY == set()


def test_lines_only_rich_can_print_are_printed_by_rich_console_alone(match, tmp_path):
    """FORCE_COLOR (like a line wider than a terminal, or text beyond ASCII) is rich's to handle: rich.console
    is loaded then, and nothing else of rich. (In a pipe no line is too wide: nothing is wrapped there.)"""
    db, ids = match
    code, modules, _ = imported(db, tmp_path, "play", ids[2], "alice", "draw_opening_hand", FORCE_COLOR="1")
    assert code == 0 and "rich.console" in modules and "cli.render" in modules
    assert roots(modules) & NEVER_ON_PLAY == set() and modules & NOT_OUR_PLAY == set()
    assert modules & {"rich.table", "rich.progress", "rich.markdown", "rich.traceback", "rich.pretty"} == set()


def test_reading_as_json_loads_no_rich_and_no_other_game(match, tmp_path):
    db, ids = match
    code, modules, _ = imported(db, tmp_path, "show", ids[3], "--json")
    assert code == 0 and "rich" not in roots(modules)
    assert roots(modules) & NEVER_ON_PLAY == set() and modules & NOT_OUR_PLAY == set()


def test_showing_to_a_pipe_loads_no_rich(match, tmp_path):
    """``referee show`` written to a pipe draws its boards without rich (cli.boards; the same bytes,
    tests/test_show_plain.py): it imports what ``show --json`` does and no more of rich than that."""
    db, ids = match
    code, modules, _ = imported(db, tmp_path, "show", ids[3])
    assert code == 0 and "cli.boards" in modules
    assert "rich" not in roots(modules) and "cli.render" not in modules
    assert roots(modules) & NEVER_ON_PLAY == set() and modules & NOT_OUR_PLAY == set()
    third_party = roots(modules) - set(sys.stdlib_module_names) - {"cli", "referee", "schemas"}
    assert third_party <= PLAY_THIRD_PARTY, third_party - PLAY_THIRD_PARTY
    code, modules, _ = imported(db, tmp_path, "show", ids[3], FORCE_COLOR="1")  # rich's to colour
    assert code == 0 and {"rich.console", "rich.table", "cli.render"} <= modules


#: what a command imports only where it needs it: a new secret (secrets), a draw (random), a character
#: that is not printable (unicodedata), a zipped game package (importlib.resources)
ONLY_WHEN_USED = {"secrets", "random", "unicodedata", "importlib.resources"}


def test_showing_a_match_draws_nothing_and_imports_no_module_for_it(match, tmp_path):
    """``referee show`` binds the match (its bundled cards read beside the game's module) and folds it:
    it makes no secret, draws nothing and meets only printable text (beyond what a bare Python of this
    environment imports already). A match with digital chance deals its set-up when bound, so it may
    import `random` and nothing else of these."""
    from referee.service import Referee
    from referee.store.sqlite import SqliteStore

    db = str(tmp_path / "physical.db")  # chance read off the table: its set-up deals nothing
    store = SqliteStore(db, create=True)
    physical = Referee(store).new_match("by_all_means", ["alice", "bob"], chance="physical").id
    store.close()
    code, modules, _ = imported(db, tmp_path, "show", physical)
    assert code == 0
    assert modules & ONLY_WHEN_USED == set(), modules & ONLY_WHEN_USED
    # a digital match's set-up deals from its seed when it is bound: that, and nothing else, needs `random`
    digital_db, ids = match
    code, modules, _ = imported(digital_db, tmp_path, "show", ids[3])
    assert code == 0
    assert modules & ONLY_WHEN_USED <= {"random"}, modules & ONLY_WHEN_USED


def test_help_loads_typers_rich_help_without_markdown_or_the_engine(match, tmp_path):
    db, _ = match
    code, modules, real_markdown = imported(db, tmp_path, "--help")
    assert code == 0 and "typer.rich_utils" in modules and "rich.console" in modules
    assert modules & {"markdown_it", "rich.markdown", "rich.traceback", "pydantic"} == set()
    ours = {m for m in modules if m.startswith(("referee.", "schemas"))}
    assert ours <= {"referee.i18n", "referee.errors"}, ours  # the help's language (no catalog in English)
    assert real_markdown, "rich.markdown must import as itself after the help"


@pytest.mark.parametrize("argv", [
    ["--help"], [], ["-h"], ["play", "--help"], ["scenario", "--help"], ["scenario"], ["scenario", "run", "--help"],
    ["plya", "x"], ["play"], ["play", "abcd", "alice", "end_turn", "--expect-seq", "1.5"],
    ["show", "abcd", "--at", "abc"], ["audit", "abcd", "--jobs", "-x"], ["--server"], ["games", "--nope"],
    ["legal", "--help"],
])
def test_the_lazy_group_answers_as_typers_own(cli, monkeypatch, argv):
    """Help, usage errors (a mistyped command and its suggestion, a word that is not a number) and
    exit codes: the same whether typer builds every command first or the lazy group one."""
    lean = cli(*argv)
    monkeypatch.setattr(main, "lean", lambda app: app)
    eager = cli(*argv)
    assert (lean.code, lean.out, lean.err) == (eager.code, eager.out, eager.err)


def _params():
    """Every parameter of every command of the app (and of the group), as typer builds them."""
    def walk(command, path):
        for param in command.params:
            yield path, param
        for name, sub in getattr(command, "commands", {}).items():
            yield from walk(sub, (*path, name))

    return list(walk(typer.main.get_command(main.app), ()))


SAMPLES = {
    "str": ["", "alice", "a b", "é", "-", "3f9c@40", 7],
    "int": ["0", "7", "007", "-3", "-0", "123456789012345678", "1234567890123456789012", "1.0", "+3", " 4", "abc",
            "١٢", "1_000", "", "-", 5, True],
    "bool": [True, False, "true"],
    "list[str]": [("a", "b"), (), ["x"], "x", ("a", 1)],
}


def _outcome(param, runtime, value):
    try:
        got = runtime.coerce(value, param=param, ctx=None)
    except Exception as exc:  # noqa: BLE001 - the error is the answer compared
        return ("error", type(exc).__name__, str(exc))
    return ("value", type(got).__name__, repr(got))


def test_plain_coercion_gives_typers_values_and_errors():
    """For every parameter and every kind of word: the value typer's own coercion gives (the same
    type), or the same error."""
    typers, plains = _params(), _params()
    kinds = set()
    for (path, theirs), (_, ours) in zip(typers, plains, strict=True):
        annotation = theirs.type_descriptor.annotation
        kind = getattr(annotation, "__name__", None) if isinstance(annotation, type) else str(annotation)
        kinds.add(kind)
        for value in [None, *SAMPLES.get(kind, [])]:
            ours._runtime_param = None
            lazy.plain([ours])
            assert isinstance(ours._runtime_param, lazy.Plain)
            theirs._runtime_param = None
            expected = _outcome(theirs, theirs.get_runtime_param(), value)
            assert _outcome(ours, ours._runtime_param, value) == expected, (path, theirs.name, value)
    assert kinds <= set(SAMPLES), kinds - set(SAMPLES)  # a new kind of parameter: add samples for it


# -- the lines of referee play, without rich where that prints the same ------------------------------


def _results():
    from referee.api import SubmitResult
    from referee.engine.protocol import Accepted, Held, Rejected
    from schemas import Outcome

    def res(verdict, notation="draw_opening_hand cards=GA1,TR7", actor="alice", **kw):
        return SubmitResult(match_id="1de99f82b09c", seq=12, actor=actor, notation=notation, intent=None,
                            verdict=verdict, state_hash="0" * 64, outcome=kw.pop("outcome", None), **kw)

    return {
        "accepted": res(Accepted(), words=["alice draws GA1 Spray Ghost from the main archive (opening hand)"]),
        "events": res(Accepted(), events=[{"type": "card_drawn", "card": "GA1", "faces": ["a", "b"], "open": True,
                                           "none": None, "empty": []}, "plain"]),
        "rejected": res(Rejected("turn/not_your_turn", "it is bob's turn", "3.1")),
        "no rule": res(Rejected("by_all_means/already_done", "done")),
        "held": res(Held("bob")),
        "game over": res(Accepted(), words=["bob scores 3"], outcome=Outcome(winners=("bob",), reason="R-END")),
        "empty notation": res(Accepted(), notation=""),
        "brackets": res(Accepted(), notation='annotate note="[bold]x[/bold] \\\\" end\\\\', words=["[red]no[/red]"]),
        "emoji": res(Accepted(), notation="say text=:smile: and :x:"),
        "accents": res(Accepted(), actor="élodie"),
        "wide": res(Accepted(), actor="王"),
        "long": res(Rejected("by_all_means/wrong_phase", "end_turn belongs to phase play; " * 40, "R-EFFECT-ORDER")),
        "control": res(Accepted(), words=["a\tb\x1b[31m"]),
    }


class _Out:
    """A standard output that says whether it is a terminal."""

    def __init__(self, tty):
        import io

        self.buf, self.tty, self.encoding = io.StringIO(), tty, "utf-8"

    def write(self, text):
        return self.buf.write(text)

    def flush(self):
        pass

    def isatty(self):
        return self.tty


ENVIRONMENTS = {
    "pipe": (False, {"COLUMNS": "100"}),
    "pipe, narrow": (False, {"COLUMNS": "40"}),
    "pipe, no COLUMNS": (False, {}),
    "terminal": (True, {"COLUMNS": "100", "TERM": "xterm"}),
    "terminal, 256 colours": (True, {"COLUMNS": "120", "TERM": "xterm-256color"}),
    "terminal, truecolor": (True, {"COLUMNS": "120", "COLORTERM": "truecolor", "TERM": "xterm-256color"}),
    "terminal, no colour": (True, {"COLUMNS": "100", "NO_COLOR": "1"}),
    "forced colour": (False, {"COLUMNS": "100", "FORCE_COLOR": "1"}),
    "dumb terminal": (True, {"COLUMNS": "100", "TERM": "dumb"}),
}


@pytest.mark.parametrize("where", list(ENVIRONMENTS))
def test_play_prints_without_rich_what_rich_prints(monkeypatch, where):
    """Every kind of result, in every kind of output: the lines printed without rich are rich's, byte
    for byte; the common ones (ASCII, within the width, a pipe or a colour terminal) take that path."""
    from cli import lines, render

    tty, env = ENVIRONMENTS[where]
    for name in ("COLUMNS", "LINES", "TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    fast = set()
    for name, res in _results().items():
        shown = lines.result(res)
        monkeypatch.setattr(sys, "stdout", rich_out := _Out(tty))
        render.printed(shown)
        monkeypatch.setattr(sys, "stdout", out := _Out(tty))
        if lines.write(shown):
            fast.add(name)
            assert out.buf.getvalue() == rich_out.buf.getvalue(), (where, name)
        else:
            assert out.buf.getvalue() == "", (where, name)
        monkeypatch.setattr(sys, "stdout", sys.__stdout__)
    common = {"accepted", "events", "rejected", "no rule", "game over", "empty notation", "brackets"}
    if where in ("pipe", "terminal", "terminal, 256 colours", "terminal, truecolor"):
        assert fast >= common, common - fast
    if where in ("terminal, no colour", "forced colour", "dumb terminal"):
        assert fast == set()
    assert not fast & {"emoji", "accents", "wide"}
    if tty:  # a line wider than the terminal is rich's to wrap; a pipe wraps nothing, either way
        assert "long" not in fast
    elif where == "pipe":
        assert "long" in fast


def test_the_narrow_characters_are_one_cell_for_rich():
    from rich.cells import cell_len

    from cli import lines

    assert all(cell_len(ch) == 1 for ch in lines.NARROW)
    assert all(cell_len(chr(c)) == 1 for c in range(0x20, 0x7F))


DATACLASS_PROBE = """
import dataclasses, sys
made = []
real = dataclasses._process_class
def counted(cls, *args, **kwargs):
    made.append(cls.__module__ + "." + cls.__qualname__)
    return real(cls, *args, **kwargs)
dataclasses._process_class = counted
from cli.main import run
import contextlib
with contextlib.suppress(SystemExit):
    run(sys.argv[2:])
with open(sys.argv[1], "w") as fh:
    fh.write("\\n".join(made))
"""


def test_showing_a_match_compiles_no_dataclass_of_the_framework_or_the_cli(match, tmp_path):
    """A dataclass compiles its generated methods when its module is imported (about half a millisecond each,
    on every command's start-up): the records ``referee show`` meets in the engine, the service layer and
    the CLI (a verb's parameters, a bound match, a timeline, the connection) are msgspec Structs or named
    tuples instead. A game's package is its own business."""
    db, ids = match
    out = tmp_path / "dataclasses.txt"
    proc = subprocess.run([sys.executable, "-c", DATACLASS_PROBE, str(out), "show", ids[3]], cwd=ROOT,
                          env=_env(db), capture_output=True, text=True, timeout=120)
    assert out.exists(), proc.stderr
    made = [name for name in out.read_text().split("\n") if name]
    ours = [name for name in made if name.startswith(("referee.", "cli.", "schemas."))
            and not name.startswith("referee.games.")]
    assert ours == [], ours
