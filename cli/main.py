"""The ``referee`` command: a thin veneer over :mod:`referee.service`.

Each command parses its arguments, calls one service method and renders the answer (rich for people,
``--json`` for scripts). Domain errors become one line on stderr and an exit code here, in
:func:`run`, and nowhere else. Heavy modules (rich, the engine, the store) are imported inside the
commands so that ``referee play`` starts fast.

Exit codes: 0 done (intent accepted, scenarios passed, import clean); 1 the referee said no (intent
rejected, a scenario failed, an import had rejected or unreadable lines, audit found something);
2 bad input (nothing written); 3 not found; 4 conflict (stale sequence number); 5 storage problem;
70 internal error (a bug: please report it).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, cast

import typer

if TYPE_CHECKING:
    from referee.service import Referee
    from schemas.http import ReplayStep, StateAnswer

app = typer.Typer(
    name="referee",
    help="Adjudicate tabletop games from an append-only log of intents: play, replay, import, audit.",
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
scenario_app = typer.Typer(help="Run scenario files (conformance tests anyone can write).", no_args_is_help=True)
app.add_typer(scenario_app, name="scenario")

#: client mode (``--server URL --token T``): set by :func:`_client_mode` for the commands that follow
_REMOTE: dict[str, str | None] = {"server": None, "token": None}


@app.callback()
def _client_mode(
    server: Annotated[str | None, typer.Option("--server", envvar="REFEREE_SERVER", help="Talk to a referee server (URL) instead of a local database: new, play, show, log, export, undo, redo, annotate, audit, replay, diff.", show_default=False)] = None,
    token: Annotated[str | None, typer.Option("--token", envvar="REFEREE_TOKEN", help="The match token to use with --server (a seat's, the arbiter's or the spectators').", show_default=False)] = None,
) -> None:
    """Adjudicate tabletop games from an append-only log of intents: play, replay, import, audit."""
    _REMOTE["server"], _REMOTE["token"] = server, token

DbOpt = Annotated[
    str | None,
    typer.Option("--db", help="SQLite database file (default: $REFEREE_DB or ./referee.db)", show_default=False),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON instead of tables.")]


class Exit(Exception):
    def __init__(self, code: int) -> None:
        self.code = code


def _db_path(db: str | None) -> str:
    return db or os.environ.get("REFEREE_DB") or "referee.db"


def _service(db: str | None, *, create: bool = False) -> Referee:
    if _REMOTE["server"]:
        from cli.client import RemoteReferee

        return RemoteReferee(_REMOTE["server"], _REMOTE["token"])  # type: ignore[return-value]
    from referee.errors import StorageError
    from referee.service import Referee
    from referee.store import StoreError
    from referee.store.sqlite import SqliteStore

    path = _db_path(db)
    every = os.environ.get("REFEREE_SNAPSHOT_EVERY", "")
    if every and not every.isdigit():
        _fail(f"REFEREE_SNAPSHOT_EVERY must be a whole number of entries, not {every!r}")
    try:
        store = SqliteStore(path, create=create)
    except StoreError as exc:
        raise StorageError("store/unavailable", str(exc)) from None
    return Referee(store, snapshot_every=int(every)) if every else Referee(store)


def _print_json(value: Any) -> None:
    import msgspec

    sys.stdout.write(msgspec.json.format(msgspec.json.encode(value), indent=2).decode() + "\n")


def escape(text: str) -> str:
    """Text for rich to print as itself: markup escaped, and line breaks and control characters
    (which no input lets in, but a database edited by hand may hold) shown as ``\\uXXXX`` instead of
    reaching the terminal."""
    from rich.markup import escape as markup

    from referee.inputs import visible

    return markup(visible(text))


def _outcome_words(outcome: Any) -> str:
    """An outcome (a value or its JSON) in words: who won, a draw, the places, the team's win or loss."""
    import msgspec

    from referee.outcome import words
    from schemas import Outcome

    return words(outcome if isinstance(outcome, Outcome) or outcome is None else msgspec.convert(outcome, Outcome))


def _builtins(value: Any) -> Any:
    import msgspec

    return msgspec.to_builtins(value)


def _console() -> Any:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=False)


def _fail(message: str, code: int = 2) -> NoReturn:
    from referee.errors import BadInput

    err = BadInput("input/invalid", message)
    err.exit_code = code
    raise err


# -- games -----------------------------------------------------------------------------------------


