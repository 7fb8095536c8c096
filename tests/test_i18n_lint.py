"""The lint for words that reach a person without the catalog (issue 29, item 5).

An AST scan of every ``.py`` file of ``cli/`` and ``referee/``. A *user-facing literal* is a string
literal (a plain string or the literal parts of an f-string) holding two letters or more (Latin or
Cyrillic, once rich markup such as ``[bold]``/``[/]`` is taken out, and not a code such as
``cli/unknown_language``) that is the argument of a *sink*, or is reached from that argument through
``+``/``%``, an f-string, ``a if c else b``, ``a or b``, a tuple or list, or a literal's own
``.format``/``.join``/``%``. The sinks:

* output: ``print(...)``, ``typer.echo``/``typer.secho``, any ``X.print(...)`` (rich consoles),
  ``sys.stdout.write``/``sys.stderr.write``, a progress bar's ``X.add_task(description)``;
* rich tables and panels: ``title=``, ``caption=``, ``subtitle=`` of any call, and the header of
  ``X.add_column(header)``;
* help: ``help=``, ``short_help=``, ``epilog=``, ``show_default=`` (a default shown in words) of any call (typer options, arguments, commands,
  groups), and the docstring of a function decorated with ``X.command(...)``/``X.callback(...)``
  whose decorator gives no ``help=`` (typer would show the docstring);
* errors: the arguments after the code of the project's error classes (``RefereeError`` and every
  class of ``cli/``/``referee/`` derived from it: ``BadInput``, ``NotFound``, ``ConflictError``,
  ``StorageError``, ``Unauthorized``, ``Forbidden``, ``TooBusy``, ``RulingRefused``, ``AmendRefused``
  ...), every argument of the other errors the project defines and shows (``ConfigError``,
  ``InputError``, ``PositionError``, ``ScenarioError``, ``PairingError``, ``CorruptTournament``,
  ``StoreError`` and its kind, ``BadSetting``), the message of ``cli.common.fail(...)`` (a bare
  ``fail`` in ``cli/``), ``typer.BadParameter``/``click.UsageError``/``SystemExit`` messages.

What is inside ``gettext(...)``, ``ngettext(...)`` or ``N_(...)`` goes through the catalog and is
not counted; nor is what a call other than those returns (its own literals are counted where they
meet a sink). Not counted, by design: a game's refusals (``Refusal``, ``self.fail``/``tx.fail`` of a
decision: recorded in English and read through the game's templates, :func:`referee.i18n.refusal`),
log lines for operators (``logging``), HTML and text templates of the pages (their own issue), and
literals kept in a module's constant and shown later (the scan sees the constant, not the sink).

Inside a function, a local name stands for everything the function gives it: ``name = ...``,
``name += ...`` and the items of ``name.append(...)``/``.extend(...)``/``.insert(i, ...)``; so a literal
reaches a sink through the name (``fail(why)``, ``print(*lines)``) and through a literal's
``.join(name)`` (``sys.stdout.write("\\n".join(out))``) or an f-string's field (``f"{n}: {name}"``,
``f"{x or 'none'}"``), and is counted once however many sinks it reaches; so is what a comprehension
or a generator yields (``", ".join(f"..." for ...)``, ``out += [f"..." for ...]``). Still not seen: an
attribute or a subscript kept and shown later, a literal kept in a dict, and a name passed to another
function that shows it.

:data:`NOT_YET` lists every file that still holds such literals, with how many: the lint fails on a
literal added anywhere (a new file, or one more in a listed file) and on a listed count that is no
longer true (a file converted is taken off the list: it only shrinks)."""

from __future__ import annotations

import ast
import functools
import os
import re
from collections import Counter

from conftest import ROOT

SCANNED = ("cli", "referee")
CATALOG = {"gettext", "ngettext", "N_"}
OUTPUT_METHODS = {"print", "echo", "secho", "add_task"}
HELP_KEYWORDS = {"help", "short_help", "epilog", "show_default"}
TITLE_KEYWORDS = {"title", "caption", "subtitle"}
#: errors whose every argument is a message (not a code first)
PLAIN_ERRORS = {"ConfigError", "InputError", "PositionError", "ScenarioError", "PairingError", "CorruptTournament",
                "StoreError", "StoreUnavailable", "Conflict", "DuplicateRequest", "BadSetting", "BadParameter",
                "UsageError", "SystemExit"}
