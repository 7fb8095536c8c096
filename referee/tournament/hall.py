"""The hall page of a tournament (``GET /hall/{id}``): one fixed shell for every token, drawn by the
role the server names in each snapshot. The organiser's console: each table of the round with its
state (:mod:`.console`: playing, waiting on a confirmation, disputed, finished, the seats' reports in
disagreement), the results read from the matches' logs that closing the round records, the results to
confirm (each side of a disagreement a button recording it as the organiser's result: ``/results``), and
the buttons that pair the next round and close this one (``POST /tournaments/{id}/pair`` and ``/close`` with the organiser's token; enabled once every
table is finished; a refusal is shown as the server's message). A spectator's (or a player's) screen:
the projection, in type that grows with the screen, the standings after the last completed round and
the live tables. Both fit a phone (the tables become cards).

Each table's match id links to :data:`TABLE`, the match's live step-through view: the HTML viewer of
:mod:`referee.viewer` (the one ``referee export --format html`` writes), fetched with the same token
(``/tournaments/{id}/matches/{match}/viewer``: the organiser sees the match as its arbiter, a player at
that table as their seat, anyone else as a spectator) and fetched again whenever
``/tournaments/{id}/matches/{match}/events`` says the match has a new entry or annotation; a reader
stepping back through it stays at the entry they are reading. Each standings row links the player's
page (``/hall/{id}/players/{player}``, :mod:`referee.playerpage`), the token again in the fragment.

The page holds no data: it reads a tournament token from its URL's fragment (``#token=...``, which a
browser never sends to the server), asks ``/tournaments/{id}/events`` for the snapshot with that token,
and redraws each time the server sends a new one (server-sent events, read with ``fetch`` so the token
goes in the Authorization header). Its script and its few rules are ``hall.js`` and ``hall.css``.
Every name is put on the page as text, never as markup. Under the tables stands the head of the
tournament's record as the standings were read (``tournament audit --expect-head`` checks it).
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING, Any

import msgspec

from .style import stylesheet

if TYPE_CHECKING:
    from .access import Entrant, TournamentAccess
    from .console import TableState
    from .fold import Tournament


def snapshot(access: TournamentAccess, who: Entrant, now: str | None = None) -> dict[str, Any]:
    """What the hall page shows, as ``who`` may read it: who it is (``role``, a player's id), the
    tournament's name, its pairings, the state of each table of the last round paired (:mod:`.console`:
    read from the summaries, nothing folded) and the standings after the last *completed* round: while a
    table of round N has no result, the standings after round N-1 (after round 0: nobody has played yet),
    ``playing`` naming round N (else null). A player reads their own tables only, as their pairings. The
    organiser's alone holds ``console`` (whether the round is complete, the next round, what the buttons
    may do, the seats' disagreements ``to_confirm``), each table's ``why`` (in English words, and as
    ``why_code`` and ``why_values``, which the page words in its language: :data:`.console.WHY`) and the
    pairing's ``blocks``. A result is given in English words (``result``) and as the ``outcome`` it words
    (a page asks ``/pages/words`` for it in its language, :mod:`referee.pagewords`). Each
    table's ``reports`` (:mod:`.reports`) say who reported what to the organiser and the table's players,
    only ``reported``/``agreed`` to anyone else. Every role's holds ``clock``, the round clock
    (:class:`schemas.tournament.HallClock`, null before it is started), and each table not yet settled
    when the time was up at ``now`` (the server's time unless given) is ``past_time``."""
    from dataclasses import replace

    from ..outcome import words
    from .api import pairings_answer, standings_answer
    from .console import complete, table_states
    from .reports import report_rows
    from .standings import standings
    from schemas.tournament import BlockRow

    service = access.local.service
    state, head = service.anchored(who.tournament)
    organiser = who.role == "organiser"
    mine = who.player if who.role == "player" else None
    states = table_states(service, state, public=not organiser)
    from .clock import shown as clock_shown
    from .console import SETTLED

    clock = clock_shown(state, service.clock() if now is None else now)
    late = clock is not None and clock.over
    live = {(s.round, s.table): s.outcome for s in states if s.outcome is not None and not s.recorded}
    table = standings(state, None, live)
    playing = None
    n = table.after_round
    if n and any(r == n for r, _ in table.pending):
        playing = n
        table = standings(state, n - 1, live)
    blocks = [BlockRow(round=s.round, table=s.table, match_id=s.match_id, why=s.why) for s in states if s.why]
    tables = []
    for s in states:
        if mine is not None and mine not in s.seats:
            continue
        row: dict[str, Any] = {
            "table": s.table, "seats": list(s.seats), "names": [state.name(p) for p in s.seats],
            "match_id": s.match_id, "state": s.state, "result": words(s.outcome) if s.outcome else None,
            "outcome": msgspec.to_builtins(s.outcome) if s.outcome else None,
            "source": s.source, "recorded": s.recorded, "past_time": late and s.state not in SETTLED}
        if organiser:  # why, in English words and as a code with its values (a page words it in its language)
            row.update(why=s.why, why_code=s.why_code, why_values=dict(s.why_values))
        # who reported what to the organiser and the table's own players; to anyone else only that they did
        row["reports"] = [msgspec.to_builtins(r) for r in
                          report_rows(state, (s.round, s.table), s.seats, public=not organiser and mine is None)]
        tables.append(row)
    snap: dict[str, Any] = {
        "role": who.role, "name": state.config.name,
        "pairings": pairings_answer(state, live, blocks if organiser else [], player=mine,
                                    public=not organiser and mine is None),
        "standings": standings_answer(replace(table, head=head)), "playing": playing,
        "round": state.current, "tables": tables,
        "clock": msgspec.to_builtins(clock) if clock is not None else None}
    if mine is not None:
        snap["player"] = mine
    if organiser:
        is_open = bool(state.rounds) and not state.rounds[-1].closed
        done = complete(states)
        more = not state.config.rounds or state.current < state.config.rounds
        snap["console"] = {
            "open": is_open, "complete": done, "next_round": state.current + 1 if more else None,
            "can_pair": done and more, "can_close": done and is_open,
            "to_record": sum(1 for s in states if s.outcome is not None and not s.recorded),
            "to_confirm": to_confirm(state, states)}
    return snap


def to_confirm(state: Tournament, states: Sequence[TableState]) -> list[dict[str, Any]]:
    """The results waiting for the organiser: each table whose seats reported different results, with each
    side (the result in words, as typed for ``/results``, its scores, and who reported it)."""
    from ..outcome import words
    from .console import DISAGREE
    from .reports import sides
    from .words import typed

    out = []
    for s in states:
        if s.state != DISAGREE:
            continue
        out.append({"round": s.round, "table": s.table, "seats": list(s.seats),
                    "names": [state.name(p) for p in s.seats],
                    "sides": [{"result": words(o), "outcome": msgspec.to_builtins(o), "typed": typed(o),
                               "scores": o.scores, "players": who,
                               "names": [state.name(p) for p in who]}
                              for o, who in sides(state, (s.round, s.table), s.seats)]})
    return out


def page(tournament_id: str, lang: str = "en", kept: bool = False) -> str:
    """The hall page of ``tournament_id`` (an id typed in a URL: escaped wherever it appears) in ``lang``
    (:mod:`referee.pagelang`: ``kept`` when the address chose it, for the page's links to carry on)."""
    from ..i18n import N_, gettext, speaking
    from ..pagelang import KEEP_FRAGMENT, prelude, switch, words, words_script

    tid = html.escape(tournament_id)
    script = _asset("follow.js") + words_script() + _asset("hall.js")
    with speaking(lang):
        title = gettext("Tournament {tid}", tid=tid)
        # the one word the sheet writes (a phone's table cards: "table 1"), in another language after it
        word = json.dumps(gettext("table") + " ", ensure_ascii=False)
        worded = "" if lang == "en" else "table.tables td.n::before{content:" + word + "}"
        t = words(N_("connecting…"), N_("Console:"), N_("Pair the next round"), N_("Close the round"),
                  N_("Results to confirm"),
                  N_("The seats reported different results: record the table's result (a second press records it; it wins over every report)."),
                  N_("The arbiter's console: disputes and held moves, the round clock"),
                  N_("the new matches' tokens (answered once, to this page)"), N_("Tables"), N_("table"),
                  N_("players"), N_("state"), N_("result"), N_("match"), N_("Standings"), N_("record head"))
        return f"""<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{stylesheet()}{_asset("hall.css")}{worded}</style></head>
<body data-updates="0" data-role="">
<header><h1 id="title">{title}</h1>{switch(lang)}<div id="status">{t["connecting…"]}</div>
<div id="round-clock" class="clock" hidden></div></header>
<div class="pages two hall">
<section id="console" hidden><h2>{t["Console:"]} <span id="console-round"></span> <span id="progress"></span></h2>
<p class="hint" id="console-note"></p>
<div class="actions"><button type="button" id="pair" disabled>{t["Pair the next round"]}</button>
<button type="button" id="close" class="second" disabled>{t["Close the round"]}</button></div>
<div id="confirm" hidden><h3>{t["Results to confirm"]}</h3><p class="hint">{t["The seats reported different results: record the table's result (a second press records it; it wins over every report)."]}</p><ul id="confirm-list"></ul></div>
<p id="console-msg" role="status"></p>
<p><a id="arbiter-link" href="#">{t["The arbiter's console: disputes and held moves, the round clock"]}</a></p>
<details id="minted" hidden><summary>{t["the new matches' tokens (answered once, to this page)"]}</summary><ul id="minted-list"></ul></details>
</section>
<section id="tables-box"><h2>{t["Tables"]} <span id="round"></span></h2>
<div class="scroll"><table class="facts tables" id="pairings"><thead><tr><th class="n">{t["table"]}</th><th>{t["players"]}</th><th>{t["state"]}</th><th>{t["result"]}</th><th>{t["match"]}</th></tr></thead>
<tbody id="pairings-body"></tbody></table></div></section>
<section id="standings-box"><h2>{t["Standings"]} <span id="after"></span></h2>
<div class="scroll"><table class="facts" id="standings"><thead><tr id="standings-head"></tr></thead><tbody id="standings-body"></tbody></table></div></section>
<p class="head" id="head-line">{t["record head"]} <code id="head"></code></p>
</div>
<script>
"use strict";
{prelude(lang, script, kept)}{KEEP_FRAGMENT}const tid = {_js(tournament_id)};
const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
const $ = (id) => document.getElementById(id);
{script}</script></body></html>
"""


def _js(value: str) -> str:
    return json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@cache
def _asset(name: str) -> str:
    """A file of this package (the hall's script and its few rules on top of the tournament's sheet)."""
    return files("referee.tournament").joinpath(name).read_text(encoding="utf-8")


def _follow_english() -> str:
    from ..pagelang import prelude

    return prelude("en", _asset("follow.js"), False) + _asset("follow.js")


#: the pages' stream reader (``follow.js``) with its words in English, whole: what runs it outside a page
#: (tests/test_hall_follow.py, under Node)
FOLLOW = _follow_english()


def table_page(tournament_id: str, match_id: str, lang: str = "en", kept: bool = False) -> str:
    """The live step-through view of one table's match (both ids typed in a URL: escaped) in ``lang``; the
    viewer it shows is asked for in the same language (``?lang=`` when the reader chose it, else the same
    ``Accept-Language``)."""
    from ..i18n import N_, gettext, speaking
    from ..pagelang import KEEP_FRAGMENT, prelude, switch, words, words_script

    script = _asset("follow.js") + words_script() + _asset("table.js")
    with speaking(lang):
        title = gettext("Match {match}", match=html.escape(match_id))
        t = words(N_("← the hall"), N_("connecting…"), N_("the match, step by step"))
        return f"""<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
html,body{{height:100%;margin:0}}body{{display:flex;flex-direction:column;font-family:system-ui,sans-serif;background:#fafafa}}
#bar{{padding:.4em 1em;color:#555;font-size:.9em;border-bottom:1px solid #ddd}}#bar a{{margin-right:1em}}
iframe{{flex:1;border:0;width:100%}}iframe[hidden]{{display:none}}
nav.langs{{display:inline;float:right}}nav.langs a{{margin:0}}
</style></head>
<body data-loads="0" data-head="-1">
<div id="bar"><a id="back" href="#">{t["← the hall"]}</a><span id="status">{t["connecting…"]}</span>{switch(lang)}</div>
<iframe id="view" title="{t["the match, step by step"]}"></iframe>
<script>
"use strict";
{prelude(lang, script, kept)}{KEEP_FRAGMENT}const tid = {_js(tournament_id)}, mid = {_js(match_id)};
const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
const $ = (id) => document.getElementById(id);
{script}</script></body></html>
"""
