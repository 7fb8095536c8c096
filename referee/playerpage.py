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
        return '<p class="mute">No rated match yet.</p>'
    values = [p.ordinal for p in points]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (WIDTH - 2 * PAD) / max(len(points) - 1, 1)

    def xy(i: int, v: float) -> tuple[str, str]:
        x = PAD + step * i if len(points) > 1 else WIDTH / 2
        y = HEIGHT - PAD - (v - low) / span * (HEIGHT - 2 * PAD)
        return f"{x:.1f}", f"{y:.1f}"

    coords = [xy(i, v) for i, v in enumerate(values)]
    dots = "".join(f'<circle cx="{x}" cy="{y}" r="3.5" fill="#1f5fa8"><title>{_h(p.match_id)}: {p.ordinal:.2f}'
                   f"</title></circle>" for (x, y), p in zip(coords, points))
    line = " ".join(f"{x},{y}" for x, y in coords)
    axis = (f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" y2="{HEIGHT - PAD}" stroke="#d9d6cc"/>'
            f'<text x="4" y="{PAD + 4}" font-size="12" fill="#5f6368">{high:.1f}</text>'
            f'<text x="4" y="{HEIGHT - PAD + 4}" font-size="12" fill="#5f6368">{low:.1f}</text>'
            f'<text x="{WIDTH - PAD}" y="{HEIGHT - 10}" font-size="12" fill="#5f6368" text-anchor="end">'
            f"{len(points)} rated matches</text>")
    return (f'<svg id="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
            f'aria-label="rating after each rated match">{axis}'
            f'<polyline points="{line}" fill="none" stroke="#1f5fa8" stroke-width="2"/>{dots}</svg>')


def page(found: PlayerHistory, *, title: str = "", display: str = "") -> str:
    """The player's page: ``title`` names where the history comes from (a tournament), ``display`` the
    player's shown name where it differs from their id."""
    name = display or found.player
    parts = [f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
             f'<meta name="viewport" content="width=device-width, initial-scale=1">'
             f"<title>{_h(name)}</title><style>{_palette()}\n{STYLE}</style></head><body>",
             f"<h1>{_h(name)}</h1>"]
    if title:
        parts.append(f'<p class="mute">{_h(title)}</p>')
    if found.events:
        parts.append("<p>Events: " + ", ".join(f"{_h(e.name)} ({e.matches})" for e in found.events) + "</p>")
    parts.append("<h2>Results per game</h2>")
    if found.games:
        parts.append('<table id="games"><thead><tr><th>game</th><th>played</th><th>W-D-L</th><th>win rate</th></tr>'
                     "</thead><tbody>")
        parts.extend(f'<tr><td>{_h(g.game)}</td><td class="n">{g.played}</td><td class="n">{g.wins}-{g.draws}-'
                     f'{g.losses}</td><td class="n">{g.win_rate * 100:.1f}%</td></tr>' for g in found.games)
        parts.append("</tbody></table>")
    else:
        parts.append('<p class="mute">No finished match yet.</p>')
    parts.append("<h2>Rating</h2>")
    if found.rating:
        now = found.rating[-1]
        parts.append(f'<p>Now <strong id="rating-now">{now.ordinal:.2f}</strong> <span class="mute">(mu '
                     f"{now.mu:.2f}, sigma {now.sigma:.2f}; openskill {_h(found.model)})</span></p>")
    parts.append(chart(found.rating))
    parts.append('<h2>Matches</h2><table id="matches"><thead><tr><th>match</th><th>game</th><th>opponents</th>'
                 '<th>result</th><th class="wide">round</th><th class="wide">last activity</th></tr></thead><tbody>')
    for m in found.matches:
        score = f" ({m.score})" if m.score is not None else ""
        parts.append(f"<tr><td><code>{_h(m.match_id)}</code></td><td>{_h(m.game)}</td>"
                     f"<td>{_h(('with ' + ', '.join(m.partners)) if m.partners else ', '.join(m.opponents)) or '—'}</td><td class=\"{_h(m.result)}\">{_h(m.result)}{score}"
                     f'</td><td class="wide">{_h(m.round)}</td><td class="wide">{_h(m.last_activity)}</td></tr>')
    parts.append("</tbody></table></body></html>\n")
    return "".join(parts)


SHELL = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Player __PID__</title></head>
<body><p id="status">loading…</p>
<script>
"use strict";
const tid = __TID_JSON__, pid = __PID_JSON__;
const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
const say = (t) => { document.getElementById("status").textContent = t; };
async function load() {
  const url = "/tournaments/" + encodeURIComponent(tid) + "/players/" + encodeURIComponent(pid) + "/page";
  const res = await fetch(url, {headers: {"Authorization": "Bearer " + token}});
  if (!res.ok) { let m = res.status; try { m = (await res.json()).message; } catch (e) {} say("cannot show the player: " + m); return; }
  const text = await res.text();
  document.open(); document.write(text); document.close();
}
if (!token) { say("open this page as /hall/" + tid + "/players/" + pid + "#token=<a token of the tournament>"); }
else { load().catch(() => say("connection lost; reload the page")); }
</script></body></html>
"""


def shell(tournament_id: str, player: str) -> str:
    """The hall's player page: a shell that reads a tournament token from its URL's fragment (never sent
    to the server), fetches the player's page with it (``/tournaments/{id}/players/{player}/page``) and
    shows it. Both values were typed in a URL: escaped wherever they appear."""
    return (SHELL.replace("__TID_JSON__", _js(tournament_id)).replace("__PID_JSON__", _js(player))
            .replace("__PID__", _h(player)))
