"""The arbiter's console of a hall (``GET /hall/{id}/arbiter``, the organiser's token in the fragment): every
table of the round being played with an open dispute or a move held for a confirmation, each with what the
arbiter needs to settle it, and the actions that do (ruling, annotating, undoing, confirming for the seat).

:func:`desk` is what the page reads (``GET /tournaments/{id}/arbiter``, the organiser's token only): per
table and per matter (``dispute``: an entry with a ``disputed`` annotation and no ``ruling`` after it;
``held``: the entry that waits for a seat's confirmation), the entry itself (its line, verdict, refusal and
the rulebook's section), the dispute's notes, the last few entries as sentences, and who is waiting. Read
as the match's arbiter sees it: the organiser acts as the arbiter of the tournament's tables
(:func:`.access.acting_arbiter`), so the page's actions call the matches' own routes with the organiser's
token (``/matches/{id}/rulings``, ``/annotations``, ``/undo``, ``/confirmations``): a refusal is the
server's, shown as its message. The page follows ``/tournaments/{id}/events`` and reads the desk again
whenever the hall changes, so a settled dispute leaves the list.

The page (:data:`PAGE`) holds no data: ``arbiter.js`` draws what the server answers, every name as text.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .access import Entrant, TournamentAccess

#: how many entries before the matter the desk gives as its context
RECENT = 4


def desk(access: TournamentAccess, who: Entrant, now: str | None = None) -> dict[str, Any]:
    """The arbiter's desk of ``who``'s tournament (the organiser's): the round, its clock and each matter
    waiting at a table of it, in table order (disputes before a held move)."""
    from msgspec import to_builtins

    from .clock import shown
    from .console import SETTLED, table_states

    access.organiser(who, "open the arbiter's console")
    service = access.service
    state = service.load(who.tournament)
    clock = shown(state, service.clock() if now is None else now)
    late = clock is not None and clock.over
    matters: list[dict[str, Any]] = []
    waiting: list[dict[str, Any]] = []  # tables whose non-seat actor has moves: a link to its page
    for t in table_states(service, state, public=False):
        if t.match_id is None or t.state in SETTLED:
            continue
        found = _matters(access, t.match_id)
        for m in found:
            m.update(table=t.table, seats=list(t.seats), names=[state.name(p) for p in t.seats],
                     match_id=t.match_id, state=t.state, past_time=late)
        matters.extend(found)
        moves = _actor_moves(access, t.match_id)
        if moves is not None:
            moves.update(table=t.table, names=[state.name(p) for p in t.seats], match_id=t.match_id)
            waiting.append(moves)
    return {"tournament": state.id, "name": state.config.name, "game": state.config.game, "round": state.current,
            "undo": state.config.undo, "clock": to_builtins(clock) if clock is not None else None,
            "matters": matters, "actor_moves": waiting}


def _actor_moves(access: TournamentAccess, match_id: str) -> dict[str, Any] | None:
    """The moves waiting at a table for the game's actor that is no seat (Android's arbiter, Copycat's
    table): the console links to that actor's page (``/play/MATCH`` opened with the organiser's token,
    :func:`referee.seat.page_actor`). None when the game has no such actor or it has nothing to do now."""
    from ..auth import Principal
    from ..seat import page_actor

    referee = access.service.referee
    loaded = referee.load(match_id)
    if not loaded.game.capabilities.other_actors:
        return None
    actor, _ = page_actor(loaded, Principal(match_id=loaded.match.id, role="arbiter"))
    legal = referee.legal(loaded.match.id, actor, blind=True).legal.get(actor, [])
    return {"actor": actor, "moves": len(legal), "page": f"/play/{loaded.match.id}"} if legal else None


def _matters(access: TournamentAccess, match_id: str) -> list[dict[str, Any]]:
    from ..redaction import View
    from .service import open_disputes

    referee = access.service.referee
    notes = access.store.annotations(match_id)
    disputed = open_disputes(notes)
    loaded = referee.load(match_id)
    head = int(access.store.head(match_id))
    hold = referee.open_hold(loaded, head)
    if not disputed and hold is None:
        return []
    view = View(loaded, None)

    def told(low: int, high: int) -> list[dict[str, Any]]:
        out = []
        for entry, body in referee.bodies(loaded, max(1, low), high):
            shown, events = view.entry(entry, body)
            rej = shown.rejection
            out.append({"seq": shown.seq, "kind": shown.kind, "actor": shown.actor, "line": shown.notation,
                        "verdict": shown.verdict, "words": view.words(events),
                        "rejection": {"code": rej.code, "message": rej.message, "rule": rej.rule} if rej else None,
                        "confirmer": str(shown.meta.get("confirmer", "")),
                        "rejected_intent": body.kind == "intent" and shown.verdict == "rejected"})
        return out

    found: list[dict[str, Any]] = []
    for seq in disputed:
        said = [{"by": n.by, "text": n.text, "kind": n.kind} for n in notes if n.seq == seq]
        entry = told(seq, seq) if seq else []
        found.append({"kind": "dispute", "entry": seq, "disputed": entry[0] if entry else None, "notes": said,
                      "recent": told(max(1, seq) - RECENT, max(seq, 1) - 1) if seq > 1 else [],
                      "after": head - seq, "head": head, "waiting": "the arbiter's ruling",
                      "can_stand": bool(entry) and entry[0]["rejected_intent"]})
    if hold is not None:
        seq, confirmer = hold
        entry = told(seq, seq)
        found.append({"kind": "held", "entry": seq, "disputed": entry[0] if entry else None,
                      "notes": [{"by": n.by, "text": n.text, "kind": n.kind} for n in notes if n.seq == seq],
                      "recent": told(seq - RECENT, seq - 1), "after": head - seq, "head": head,
                      "waiting": f"{confirmer} to confirm it", "confirmer": confirmer, "can_stand": False})
    return found


def page(tournament_id: str, lang: str = "en", kept: bool = False) -> str:
    """The arbiter's console of ``tournament_id`` (an id typed in a URL: escaped wherever it appears) in
    ``lang`` (:mod:`referee.pagelang`)."""
    import html
    import json

    from ..i18n import N_, gettext, speaking
    from ..pagelang import KEEP_FRAGMENT, prelude, switch, words, words_script
    from .style import stylesheet

    tid = html.escape(tournament_id)
    tid_js = json.dumps(tournament_id).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    script = asset("follow.js") + words_script() + asset("arbiter.js")
    with speaking(lang):
        title = gettext("Arbiter · tournament {tid}", tid=tid)
        clock = gettext("Round {round} clock: {clock}", round='<span id="round"></span>',
                        clock='<span id="clock" class="clock">' + gettext("not started") + "</span>")
        t = words(N_("connecting…"), N_("minutes"), N_("Start"),
                  N_("Stop"), N_("Resume"), N_("Waiting for the arbiter"),
                  N_("Nothing waits: no open dispute and no held move at any table of the round."),
                  N_("Moves for the arbiter's page"), N_("← the hall"))
        return f"""<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{stylesheet()}{asset("hall.css")}{asset("arbiter.css")}</style></head>
