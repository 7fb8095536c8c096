"""A tournament as people and programs read it: standings, every round's tables and results, in
Markdown, self-contained HTML, JSON or CSV (the standings). Built from one plain report
(:func:`report`), so the formats cannot disagree. Each carries the head of the tournament's record
(:func:`.audit.head_hash`; in CSV, a last row ``head,<hash>``): ``tournament audit --expect-head``
checks a kept export against the record.

The HTML is styled by the viewer's sheet (:mod:`.style`), fits a phone (its tables scroll inside their
own box), gives each player's W-D-L (:func:`wdl`) and links each table's match to the hall's live
view of it when the export knows the hall's address (``hall``: served by ``referee serve``); written
offline it names the match id and the command that writes its viewer."""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import msgspec

from ..i18n import N_, gettext
from ..outcome import words
from .fold import Tournament
from .scoring import Game
from .standings import Standings, games_of
from .style import stylesheet
from .tiebreaks import TIEBREAKS, fmt

FORMATS = ("md", "html", "json", "csv")


def wdl(games: list[Game]) -> tuple[int, int, int]:
    """Wins, draws and losses of a player's games at tables (forfeits count, byes do not): a win is
    first place alone (a team's win, a forfeit won), a draw first place shared, a loss anything below
    first (at a pod table, 2nd of 4 is a loss)."""
    won = drawn = lost = 0
    for g in games:
        if g.table is None:
            continue
        shares = [v for _, v in g.share]
        if not shares:  # a team's fate or a forfeit: no opponents, the game point says it
            won, lost = (won + 1, lost) if g.game_points == 1 else (won, lost + 1)
        elif any(v == 0 for v in shares):
            lost += 1
        elif all(v == 1 for v in shares):
            won += 1
        else:
            drawn += 1
    return won, drawn, lost


def report(state: Tournament, table: Standings, live: dict[tuple[int, int], Any], *,
           player: str | None = None) -> dict[str, Any]:
    """The export's data. ``player``: as that player's token reads it, the rounds holding their own
    tables and byes only, as the pairings answer them (the standings are everyone's)."""
    cfg = state.config
    games, _ = games_of(state, table.after_round, live)
    rounds = []
    for rnd in state.rounds[:table.after_round]:
        tables = []
        for t in rnd.tables:
            if player is not None and player not in t.seats:
                continue
            if (rnd.number, t.table) in state.withdrawn:
                tables.append({"table": t.table, "seats": list(t.seats), "names": [state.name(p) for p in t.seats],
                               "match_id": t.match_id, "result": "withdrawn",
                               "outcome": None, "source": "withdrawn", "corrected": False})
                continue
            res = state.results.get((rnd.number, t.table))
            outcome = res.outcome if res else live.get((rnd.number, t.table))
            tables.append({
                "table": t.table, "seats": list(t.seats), "names": [state.name(p) for p in t.seats],
                "match_id": t.match_id, "result": words(outcome) if outcome is not None else "",
                "outcome": msgspec.to_builtins(outcome) if outcome is not None else None,
                "source": (res.source if res else "log") if outcome is not None else "",
                "corrected": bool(res and res.replaced),
            })
        rounds.append({"round": rnd.number, "closed": rnd.closed, "tables": tables,
                       "byes": [b for b in rnd.byes if player is None or b == player],
                       "half_byes": [b for b in rnd.half_byes if player is None or b == player]})
    return {
        "tournament": state.id, "name": cfg.name, "game": cfg.game, "format": cfg.format,
        "rounds_planned": cfg.rounds, "after_round": table.after_round, "records": state.n, "head": table.head,
        "points": msgspec.to_builtins(cfg.points), "tiebreaks": list(table.tiebreaks), "undo": cfg.undo,
        "standings": [
            {"rank": r.rank, "player": r.player, "name": r.name, "played": r.played, "dropped": r.dropped,
             "wdl": list(wdl(games.get(r.player, []))),
             "values": {name: fmt(v) for name, v in zip(table.tiebreaks, r.values)},
             "exact": {name: f"{v.numerator}/{v.denominator}" for name, v in zip(table.tiebreaks, r.values)}}
            for r in table.rows
        ],
        "pending": [{"round": r, "table": t} for r, t in table.pending],
        "rounds": rounds,
    }


def render(data: dict[str, Any], fmt_: str, *, hall: str | None = None) -> str:
    """``data`` in ``fmt_``; ``hall``: the address of the hall serving the tournament, where the HTML links
    each table's match to its live view (the other formats are the same wherever they are written)."""
    if fmt_ == "json":
        return msgspec.json.format(msgspec.json.encode(data), indent=2).decode() + "\n"
    if fmt_ == "csv":
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["rank", "player", "name", "played", "dropped", *data["tiebreaks"]])
        for row in data["standings"]:
            w.writerow([row["rank"], row["player"], _cell(row["name"]), row["played"], "yes" if row["dropped"] else "",
                        *[row["values"][n] for n in data["tiebreaks"]]])
        w.writerow(["head", data["head"]])  # the record's head, after the rows (a spreadsheet reads the rows first)
        return out.getvalue()
    if fmt_ == "md":
        return _markdown(data)
    if fmt_ == "html":
        return _html(data, hall)
    raise ValueError(f"format must be {', '.join(FORMATS)}, not {fmt_!r}")


