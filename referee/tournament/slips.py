"""Paper for the tables (``referee tournament slips T --round N``): one printable page per table of a
round, as one self-contained HTML file (print CSS: a table a page, on A4 and on letter).

Each page holds the round and table, the seats with the players' names, the match id, the game's
transcript template (:func:`referee.skeleton.template`) with the seats filled in and the event, round
and table written in its header, ruled lines to write the moves on, and for each seat a tear-off strip
with a QR code (segno, inline SVG) of the seat's page on the hall server (``/play/{match}``, where
the player enters their moves: :mod:`referee.seatpage`) with the player's tournament token in the URL's fragment
(``#token=...``), which a browser never sends to the server, never in its query. The strip is to be cut
off and handed to its player: a seat's token shows what that seat may see.

Every name is put on the page escaped: a player's name is text, never markup. Rendering is pure
(:func:`page`); :func:`make` gathers what it shows and issues the seats' tokens.
"""

from __future__ import annotations

import html
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import BadInput
from ..i18n import N_
from .service import Tournaments
from .codes import TournamentCode

#: how many ruled lines a page offers at most (those that do not fit the page are cut off)
RULED = 60


@dataclass(frozen=True)
class SeatSlip:
    seat: int
    player: str
    name: str
    url: str


@dataclass(frozen=True)
class TableSlip:
    table: int
    match_id: str | None
    seats: tuple[SeatSlip, ...]
    sheet: str


def seat_url(base: str, tournament_id: str, match_id: str | None, token: str) -> str:
    """A seat's page on the hall server, where the player plays (``/play/{match}``; the hall, for a table
    without a match), the token in the fragment."""
    def q(text: str) -> str:
        return urllib.parse.quote(text, safe="")

    path = f"/play/{q(match_id)}" if match_id else f"/hall/{q(tournament_id)}"
    return f"{base.rstrip('/')}{path}#token={q(token)}"


def qr_svg(url: str) -> str:
    """``url`` as a QR code (error correction M), an inline SVG scaled by CSS (viewBox, no size)."""
    import segno

    return str(segno.make(url, error="m", micro=False).svg_inline(omitsize=True, border=2))


def sheet(template: str, event: str, round_: int, table: int) -> str:
    """The template with the tournament's metadata written in its header (the lines it leaves as comments
    for them), so the sheet names its table when imported."""
    out = []
    for line in template.splitlines():
        if line.startswith("# event:"):
            line = f"event: {event}"
        elif line.startswith("# round:"):
            line = f"round: {round_}\ntable: {table}"
        out.append(line)
    return "\n".join(out) + "\n"


STYLE = """
*{box-sizing:border-box}
body{font-family:system-ui,sans-serif;margin:0;color:#000;background:#fff}
.slip{display:flex;flex-direction:column;max-width:190mm;margin:0 auto;padding:6mm 4mm;border-bottom:1px dashed #999}
.slip h1{font-size:15pt;margin:0 0 1mm}.slip .meta{font-size:9pt;margin:0 0 2mm}
table.seats{border-collapse:collapse;font-size:10pt;margin-bottom:2mm}table.seats td,table.seats th{border:1px solid #888;padding:.6mm 2mm;text-align:left}
pre.sheet{font-size:7.5pt;line-height:1.25;margin:0 0 2mm;white-space:pre-wrap;overflow-wrap:anywhere}
.ruled{height:60mm;overflow:hidden}.ruled div{height:7mm;border-bottom:1px solid #999}
.strips{display:flex;flex-wrap:wrap;gap:0;margin-top:2mm;border-top:1px dashed #000}
.strip{flex:1 1 0;min-width:45mm;display:flex;align-items:center;gap:2mm;padding:2mm;border-right:1px dashed #000;font-size:8pt}
.strip:last-child{border-right:0}.strip svg{width:28mm;height:28mm;flex:none}
.strip .who{font-weight:bold;font-size:10pt;overflow-wrap:anywhere}
@page{margin:10mm}
@media print{
  .slip{height:250mm;max-width:none;padding:0;border:0;break-after:page;page-break-after:always;break-inside:avoid;overflow:hidden}
  .slip:last-child{break-after:auto;page-break-after:auto}
  .ruled{height:auto;flex:1;min-height:30mm}
  .hint{display:none}
}
"""