_MARKUP = re.compile(r"\[/?[a-z0-9 #._-]*\]")
_WORDS = re.compile(r"[A-Za-zА-Яа-яЁё]{2,}")
_CODE = re.compile(r"^[a-z0-9_]+/[a-z0-9_]+$")

#: the files that still hold user-facing literals, each with how many (issue 29: this list shrinks)
NOT_YET: dict[str, int] = {
    'referee/service.py': 1,  # table 1: a fork's title, recorded in the match in English (title= of a record, not shown)
}


def _files() -> list[str]:
    out = []
    for top in SCANNED:
        for folder, dirs, names in os.walk(os.path.join(ROOT, top)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            out += [os.path.relpath(os.path.join(folder, n), ROOT) for n in sorted(names) if n.endswith(".py")]
    return out


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _error_classes(trees: dict[str, ast.Module]) -> set[str]:
    """``RefereeError`` and every class of the scanned code derived from it (by name, to a fixpoint)."""
    found = {"RefereeError"}
    bases = [(node.name, {_name(b) for b in node.bases}) for tree in trees.values() for node in ast.walk(tree)
             if isinstance(node, ast.ClassDef)]
    grew = True
    while grew:
        grew = False
        for name, of in bases:
            if name not in found and of & found:
                found.add(name)
                grew = True
    return found


def _wording(value: str) -> bool:
    return bool(_WORDS.search(_MARKUP.sub("", value))) and not _CODE.match(value)


def _locals(function: ast.AST) -> dict[str, list[ast.expr]]:
    """What each local name of ``function`` is given: ``name = ...``, ``name += ...``, and the items of
    ``name.append(...)``/``.extend(...)``/``.insert(i, ...)`` (nested functions included, by name)."""
    given: dict[str, list[ast.expr]] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            given.setdefault(node.targets[0].id, []).append(node.value)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name) and node.value:
            given.setdefault(node.target.id, []).append(node.value)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
                and node.func.attr in ("append", "extend", "insert") and node.args:
            given.setdefault(node.func.value.id, []).append(node.args[-1])
    return given


def _reached(node: ast.AST | None, given: dict[str, list[ast.expr]] | None = None,
             seen: frozenset[str] = frozenset()) -> list[ast.AST]:
    """The user-facing literals an argument expression holds (see the module's docstring); a local name
    of ``given`` stands for what it is given."""
    if node is None:
        return []
    given = given or {}
    if isinstance(node, ast.Name):
        if node.id in seen:
            return []
        return [x for v in given.get(node.id, []) for x in _reached(v, given, seen | {node.id})]
    if isinstance(node, ast.Constant):
        return [node] if isinstance(node.value, str) and _wording(node.value) else []
    if isinstance(node, ast.JoinedStr):  # its literal parts, and what its {fields} reach (f"{x or 'none'}")
        inner = [x for v in node.values if isinstance(v, ast.FormattedValue) for x in _reached(v.value, given, seen)]
        return ([node] if any(isinstance(v, ast.Constant) and _wording(v.value) for v in node.values) else []) + inner
    if isinstance(node, ast.BinOp):
        return _reached(node.left, given, seen) + _reached(node.right, given, seen)
    if isinstance(node, ast.IfExp):
        return _reached(node.body, given, seen) + _reached(node.orelse, given, seen)
    if isinstance(node, ast.BoolOp):
        return [x for v in node.values for x in _reached(v, given, seen)]
    if isinstance(node, (ast.Tuple, ast.List)):
        return [x for v in node.elts for x in _reached(v, given, seen)]
    if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp)):
        return _reached(node.elt, given, seen)
    if isinstance(node, ast.Starred):
        return _reached(node.value, given, seen)
    if isinstance(node, ast.Call) and _name(node.func) not in CATALOG:
        func = node.func  # a literal's own .format(...)/.join(...): the literal is shown
        if isinstance(func, ast.Attribute) and isinstance(func.value, (ast.Constant, ast.JoinedStr)):
            joined = node.args[0] if func.attr == "join" and node.args else None
            return _reached(func.value, given, seen) + _reached(joined, given, seen)  # "\n".join(lines): its items
    return []