def _cell(text: str) -> str:
    """A spreadsheet cell that cannot be read as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _md(text: str) -> str:
    return "".join("\\" + c if c in "\\`*_{}[]<>()#+-.!|" else c for c in text)


def _english(text: str, **values: object) -> str:
    return text.format(**values) if values else text


#: where a result came from, as the HTML says it (the Markdown says the code's own English)
_SOURCES = {"reported": N_("reported by the seats"), "arbiter": N_("arbiter"), "forfeit": N_("forfeit"),
            "transcript": N_("transcript"), "withdrawn": N_("withdrawn")}


def _result(t: dict[str, Any], open_: bool, said: Callable[..., str] = _english) -> str:
    """A table's result in words, where it came from said once (an arbiter's result already says
    "(arbiter)"); a table without one: playing (its round open) or pending. ``said``: the words' language
    (:func:`referee.i18n.gettext` for the HTML; the Markdown's English by default)."""
    if not t["result"]:
        return said(N_("playing")) if open_ and t["match_id"] else said(N_("pending"))
    text = str(t["result"])
    if said is not _english and t.get("outcome") is not None:
        from schemas import Outcome

        text = words(msgspec.convert(t["outcome"], Outcome), said)
    elif said is not _english and t["result"] == "withdrawn":
        text = said(N_("withdrawn"))
    source = t["source"]
    if source == "correction":
        return said(N_("{result} (corrected)"), result=text)
    english = {"reported": "reported by the seats"}.get(source, source)
    if source not in ("", "log") and f"({english})" not in str(t["result"]):
        label = said(_SOURCES[source]) if said is not _english and source in _SOURCES else english
        return f"{text} ({label})"
    return text


def _when(d: dict[str, Any], said: Callable[..., str] = _english) -> str:
    """Which round the standings are after, honestly: a round whose tables are still playing is not over."""
    from ..i18n import ngettext

    n = d["after_round"]
    left = sum(1 for p in d["pending"] if p["round"] == n)
    if n == 0:
        return said(N_("no round played yet"))
    if left:
        if said is _english:
            return f"standings during round {n} ({left} table{'s' if left > 1 else ''} still playing)"
        return ngettext("standings during round {round} ({n} table still playing)",
                        "standings during round {round} ({n} tables still playing)", left, round=n)
    return said(N_("standings after round {n}"), n=n)


def _markdown(d: dict[str, Any]) -> str:
    heads = [TIEBREAKS[n] for n in d["tiebreaks"]]
    lines = [f"# {_md(d['name'])}", "",
             f"{_md(d['game'])}, {d['format']}; {_when(d)} "
             f"(tournament {d['tournament']}, {d['records']} records); undo policy of the matches: {d['undo']}", "",
             f"Head: `{d['head']}`", "",
             "| rank | player | played | W-D-L | " + " | ".join(heads) + " |",
             "|---:|---|---:|---:|" + "---:|" * len(heads)]
    for r in d["standings"]:
        name = _md(r["name"]) + (" (dropped)" if r["dropped"] else "")
        lines.append(f"| {r['rank']} | {name} | {r['played']} | {'-'.join(map(str, r['wdl']))} | "
                     + " | ".join(r["values"][n] for n in d["tiebreaks"]) + " |")
    names = {r["player"]: r["name"] for r in d["standings"]}
    for rnd in d["rounds"]:
        lines += ["", f"## Round {rnd['round']}" + ("" if rnd["closed"] else " (being played)"), "",
                  "| table | players | result | match |", "|---:|---|---|---|"]
        for t in rnd["tables"]:
            lines.append(f"| {t['table']} | {_md(' v '.join(t['names']))} | {_md(_result(t, not rnd['closed']))} | "
                         f"{t['match_id'] or ''} |")
        for b in rnd["byes"]:
            lines.append(f"| bye | {_md(names.get(b, b))} | bye | |")
        for b in rnd["half_byes"]:
            lines.append(f"| half-point bye | {_md(names.get(b, b))} | half-point bye | |")
    return "\n".join(lines) + "\n"


def _link(d: dict[str, Any], hall: str | None, mid: str | None) -> str:
    """A table's match: a link to the hall's live view of it (the reader adds their token as
    ``#token=...``), or offline its id."""
    if not mid:
        return ""
    e = html.escape
    if hall:
        url = f"{hall}/hall/{quote(d['tournament'], safe='')}/matches/{quote(mid, safe='')}"
        return f'<a class="mid" href="{e(url)}" title="the match, live on the hall">{e(mid)}</a>'
    return f'<span class="mid" title="referee export {e(mid)} --format html">{e(mid)}</span>'


DROPPED = ' class="dropped"'


def _html(d: dict[str, Any], hall: str | None) -> str:
    """The HTML export in the reader's language (:func:`referee.i18n.current`: the CLI's ``--lang``, a
    request's over HTTP); its codes, ids and commands as they are."""
    from ..i18n import ngettext
    from ..pagelang import words as page_words

    e = html.escape
    t = page_words(N_("table"), N_("players"), N_("result"), N_("match"), N_("bye"), N_("half-point bye"),
                   N_("Standings"), N_("rank"), N_("player"), N_("played"), N_("W-D-L"),
                   N_("wins, draws, losses at tables (forfeits too, byes not)"), N_(" v "))
    heads = "".join(f'<th class="n">{e(gettext(TIEBREAKS[n]))}</th>' for n in d["tiebreaks"])
    dropped = " " + gettext("(dropped)")
    rows = "".join(
        f'<tr{DROPPED if r["dropped"] else ""} data-player="{e(r["player"])}"><td class="n">{r["rank"]}</td>'
        f'<td class="who">{e(r["name"])}{dropped if r["dropped"] else ""}</td><td class="n">{r["played"]}</td>'
        f'<td class="n wdl">{"-".join(map(str, r["wdl"]))}</td>'
        + "".join(f'<td class="n">{e(r["values"][n])}</td>' for n in d["tiebreaks"]) + "</tr>"
        for r in d["standings"])
    names = {r["player"]: r["name"] for r in d["standings"]}
    rounds = ""
    for rnd in d["rounds"]:
        open_ = not rnd["closed"]
        trs = "".join(
            f'<tr><td class="n">{tb["table"]}</td><td>{e(t[" v "].join(tb["names"]))}</td>'
            f'<td>{e(_result(tb, open_, gettext)) if tb["result"] else f"<span class=state>{_result(tb, open_, gettext)}</span>"}</td>'
            f'<td>{_link(d, hall, tb["match_id"])}</td></tr>'
            for tb in rnd["tables"])
        trs += "".join(f"<tr><td>{t['bye']}</td><td>{e(names.get(b, b))}</td><td>{t['bye']}</td><td></td></tr>"
                       for b in rnd["byes"])
        trs += "".join(f"<tr><td>{t['half-point bye']}</td><td>{e(names.get(b, b))}</td><td>{t['half-point bye']}</td>"
                       "<td></td></tr>" for b in rnd["half_byes"])
        heading = (gettext("Round {n} (being played)", n=rnd["round"]) if open_ else
                   gettext("Round {n}", n=rnd["round"]))
        rounds += (f"<section><h2>{heading}</h2><div class=\"scroll\">"
                   f"<table class=\"facts\"><tr><th class=\"n\">{t['table']}</th><th>{t['players']}</th>"
                   f"<th>{t['result']}</th><th>{t['match']}</th></tr>{trs}</table></div></section>")
    when = _when(d, gettext)
    command = "<code>referee export MATCH --format html -o MATCH.html</code>"
    offline = ("" if hall else '<p class="hint">' + gettext(
        "Each match read back step by step: {command} (MATCH the id in the table).", command=command) + "</p>")
    facts = (f"{e(d['game'])}, {e(d['format'])} · " + e(gettext("tournament {id}", id=d["tournament"])) + " · "
             + e(ngettext("{n} record", "{n} records", d["records"])) + " · "
             + e(gettext("undo policy of the matches: {policy}", policy=d["undo"])))
    audit = f"<code>referee tournament audit {e(d['tournament'])} --expect-head HEAD</code>"
    code = f'<code id="head">{e(d["head"])}</code>'
    head = gettext("Head: {head} ({command} checks it)", head=code, command=audit)
    from ..i18n import current

    return (f'<!doctype html><html lang="{current()}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1"><title>' + e(d["name"]) + "</title>"
            f"<style>{stylesheet()}</style></head><body>"
            f"<header><h1>{e(d['name'])}</h1><div class=\"facts\">{facts}</div>"
            f"<div class=\"result\" id=\"after\">{e(when[:1].upper() + when[1:])}</div></header>"
            f"<div class=\"pages\"><section><h2>{t['Standings']}</h2><div class=\"scroll\"><table class=\"facts\" id=\"standings\">"
            f"<tr><th class=\"n\">{t['rank']}</th><th>{t['player']}</th><th class=\"n\">{t['played']}</th>"
            f"<th class=\"n\" title=\"{t['wins, draws, losses at tables (forfeits too, byes not)']}\">{t['W-D-L']}</th>{heads}</tr>"
            f"{rows}</table></div></section>{rounds}{offline}"
            f"<p class=\"head\">{head}</p></div>"
            "</body></html>\n")
