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


def move_words(lang: str) -> dict[str, dict[str, str]]:
    """What each intent of each game does, in ``lang``, by game and verb: a move group of the seat's answer
    carries its intent's description in English (the first line of its docstring, as the API's JSON does in
    every language) and the page shows it from here in the page's language; empty in English."""
    if lang == "en":
        return {}
    from ..engine import notation
    from ..games import all_games
    from ..i18n import gettext, speaking

    out: dict[str, dict[str, str]] = {}
    with speaking(lang):
        for game in all_games():
            for verb in notation.describe(game.intent_type).values():
                first = (verb.doc.strip().splitlines() or [""])[0]
                if first:
                    out.setdefault(game.id, {})[verb.verb] = gettext(first)
    return out


@cache
def shell(lang: str = "en", kept: bool = False) -> str:
    """The page in ``lang`` (:mod:`referee.pagelang`; ``kept`` when the address chose it): the same bytes
    whatever match or seat it is opened for."""
    import json

    from ..i18n import N_, gettext, speaking
    from ..pagelang import KEEP_FRAGMENT, prelude, switch, words, words_script

    viewer, seat = _asset('referee.viewer', 'viewer.js'), _asset(__name__, 'seat.js')
    moves = json.dumps(move_words(lang), ensure_ascii=False, sort_keys=True)
    moves = moves.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    with speaking(lang):
        # the words the sheet writes over a covered card, in another language after it
        covered = "" if lang == "en" else (
            "body:not(.revealed) .private::after{content:" + json.dumps(gettext("hidden: hold to see"), ensure_ascii=False) + "}")
        t = words(N_("Your seat"), N_("opening your seat…"), N_("Hold to see your hand"),
                  N_("your hand and private zones"), N_("your moves"), N_("the table"), N_("the table in words"),
                  N_("Take back my last move"), N_("Call the arbiter"), N_("what is wrong with the current move"))
        return (
            f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<meta name="referrer" content="no-referrer"><link rel="icon" href="data:,"><title>{t["Your seat"]}</title>'
            f"<style>{_asset('referee.viewer', 'viewer.css')}\n{_asset(__name__, 'seat.css')}{covered}</style></head>"
            f'<body class="seatpage"><header id="top"><div id="who">{t["opening your seat…"]}</div>'
            f'<div id="status" role="status"></div>{switch(lang)}</header>'
            '<p id="headline"></p><div id="result" hidden></div>'
            '<div id="verdict" role="alert" hidden></div>'
            '<section id="held" hidden></section>'
            f'<button id="reveal" type="button" hidden>{t["Hold to see your hand"]}</button>'
            f'<section id="private" aria-label="{t["your hand and private zones"]}"></section>'
            f'<section id="moves" aria-label="{t["your moves"]}"></section>'
            f'<section id="boards" aria-label="{t["the table"]}"></section>'
            f'<section id="sections" aria-label="{t["the table in words"]}"></section>'
            f'<section id="tools"><button id="takeback" type="button" hidden>{t["Take back my last move"]}</button>'
            f'<details id="dispute"><summary>{t["Call the arbiter"]}</summary><textarea id="dispute-text" rows="2" '
            f'placeholder="{t["what is wrong with the current move"]}"></textarea>'
            f'<button id="dispute-send" type="button">{t["Call the arbiter"]}</button></details></section>'
            f'<script>"use strict";\n{prelude(lang, viewer + seat, kept)}const MOVES = {moves};\n{KEEP_FRAGMENT}{words_script()}</script>'
            f"<script>{viewer}</script>"
            f"<script>{seat}</script></body></html>\n"
        )
