"""A player's page (the hall's ``/hall/{id}/players/{player}``): the history of :mod:`referee.players`
as one self-contained HTML page — events, results per game, the rating over time drawn as an inline
SVG line chart, the matches — with no script and nothing fetched (the viewer's colours, inline).

The page is a pure function of the history: the same data gives the same bytes (coordinates are
rounded to fixed decimals, nothing reads a clock). Every name is escaped; the chart has one point per
rated match. It fits a phone: the chart scales to the width, the tables wrap their cells.
"""

from __future__ import annotations

import html

from schemas.players import PlayerHistory, RatingPoint

from .i18n import N_, gettext, ngettext, pgettext

#: the chart's drawing box (SVG units; the picture scales to the page's width)
WIDTH, HEIGHT, PAD = 640, 220, 36

STYLE = """*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:60em;padding:1em;background:var(--bg);color:var(--ink)}
h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.15em;margin:1.2em 0 .4em}
table{border-collapse:collapse;width:100%;table-layout:auto}td,th{border:1px solid var(--line);padding:.25em .5em;text-align:left;overflow-wrap:anywhere}
th{background:#ebe9e1}td.n{text-align:right;white-space:nowrap}.win{color:var(--ok);font-weight:600}.loss{color:var(--bad)}
.mute{color:var(--mute)}svg{display:block;width:100%;height:auto;background:#fff;border:1px solid var(--line)}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em}
@media (max-width:600px){body{padding:.5em;font-size:14px}td,th{padding:.2em .3em}.wide{display:none}}
"""


def _palette() -> str:
    """The viewer's colours (its stylesheet's first rule), so both pages look alike."""
    from importlib.resources import files

    return files("referee.viewer").joinpath("viewer.css").read_text(encoding="utf-8").splitlines()[0]


def _js(value: str) -> str:
    """A string as a JavaScript literal that cannot end the script it stands in."""
    import json

    return json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _h(text: object) -> str:
    return html.escape(str(text), quote=True)


def chart(points: list[RatingPoint]) -> str:
    """The rating (ordinal) after each rated match as an SVG line chart: one circle per point, the
    lowest and highest values labelled on the axis. Fixed decimals: the same points, the same bytes."""
    if not points:
        return f'<p class="mute">{gettext("No rated match yet.")}</p>'
    values = [p.ordinal for p in points]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (WIDTH - 2 * PAD) / max(len(points) - 1, 1)

    def xy(i: int, v: float) -> tuple[str, str]:
        x = PAD + step * i if len(points) > 1 else WIDTH / 2
        y = HEIGHT - PAD - (v - low) / span * (HEIGHT - 2 * PAD)
        return f"{x:.1f}", f"{y:.1f}"

    coords = [xy(i, v) for i, v in enumerate(values)]
    rated = ngettext("{n} rated match", "{n} rated matches", len(points))
    label = gettext("rating after each rated match")
    dots = "".join(f'<circle cx="{x}" cy="{y}" r="3.5" fill="#1f5fa8"><title>{_h(p.match_id)}: {p.ordinal:.2f}'
                   f"</title></circle>" for (x, y), p in zip(coords, points))
    line = " ".join(f"{x},{y}" for x, y in coords)
    axis = (f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" y2="{HEIGHT - PAD}" stroke="#d9d6cc"/>'
            f'<text x="4" y="{PAD + 4}" font-size="12" fill="#5f6368">{high:.1f}</text>'
            f'<text x="4" y="{HEIGHT - PAD + 4}" font-size="12" fill="#5f6368">{low:.1f}</text>'
            f'<text x="{WIDTH - PAD}" y="{HEIGHT - 10}" font-size="12" fill="#5f6368" text-anchor="end">'
            f"{rated}</text>")
    return (f'<svg id="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
            f'aria-label="{label}">{axis}'
            f'<polyline points="{line}" fill="none" stroke="#1f5fa8" stroke-width="2"/>{dots}</svg>')


#: a match's result as the page words it (the history names it by code)
RESULTS = {"win": N_("win"), "draw": N_("draw"), "loss": N_("loss"), "playing": N_("playing")}


def page(found: PlayerHistory, *, title: str = "", display: str = "", lang: str = "en") -> str:
    """The player's page in ``lang``: ``title`` names where the history comes from (a tournament),
    ``display`` the player's shown name where it differs from their id."""
    from .i18n import speaking

    with speaking(lang):
        return _page(found, title, display, lang)