def _slip(event: str, round_: int, t: TableSlip) -> str:
    e = html.escape
    seats = "".join(f"<tr><td>{s.seat}</td><td>{e(s.player)}</td><td>{e(s.name)}</td></tr>" for s in t.seats)
    strips = "".join(
        f'<div class="strip" data-seat="{e(s.player)}">{qr_svg(s.url)}<div><div class="who">{e(s.name)}</div>'
        f"seat {s.seat}, table {t.table}<br>scan: your seat's page, where you play (keep it to yourself)</div></div>"
        for s in t.seats)
    ruled = "<div></div>" * RULED
    return (f'<section class="slip" data-table="{t.table}"><h1>{e(event)}: round {round_}, table {t.table}</h1>'
            f'<p class="meta">match <code>{e(t.match_id or "none")}</code> · write one move a line; cut off each '
            f"seat's strip and hand it to its player</p>"
            f'<table class="seats"><tr><th>seat</th><th>player</th><th>name</th></tr>{seats}</table>'
            f'<pre class="sheet">{e(t.sheet)}</pre><div class="ruled">{ruled}</div>'
            f'<div class="strips">{strips}</div></section>')


def page(event: str, round_: int, slips: Sequence[TableSlip]) -> str:
    """The printable page of a round's slips (one ``section.slip`` a table, a printed page each)."""
    body = "".join(_slip(event, round_, t) for t in slips)
    return ('<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{html.escape(event)}: round {round_} slips</title><style>{STYLE}</style></head><body>"
            f'<p class="hint" style="padding:2mm 4mm;font-size:9pt">Print this page: one sheet a table.</p>'
            f"{body}</body></html>\n")


def make(t: Tournaments, tournament_id: str, round_: int, base: str, *, by: str = "organiser") -> str:
    """The slips of round ``round_``: refused (nothing issued) for a round not paired; otherwise each seated
    player is issued a new token (a ``tokens_issued`` record: the ones they held stop working), which
    their strip's QR code carries."""
    from ..skeleton import template
    from .tokens import issue

    state = t.load(tournament_id)
    if not 1 <= round_ <= state.current:
        raise BadInput.said(TournamentCode.NO_SUCH_ROUND,
                            N_("round {round} of tournament {id} is not paired (rounds paired: 1 to {current})")
                            if state.current else
                            N_("round {round} of tournament {id} is not paired (no round is paired yet: "
                               "`referee tournament pair` first)"), round=round_, id=state.id, current=state.current)
    rnd = state.round(round_)
    if not rnd.tables:
        raise BadInput.said(TournamentCode.NO_TABLES, N_("round {round} of tournament {id} has no table (byes only)"),
                            round=round_, id=state.id)
    cfg = state.config
    sheets = {x.table: sheet(template(t.referee.configuration, cfg.game, cards=cfg.cards, cards_text=cfg.cards_text,
                                      players=x.seats, options=cfg.options), cfg.name, round_, x.table)
              for x in rnd.tables}
    seated = [("player", p) for x in rnd.tables for p in x.seats]
    state, holders = issue(t, state.id, seated, only=seated, by=by, why=f"slips for round {round_}")
    token = {h.player: h.token or "" for h in holders}
    slips = [TableSlip(table=x.table, match_id=x.match_id, sheet=sheets[x.table], seats=tuple(
        SeatSlip(seat=i, player=p, name=state.name(p), url=seat_url(base, state.id, x.match_id, token[p]))
        for i, p in enumerate(x.seats, start=1))) for x in rnd.tables]
    return page(cfg.name, round_, slips)