<body data-updates="0" data-matters="-1">
<header><h1 id="title">{title}</h1>{switch(lang)}<div id="status">{t["connecting…"]}</div></header>
<div class="pages arbiter">
<section id="clock-box"><h2>{clock}</h2>
<form id="clock-form"><label>{t["minutes"]} <input id="minutes" type="number" min="1" max="1440" value="50"></label>
<button type="button" id="clock-start">{t["Start"]}</button><button type="button" id="clock-stop">{t["Stop"]}</button>
<button type="button" id="clock-resume">{t["Resume"]}</button></form><p id="clock-msg" role="status"></p></section>
<section id="desk"><h2>{t["Waiting for the arbiter"]} <span id="count"></span></h2>
<p class="hint" id="empty" hidden>{t["Nothing waits: no open dispute and no held move at any table of the round."]}</p>
<div id="matters"></div>
<p id="msg" role="status"></p></section>
<section id="actors" hidden><h2>{t["Moves for the arbiter's page"]}</h2><ul id="actor-moves"></ul></section>
<p class="head"><a id="hall" href="#">{t["← the hall"]}</a></p>
</div>
<script>
"use strict";
{prelude(lang, script, kept)}{KEEP_FRAGMENT}const tid = {tid_js};
const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
const $ = (id) => document.getElementById(id);
{script}
</script></body></html>
"""


@cache
def asset(name: str) -> str:
    """A file of this package (the console's script and rules)."""
    return files("referee.tournament").joinpath(name).read_text(encoding="utf-8")