def _page(found: PlayerHistory, title: str, display: str, lang: str) -> str:
    from .pagelang import words

    t = words(N_("Results per game"), N_("game"), N_("played"), N_("W-D-L"), N_("win rate"),
              N_("No finished match yet."), N_("Rating"), N_("Matches"), N_("match"), N_("opponents"),
              N_("result"), N_("round"), N_("last activity"))
    name = display or found.player
    parts = [f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
             f'<meta name="viewport" content="width=device-width, initial-scale=1">'
             f"<title>{_h(name)}</title><style>{_palette()}\n{STYLE}</style></head><body>",
             f"<h1>{_h(name)}</h1>"]
    if title:
        parts.append(f'<p class="mute">{_h(title)}</p>')
    if found.events:
        events = ", ".join(f"{_h(e.name)} ({e.matches})" for e in found.events)
        parts.append("<p>" + gettext("Events: {events}", events=events) + "</p>")
    parts.append(f"<h2>{t['Results per game']}</h2>")
    if found.games:
        parts.append(f'<table id="games"><thead><tr><th>{t["game"]}</th><th>{t["played"]}</th><th>{t["W-D-L"]}</th>'
                     f'<th>{t["win rate"]}</th></tr></thead><tbody>')
        parts.extend(f'<tr><td>{_h(g.game)}</td><td class="n">{g.played}</td><td class="n">{g.wins}-{g.draws}-'
                     f'{g.losses}</td><td class="n">{g.win_rate * 100:.1f}%</td></tr>' for g in found.games)
        parts.append("</tbody></table>")
    else:
        parts.append(f'<p class="mute">{t["No finished match yet."]}</p>')
    parts.append(f"<h2>{t['Rating']}</h2>")
    if found.rating:
        now = found.rating[-1]
        strong = f'<strong id="rating-now">{now.ordinal:.2f}</strong>'
        parts.append("<p>" + gettext("Now {rating}", rating=strong) + ' <span class="mute">(mu '
                     f"{now.mu:.2f}, sigma {now.sigma:.2f}; openskill {_h(found.model)})</span></p>")
    parts.append(chart(found.rating))
    parts.append(f'<h2>{t["Matches"]}</h2><table id="matches"><thead><tr><th>{t["match"]}</th><th>{t["game"]}</th>'
                 f'<th>{t["opponents"]}</th><th>{t["result"]}</th><th class="wide">{t["round"]}</th>'
                 f'<th class="wide">{t["last activity"]}</th></tr></thead><tbody>')
    for m in found.matches:
        score = f" ({m.score})" if m.score is not None else ""
        against = (gettext("with {partners}", partners=", ".join(m.partners)) if m.partners
                   else ", ".join(m.opponents)) or "—"
        result = (pgettext("a match's result", "draw") if m.result == "draw"  # "draw" elsewhere is a card drawn
                  else gettext(RESULTS[m.result]) if m.result in RESULTS else m.result)
        parts.append(f"<tr><td><code>{_h(m.match_id)}</code></td><td>{_h(m.game)}</td>"
                     f"<td>{_h(against)}</td><td class=\"{_h(m.result)}\">{_h(result)}{score}"
                     f'</td><td class="wide">{_h(m.round)}</td><td class="wide">{_h(m.last_activity)}</td></tr>')
    parts.append("</tbody></table></body></html>\n")
    return "".join(parts)


def shell(tournament_id: str, player: str, lang: str = "en", kept: bool = False) -> str:
    """The hall's player page in ``lang`` (:mod:`referee.pagelang`): a shell that reads a tournament token
    from its URL's fragment (never sent to the server), fetches the player's page with it
    (``/tournaments/{id}/players/{player}/page``, in the same language) and shows it. Both values were typed
    in a URL: escaped wherever they appear."""
    from importlib.resources import files

    from .i18n import speaking
    from .pagelang import KEEP_FRAGMENT, prelude, switch, words_script

    # the page-words script first: the refusals are said in the page's language (``errorSaid``)
    script = words_script() + files("referee").joinpath("playerpage.js").read_text(encoding="utf-8")
    with speaking(lang):
        title = gettext("Player {player}", player=_h(player))
        loading = gettext("loading…")
        return (f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8"><meta name="viewport" '
                f'content="width=device-width, initial-scale=1">\n<title>{title}</title></head>\n'
                f'<body>{switch(lang)}<p id="status">{loading}</p>\n<script>\n"use strict";\n'
                f"{prelude(lang, script, kept)}{KEEP_FRAGMENT}const tid = {_js(tournament_id)}, pid = {_js(player)};\n"
                'const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";\n'
                f"{script}</script></body></html>\n")
