"""A seat's page at the table, ``/play/MATCH#token=TOKEN``: one fixed shell, the same bytes for every
match and seat (no data in it: the script reads the match id from the address and the token from the
fragment, which a browser never sends, and fetches everything with it in the Authorization header).

The shell holds the viewer's board drawing (``referee/viewer/viewer.js``, lent to this page) and this
page's own script and style (``seat.js``, ``seat.css``): nothing is loaded from anywhere else.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files


def _asset(package: str, name: str) -> str:
    return files(package).joinpath(name).read_text(encoding="utf-8")


@cache
def shell() -> str:
    """The page: the same bytes whatever match or seat it is opened for."""
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="no-referrer"><link rel="icon" href="data:,"><title>Your seat</title>'
        f"<style>{_asset('referee.viewer', 'viewer.css')}\n{_asset(__name__, 'seat.css')}</style></head>"
        '<body class="seatpage"><header id="top"><div id="who">opening your seat…</div>'
        '<div id="status" role="status"></div></header>'
        '<p id="headline"></p><div id="result" hidden></div>'
        '<div id="verdict" role="alert" hidden></div>'
        '<section id="held" hidden></section>'
        '<button id="reveal" type="button" hidden>Hold to see your hand</button>'
        '<section id="private" aria-label="your hand and private zones"></section>'
        '<section id="moves" aria-label="your moves"></section>'
        '<section id="boards" aria-label="the table"></section>'
        '<section id="sections" aria-label="the table in words"></section>'
        '<section id="tools"><button id="takeback" type="button" hidden>Take back my last move</button>'
        '<details id="dispute"><summary>Call the arbiter</summary><textarea id="dispute-text" rows="2" '
        'placeholder="what is wrong with the current move"></textarea>'
        '<button id="dispute-send" type="button">Call the arbiter</button></details></section>'
        f"<script>{_asset('referee.viewer', 'viewer.js')}</script>"
        f"<script>{_asset(__name__, 'seat.js')}</script></body></html>\n"
    )
