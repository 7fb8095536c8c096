"""A tournament as people and programs read it: standings, every round's tables and results, in
Markdown, self-contained HTML, JSON or CSV (the standings). Built from one plain report
(:func:`report`), so the formats cannot disagree. Each carries the head of the tournament's record
(:func:`.audit.head_hash`; in CSV, a last row ``head,<hash>``): ``tournament audit --expect-head``
checks a kept export against the record."""

from __future__ import annotations

import csv
import html
import io
from typing import Any

import msgspec

from ..outcome import words
from .fold import Tournament
from .standings import Standings
from .tiebreaks import TIEBREAKS, fmt

FORMATS = ("md", "html", "json", "csv")


def report(state: Tournament, table: Standings, live: dict[tuple[int, int], Any], *,
           player: str | None = None) -> dict[str, Any]:
    """The export's data. ``player``: as that player's token reads it, the rounds holding their own
    tables and byes only, as the pairings answer them (the standings are everyone's)."""
    cfg = state.config
    rounds = []
    for rnd in state.rounds[:table.after_round]:
        tables = []
        for t in rnd.tables:
            if player is not None and player not in t.seats:
                continue
            if (rnd.number, t.table) in state.withdrawn:
                tables.append({"table": t.table, "seats": list(t.seats), "match_id": t.match_id, "result": "withdrawn",
                               "outcome": None, "source": "withdrawn", "corrected": False})
                continue
            res = state.results.get((rnd.number, t.table))
            outcome = res.outcome if res else live.get((rnd.number, t.table))
            tables.append({
                "table": t.table, "seats": list(t.seats), "match_id": t.match_id,
                "result": words(outcome) if outcome is not None else "",
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
             "values": {name: fmt(v) for name, v in zip(table.tiebreaks, r.values)},
             "exact": {name: f"{v.numerator}/{v.denominator}" for name, v in zip(table.tiebreaks, r.values)}}
            for r in table.rows
        ],
        "pending": [{"round": r, "table": t} for r, t in table.pending],
        "rounds": rounds,
    }


def render(data: dict[str, Any], fmt_: str) -> str:
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
        return _html(data)
    raise ValueError(f"format must be {', '.join(FORMATS)}, not {fmt_!r}")


def _cell(text: str) -> str:
    """A spreadsheet cell that cannot be read as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _md(text: str) -> str:
    return "".join("\\" + c if c in "\\`*_{}[]<>()#+-.!|" else c for c in text)


def _markdown(d: dict[str, Any]) -> str:
    heads = [TIEBREAKS[n] for n in d["tiebreaks"]]
    lines = [f"# {_md(d['name'])}", "",
             f"{_md(d['game'])}, {d['format']}; standings after round {d['after_round']} "
             f"(tournament {d['tournament']}, {d['records']} records); undo policy of the matches: {d['undo']}", "",
             f"Head: `{d['head']}`", "",
             "| rank | player | played | " + " | ".join(heads) + " |",
             "|---:|---|---:|" + "---:|" * len(heads)]
    for r in d["standings"]:
        name = _md(r["name"]) + (" (dropped)" if r["dropped"] else "")
        lines.append(f"| {r['rank']} | {name} | {r['played']} | " + " | ".join(r["values"][n] for n in d["tiebreaks"]) + " |")
    for rnd in d["rounds"]:
        lines += ["", f"## Round {rnd['round']}" + ("" if rnd["closed"] else " (being played)"), "",
                  "| table | players | result | match |", "|---:|---|---|---|"]
        for t in rnd["tables"]:
            res = _md(t["result"]) + (f" ({t['source']})" if t["source"] not in ("", "log") else "")
            lines.append(f"| {t['table']} | {_md(' v '.join(t['seats']))} | {res or 'pending'} | {t['match_id'] or ''} |")
        for b in rnd["byes"]:
            lines.append(f"| bye | {_md(b)} | bye | |")
        for b in rnd["half_byes"]:
            lines.append(f"| half-point bye | {_md(b)} | half-point bye | |")
    return "\n".join(lines) + "\n"


def _html(d: dict[str, Any]) -> str:
    e = html.escape
    heads = "".join(f"<th>{e(TIEBREAKS[n])}</th>" for n in d["tiebreaks"])
    rows = "".join(
        f"<tr><td>{r['rank']}</td><td>{e(r['name'])}{' (dropped)' if r['dropped'] else ''}</td><td>{r['played']}</td>"
        + "".join(f"<td>{e(r['values'][n])}</td>" for n in d["tiebreaks"]) + "</tr>"
        for r in d["standings"])
    rounds = ""
    for rnd in d["rounds"]:
        trs = "".join(
            f"<tr><td>{t['table']}</td><td>{e(' v '.join(t['seats']))}</td><td>{e(t['result'] or 'pending')}"
            f"{e(' (' + t['source'] + ')') if t['source'] not in ('', 'log') else ''}</td><td>{e(t['match_id'] or '')}</td></tr>"
            for t in rnd["tables"])
        trs += "".join(f"<tr><td>bye</td><td>{e(b)}</td><td>bye</td><td></td></tr>" for b in rnd["byes"])
        trs += "".join(f"<tr><td>half-point bye</td><td>{e(b)}</td><td>half-point bye</td><td></td></tr>"
                       for b in rnd["half_byes"])
        rounds += (f"<h2>Round {rnd['round']}{'' if rnd['closed'] else ' (being played)'}</h2>"
                   f"<table><tr><th>table</th><th>players</th><th>result</th><th>match</th></tr>{trs}</table>")
    return ("<!doctype html><html><head><meta charset=\"utf-8\"><title>" + e(d["name"]) + "</title>"
            "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}"
            "td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}</style></head><body>"
            f"<h1>{e(d['name'])}</h1><p>{e(d['game'])}, {e(d['format'])}; standings after round {d['after_round']} "
            f"(tournament {e(d['tournament'])}, {d['records']} records); undo policy of the matches: {e(d['undo'])}</p>"
            f"<p>Head: <code id=\"head\">{e(d['head'])}</code></p>"
            f"<table><tr><th>rank</th><th>player</th><th>played</th>{heads}</tr>{rows}</table>{rounds}</body></html>\n")