def _sink_arguments(node: ast.Call, cli: bool, errors: set[str]) -> list[tuple[str, ast.AST | None]]:
    """The arguments of ``node`` that reach a person if it is a sink, each with the sink's kind."""
    func, name = node.func, _name(node.func)
    args: list[tuple[str, ast.AST | None]] = []
    if name in CATALOG:
        return []
    if (isinstance(func, ast.Name) and func.id == "print") or (
            isinstance(func, ast.Attribute) and name in OUTPUT_METHODS):
        args += [("output", a) for a in (node.args[:1] if name == "add_task" else node.args)]
    if isinstance(func, ast.Attribute) and name == "write" and isinstance(func.value, ast.Attribute) \
            and func.value.attr in ("stdout", "stderr") and _name(func.value.value) == "sys":
        args += [("output", a) for a in node.args]
    if name == "add_column":
        args += [("table", a) for a in node.args[:1]]
    if name in errors:
        args += [("error", a) for a in node.args[1:]]
    elif name in PLAIN_ERRORS:
        args += [("error", a) for a in node.args]
    if cli and isinstance(func, ast.Name) and name == "fail":
        args += [("error", a) for a in node.args[:1]]
    for k in node.keywords:
        if k.arg in HELP_KEYWORDS:
            args.append(("help", k.value))
        elif k.arg in TITLE_KEYWORDS:
            args.append(("table", k.value))
        elif k.arg == "message" and (name in errors or name in PLAIN_ERRORS or name == "fail"):
            args.append(("error", k.value))
    return args


def _walk(node: ast.AST, given: dict[str, list[ast.expr]]) -> list[tuple[ast.AST, dict[str, list[ast.expr]]]]:
    """Every node under ``node`` with the locals of the function it is in (none at a module's level: a
    constant is not followed), in source order."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        given = _locals(node)
    found = [(node, given)]
    for child in ast.iter_child_nodes(node):
        found += _walk(child, given)
    return found


def scan(path: str, tree: ast.Module, errors: set[str]) -> list[tuple[int, str]]:
    """The line and sink (output, table, help, error) of every user-facing literal of ``tree`` (the file
    at ``path``) outside the catalog."""
    cli = path.startswith("cli" + os.sep)
    lines: list[tuple[int, str]] = []
    counted: set[int] = set()  # a literal reaching two sinks through a name counts once
    for node, given in _walk(tree, {}):
        if isinstance(node, ast.Call):
            for kind, arg in _sink_arguments(node, cli, errors):
                for lit in _reached(arg, given):
                    if id(lit) not in counted:
                        counted.add(id(lit))
                        lines.append((lit.lineno, kind))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for deco in node.decorator_list:
                if isinstance(deco, ast.Call) and _name(deco.func) in ("command", "callback") \
                        and not any(k.arg == "help" for k in deco.keywords):
                    doc = ast.get_docstring(node, clean=False)
                    if doc and _wording(doc):
                        lines.append((node.body[0].lineno, "help"))
    return sorted(lines)


@functools.lru_cache(maxsize=1)
def _project() -> dict[str, ast.Module]:
    trees = {}
    for path in _files():
        with open(os.path.join(ROOT, path), encoding="utf-8") as fh:
            trees[path] = ast.parse(fh.read(), path)
    return trees


def literals(sources: dict[str, str] | None = None) -> dict[str, list[tuple[int, str]]]:
    """Each file (of the project, or of ``sources``: path -> text) with user-facing literals, their lines."""
    project = _project()
    trees = project if sources is None else {path: ast.parse(text, path) for path, text in sources.items()}
    errors = _error_classes(project | trees)
    found = {path: scan(path, tree, errors) for path, tree in trees.items()}
    return {path: lines for path, lines in found.items() if lines}


def test_no_file_holds_more_user_facing_literals_than_listed():
    found = {path: len(lines) for path, lines in literals().items()}
    more = {p: (n, NOT_YET.get(p, 0), literals_of(p)) for p, n in found.items() if n > NOT_YET.get(p, 0)}
    assert more == {}, "user-facing text outside the catalog (gettext/ngettext/N_): (found, listed, lines)"


def test_the_list_of_files_not_converted_yet_is_exact():
    found = {path: len(lines) for path, lines in literals().items()}
    stale = {p: (n, found.get(p, 0)) for p, n in NOT_YET.items() if found.get(p, 0) != n}
    assert stale == {}, "NOT_YET names counts no longer true (listed, found): update it (it only shrinks)"


def literals_of(path: str) -> list[tuple[int, str]]:
    return literals().get(path, [])


def listing() -> str:
    """:data:`NOT_YET` as it is now, each file with what remains in it (to paste when a file shrinks)."""
    out = []
    for path, found in sorted(literals().items()):
        kinds = Counter(kind for _, kind in found)
        out.append(f"    {path!r}: {len(found)},  # " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    return "\n".join(out)


PLANTED = '''
import sys
import typer
from rich.table import Table
from referee.errors import BadInput
from referee.i18n import N_, gettext, ngettext
app = typer.Typer()

class Refused(BadInput):
    """One of the planted module's errors."""

