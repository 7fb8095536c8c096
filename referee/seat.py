"""A seat's page in one answer (``GET /matches/{id}/seat``, read by ``/play/MATCH``): the seat's view,
its legal moves as choices to tap, the move waiting for a confirmation, and whether it may take back
its last move.

The choices are generated for every game alike from its legal moves (``legal_intents``, blinded as
``/legal`` gives them to a seat: in a physical match a chance fact the seat reads off the table is a
``?`` it types in, in a digital one it is left out for the referee to draw) and its intents' fields
(the notation's ``key=value`` words); each group of one intent lists each field's values across its
moves, which is what the page offers to pick from. Nothing here is written per game.

What is private to the seat is found by comparing its drawing with the spectators' (areas and sections
that differ), and the ids it sees that the spectators do not (the game's ``hidden_ids``): the page covers
them until the seat's owner holds it to reveal. All of it is what the seat may see already.

The same page serves the actors a game declares besides its seats (``Capabilities.other_actors``: Android's
``arbiter``, Copycat's ``table``), one generic way (:func:`page_actor`): the arbiter's token speaks for the
game's actor named ``arbiter``, else for its one other actor, and reads the arbiter's view (everything,
covered on the page like a seat's hand); an actor's own token (role ``actor``) speaks for that actor and
reads the spectators' view. Its moves are that actor's legal moves, offered as a seat's are.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import msgspec

from schemas import ARBITER, SPECTATOR
from schemas.board import Board
from schemas.http import StateAnswer
from schemas.seat import Choice, ChoiceField, HeldMove, MoveGroup, SeatAnswer

from .auth import AuthCode, Forbidden, Principal
from .engine import notation
from .engine.present import in_names
from .engine.speech import Said
from .i18n import N_, speaking
from .outcome import words as outcome_words

if TYPE_CHECKING:
    from .access import Access
    from .config import Loaded


def page_actor(loaded: Loaded, p: Principal) -> tuple[str, str | None]:
    """(the actor ``p``'s page speaks for, the view it reads: a seat, None for the arbiter's, or the
    spectators'). A seat's token: its seat. The arbiter's: the game's actor ``arbiter`` (Android), else its
    one other actor (Copycat's ``table``), else the arbiter itself, with no moves. An actor's own token: that
    actor, with the spectators' view. The spectators' token has no page of moves."""
    if p.role == "seat" and p.seat is not None:
        return p.seat, p.seat
    if p.role == "actor" and p.seat is not None:
        return p.seat, SPECTATOR
    if p.role == "arbiter":
        others = loaded.game.capabilities.other_actors
        return (ARBITER if ARBITER in others or len(others) != 1 else others[0]), None
    raise Forbidden.said(AuthCode.FORBIDDEN, N_("a seat's page is opened by that seat's token (or the arbiter's, or a "
                                                "non-seat actor's), not the {role}'s (spectators follow the match's live "
                                                "view)"), role=p.role)


def seat_answer(access: Access, p: Principal) -> SeatAnswer:
    """The page of the actor ``p``'s token speaks for (:func:`page_actor`); a spectator's is refused.

    Every open page of a match reads it again after each entry (and the writer after its own write), so
    the answer is kept per (role, actor, view) with the head it was computed at (``access.memo``,
    :mod:`referee.memo`) and given again while the head stays there; the spectators' drawing it is
    compared with is kept likewise, once for the match. An answer is kept only when the head did not move
    while it was computed."""
    loaded = access.referee.load(p.match_id)
    seat, role = page_actor(loaded, p)
    head = access.head(p)
    # the arbiter's page and the table's token both speak for ``table`` but read different views
    key = ("seat", p.match_id, p.role, seat, role)
    kept = access.memo.get(key, head)
    if isinstance(kept, SeatAnswer):
        return kept
    with speaking("en"):  # a JSON answer: its words and boards' titles in English, whatever the server's language
        answer = _answer(access, loaded, p, seat, role)
    if answer.seq == head and access.head(p) == head:
        access.memo.put(key, head, answer)
    return answer


def _public(access: Access, match_id: str, head: int) -> StateAnswer:
    """The spectators' view at the head (kept for the match's pages as their answers are)."""
    key = ("spectator", match_id)
    kept = access.memo.get(key, head)
    if isinstance(kept, StateAnswer):
        return kept
    with speaking("en"):
        public = access.referee.show(match_id, seat=SPECTATOR)
    if public.seq == head and access.referee.store.head(match_id) == head:
        access.memo.put(key, head, public)
    return public


def _answer(access: Access, loaded: Loaded, p: Principal, seat: str, role: str | None) -> SeatAnswer:
    referee = access.referee
    view = referee.show(loaded.match.id, seat=role)
    public = _public(access, loaded.match.id, view.seq)
    _, state = referee.state_at(loaded)
    rules = loaded.rules
    # the ids the seat's own view shows and the spectators' does not (only what this view names, whatever
    # a game's hidden_ids leaves out)
    text = msgspec.json.encode(view.state).decode()
    secret = sorted(x for x in rules.hidden_ids(state, SPECTATOR) - rules.hidden_ids(state, role)
                    if re.search(rf"(?<![A-Za-z0-9_]){re.escape(x)}(?![A-Za-z0-9_])", text))
    named = sorted({n for n in (rules.name_of(x) for x in secret) if n})
    timeline = referee.timeline(loaded)
    held = None
    hold = timeline.open_hold()
    if hold is not None:
        entry = referee.log(loaded.match.id, seat=role, start=hold[0], stop=hold[0])[0]
        held = HeldMove(seq=entry.seq, actor=entry.actor or "", intent=entry.notation, confirmer=hold[1],
                        words=[in_names(entry.notation, rules.name_of)])
    take_back = None
    last = timeline.last_action()
    if (p.role == "seat" and view.outcome is None and last is not None and last.actor == seat
            and timeline.check_undo(seat, last.seq - 1, loaded.config.undo) is None):
        take_back = last.seq
    moves = [] if view.outcome is not None or held is not None else groups(loaded, _legal(access, loaded, p, seat))
    return SeatAnswer(
        match_id=loaded.match.id, game=loaded.game.id, game_name=loaded.game.name, seat=seat,
        players=list(loaded.config.players), seq=view.seq, chance=loaded.config.chance,
        undo_policy=loaded.config.undo, take_back=take_back, view=view,
        result=outcome_words(view.outcome) if view.outcome is not None else "",
        private_areas=_private_areas(view.boards, public.boards),
        private_sections=[s.title for s in view.sections if s not in public.sections],
        secret=[*secret, *named], moves=moves, held=held, role=p.role,
    )


def _legal(access: Access, loaded: Loaded, p: Principal, actor: str) -> list[str]:
    """The actor's legal moves as its page offers them: blinded as a seat's (a chance fact is typed in from
    the table, or drawn by the referee), whoever's token opened the page."""
    from .errors import BadInput

    try:
        if p.role != "arbiter":
            return access.legal(p).legal.get(actor, [])
        if actor not in loaded.game.capabilities.other_actors:
            return []  # a game whose arbiter has no moves of its own
        return access.referee.legal(loaded.match.id, actor, blind=True).legal.get(actor, [])
    except BadInput:  # a match whose moves cannot be listed here: the page offers none
        return []


def _private_areas(mine: tuple[Board, ...], public: tuple[Board, ...]) -> list[str]:
    """``board|area`` of each area of the seat's drawing that the spectators' drawing shows otherwise."""
    shown = {b.title: {a.id: a for a in b.areas} for b in public}
    out = []
    for b in mine:
        theirs = shown.get(b.title, {})
        out += [f"{b.title}|{a.id}" for a in b.areas if theirs.get(a.id) != a]
    return out


def groups(loaded: Loaded, legal: list[str]) -> list[MoveGroup]:
    """The legal moves (notation lines, as ``/legal`` gives them to the seat) grouped by intent, in the
    order the game lists them, each field's values collected across a group's moves."""
    verbs = notation.describe(loaded.game.intent_type)
    by_verb: dict[str, list[Choice]] = {}
    values: dict[str, dict[str, list[str]]] = {}
    for line in legal:
        words = notation.split_words(line)
        verb, fields = words[0], []
        info = verbs.get(verb)
        for word in words[1:]:
            key, _, value = word.partition("=")
            param = info.param(key) if info is not None else None
            fill = value == "?" or all(v == "?" for v in value.split(","))
            fields.append(ChoiceField(key=key, value=value, fill=fill, expected=param.expected() if param else ""))
            seen = values.setdefault(verb, {}).setdefault(key, [])
            if not fill and value not in seen:
                seen.append(value)
        by_verb.setdefault(verb, []).append(
            Choice(intent=line, label=in_names(line, loaded.rules.name_of), fields=fields))
    return [MoveGroup(verb=verb, doc=(verbs[verb].doc.strip().splitlines() or [""])[0] if verb in verbs else "",
                      choices=choices, values=values.get(verb, {}))
            for verb, choices in by_verb.items()]


def tournament_seat(access: Access, authorization: str | None, match_id: str) -> Principal | None:
    """The seat a tournament player's token holds at the table playing ``match_id`` (the token a slip's QR
    code carries), or None when the token is no tournament player's. A player's token at another table
    is refused as another match's token would be; a replaced (rotated) token is refused as revoked."""
    from .auth import bearer, hash_token
    from .errors import NotFound
    from .tournament.access import TournamentAccess

    token = bearer(authorization, Said(N_("send the seat's token as 'Authorization: Bearer <token>'")))
    row = access.referee.store.find_tournament_token(hash_token(token))
    if row is None or row.role != "player":
        return None
    tournaments = TournamentAccess(access.referee)
    who = tournaments.authenticate(authorization, row.tournament_id)  # a rotated token is refused here
    try:
        p = tournaments.table_principal(who, match_id)
    except NotFound:
        p = None
    if p is None or p.role != "seat":
        raise Forbidden.said(AuthCode.OTHER_MATCH, N_("this player's token is not for a seat of this match (a player "
                                                      "plays at their own table's match)"))
    return p
