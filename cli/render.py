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
from referee.i18n import N_, gettext, ngettext
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
    return escape(outcome_words(o, gettext))


# -- games -----------------------------------------------------------------------------------------


def games(rows: Sequence[GameInfo]) -> None:
    table = new_table(title=gettext(N_("Games")), title_justify="left")
    for col in (N_("id"), N_("name"), N_("players"), N_("intents"), N_("card sets")):
        table.add_column(gettext(col))
    for r in rows:
        lo, hi = r.players
        table.add_row(
            r.id, r.name, str(lo) if lo == hi else f"{lo}-{hi}",
            ", ".join(i.verb for i in r.intents), ", ".join(r.card_sets),
        )
    con = console()
    con.print(table)
    con.print(gettext(N_("Show one game's notation: referee games GAME")))


def _declared(text: str) -> str:
    """A text a game declares (its summary, an option's help, an intent's description: English in the answer,
    as in its JSON) in the reader's language."""
    return gettext(text) if text else text


def game(info: GameInfo) -> None:
    con = console()
    con.print(gettext(N_("[bold]{name}[/bold] ({id}, rules {rules}) — {summary}"), name=escape(info.name), id=info.id,
                      rules=info.rules_version, summary=escape(_declared(info.summary))))
    con.print(gettext(N_("aliases: {aliases}; card sets: {sets} (default {default})"),
                      aliases=escape(', '.join(info.aliases) or '-'), sets=escape(', '.join(info.card_sets)),
                      default=escape(str(info.default_card_set))))
    con.print(escape(gettext(N_("Notation: verb key=value ...; lists a,b,c; quote values with spaces; [optional] "
                                "arguments may be left out"))))
    table = new_table(show_lines=False, title=gettext(N_("Intents")), title_justify="left")
    table.add_column(gettext(N_("usage")), overflow="fold")
    table.add_column(gettext(N_("what it does")), overflow="fold")
    for verb in info.intents:
        table.add_row(escape(verb.usage), escape(_declared(verb.doc)))
    con.print(table)
    opts = new_table(title=gettext(N_("Options (--option name=value)")), title_justify="left")
    for col in (N_("option"), N_("default"), N_("choices"), N_("meaning")):
        opts.add_column(gettext(col), overflow="fold")
    for o in info.options:
        opts.add_row(o.name, escape(fmt(o.default)), escape(", ".join(fmt(c) for c in o.choices)), escape(_declared(o.help)))
    con.print(opts)


# -- matches ---------------------------------------------------------------------------------------


def created(info: MatchInfo) -> None:
    console().print(gettext(N_("New {game} match for {players} (rules {rules})."), game=info.game,
                            players=', '.join(info.players), rules=info.rules_version))


def tokens(server: str, answer: MatchCreated) -> None:
    """A match created on a server, and its tokens (shown this once)."""
    info, minted = answer.match, answer.tokens
    con = console()
    con.print(gettext(N_("New {game} match on {server} for {players}. The tokens are shown this once: give each seat "
                         "its own."), game=info.game, server=server, players=', '.join(info.players)))
    table = new_table(show_header=True)
    table.add_column(gettext(N_("role")))
    table.add_column(gettext(N_("token")))
    for seat, token in minted.seats.items():
        table.add_row(seat, token)
    table.add_row("arbiter", minted.arbiter)
    table.add_row("spectator", minted.spectator)
    for actor, token in minted.actors.items():  # the game's actors that are no seat (Copycat's table)
        table.add_row(actor, token)
    con.print(table)
    con.print(gettext(N_("Each seat plays from its phone at its page (the token in the fragment, never sent to the "
                         "server):")))
    for seat, token in {**minted.seats, **minted.actors}.items():
        con.print(f"  {escape(seat)}: {_seat_page(server, info.id, token)}", soft_wrap=True, highlight=False)


def _seat_page(server: str, match: str, token: str) -> str:
    """The address of a seat's page on the server, its token in the fragment."""
    return f"{server.rstrip('/')}/play/{match}#token={token}"


def forked(info: MatchInfo) -> None:
    console().print(gettext(N_("Forked {parent} at entry {seq}: {title}"), parent=info.parent, seq=info.fork_seq,
                            title=info.title))


def matches(title: str, rows: Sequence[tuple[MatchInfo, int, Outcome | None]]) -> None:
    """The match table, forks under the match they branch from; ids are never cut short."""
    table = new_table(title=title, title_justify="left",
                      caption=gettext(N_("created*: a clock reading kept for people; no hash covers it, not evidence")),
                      caption_justify="left")
    table.add_column(gettext(N_("id")), no_wrap=True)
    for col in (N_("game"), N_("players"), N_("entries"), N_("status"), N_("event"), N_("round"), N_("table"), N_("title"),
                N_("created*")):
        table.add_column(gettext(col), no_wrap=col in ("game", "entries", "status", "round", "table", "created*"))
    for m, depth, result in rows:
        branch = ("   " * (depth - 1) + "└─ ") if depth else ""
        fork = gettext(N_(" (fork at {seq})"), seq=m.fork_seq) if m.parent else ""
        shown = (gettext(N_("[bold]over[/bold]: {result}"), result=outcome(result)) if result is not None
                 else gettext(N_("playing")))
        table.add_row(branch + m.id, m.game, escape(", ".join(m.players)), str(m.head), shown, escape(m.event),
                      escape(m.round), escape(m.table), escape(m.title) + fork, m.created_at)
    console().print(table)


