"""What the ``referee`` command prints for people: rich lines and tables, one function per answer.

:mod:`cli.main` parses the command line, calls the service and hands the answer here; ``--json``
output never comes here, so a script's run never loads rich. rich.table and rich.progress are imported
by the answers that draw them: ``referee play`` loads rich.console alone. Every text that comes from a
match or a file (names, notation, messages, annotations, titles) goes through :func:`escape`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape as markup

from cli import lines, logtext
from cli.boards import map_rows
from cli.lines import fmt

from referee import entryref
from referee.i18n import gettext, refused
from referee.engine.present import flatten
from referee.engine.present import text as cell
from referee.inputs import visible
from referee.outcome import words as outcome_words

if TYPE_CHECKING:
    from rich.table import Table

    from referee.scenario import ScenarioResult
    from referee.api import SubmitResult
    from schemas import EntryView, ImportSummary, MatchInfo, Outcome
    from schemas.board import Area, Board
    from schemas.http import AuditAnswer, DiffAnswer, DiffSide, GameInfo, LegalAnswer, MatchCreated, ReplayStep, StateAnswer

#: the width a console writes at when its output is not a terminal: wide enough that nothing is wrapped
#: or cut short (a file or another program gets whole lines and whole ids)
PIPE_WIDTH = 100_000


def console() -> Console:
    """rich's console for our output: on a terminal, its width; piped to a file or another program,
    never wrapped (tables take their contents' widths; lines are not folded at 80 columns)."""
    import sys

    if sys.stdout.isatty():
        return Console(highlight=False, soft_wrap=False, emoji=False)
    return Console(highlight=False, soft_wrap=True, width=PIPE_WIDTH, emoji=False)


def new_table(**options: Any) -> Table:
    """A rich table (rich.table is imported by the answers that draw one, not by ``referee play``)."""
    from rich.table import Table

    return Table(**options)


def escape(text: str) -> str:
    """Text for rich to print as itself: markup escaped, and line breaks and control characters
    (which no input lets in, but a database edited by hand may hold) shown as ``\\uXXXX`` instead of
    reaching the terminal."""
    return markup(visible(text))


def outcome(o: Outcome | None) -> str:
    from referee.i18n import gettext

    return escape(outcome_words(o, gettext))


# -- games -----------------------------------------------------------------------------------------


def games(rows: Sequence[GameInfo]) -> None:
    table = new_table(title="Games", title_justify="left")
    for col in ("id", "name", "players", "intents", "card sets"):
        table.add_column(col)
    for r in rows:
        lo, hi = r.players
        table.add_row(
            r.id, r.name, str(lo) if lo == hi else f"{lo}-{hi}",
            ", ".join(i.verb for i in r.intents), ", ".join(r.card_sets),
        )
    con = console()
    con.print(table)
    con.print("Show one game's notation: referee games GAME")


def game(info: GameInfo) -> None:
    con = console()
    con.print(f"[bold]{escape(info.name)}[/bold] ({info.id}, rules {info.rules_version}) — {escape(info.summary)}")
    con.print(f"aliases: {escape(', '.join(info.aliases) or '-')}; card sets: {escape(', '.join(info.card_sets))}"
              f" (default {escape(str(info.default_card_set))})")
    con.print(escape("Notation: verb key=value ...; lists a,b,c; quote values with spaces; [optional] arguments may be left out"))
    table = new_table(show_lines=False, title="Intents", title_justify="left")
    table.add_column("usage", overflow="fold")
    table.add_column("what it does", overflow="fold")
    for verb in info.intents:
        table.add_row(escape(verb.usage), escape(verb.doc))
    con.print(table)
    opts = new_table(title="Options (--option name=value)", title_justify="left")
    for col in ("option", "default", "choices", "meaning"):
        opts.add_column(col, overflow="fold")
    for o in info.options:
        opts.add_row(o.name, escape(fmt(o.default)), escape(", ".join(fmt(c) for c in o.choices)), escape(o.help))
    con.print(opts)


# -- matches ---------------------------------------------------------------------------------------


def created(info: MatchInfo) -> None:
    console().print(f"New {info.game} match for {', '.join(info.players)} (rules {info.rules_version}).")


def tokens(server: str, answer: MatchCreated) -> None:
    """A match created on a server, and its tokens (shown this once)."""
    info, minted = answer.match, answer.tokens
    con = console()
    con.print(f"New {info.game} match on {server} for {', '.join(info.players)}. "
              "The tokens are shown this once: give each seat its own.")
    table = new_table(show_header=True)
    table.add_column("role")
    table.add_column("token")
    for seat, token in minted.seats.items():
        table.add_row(seat, token)
    table.add_row("arbiter", minted.arbiter)
    table.add_row("spectator", minted.spectator)
    for actor, token in minted.actors.items():  # the game's actors that are no seat (Copycat's table)
        table.add_row(actor, token)
    con.print(table)
    con.print("Each seat plays from its phone at its page (the token in the fragment, never sent to the server):")
    for seat, token in {**minted.seats, **minted.actors}.items():
        con.print(f"  {escape(seat)}: {server.rstrip('/')}/play/{info.id}#token={token}", soft_wrap=True, highlight=False)


def forked(info: MatchInfo) -> None:
    console().print(f"Forked {info.parent} at entry {info.fork_seq}: {info.title}")


def matches(title: str, rows: Sequence[tuple[MatchInfo, int, Outcome | None]]) -> None:
    """The match table, forks under the match they branch from; ids are never cut short."""
    table = new_table(title=title, title_justify="left",
                      caption="created*: a clock reading kept for people; no hash covers it, not evidence",
                      caption_justify="left")
    table.add_column("id", no_wrap=True)
    for col in ("game", "players", "entries", "status", "event", "round", "table", "title", "created*"):
        table.add_column(col, no_wrap=col in ("game", "entries", "status", "round", "table", "created*"))
    for m, depth, result in rows:
        branch = ("   " * (depth - 1) + "└─ ") if depth else ""
        fork = f" (fork at {m.fork_seq})" if m.parent else ""
        shown = f"[bold]over[/bold]: {outcome(result)}" if result is not None else "playing"
        table.add_row(branch + m.id, m.game, escape(", ".join(m.players)), str(m.head), shown, escape(m.event),
                      escape(m.round), escape(m.table), escape(m.title) + fork, m.created_at)
    console().print(table)


def imported(source: str, summary: ImportSummary) -> None:
    con = console()
    con.print(
        f"Imported {escape(source)} as match [bold]{summary.match_id}[/bold] ({summary.game}): "
        f"{summary.lines} lines, [green]{summary.accepted} accepted[/green], "
        f"[red]{summary.rejected} rejected[/red], {len(summary.problems) - summary.rejected} unreadable."
    )
    for p in summary.problems:
        rule = f" ({p.rule_english or p.rule})" if p.rule else ""
        con.print(f"  {escape(source)}:{p.line}: {escape(p.code)}: {escape(p.message)}{rule}")
        con.print(f"      [dim]{escape(p.text)}[/dim]")
    if summary.outcome is not None:
        con.print(f"[bold]Result[/bold]: {outcome(summary.outcome)}")
    else:
        con.print("[bold]Result[/bold]: the game is not over.")
    con.print(f"See it: referee show {summary.match_id} · referee log {summary.match_id}")


def written(output: str, size: int, fmt_: str, role: str) -> None:
    console().print(f"Wrote {output} ({size:,} bytes, {fmt_}, as {role}).")


def annotated(seq: int, kind: str) -> None:
    console().print(f"Annotated entry {seq} ({kind}).")


# -- entries ---------------------------------------------------------------------------------------


def result(res: SubmitResult) -> None:
    """What an appended entry did (:func:`cli.lines.result`), printed with rich."""
    printed(lines.result(res))


def printed(shown: Sequence[lines.Line]) -> None:
    """Lines of styled pieces (:mod:`cli.lines`), printed with rich."""
    con = console()
    for line in shown:
        con.print("".join(f"[{style}]{markup(text)}[/{style}]" if style else markup(text) for text, style in line))


def log(title: str, entries: Sequence[EntryView], game: str = "") -> None:
    table = new_table(title=title, title_justify="left")
    lines = any(logtext.origin(e) for e in entries)  # an imported match: the transcript line of each entry
    columns: tuple[tuple[str, dict[str, Any]], ...] = (
        ("#", {"justify": "right"}), *((("line", {"justify": "right"}),) if lines else ()), ("seat", {}), ("intent", {"overflow": "fold"}), ("verdict", {}),
        ("why / notes", {"overflow": "fold"}))
    for col, kw in columns:
        table.add_column(col, **kw)
    earlier = {e.seq: entryref.typed(e) for e in entries if e.kind in ("intent", "unparsed")}
    amended_by = {int(e.meta["amends"]): e.seq for e in entries if entryref.amended(e)}
    for e in entries:
        word = escape(logtext.said(logtext.verdict(e)))
        if e.verdict == "accepted":
            verdict = f"[green]{word}[/green]" + (f" [yellow]({escape(logtext.manual_note())})[/yellow]" if e.manual else "")
        elif e.verdict == "rejected":
            verdict = f"[red]{word}[/red]"
        else:
            verdict = f"[yellow]{word}[/yellow]"
        at = (str(logtext.line_of(e) or ""),) if lines else ()
        table.add_row(str(e.seq), *at, escape(e.actor or "—"), escape(e.notation), verdict,
                      escape("; ".join(n for n in logtext.notes(e, earlier, amended_by, game) if n != logtext.manual_note())))
    console().print(table)


def legal(answer: LegalAnswer) -> None:
    con = console()
    con.print(f"After entry {answer.seq}:")
    for s, texts in answer.legal.items():
        con.print(f"[bold]{escape(s)}[/bold]: " + (f"{len(texts)} intent(s)" if texts else "nothing to do now"))
        for t in texts:
            con.print(f"  {escape(t)}")


# -- states ----------------------------------------------------------------------------------------


def state(data: StateAnswer, *, raw: bool = False) -> None:
    """A state as a player reads it: who and where, the result once there is one, one line that says where
    the match stands (the game's headline), the game's drawn boards (a grid, a map, a shared row), then the
    view in words (the game's sections: each player's labelled counters, the turn). ``raw`` shows the
    sections' internal fields too, and every field of the view as stored, grouped by its first key."""
    con = console()
    view = data.state
    con.print(f"[bold]{escape(data.game)}[/bold] match {data.match_id} after entry {data.seq} (as {escape(data.as_)})")
    if data.outcome:
        con.print(f"[bold]Game over[/bold]: {outcome(data.outcome)}")
    if data.headline:  # where the match stands, at its end too (an X-Files series' rating, the standings)
        con.print(f"[bold]{escape(data.headline)}[/bold]")
    worded = {b.title for b in data.sections}
    for b in data.boards:
        if not (b.layout == "tableau" and b.title in worded):  # the sections say it in words
            con.print(board(b))
    for b in data.sections:
        con.print(board(b, details=raw))
    drawn = {key for b in data.boards for key in b.covers}
    if raw or not (data.boards or data.sections):  # every field the drawn boards leave out, as stored
        top = new_table(show_header=False, box=None)
        top.add_column(style="dim", no_wrap=True)
        top.add_column()
        groups: dict[str, list[tuple[str, Any]]] = {}
        for key, value in view.items():
            if key in drawn:
                continue
            for path, v in flatten(value, key):
                if v is None or v == [] or v == {}:
                    continue
                if "." not in path:
                    top.add_row(escape(path), escape(cell(v)))
                else:
                    groups.setdefault(key, []).append((path, v))
        con.print(top)
        for name, items in groups.items():
            table = new_table(title=name.capitalize().replace("_", " "), title_justify="left", show_header=False)
            table.add_column(style="dim", no_wrap=True)
            table.add_column()
            for path, v in items:
                table.add_row(escape(path[len(name) + 1:]), escape(cell(v)))
            con.print(table)
    else:
        worded_keys = drawn | {key for b in data.sections for key in b.covers}
        rest = [k for k in view if k not in worded_keys]
        if rest:
            con.print(f"[dim]({', '.join(escape(k) for k in rest[:8])}{'…' if len(rest) > 8 else ''}: --raw shows every field)[/dim]")
    if data.state_hash:
        con.print(f"[dim]state hash {data.state_hash}[/dim]")
    else:
        con.print("[dim](hidden cards are not shown; the state hash is given in the referee's view only)[/dim]")


def board(b: Board, *, details: bool = False) -> Table:
    """One of a game's boards as a table: a grid's rows and columns, a map's regions one per row, the
    seats' tableaux (or a list's areas) side by side, a shared row's slots as columns; ``details``:
    the areas' internal fields too, after their facts."""
    table = new_table(title=escape(b.title), title_justify="left", show_lines=b.layout in ("grid", "row"),
                  show_header=b.layout not in ("regions", "map"))
    if b.layout == "grid":
        rows = list(dict.fromkeys(a.row for a in b.areas))
        cols = list(dict.fromkeys(a.col for a in b.areas))
        at = {(a.row, a.col): a for a in b.areas}
        table.add_column("")
        for c in cols:
            table.add_column(escape(c), justify="center")
        for r in rows:
            table.add_row(escape(r), *(_lines(at.get((r, c))) for c in cols))
    elif b.layout in ("regions", "map"):
        placed = b.layout == "map"
        table.add_column("")
        if placed:
            table.add_column("")
        in_order = map_rows(b)
        labelled = any(label for _w, _a, label in in_order)
        if labelled:
            table.add_column("", style="dim")
        table.add_column("")
        for where, a, label in in_order:
            table.add_row(*([escape(where)] if placed else []), escape(a.id), *([escape(label)] if labelled else []),
                          escape(", ".join(a.lines) or "·"))
    else:  # a tableau or a row: one column per area
        table.add_column("")
        for a in b.areas:
            table.add_column(escape(a.id + (f" ({a.label})" if a.label else "")), justify="left")
        if any(a.lines for a in b.areas) or b.layout == "row":
            table.add_row("", *(_lines(a) for a in b.areas))
        listed = [(*a.facts, *(a.details if details else ())) for a in b.areas]
        names = list(dict.fromkeys(name for facts_of in listed for name, _v in facts_of))
        facts = [dict(r) for r in listed]
        for name in names:
            table.add_row(escape(name), *(escape(f.get(name, "—")) for f in facts))
    return table


def _lines(area: Area | None) -> str:
    if area is None or not area.lines:
        return "[dim]·[/dim]"
    return "\n".join(escape(line) for line in area.lines)


def step(con: Console, s: ReplayStep, changes: bool = True, earlier: dict[int, str] | None = None,
         game: str = "") -> None:
    """One entry of a replay as the Markdown export tells it: the mark of its verdict, the intent (a line
    that could not be read says so), the reason of a rejection, what it did in words, the recorder's comment and the annotations; with
    ``changes``, every path of the state it changed."""
    e = s.entry
    mark = {"accepted": "[green]✓[/green]", "rejected": "[red]✗[/red]", "held": "[yellow]⏸[/yellow]"}.get(
        e.verdict, "[yellow]·[/yellow]")
    undone, manual = "", ""
    if e.undone_by:
        undone = " [yellow](" + escape(gettext("undone by {seq}", seq=e.undone_by)) + ")[/yellow]"
    if e.verdict == "accepted" and e.manual:
        manual = " [yellow](" + escape(gettext("declared effect, marked for audit")) + ")[/yellow]"
    if e.kind == "unparsed":
        manual = f" [yellow]({escape(logtext.said(logtext.UNREADABLE))})[/yellow]"
    source = f" [dim]({logtext.origin(e)})[/dim]" if logtext.origin(e) else ""
    con.print(f"{mark} #{e.seq} {escape(e.actor or '-')}: {escape(e.notation)}{undone}{manual}{source}")
    if e.rejection is not None:  # in the reader's language, through the game's templates
        message, cited = refused(game, e.rejection.code, e.rejection.message, e.rejection.rule, e.rejection.rule_english)
        rule = f" ({cited})" if e.rejection.rule else ""
        con.print(f"    {escape(e.rejection.code)}: {escape(message)}{escape(rule)}")
    if entryref.amended(e, earlier):
        con.print(f"    [bold]{escape(entryref.amended(e, earlier))}[/bold]")
    for note in logtext.remarks(e):
        con.print(f"    [dim]{escape(note)}[/dim]")
    for w in s.words:
        con.print(f"    · {escape(w)}")
    if changes:
        for c in s.changes:
            con.print(f"    [dim]{escape(c.path)}: {escape(cell(c.before))} → {escape(cell(c.after))}[/dim]")


def replay(steps: Sequence[ReplayStep], interactive: bool, ask: Callable[[str], str], changes: bool = False,
           game: str = "") -> None:
    """Every step in order, in words (``changes``: with the state paths each changed; the interactive
    view always shows them); ``interactive``: one at a time, moved through with ``ask``'s answers
    (n next, b back, j N jump to entry N, j line:N to the entry of transcript line N, q quit; the end of input quits)."""
    con = console()
    earlier = {s.entry.seq: entryref.typed(s.entry) for s in steps if s.entry.kind in ("intent", "unparsed")}
    if not interactive:
        for s in steps:
            step(con, s, changes, earlier, game)
        return
    i = 0
    while steps:
        con.clear()
        step(con, steps[i], earlier=earlier, game=game)
        con.print(f"[dim]{i + 1}/{len(steps)} — n next · b back · j N jump to entry N (j line:N: to transcript line N) · q quit[/dim]")
        try:
            answer = ask("> ").strip().lower()
        except EOFError:
            return
        if answer in ("q", "quit"):
            return
        if answer in ("b", "back"):
            i = max(0, i - 1)
        elif answer.startswith("j"):
            target = answer[1:].strip()
            seqs = [s.entry.seq for s in steps]
            if target.startswith("line:"):  # the entry read from that transcript line, if one was
                at = [k for k, s in enumerate(steps) if str(logtext.line_of(s.entry)) == target[5:]]
                i = at[-1] if at else i
            elif target.isdigit() and int(target) in seqs:
                i = seqs.index(int(target))
        elif answer in ("", "n", "next"):
            i = min(len(steps) - 1, i + 1)


def diff(d: DiffAnswer) -> None:
    con = console()
    con.print(f"A = {d.a.match_id}@{d.a.seq}   B = {d.b.match_id}@{d.b.seq}")
    if d.diverge is None:
        con.print("The two lines of play are the same up to these points.")
    else:
        dv = d.diverge

        def side(entry: str | None, at: DiffSide) -> str:
            return escape(entry) if entry is not None else f"[dim](nothing: its line ends at entry {at.seq})[/dim]"

        con.print(f"Lines diverge at entry {dv.seq}:  A {side(dv.a, d.a)}  ·  B {side(dv.b, d.b)}")
    if d.same_state:
        con.print("[green]The states are identical.[/green]")
        return
    table = new_table(title="State differences", title_justify="left")
    for col in ("path", "A", "B"):
        table.add_column(col, overflow="fold")
    for c in d.changes:
        table.add_row(escape(c.path), escape(cell(c.a)), escape(cell(c.b)))
    con.print(table)


# -- checking --------------------------------------------------------------------------------------


@contextmanager
def progress(what: str) -> Iterator[Callable[[int, int], None]]:
    """A progress bar of entries while the block runs (gone when it ends); yields the callback that
    moves it (done, total)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("entries"),
                  TimeRemainingColumn(), console=console(), transient=True) as bar:
        task = bar.add_task(what, total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


def audits(reports: Sequence[AuditAnswer]) -> None:
    """Each match's audit: its notes, then clean (with the head to keep) or its first divergence."""
    con = console()
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


def scenarios(results: Sequence[ScenarioResult]) -> None:
    con = console()
    for r in results:
        mark = "[green]✓[/green]" if r.passed else "[red]✗[/red]"
        con.print(f"{mark} {escape(r.path)} — {escape(r.title)} ({r.steps} steps)")
        for f in r.failures:
            # one line each, however long (a path and a message): never broken where rich would wrap
            con.print("    " + escape(f.render(r.path)), soft_wrap=True)
    failed = sum(1 for r in results if not r.passed)
    con.print(f"{len(results) - failed} passed, {failed} failed")