@app.command()
def games(
    game: Annotated[str | None, typer.Argument(help="A game id: show its intents (notation) and options.")] = None,
    json: JsonOpt = False,
) -> None:
    """List the games, or show one game's intents and options.

    Example: referee games by_all_means
    """
    from referee.service import Referee
    from referee.store.memory import MemoryStore

    service = Referee(MemoryStore())
    if game is None:
        rows = [service.describe_game(g.id) for g in service.games]
        if json:
            _print_json(rows)
            return
        from rich.table import Table

        table = Table(title="Games", title_justify="left")
        for col in ("id", "name", "players", "intents", "card sets"):
            table.add_column(col)
        for r in rows:
            lo, hi = r.players
            table.add_row(
                r.id, r.name, str(lo) if lo == hi else f"{lo}-{hi}",
                ", ".join(i.verb for i in r.intents), ", ".join(r.card_sets),
            )
        _console().print(table)
        _console().print("Show one game's notation: referee games GAME")
        return
    info = service.describe_game(game)
    if json:
        _print_json(info)
        return
    from rich.table import Table

    con = _console()
    con.print(f"[bold]{escape(info.name)}[/bold] ({info.id}, rules {info.rules_version}) — {escape(info.summary)}")
    con.print(f"aliases: {escape(', '.join(info.aliases) or '-')}; card sets: {escape(', '.join(info.card_sets))}"
              f" (default {escape(str(info.default_card_set))})")
    con.print(escape("Notation: verb key=value ...; lists a,b,c; quote values with spaces; [optional] arguments may be left out"))
    table = Table(show_lines=False, title="Intents", title_justify="left")
    table.add_column("usage", overflow="fold")
    table.add_column("what it does", overflow="fold")
    for verb in info.intents:
        table.add_row(escape(verb.usage), escape(verb.doc))
    con.print(table)
    opts = Table(title="Options (--option name=value)", title_justify="left")
    for col in ("option", "default", "choices", "meaning"):
        opts.add_column(col, overflow="fold")
    for o in info.options:
        opts.add_row(o.name, escape(_fmt(o.default)), escape(", ".join(_fmt(c) for c in o.choices)), escape(o.help))
    con.print(opts)


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "-"
    if isinstance(value, list):
        return ", ".join(_fmt(v) for v in value) if value else "[]"
    if isinstance(value, dict):
        return " ".join(f"{k}={_fmt(v)}" for k, v in value.items())
    return str(value)


# -- matches ---------------------------------------------------------------------------------------