def written(output: str, size: int, fmt_: str, role: str) -> None:
    shown = f"{size:,}"
    console().print(ngettext("Wrote {output} ({size} bytes, {format}, as {role}).",
                             "Wrote {output} ({size} bytes, {format}, as {role}).", size, output=output,
                             size=shown, format=fmt_, role=role))


def annotated(seq: int, kind: str) -> None:
    console().print(gettext(N_("Annotated entry {seq} ({kind})."), seq=seq, kind=kind))


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
    con.print(gettext(N_("After entry {seq}:"), seq=answer.seq))
    for s, texts in answer.legal.items():
        con.print(f"[bold]{escape(s)}[/bold]: " + (ngettext("{n} intent(s)", "{n} intent(s)", len(texts)) if texts
                                                   else gettext(N_("nothing to do now"))))
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
    con.print(gettext(N_("[bold]{game}[/bold] match {match} after entry {seq} (as {role})"), game=escape(data.game),
                      match=data.match_id, seq=data.seq, role=escape(data.as_)))
    if data.outcome:
        con.print(gettext(N_("[bold]Game over[/bold]: {result}"), result=outcome(data.outcome)))
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
            con.print(gettext(N_("[dim]({fields}: --raw shows every field)[/dim]"),
                              fields=', '.join(escape(k) for k in rest[:8]) + ('…' if len(rest) > 8 else '')))
    if data.state_hash:
        con.print(gettext(N_("[dim]state hash {hash}[/dim]"), hash=data.state_hash))
    else:
        con.print(gettext(N_("[dim](hidden cards are not shown; the state hash is given in the referee's view only)[/dim]")))


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
        con.print("[dim]" + gettext(N_("{at}/{of} — n next · b back · j N jump to entry N (j line:N: to transcript line N) "
                                       "· q quit"), at=i + 1, of=len(steps)) + "[/dim]")
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
        con.print(gettext(N_("The two lines of play are the same up to these points.")))
    else:
        dv = d.diverge

        def side(entry: str | None, at: DiffSide) -> str:
            return escape(entry) if entry is not None else gettext(N_("[dim](nothing: its line ends at entry {seq})[/dim]"),
                                                                   seq=at.seq)

        con.print(gettext(N_("Lines diverge at entry {seq}:  A {a}  ·  B {b}"), seq=dv.seq, a=side(dv.a, d.a),
                          b=side(dv.b, d.b)))
    if d.same_state:
        con.print(gettext(N_("[green]The states are identical.[/green]")))
        return
    table = new_table(title=gettext(N_("State differences")), title_justify="left")
    for col in (gettext(N_("path")), "A", "B"):
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

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn(gettext(N_("entries"))),
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
            notes = ngettext(", {n} annotations", ", {n} annotations", r.annotations) if r.annotations else ""
            con.print(ngettext("[green]✓[/green] {match}: {n} entries{notes}; the configuration, every verdict, hash and "
                               "state checks out", "[green]✓[/green] {match}: {n} entries{notes}; the configuration, "
                               "every verdict, hash and state checks out", r.entries, match=r.match_id, notes=notes))
            if r.head_hash:
                con.print(gettext(N_("    head: entry {seq}, {hash}"), seq=r.head, hash=r.head_hash), soft_wrap=True)
        for f in r.findings:
            con.print(gettext(N_("[red]✗[/red] {match} entry {seq}: {what} differs"), match=r.match_id, seq=f.seq,
                              what=f.what))
            # a seat's or spectator's answer from a server leaves the values out
            if isinstance(f.recorded, str):
                con.print(gettext(N_("    recorded: {value}"), value=escape(f.recorded)))
            if isinstance(f.derived, str):
                con.print(gettext(N_("    derived:  {value}"), value=escape(f.derived)))


def scenarios(results: Sequence[ScenarioResult]) -> None:
    con = console()
    for r in results:
        mark = "[green]✓[/green]" if r.passed else "[red]✗[/red]"
        con.print(ngettext("{mark} {path} — {title} ({n} steps)", "{mark} {path} — {title} ({n} steps)", r.steps,
                           mark=mark, path=escape(r.path), title=escape(r.title)))
        for f in r.failures:
            # one line each, however long (a path and a message): never broken where rich would wrap
            con.print("    " + escape(f.text(r.path, gettext)), soft_wrap=True)
    failed = sum(1 for r in results if not r.passed)
    con.print(gettext(N_("{passed} passed, {failed} failed"), passed=len(results) - failed, failed=failed))