@app.command()
def hello(name: str = typer.Option("x", help="Who is greeted.")) -> None:
    """Greet someone."""
    print("Hello " + name)
    print(f"Bye {name}")
    sys.stderr.write("error: nothing\\n")
    table = Table(title="Players")
    table.add_column("Seat")
    raise Refused("cli/x", "no such seat")

def later(names: list[str]) -> None:
    out = [f"{len(names)} players:"]
    for n in names:
        out.append(f"  bye: {n}")
    out += [gettext("  absent: {n}", n=n) for n in names]
    why = "no result yet"
    status = "waiting"
    print(f"{len(names)}: {status or 'nobody'}")
    print(", ".join(f"{n} (dropped)" for n in names))
    sys.stdout.write("\\n".join(out) + "\\n")
    print(*out, sep="\\n")
    fail(why)

@app.command(help=N_("Greet, through the catalog."))
def fine(name: str = typer.Option("x", help=N_("Who is greeted."))) -> None:
    """Not shown: help= is given."""
    print(gettext("Hello {name}", name=name))
    print(ngettext("{n} seat", "{n} seats", 2))
    print(name, "\\n", f"{name}:  {name}")
    sys.stderr.write("[bold]" + gettext("error") + "[/]")
    raise BadInput("cli/unknown_language", gettext("no such seat"))
    lines = [gettext("{n} players:", n=2), name]
    lines.append(gettext("  bye: {n}", n=name))
    label = "seat"  # a local name given a literal that reaches no sink (its length does)
    sys.stdout.write("\\n".join(lines) + "\\n")
    print(*lines, str(len(label)))
'''


def test_a_planted_literal_fails_the_lint_and_a_marked_one_does_not():
    found = literals({"cli/planted.py": PLANTED})
    lines = PLANTED.splitlines()
    assert [lines[n - 1].strip()[:24] for n, _ in found["cli/planted.py"]] == [
        'def hello(name: str = ty',  # help="Who is greeted."
        '"""Greet someone."""',
        'print("Hello " + name)',
        'print(f"Bye {name}")',
        'sys.stderr.write("error:',
        'table = Table(title="Pla',
        'table.add_column("Seat")',
        'raise Refused("cli/x", "',
        'out = [f"{len(names)} pl',  # a list's items reach "\\n".join(out) (counted once, not twice)
        'out.append(f"  bye: {n}"',
        'why = "no result yet"',  # a local name given a literal reaches fail(why)
        'status = "waiting"',  # reaches print through an f-string's field
        'print(f"{len(names)}: {s',  # a literal inside an f-string's field
        'print(", ".join(f"{n} (d',  # what a generator joined yields
    ]
    assert [kind for _, kind in found["cli/planted.py"]] == ["help", "help", "output", "output", "output", "table",
                                                            "table", "error", "output", "output", "error", "output",
                                                            "output", "output"]