def _kv(items: list[str] | None, what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            _fail(f"{what} {item!r} is not name=value (e.g. --{what} reaction_window=false)")
        out[key.strip()] = value.strip()
    return out


def _read_toml(path: str, what: str) -> dict[str, Any]:
    from referee.inputs import parse_toml, read_file
    from schemas import SCENARIO_MAX

    return parse_toml(read_file(path, f"{what} file", SCENARIO_MAX), f"{what} file {path}")


@app.command()
def new(
    game: Annotated[str, typer.Argument(help="Game id (see `referee games`).")],
    players: Annotated[str, typer.Option("--players", "-p", help="Seat names in seating order, comma-separated.")],
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Match option name=value (repeatable).")] = None,
    cards: Annotated[str | None, typer.Option("--cards", help="A bundled card set name or a card-definition TOML file.")] = None,
    deck: Annotated[list[str] | None, typer.Option("--deck", help="seat=deck_id from the card set (repeatable).")] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Digital match: chance comes from this seed.")] = None,
    chance: Annotated[str | None, typer.Option("--chance", help="physical (outcomes typed in) or digital.")] = None,
    position: Annotated[str | None, typer.Option("--position", help="TOML file of dotted-path overrides of the state after setup.")] = None,
    title: Annotated[str, typer.Option("--title", help="A title shown in listings.")] = "",
    undo_policy: Annotated[str, typer.Option("--undo-policy", help="Who may undo: any (seat), own_last, or arbiter.")] = "any",
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """Create a match; prints its id alone on the last line.

    Example: referee new by_all_means --players alice,bob --seed 7
    """
    pos = _read_toml(position, "position") if position else {}
    if "position" in pos and isinstance(pos["position"], dict):
        pos = pos["position"]
    if _REMOTE["server"]:
        _new_remote(game, players, _kv(option, "option"), cards, _kv(deck, "deck"), seed, chance, pos, title,
                    undo_policy, json)
        return
    service = _service(db, create=True)
    info = service.new_match(
        game, players.split(","), options=_kv(option, "option"), cards=cards, decks=_kv(deck, "deck"),
        seed=seed, chance=chance, position=pos, title=title, undo=undo_policy,
    )
    if json:
        _print_json(info)
        return
    _console().print(f"New {info.game} match for {', '.join(info.players)} (rules {info.rules_version}).")
    print(info.id)


def _new_remote(game: str, players: str, options: dict[str, str], cards: str | None, decks: dict[str, str],
                seed: int | None, chance: str | None, position: dict[str, Any], title: str, undo: str, json: bool) -> None:
    """``referee --server URL new ...``: create the match on the server and show its tokens once."""
    from cli.client import RemoteReferee

    body: dict[str, Any] = {"game": game, "players": [p.strip() for p in players.split(",")], "options": options,
                            "decks": decks, "seed": seed, "chance": chance, "position": position, "title": title,
                            "undo": undo}
    if cards is not None and os.path.exists(cards):
        from referee.inputs import read_file
        from schemas import CARDS_TEXT_MAX

        body["cards_text"] = read_file(cards, "card file", CARDS_TEXT_MAX)
    else:
        body["cards"] = cards
    answer = RemoteReferee(str(_REMOTE["server"]), _REMOTE["token"], need_token=False).create_match(body)
    if json:
        _print_json(answer)
        return
    from rich.table import Table

    info, tokens = answer["match"], answer["tokens"]
    con = _console()
    con.print(f"New {info['game']} match on {_REMOTE['server']} for {', '.join(info['players'])}. "
              "The tokens are shown this once: give each seat its own.")
    table = Table(show_header=True)
    table.add_column("role")
    table.add_column("token")
    for seat, token in tokens["seats"].items():
        table.add_row(seat, token)
    table.add_row("arbiter", tokens["arbiter"])
    table.add_row("spectator", tokens["spectator"])
    con.print(table)
    print(info["id"])


@app.command()
def play(
    match: Annotated[str, typer.Argument(help="Match id (a unique prefix of 4+ characters will do).")],
    seat: Annotated[str, typer.Argument(help="The seat submitting the intent.")],
    intent: Annotated[list[str], typer.Argument(help="The intent in notation: verb key=value ...")],
    expect_seq: Annotated[int | None, typer.Option("--expect-seq", help="Refuse (exit 4) unless the log is at this entry.")] = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """Submit one intent; prints the verdict. Exit 0 if accepted, 1 if rejected (both are logged).

    Example: referee play 3f9c alice draw_main card=TR6
    """
    service = _service(db)
    text = " ".join(_requote(w) for w in intent)
    res = service.submit(match, seat, text, expected_seq=expect_seq)
    if json:
        from referee.engine.protocol import Rejected

        v = res.verdict
        _print_json({
            "match_id": res.match_id, "seq": res.seq, "actor": res.actor, "intent": res.notation,
            "verdict": "accepted" if res.accepted else "held" if res.held else "rejected",
            "rejection": {"code": v.code, "message": v.message, "rule": v.rule} if isinstance(v, Rejected) else None,
            "events": res.events, "state_hash": res.state_hash,
            "outcome": None if res.outcome is None else _builtins(res.outcome),
        })
    else:
        _render_result(res)
    if not (res.accepted or res.held):
        raise Exit(1)


def _requote(word: str) -> str:
    """Words arrive unquoted from the shell: quote a value that contains spaces again."""
    key, sep, value = word.partition("=")
    if sep and any(c.isspace() for c in value) and not value.startswith('"'):
        return f'{key}="' + value.replace('"', '\\"') + '"'
    return word


def _render_result(res: Any) -> None:
    con = _console()
    if res.held:
        who = res.verdict.confirmer
        con.print(f"[yellow]⏸ held[/yellow] #{res.seq} {escape(res.actor)}: {escape(res.notation)}")
        con.print(f"  it reads what only {escape(who)} can see: {escape(who)} (or the arbiter) confirms it "
                  f"with `referee confirm {res.match_id[:8]} {res.seq} --by {escape(who)}` (or --decline); "
                  "nothing else is played meanwhile")
    elif res.accepted:
        con.print(f"[green]✓ accepted[/green] #{res.seq} {escape(res.actor)}: {escape(res.notation)}")
        for line in (res.words or [_event_line(ev) for ev in res.events]):
            con.print("  · " + escape(line))
    else:
        v = res.verdict
        rule = f" [dim]({v.rule})[/dim]" if v.rule else ""
        con.print(f"[red]✗ rejected[/red] #{res.seq} {escape(res.actor)}: {escape(res.notation)}")
        con.print(f"  {escape(v.code)}: {escape(v.message)}{rule}")
    if res.outcome is not None:
        con.print(f"[bold]Game over[/bold]: {escape(_outcome_words(res.outcome))}")


def _event_line(ev: Any) -> str:
    if isinstance(ev, dict):
        kind = ev.get("type", "?")
        rest = " ".join(f"{k}={_fmt(v)}" for k, v in ev.items() if k != "type" and v not in (None, [], {}))
        return f"{kind} {rest}".strip()
    return str(ev)


@app.command()
def legal(
    match: Annotated[str, typer.Argument(help="Match id.")],
    seat: Annotated[str | None, typer.Argument(help="Only this seat's intents (default: every seat's).")] = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """List the intents the referee would accept now, seat by seat (hints at the table).

    Open-ended declared effects are shown without changes. In a physical match the cards a draw
    names are consistent examples only: type the card that came up.

    Example: referee legal 3f9c alice
    """
    service = _service(db)
    answer = service.legal(match, seat)
    if json:
        _print_json({"seq": answer.seq, "legal": answer.legal})
        return
    con = _console()
    con.print(f"After entry {answer.seq}:")
    for s, texts in answer.legal.items():
        con.print(f"[bold]{escape(s)}[/bold]: " + (f"{len(texts)} intent(s)" if texts else "nothing to do now"))
        for t in texts:
            con.print(f"  {escape(t)}")


@app.command()
def rule(
    match: Annotated[str, typer.Argument(help="Match id.")],
    entry: Annotated[int, typer.Argument(help="The rejected entry the arbiter lets stand.")],
    reason: Annotated[str, typer.Option("--reason", help="Why (kept in the log).")] = "",
    expect_seq: Annotated[int | None, typer.Option("--expect-seq", help="Refuse (exit 4) unless the log is at this entry.")] = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """An arbiter's ruling that a rejected intent stands as played: it is adjudicated again now with
    the check that rejected it waived, as an entry of its own (the rejected entry stays as it was).
    Exit 0 if the ruling took effect, 1 if the rules cannot apply the move even so (logged too).

    Example: referee rule 3f9c 17 --reason "the card was visible to both players"
    """
    service = _service(db)
    res = service.rule_stands(match, entry, reason=reason, expected_seq=expect_seq)
    _report(res, json)


@app.command()
def show(
    match: Annotated[str, typer.Argument(help="Match id.")],
    at: Annotated[int | None, typer.Option("--at", help="Show the state after entry N (0 = after setup).")] = None,
    as_: Annotated[str | None, typer.Option("--as", help="See only what this seat may see.")] = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """Show a match's state (now, or after entry N), as the referee or as one seat sees it.

    Example: referee show 3f9c --as bob --at 12
    """
    service = _service(db)
    data = service.show(match, at=at, seat=as_)
    if json:
        _print_json(data)
        return
    _render_state(data)


def _flatten(value: Any, prefix: str = "") -> list[tuple[str, Any]]:
    if isinstance(value, dict):
        out: list[tuple[str, Any]] = []
        for k, v in value.items():
            out.extend(_flatten(v, f"{prefix}.{k}" if prefix else str(k)))
        return out
    return [(prefix, value)]


def _cell(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_cell(v) for v in value) if value else "—"
    if value is None:
        return "—"
    return _fmt(value)


def _render_state(data: StateAnswer) -> None:
    from rich.table import Table

    con = _console()
    state = data.state
    outcome = data.outcome
    head = f"[bold]{data.game}[/bold] match {data.match_id} after entry {data.seq} (as {data.as_})"
    con.print(head)
    if outcome:
        con.print(f"[bold]Game over[/bold]: {escape(_outcome_words(outcome))}")
    top = Table(show_header=False, box=None)
    top.add_column(style="dim")
    top.add_column()
    players = state.get("players") if isinstance(state.get("players"), dict) else None
    rest: list[tuple[str, Any]] = []
    for key, value in state.items():
        if key == "players" and players is not None:
            continue
        for path, v in _flatten(value, key):
            if v is None or v == [] or v == {}:
                continue
            if key in ("phase", "turn", "pending", "outcome") or "." not in path:
                top.add_row(escape(path), escape(_cell(v)))
            else:
                rest.append((path, v))
    con.print(top)
    board = state.get("field")
    if isinstance(board, dict) and board and all(_CELL.match(k) for k in board):
        _render_board(con, board)
        rest = [(p, v) for p, v in rest if not p.startswith("field.")]
    if players:
        table = Table(title="Players", title_justify="left")
        table.add_column("")
        seats = list(players)
        for s in seats:
            table.add_column(s)
        rows: dict[str, dict[str, Any]] = {}
        for s in seats:
            for path, v in _flatten(players[s]):
                rows.setdefault(path, {})[s] = v
        for path, vals in rows.items():
            table.add_row(escape(path), *(escape(_cell(vals.get(s))) for s in seats))
        con.print(table)
    if rest:
        groups: dict[str, list[tuple[str, Any]]] = {}
        for path, v in rest:
            groups.setdefault(path.split(".")[0], []).append((path, v))
        for name, items in groups.items():
            table = Table(title=name.capitalize(), title_justify="left", show_header=False)
            table.add_column(style="dim")
            table.add_column()
            for path, v in items:
                table.add_row(escape(path[len(name) + 1:]), escape(_cell(v)))
            con.print(table)
    if data.state_hash:
        con.print(f"[dim]state hash {data.state_hash}[/dim]")
    else:
        con.print("[dim](hidden cards are not shown; the state hash is given in the referee's view only)[/dim]")


_CELL = __import__("re").compile(r"^[A-Z][0-9]+$")


def _render_board(con: Any, board: dict[str, Any]) -> None:
    """A grid of the field's cells (rows from the top edge down, as the far seat sees them)."""
    from rich.table import Table

    cols = sorted({k[0] for k in board})
    rows = sorted({int(k[1:]) for k in board}, reverse=True)
    table = Table(title="Field", title_justify="left", show_lines=True)
    table.add_column("")
    for c in cols:
        table.add_column(c, justify="center")
    for r in rows:
        cells = []
        for c in cols:
            cell = board.get(f"{c}{r}") or {}
            parts = []
            for slot, mark in (("territory", ""), ("graffiti", "graffiti "), ("agent", "agent ")):
                obj = cell.get(slot)
                if not isinstance(obj, dict):
                    continue
                who = obj.get("controller") or obj.get("owner") or ""
                text = f"{mark}{obj.get('card', '?')} ({who}"
                if "loyalty" in obj:
                    text += f", {obj['loyalty']}"
                if obj.get("face") == "down":
                    text += ", face down"
                if obj.get("turned"):
                    text += ", turned"
                if obj.get("shadow"):
                    text += f", shadow {obj['shadow']}"
                text += ")"
                if obj.get("active_symbols"):
                    text += " [" + ",".join(obj["active_symbols"]) + "]"
                parts.append(escape(text))
            for a in cell.get("attached") or []:
                parts.append(escape(f"attached {a.get('card', '?')}"))
            cells.append("\n".join(parts) or "[dim]·[/dim]")
        table.add_row(str(r), *cells)
    con.print(table)


@app.command()
def log(
    match: Annotated[str, typer.Argument(help="Match id.")],
    as_: Annotated[str | None, typer.Option("--as", help="Redact for this seat.")] = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """List every entry of a match: who, what, the verdict and why.

    Example: referee log 3f9c --as alice
    """
    service = _service(db)
    entries = service.log(match, seat=as_)
    if json:
        _print_json(entries)
        return
    from rich.table import Table

    table = Table(title=f"Log of {service.resolve(match).id}", title_justify="left")
    columns: tuple[tuple[str, dict[str, Any]], ...] = (
        ("#", {"justify": "right"}), ("seat", {}), ("intent", {"overflow": "fold"}), ("verdict", {}),
        ("why / notes", {"overflow": "fold"}))
    for col, kw in columns:
        table.add_column(col, **kw)
    for e in entries:
        if e.verdict == "accepted":
            verdict = "[green]accepted[/green]" + (" [yellow](manual)[/yellow]" if e.manual else "")
        elif e.verdict == "rejected":
            verdict = "[red]rejected[/red]"
        else:
            verdict = f"[yellow]{e.kind}[/yellow]"
        why = ""
        if e.rejection is not None:
            why = f"{e.rejection.code}: {e.rejection.message}" + (f" ({e.rejection.rule})" if e.rejection.rule else "")
        notes = [f"{a.kind}: {a.text}" for a in e.annotations]
        if e.meta.get("comment"):
            notes.insert(0, f"# {e.meta['comment']}")
        table.add_row(str(e.seq), escape(e.actor or "—"), escape(e.notation), verdict,
                      escape("; ".join(filter(None, [why, *notes]))))
    _console().print(table)


@app.command()
def matches(db: DbOpt = None, json: JsonOpt = False) -> None:
    """List the matches in the database, forks under the match they branch from.

    Example: referee matches --json
    """
    service = _service(db)
    rows = service.forks()
    if json:
        _print_json([info for info, _depth in rows])
        return
    from rich.table import Table

    table = Table(title=f"Matches in {_db_path(db)}", title_justify="left")
    for col in ("id", "game", "players", "entries", "created", "title"):
        table.add_column(col)
    for m, depth in rows:
        branch = ("   " * (depth - 1) + "└─ ") if depth else ""
        fork = f" (fork at {m.fork_seq})" if m.parent else ""
        table.add_row(branch + m.id, m.game, ", ".join(m.players), str(m.head), m.created_at,
                      escape(m.title) + fork)
    _console().print(table)


@app.command(name="import")
def import_(
    file: Annotated[str, typer.Argument(help="Transcript file ('-' reads standard input).")],
    strict: Annotated[bool, typer.Option("--strict", help="Exit 1 if any line was rejected or could not be read.")] = False,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """Adjudicate a hand-recorded transcript: every line is kept, every problem listed with its line.

    Exit 0 once the transcript is adjudicated and stored (illegal moves are verdicts, listed with
    their reasons); with --strict, exit 1 if any line was rejected or could not be read. A bad header
    writes nothing (exit 2).

    Example: referee import replays/by_all_means/club-night.txt
    """
    from referee.transcript import import_transcript

    from referee.inputs import read_file, read_stdin
    from schemas import TRANSCRIPT_MAX

    if file == "-":
        text, source, base = read_stdin("the transcript", TRANSCRIPT_MAX), "<stdin>", os.getcwd()
    else:
        text = read_file(file, "transcript", TRANSCRIPT_MAX)
        source, base = file, os.path.dirname(os.path.abspath(file))
    service = _service(db, create=True)
    summary = import_transcript(service, text, source, base)
    if json:
        _print_json(summary)
    else:
        con = _console()
        con.print(
            f"Imported {escape(source)} as match [bold]{summary.match_id}[/bold] ({summary.game}): "
            f"{summary.lines} lines, [green]{summary.accepted} accepted[/green], "
            f"[red]{summary.rejected} rejected[/red], {len(summary.problems) - summary.rejected} unreadable."
        )
        for p in summary.problems:
            rule = f" ({p.rule})" if p.rule else ""
            con.print(f"  {escape(source)}:{p.line}: {escape(p.code)}: {escape(p.message)}{rule}")
            con.print(f"      [dim]{escape(p.text)}[/dim]")
        if summary.outcome is not None:
            con.print(f"[bold]Result[/bold]: {escape(_outcome_words(summary.outcome))}")
        else:
            con.print("[bold]Result[/bold]: the game is not over.")
        con.print(f"See it: referee show {summary.match_id} · referee log {summary.match_id}")
        print(summary.match_id)
    if strict and summary.problems:
        raise Exit(1)


@app.command()
def export(
    match: Annotated[str, typer.Argument(help="Match id.")],
    format: Annotated[str, typer.Option("--format", "-f", help="txt (transcript), md, html or json.")] = "md",
    as_: Annotated[str, typer.Option("--as", help="arbiter (everything), a seat, or spectator.")] = "arbiter",
    output: Annotated[str | None, typer.Option("--output", "-o", help="Write to this file instead of standard output.")] = None,
    db: DbOpt = None,
) -> None:
    """Export a match for people (md, a self-contained html page) or programs (json, txt).

    Everything goes through the game's view for the role asked: a seat's export never shows another
    seat's hidden cards. The txt export of the arbiter's view imports back to the same match.

    Example: referee export 3f9c --format html --as alice -o game.html
    """
    service = _service(db)
    if _REMOTE["server"]:
        pieces: Any = [cast(Any, service).export_text(match, format, as_)]
    else:
        from referee.export import export_chunks

        pieces = export_chunks(service, match, format, as_)  # written as the log is walked
    if output is None:
        for piece in pieces:
            sys.stdout.write(piece)
        return
    size = 0
    # written beside the file and moved into place at the end: a failed export leaves no half of one
    partial = f"{output}.partial"
    try:
        with open(partial, "w", encoding="utf-8") as fh:
            for piece in pieces:
                fh.write(piece)
                size += len(piece.encode())
        os.replace(partial, output)
    except OSError as exc:
        _fail(f"cannot write {output}: {exc.strerror or exc}")
    finally:
        if os.path.exists(partial):
            os.remove(partial)
    _console().print(f"Wrote {output} ({size:,} bytes, {format}, as {as_}).")


@app.command()
def annotate(
    match: Annotated[str, typer.Argument(help="Match id.")],
    seq: Annotated[int, typer.Argument(help="The entry to annotate.")],
    text: Annotated[str, typer.Argument(help="The annotation.")],
    kind: Annotated[str, typer.Option("--kind", help="comment, disputed, ruling, good or mistake.")] = "comment",
    by: Annotated[str, typer.Option("--by", help="Who says so.")] = "",
    for_: Annotated[str, typer.Option("--for", help="Who may read it: all, arbiter, or one seat (shown as written to them, to nobody else).")] = "all",
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """Attach an annotation to entry N (the entry itself is never changed). An annotation is shown as
    written to whom it is for; an arbiter's note that names hidden cards is written --for arbiter.

    Example: referee annotate 3f9c 12 "should have kept the agent" --kind mistake --by arbiter
    """
    kinds = ("comment", "disputed", "ruling", "good", "mistake")
    if kind not in kinds:
        _fail(f"--kind must be one of {', '.join(kinds)}, not {kind!r}")
    service = _service(db)
    note = service.annotate(match, seq, text, kind=kind, by=by, audience=for_)
    if json:
        _print_json(note)
    else:
        _console().print(f"Annotated entry {note.seq} ({note.kind}).")


@app.command()
def audit(
    match: Annotated[str | None, typer.Argument(help="Match id (omit with --all).")] = None,
    all_: Annotated[bool, typer.Option("--all", help="Audit every match in the database.")] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Processes for a long log, checked in stretches between snapshots (the report is the same).", show_default="the cores available, at most 8")] = 0,
    accept_rules_change: Annotated[bool, typer.Option("--accept-rules-change", help="A match recorded under other rules than the referee's is re-adjudicated under the new rules (a note) instead of failing the audit.")] = False,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """Check the whole record: the configuration (card data, options, seed) and rules version against
    the genesis hash, every verdict re-adjudicated from setup, every entry hash, the chain, every state
    hash and snapshot, and the annotations' chain. Exit 0 if clean, 1 with the first divergence of
    each match. A clean audit prints the head: keep it with the result.

    Example: referee audit 3f9c   ·   referee audit --all --json   ·   referee audit 3f9c --jobs 1
    """
    if (match is None) == (not all_):
        _fail("name one match, or pass --all (e.g. referee audit 3f9c)")
    if jobs < 0:
        _fail(f"--jobs must be 1 or more (0 = the cores available), not {jobs}")
    if jobs == 0:
        from referee.audit import default_jobs

        jobs = default_jobs()
    service = _service(db)
    ids = [service.resolve(match).id] if match else [m.id for m in service.store.list_matches()]
    if json:
        reports = service.audit_many(ids, jobs=jobs, accept_rules_change=accept_rules_change)
        _print_json(reports if all_ else reports[0])
    else:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        con = _console()
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("entries"),
                      TimeRemainingColumn(), console=con, transient=True) as bar:
            what = f"audit {len(ids)} matches" if all_ else f"audit {ids[0]}"
            task = bar.add_task(what, total=None)
            reports = service.audit_many(ids, lambda done, total: bar.update(task, completed=done, total=total), jobs=jobs,
                                         accept_rules_change=accept_rules_change)
        for r in reports:
            for note in r.notes:
                con.print(f"[yellow]![/yellow] {r.match_id}: {escape(note)}")
            if r.clean:
                notes = f", {r.annotations} annotations" if r.annotations else ""
                con.print(f"[green]✓[/green] {r.match_id}: {r.entries} entries{notes}; the configuration, every "
                          "verdict, hash and state checks out")
                if r.head_hash:
                    con.print(f"    head: entry {r.head}, {r.head_hash}", soft_wrap=True)
            for f in r.findings:
                con.print(f"[red]✗[/red] {r.match_id} entry {f.seq}: {f.what} differs")
                # a seat's or spectator's answer from a server leaves the values out
                if isinstance(f.recorded, str):
                    con.print(f"    recorded: {escape(f.recorded)}")
                if isinstance(f.derived, str):
                    con.print(f"    derived:  {escape(f.derived)}")
    if any(not r.clean for r in reports):
        raise Exit(1)


@app.command()
def undo(
    match: Annotated[str, typer.Argument(help="Match id.")],
    to: Annotated[int | None, typer.Option("--to", help="Fold back to the state after entry N (default: before the last accepted intent).")] = None,
    reason: Annotated[str, typer.Option("--reason", help="Why (kept in the log).")] = "",
    by: Annotated[str, typer.Option("--by", help="The seat undoing, or 'arbiter'.")] = "arbiter",
    expect_seq: Annotated[int | None, typer.Option("--expect-seq", help="Refuse (exit 4) unless the log is at this entry.")] = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """Undo to entry N by appending an undo entry (the undone entries stay in the log, marked).
    Exit 0 if accepted, 1 if the match's undo policy refuses it (the refusal is logged).

    Example: referee undo 3f9c --to 40 --by alice --reason "misread the card"
    """
    service = _service(db)
    res = service.undo(match, by=by, to=to, reason=reason, expected_seq=expect_seq)
    _report(res, json)


@app.command()
def redo(
    match: Annotated[str, typer.Argument(help="Match id.")],
    undo_: Annotated[int | None, typer.Option("--undo", help="The undo entry to reverse (default: the latest in effect).")] = None,
    reason: Annotated[str, typer.Option("--reason", help="Why (kept in the log).")] = "",
    by: Annotated[str, typer.Option("--by", help="The seat redoing, or 'arbiter'.")] = "arbiter",
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """Reverse an undo (only while nothing has been played since): also an entry.

    Example: referee redo 3f9c --by alice
    """
    service = _service(db)
    res = service.redo(match, by=by, undo=undo_, reason=reason)
    _report(res, json)


def _report(res: Any, json: bool) -> None:
    if json:
        from referee.engine.protocol import Rejected

        v = res.verdict
        _print_json({
            "match_id": res.match_id, "seq": res.seq, "actor": res.actor, "intent": res.notation,
            "verdict": "accepted" if res.accepted else "held" if res.held else "rejected",
            "rejection": {"code": v.code, "message": v.message, "rule": v.rule} if isinstance(v, Rejected) else None,
            "events": res.events, "state_hash": res.state_hash,
            "outcome": None if res.outcome is None else _builtins(res.outcome),
        })
    else:
        _render_result(res)
    if not (res.accepted or res.held):
        raise Exit(1)


@app.command()
def confirm(
    match: Annotated[str, typer.Argument(help="Match id.")],
    entry: Annotated[int, typer.Argument(help="The entry that waits for a confirmation.")],
    by: Annotated[str, typer.Option("--by", help="The seat it waits for, or 'arbiter'.")] = "arbiter",
    decline: Annotated[bool, typer.Option("--decline", help="Decline it: the held intent has no effect.")] = False,
    reason: Annotated[str, typer.Option("--reason", help="Why (kept in the log).")] = "",
    expect_seq: Annotated[int | None, typer.Option("--expect-seq", help="Refuse (exit 4) unless the log is at this entry.")] = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """Answer an intent held for a confirmation. A declared effect that takes a card from where its
    player cannot see (another seat's hand) is held until that seat, or the arbiter, confirms it: it is
    then adjudicated with what only they can see. Declined, it has no effect. Exit 0 if the confirmed
    intent was accepted (or it was declined), 1 if the rules refuse it.

    Example: referee confirm 3f9c 41 --by bob   ·   referee confirm 3f9c 41 --by bob --decline
    """
    service = _service(db)
    res = service.confirm(match, entry, by=by, accept=not decline, reason=reason, expected_seq=expect_seq)
    _report(res, json)


@app.command()
def fork(
    match: Annotated[str, typer.Argument(help="Match id.")],
    at: Annotated[int, typer.Option("--at", help="Share the history up to entry N.")],
    name: Annotated[str, typer.Option("--name", help="A title for the new line of play.")] = "",
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """Start a new match sharing this one's history up to entry N (like a variation); prints its id
    alone on the last line.

    Example: referee fork 3f9c --at 40 --name "what if I kept the agent"
    """
    service = _service(db)
    info = service.fork(match, at=at, name=name)
    if json:
        _print_json(info)
        return
    _console().print(f"Forked {info.parent} at entry {info.fork_seq}: {info.title}")
    print(info.id)


@app.command()
def diff(
    a: Annotated[str, typer.Argument(help="MATCH or MATCH@N.")],
    b: Annotated[str, typer.Argument(help="MATCH or MATCH@N.")],
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """Show how two states differ and the first entry where two lines of play diverge.
    Exit 0 if the states are the same, 1 if they differ.

    Example: referee diff 3f9c@40 a71b
    """
    def split(ref: str) -> tuple[str, int | None]:
        mid, sep, n = ref.partition("@")
        if sep and not n.isdigit():
            _fail(f"{ref!r}: expected MATCH or MATCH@N with N an entry number")
        return mid, int(n) if sep else None

    (ma, na), (mb, nb) = split(a), split(b)
    service = _service(db)
    d = service.diff(ma, mb, at_a=na, at_b=nb)
    if json:
        _print_json(d)
    else:
        from rich.table import Table

        con = _console()
        con.print(f"A = {d.a.match_id}@{d.a.seq}   B = {d.b.match_id}@{d.b.seq}")
        if d.diverge is None:
            con.print("The two lines of play are the same up to these points.")
        else:
            dv = d.diverge
            con.print(f"Lines diverge at entry {dv.seq}:  A {escape(str(dv.a))}  ·  B {escape(str(dv.b))}")
        if d.same_state:
            con.print("[green]The states are identical.[/green]")
        else:
            table = Table(title="State differences", title_justify="left")
            for col in ("path", "A", "B"):
                table.add_column(col, overflow="fold")
            for c in d.changes:
                table.add_row(escape(c.path), escape(_cell(c.a)), escape(_cell(c.b)))
            con.print(table)
    if not d.same_state:
        raise Exit(1)


@app.command()
def replay(
    match: Annotated[str, typer.Argument(help="Match id.")],
    from_: Annotated[int, typer.Option("--from", help="First entry.")] = 1,
    to: Annotated[int | None, typer.Option("--to", help="Last entry (default: the last).")] = None,
    as_: Annotated[str | None, typer.Option("--as", help="See only what this seat may see.")] = None,
    step: Annotated[bool, typer.Option("--step", help="Step through interactively: n(ext), b(ack), j N, q(uit).")] = False,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """Walk the log entry by entry: the intent, the verdict (with the rule for a rejection) and what
    changed in the state.

    Example: referee replay 3f9c --from 30 --to 45   ·   referee replay 3f9c --step
    """
    service = _service(db)
    steps = service.replay(match, start=from_, stop=to, seat=as_)
    if json:
        _print_json(steps)
        return
    con = _console()
    if not step:
        for s in steps:
            _render_step(con, s)
        return
    i = 0
    while steps:
        con.clear()
        _render_step(con, steps[i])
        con.print(f"[dim]{i + 1}/{len(steps)} — n next · b back · j N jump to entry N · q quit[/dim]")
        try:
            answer = input("> ").strip().lower()
        except EOFError:
            return
        if answer in ("q", "quit"):
            return
        if answer in ("b", "back"):
            i = max(0, i - 1)
        elif answer.startswith("j"):
            target = answer[1:].strip()
            seqs = [s.entry.seq for s in steps]
            if target.isdigit() and int(target) in seqs:
                i = seqs.index(int(target))
        elif answer in ("", "n", "next"):
            i = min(len(steps) - 1, i + 1)


def _render_step(con: Any, s: ReplayStep) -> None:
    e = s.entry
    mark = {"accepted": "[green]✓[/green]", "rejected": "[red]✗[/red]"}.get(e.verdict, "[yellow]·[/yellow]")
    undone = f" [yellow](undone by {e.undone_by})[/yellow]" if e.undone_by else ""
    con.print(f"{mark} #{e.seq} {escape(e.actor or '-')}: {escape(e.notation)}{undone}")
    if e.rejection is not None:
        rule = f" ({e.rejection.rule})" if e.rejection.rule else ""
        con.print(f"    {escape(e.rejection.code)}: {escape(e.rejection.message)}{rule}")
    for c in s.changes:
        con.print(f"    {escape(c.path)}: {escape(_cell(c.before))} → {escape(_cell(c.after))}")


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on (127.0.0.1: this machine only).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port.")] = 8000,
    workers: Annotated[int, typer.Option("--workers", help="Server processes on the one socket (more cores, more throughput).")] = 1,
    db: DbOpt = None,
) -> None:
    """Serve matches over HTTP (JSON; seat, arbiter and spectator tokens; live event streams).

    The API is described at /schema on the server. Example: referee serve --port 8000 --db hall.db
    """
    from cli.serve import serve as run_server

    if workers < 1:
        _fail("--workers must be 1 or more")
    run_server(host, port, _db_path(db), workers=workers)


@scenario_app.command("run")
def scenario_run(
    files: Annotated[list[str], typer.Argument(help="Scenario files or folders of them.")],
    json: JsonOpt = False,
) -> None:
    """Run scenario files; exit 0 only if every step of every file holds.

    Example: referee scenario run tests/scenarios/by_all_means/
    """
    from referee.scenario import expand, run_file

    paths = expand(files)
    if not paths:
        _fail("no scenario files found in " + ", ".join(files))
    results = [run_file(p) for p in paths]
    failed = [r for r in results if not r.passed]
    if json:
        _print_json([
            {"file": r.path, "title": r.title, "steps": r.steps, "passed": r.passed,
             "failures": [{"step": f.step, "what": f.what} for f in r.failures]}
            for r in results
        ])
    else:
        con = _console()
        for r in results:
            mark = "[green]✓[/green]" if r.passed else "[red]✗[/red]"
            con.print(f"{mark} {escape(r.path)} — {escape(r.title)} ({r.steps} steps)")
            for f in r.failures:
                # one line each, however long (a path and a message): never broken where rich would wrap
                con.print("    " + escape(f.render(r.path)), soft_wrap=True)
        con.print(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    if failed:
        raise Exit(1)


def _click_exceptions() -> tuple[tuple[type[Any], ...], tuple[type[Any], ...]]:
    """Usage errors and exits of click, and of the copy of click newer typer releases carry."""
    errors: list[type[Any]] = []
    exits: list[type[Any]] = []
    for module in ("click.exceptions", "typer._click.exceptions", "typer"):
        try:
            mod = __import__(module, fromlist=["ClickException", "Exit"])
        except ImportError:
            continue
        for name, found in (("ClickException", errors), ("Exit", exits)):
            cls = getattr(mod, name, None)
            if isinstance(cls, type) and cls not in found:
                found.append(cls)
    return tuple(errors), tuple(exits)


def run(argv: list[str] | None = None) -> None:
    """Entry point: runs the app and turns every domain error into one line and an exit code."""
    click_errors, click_exits = _click_exceptions()
    try:
        # typer 0.29 turns Ctrl-C (and any click Exit) into a *returned* exit code when it does not
        # exit itself: an interrupted command must not look like a success to a script
        code = app(args=argv, standalone_mode=False)
        if isinstance(code, int) and not isinstance(code, bool) and code != 0:
            if code == 130:
                sys.stderr.write("interrupted\n")
            sys.exit(code)
    except Exit as exc:
        sys.exit(exc.code)
    except click_exits as exc:
        sys.exit(exc.exit_code)
    except click_errors as exc:
        exc.show()
        sys.exit(2)
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    except RecursionError:
        # only input nested past the stack gets here (each reader bounds what it knows of)
        sys.stderr.write("error: the input nests too deeply to read\n")
        sys.exit(2)
    except Exception as exc:  # noqa: BLE001 - the one place errors become exit codes
        from referee.errors import RefereeError

        if isinstance(exc, RefereeError):
            if "--json" in (argv if argv is not None else sys.argv[1:]):
                _print_json({"code": exc.code, "message": exc.message, "detail": exc.detail})
            sys.stderr.write(f"error: {exc.message}\n")
            sys.exit(exc.exit_code)
        if os.environ.get("REFEREE_DEBUG"):
            raise
        sys.stderr.write(
            f"internal error: {type(exc).__name__}: {exc} (a bug in referee; rerun with REFEREE_DEBUG=1 for details)\n"
        )
        sys.exit(70)


if __name__ == "__main__":
    run()
