"""The active seat's day actions (§4.10–4.14, §4.22–4.29) and the lead sub-steps (§4.15–4.17, §4.34).
Each decider runs its checks in the spec's order on a :class:`~.txn.Tx` and emits the events."""

from __future__ import annotations

from referee.engine.suggest import did_you_mean

from .codes import Code
from .endday import start_end_of_day
from .model import (
    DeckReshuffled, DetectiveMoved, DiscardTwilightCard, DrawEvidence, DrawTwilightCard, DropshipPassSpent,
    EndTurn, EvidenceDrawn, EvidencePlaced, EvidenceShown, FlyDropship, FollowLead, LeadFollowed, LeadMoved,
    LeadRemoved, LeadUseSkipped, Move, MoveLead, PlaceEvidence, Popped, Pushed, RideBeanstalk, SkipLeadUse, Step,
    TakeFreeDraw, TimeSpent, TurnEnded, TurnStarted, TwilightCardDiscarded, TwilightCardDrawn,
)
from .txn import (
    R_BEANSTALK, R_DRAW, R_DROPSHIP, R_EVIDENCE, R_FOLLOW, R_FREE, R_MOVE, R_MOVE_LEAD, R_TURN, Tx, ids, substep,
)


# -- movement ------------------------------------------------------------------------------------------------

def _known_location(tx: Tx, to: str, rule: str) -> None:
    if to not in tx.rules.map.locations:
        tx.fail(Code.REF_UNKNOWN_LOCATION,
                f"no location {to!r}{did_you_mean(to, tx.rules.map.locations)} on map {tx.rules.map.map_id}", rule)


def entry_cost(tx: Tx, to: str, surcharge: bool = True) -> int:
    loc = tx.rules.loc(to)
    if not loc.restricted or not surcharge:
        return 1
    if tx.rules.options["warrant_scope"] == "any":
        covered = any(to in p.warrants for p in tx.s.players.values())
    else:
        covered = to in tx.s.players[tx.seat].warrants
    return 1 if covered else 3


def move(tx: Tx, it: Move) -> None:
    rules = tx.rules
    _known_location(tx, it.to, R_MOVE)
    here = tx.s.players[tx.seat].location or ""
    # each check's message is built only for its refusal (a move is the commonest action)
    if it.to == here:
        tx.fail(Code.MOVE_SAME_LOCATION, f"{tx.seat} is already at {here}", R_MOVE)
    if here in rules.interior:
        tx.fail(Code.MOVE_MUST_EXIT_BEANSTALK_AT_END,
                f"{here} is inside the Beanstalk: ride it to root or starport_kaguya to leave it", R_BEANSTALK)
    if it.to in rules.interior:
        tx.fail(Code.MOVE_BEANSTALK_SEQUENTIAL,
                f"{it.to} is inside the Beanstalk: enter it at root or starport_kaguya and ride step by step", R_BEANSTALK)
    a, b = rules.loc(here), rules.loc(it.to)
    if a.body != b.body:
        tx.fail(Code.MOVE_NO_SPACE_TRAVEL,
                f"{here} is on the {a.body} and {it.to} on the {b.body}: no vehicle crosses between Earth and Moon", R_MOVE)
    det = tx.s.players[tx.seat].detective or ""
    length = rules.data.detectives[det].ruler_length
    if rules.options["reach_check"] == "geometry":
        d2 = (a.x - b.x) ** 2 + (a.y - b.y) ** 2
        if d2 > length * length:
            tx.fail(Code.MOVE_OUT_OF_REACH, f"{it.to} is beyond {tx.seat}'s ruler from {here} (distance² {d2} > {length}²)",
                    R_MOVE)
    elif rules.options["reach_check"] == "explicit":
        reach = rules.reach_list(here, det) or ()
        if it.to not in reach:
            tx.fail(Code.MOVE_OUT_OF_REACH,
                    f"{it.to} is not on the map's reach list of {here} for {tx.seat}'s ruler ({ids(reach)})", R_MOVE)
    cost = entry_cost(tx, it.to)
    tx.time(cost, R_MOVE)
    if rules.options["reach_check"] == "trust":
        tx.flag("unverified_reach", f"{tx.seat} {here} -> {it.to}")
    tx.emit(TimeSpent(seat=tx.seat, amount=cost), DetectiveMoved(seat=tx.seat, to=it.to, means="vehicle"))


def ride_beanstalk(tx: Tx, it: RideBeanstalk) -> None:
    rules = tx.rules
    _known_location(tx, it.to, R_BEANSTALK)
    here = tx.s.players[tx.seat].location or ""
    line = rules.map.beanstalk
    tx.require(here in line, Code.BEANSTALK_NOT_ON_BEANSTALK, f"{tx.seat} is at {here}, not on the Beanstalk ({ids(line)})", R_BEANSTALK)
    i = line.index(here)
    tx.require(it.to in line and abs(line.index(it.to) - i) == 1, Code.BEANSTALK_NOT_ADJACENT,
               f"from {here} the Beanstalk goes only to {ids(line[j] for j in (i - 1, i + 1) if 0 <= j < len(line))}", R_BEANSTALK)
    cost = entry_cost(tx, it.to, bool(rules.options["restricted_surcharge_beanstalk"]))
    tx.time(cost, R_BEANSTALK)
    tx.emit(TimeSpent(seat=tx.seat, amount=cost), DetectiveMoved(seat=tx.seat, to=it.to, means="beanstalk"))


def fly_dropship(tx: Tx, it: FlyDropship) -> None:
    rules = tx.rules
    _known_location(tx, it.to, R_DROPSHIP)
    p = tx.s.players[tx.seat]
    tx.require(p.dropship_passes >= 1, Code.DROPSHIP_NO_PASS, f"{tx.seat} has no dropship pass", R_DROPSHIP)
    tx.require(it.to != p.location, Code.MOVE_SAME_LOCATION, f"{tx.seat} is already at {p.location}", R_DROPSHIP)
    cost = entry_cost(tx, it.to, bool(rules.options["restricted_surcharge_dropship"]))
    tx.time(cost, R_DROPSHIP)
    tx.emit(TimeSpent(seat=tx.seat, amount=cost), DropshipPassSpent(seat=tx.seat),
            DetectiveMoved(seat=tx.seat, to=it.to, means="dropship"))


# -- twilight cards --------------------------------------------------------------------------------------------

def _deck(tx: Tx, deck: str, rule: str) -> tuple[str, str]:
    det, _, kind = deck.partition(".")
    if det not in tx.s.decks or kind not in ("light", "dark"):  # the list of decks only for a refusal
        tx.fail(Code.REF_UNKNOWN_DECK,
                f"no deck {deck!r} in this game (decks: {ids(f'{d}.{k}' for d in sorted(tx.s.decks) for k in ('light', 'dark'))})",
                rule)
    return det, kind


def _draw_card(tx: Tx, det: str, kind: str, card: str | None, free: bool, rule: str) -> None:
    """Checks 'deck/empty' and the typed card, reshuffles before and after, and emits the draw."""
    rules = tx.rules
    d = tx.s.decks[det][kind]
    before = bool(rules.options["reshuffle_before_draw"])
    tx.require(bool(d.face_down) or (before and bool(d.bottom)), Code.DECK_EMPTY, f"{det}.{kind} has no card to draw", rule)
    pre = not d.face_down
    pool = d.bottom if pre else d.face_down
    tx.require(card is not None and card in pool, Code.DECK_CARD_NOT_IN_DECK,
               f"{card} is not face down in {det}.{kind}" + (" (a face-up discard at the bottom cannot be drawn)" if card in d.bottom and not pre else ""),
               rule)
    assert card is not None
    if pre:
        tx.emit(DeckReshuffled(deck=f"{det}.{kind}"))
    tx.emit(TwilightCardDrawn(seat=tx.seat, deck=f"{det}.{kind}", card=card, free=free))
    after = tx.s.decks[det][kind]
    if not after.face_down and after.bottom:
        tx.emit(DeckReshuffled(deck=f"{det}.{kind}"))


def take_free_draw(tx: Tx, it: TakeFreeDraw) -> None:
    w = tx.s.free_draw_window
    tx.require(w is not None and w.seat == tx.seat, Code.DRAW_NO_FREE_DRAW_WINDOW,
               f"{tx.seat} has not just entered a ritzy or seedy location", R_FREE)
    assert w is not None
    me = tx.s.players[tx.seat].detective or ""
    det, _, kind = it.deck.partition(".")
    if w.quality == "ritzy":
        tx.require(it.deck == f"{me}.light", Code.DRAW_WRONG_DECK_FOR_LOCATION,
                   f"a ritzy location gives a card of your own light deck ({me}.light), not {it.deck}", R_FREE)
    else:
        tx.require(kind == "dark", Code.DRAW_WRONG_DECK_FOR_LOCATION,
                   f"a seedy location gives a card of another player's dark deck, not {it.deck}", R_FREE)
        tx.require(det != me, Code.DRAW_OWN_DARK_DECK, f"{it.deck} is {tx.seat}'s own dark deck", R_FREE)
    _deck(tx, it.deck, R_FREE)
    _hand_room(tx, R_FREE)
    _draw_card(tx, det, kind, it.card, True, R_FREE)


def _hand_room(tx: Tx, rule: str) -> None:
    p = tx.s.players[tx.seat]
    limit = tx.rules.hand_limit(p.detective or "")
    tx.require(len(p.hand) < limit, Code.HAND_FULL, f"{tx.seat} holds {len(p.hand)} cards (limit {limit})", rule)


def draw_twilight_card(tx: Tx, it: DrawTwilightCard) -> None:
    det, kind = _deck(tx, it.deck, R_DRAW)
    tx.time(1, R_DRAW)
    _hand_room(tx, R_DRAW)
    me = tx.s.players[tx.seat].detective
    if kind == "dark":
        tx.require(det != me, Code.DRAW_OWN_DARK_DECK, f"{it.deck} is {tx.seat}'s own dark deck: draw from your light deck "
                   "or another player's dark deck", R_DRAW)
    else:
        tx.require(det == me, Code.DRAW_NOT_YOUR_LIGHT_DECK, f"{it.deck} is another detective's light deck", R_DRAW)
    tx.emit(TimeSpent(seat=tx.seat, amount=1))
    _draw_card(tx, det, kind, it.card, False, R_DRAW)


def discard_twilight_card(tx: Tx, it: DiscardTwilightCard) -> None:
    tx.time(1, R_DRAW)
    p = tx.s.players[tx.seat]
    tx.require(it.card != p.memory_card, Code.HAND_MEMORY_CARD_NOT_DISCARDABLE, f"{it.card} is a memory card: it cannot be discarded", R_DRAW)
    tx.require(it.card in p.hand, Code.HAND_CARD_NOT_IN_HAND, f"{it.card} is not in {tx.seat}'s hand", R_DRAW)
    tx.emit(TimeSpent(seat=tx.seat, amount=1), TwilightCardDiscarded(seat=tx.seat, card=it.card))


# -- leads and evidence -----------------------------------------------------------------------------------------

def lead_location(tx: Tx, lead: str) -> str | None:
    t, _, owner = lead.partition(".")
    return tx.s.leads.get(t, {}).get(owner)


def follow_lead(tx: Tx, it: FollowLead) -> None:
    rules = tx.rules
    where = lead_location(tx, it.lead)
    tx.require(where is not None, Code.REF_UNKNOWN_LEAD, f"no lead {it.lead!r} (leads are testimony.<suspect>, "
               "physical.<detective>, document.<detective>)", R_FOLLOW)
    tx.require(where != "box", Code.LEAD_NOT_ON_MAP, f"{it.lead} is not on the map (in the box)", R_FOLLOW)
    here = tx.s.players[tx.seat].location
    tx.require(where == here, Code.LEAD_NOT_HERE, f"{it.lead} is at {where}, {tx.seat} at {here}", R_FOLLOW)
    tx.time(1, R_FOLLOW)
    lead_type = it.lead.partition(".")[0]
    tx.emit(TimeSpent(seat=tx.seat, amount=1))
    use = Step(step="lead_use", seat=tx.seat, lead=it.lead, lead_type=lead_type)
    if rules.climax(tx.s):
        tx.emit(LeadFollowed(seat=tx.seat, lead=it.lead), LeadRemoved(lead=it.lead), Pushed(step=use))
        return
    mover = rules.right(tx.seat)
    assert where is not None
    if not lead_destinations(tx, it.lead, where, mover):
        tx.emit(LeadFollowed(seat=tx.seat, lead=it.lead))
        if rules.options["lead_without_destination"] == "remove":
            tx.emit(LeadRemoved(lead=it.lead))
        tx.flag("lead_without_destination", it.lead)
        tx.emit(Pushed(step=use))
        return
    tx.emit(LeadFollowed(seat=tx.seat, lead=it.lead, mover=mover), Pushed(step=use),
            Pushed(step=Step(step="lead_move", seat=mover, lead=it.lead, from_=where)))


def _basic_ok(tx: Tx, lead: str, origin: str, to: str) -> bool:
    rules = tx.rules
    if to == origin or rules.loc(to).type != rules.loc(origin).type:
        return False
    return not any(loc == to for t, row in tx.s.leads.items() for o, loc in row.items() if f"{t}.{o}" != lead)


def lead_destinations(tx: Tx, lead: str, origin: str, mover: str) -> list[str]:
    rules = tx.rules
    ok = [loc for loc in rules.map.order if _basic_ok(tx, lead, origin, loc)]
    home = rules.loc(tx.s.players[mover].location or "").district
    outside = [loc for loc in ok if rules.loc(loc).district != home]
    return outside or ok


def move_lead(tx: Tx, it: MoveLead) -> None:
    rules = tx.rules
    moves = [st for st in tx.s.pending if st.step == "lead_move"]
    tx.require(bool(moves), Code.LEAD_NO_LEAD_TO_MOVE, "no lead is waiting to be moved", R_MOVE_LEAD)
    st = moves[0]
    tx.require(st.seat == tx.seat, Code.LEAD_NOT_YOUR_LEAD_TO_MOVE, f"{st.seat} moves {st.lead} (the follower's right-hand "
               f"neighbour), not {tx.seat}", R_MOVE_LEAD)
    tx.require(st.lead == it.lead, Code.LEAD_WRONG_LEAD, f"the lead to move is {st.lead}, not {it.lead}", R_MOVE_LEAD)
    _known_location(tx, it.to, R_MOVE_LEAD)
    origin = st.from_ or ""
    tx.require(it.to != origin, Code.LEAD_MUST_MOVE, f"{it.lead} must leave {origin}", R_MOVE_LEAD)
    a, b = rules.loc(origin), rules.loc(it.to)
    tx.require(a.type == b.type, Code.LEAD_WRONG_LOCATION_TYPE, f"{it.lead} is a {a.type} lead; {it.to} is {b.type}", R_MOVE_LEAD)
    other = [f"{t}.{o}" for t, row in tx.s.leads.items() for o, loc in row.items() if loc == it.to and f"{t}.{o}" != it.lead]
    tx.require(not other, Code.LEAD_LOCATION_HAS_LEAD, f"{it.to} already holds {ids(other)}", R_MOVE_LEAD)
    home = rules.loc(tx.s.players[tx.seat].location or "").district
    if b.district == home:
        elsewhere = [loc for loc in rules.map.order if _basic_ok(tx, it.lead, origin, loc) and rules.loc(loc).district != home]
        tx.require(not elsewhere, Code.LEAD_TOO_CLOSE, f"{it.to} is in {tx.seat}'s own district {home}; legal elsewhere: "
                   f"{ids(elsewhere)}", R_MOVE_LEAD)
    tx.emit(LeadMoved(lead=it.lead, to=it.to, by=tx.seat), Popped(step="lead_move"))


def draw_evidence(tx: Tx, it: DrawEvidence) -> None:
    substep(tx, ("lead_use",), Code.LEAD_NO_LEAD_TO_USE, f"{tx.seat} has no lead to use", R_EVIDENCE, move_pending=True)
    pile = tx.s.evidence_pile
    tx.require(sum(pile.values()) > 0, Code.EVIDENCE_PILE_EMPTY, "the evidence pile is empty", R_EVIDENCE)
    tx.require(any(tx.s.suspects[s].alive for s in tx.s.active_suspects), Code.EVIDENCE_NO_LIVING_SUSPECT,
               "no suspect in this game is alive", R_EVIDENCE)
    tx.require(it.token is not None and pile.get(it.token, 0) > 0, Code.EVIDENCE_TOKEN_NOT_IN_PILE,
               f"no {it.token} token is left in the evidence pile", R_EVIDENCE)
    assert it.token is not None
    lead_type = tx.s.pending[0].lead_type
    tx.emit(EvidenceDrawn(seat=tx.seat, kind=it.token), Popped(step="lead_use"),
            Pushed(step=Step(step="evidence_placement", seat=tx.seat, kind=it.token, file=lead_type)))


def place_evidence(tx: Tx, it: PlaceEvidence) -> None:
    st = substep(tx, ("evidence_placement",), Code.EVIDENCE_NO_TOKEN_DRAWN, f"{tx.seat} has drawn no evidence token", R_EVIDENCE)
    tx.require(it.suspect in tx.rules.data.suspects, Code.REF_UNKNOWN_SUSPECT, f"no suspect {it.suspect!r}", R_EVIDENCE)
    tx.require(it.suspect in tx.s.active_suspects, Code.EVIDENCE_SUSPECT_NOT_IN_GAME,
               f"{it.suspect} is not a suspect in this game ({ids(tx.s.active_suspects)})", R_EVIDENCE)
    tx.require(tx.s.suspects[it.suspect].alive, Code.EVIDENCE_SUSPECT_DEAD, f"{it.suspect} has been killed", R_EVIDENCE)
    file = st.file or ""
    tx.require(it.file is None or it.file == file, Code.EVIDENCE_WRONG_FILE,
               f"a {file} lead's evidence goes in the {file} file, not {it.file}", R_EVIDENCE)
    up = it.face == "up"
    tx.emit(EvidencePlaced(seat=tx.seat, suspect=it.suspect, file=file, face_up=up))
    if up:
        index = len(tx.s.suspects[it.suspect].files[file]) - 1
        tx.emit(EvidenceShown(suspect=it.suspect, file=file, index=index, kind=st.kind or "?"))
    tx.emit(Popped(step="evidence_placement"))


def use_possible(tx: Tx) -> bool:
    s = tx.s
    evidence = sum(s.evidence_pile.values()) > 0 and any(s.suspects[x].alive for x in s.active_suspects)
    marker = s.puzzle.markers.get(tx.seat, "box")
    conspiracy = marker != "box" and any(s.puzzle.piles.values())
    return evidence or conspiracy


def skip_lead_use(tx: Tx, it: SkipLeadUse) -> None:
    substep(tx, ("lead_use",), Code.LEAD_NO_LEAD_TO_USE, f"{tx.seat} has no lead to use", R_FOLLOW, move_pending=True)
    tx.require(not use_possible(tx), Code.LEAD_USE_AVAILABLE, "a use is possible: draw_evidence or reveal_conspiracy", R_FOLLOW)
    tx.emit(LeadUseSkipped(seat=tx.seat), Popped(step="lead_use"))
    tx.flag("lead_use_skipped", tx.seat)


# -- the end of a turn -----------------------------------------------------------------------------------------

def end_turn(tx: Tx, it: EndTurn) -> None:
    finish_turn(tx, tx.seat)


def finish_turn(tx: Tx, seat: str, auto: bool = False) -> None:
    """``seat``'s turn ends: the next seat clockwise starts its turn, or the day phase ends (§3.2, §3.4)."""
    tx.emit(TurnEnded(seat=seat, auto=auto))
    left = [s for s in tx.s.turn_order if s not in tx.s.turns_done]
    if left:
        tx.emit(TurnStarted(seat=left[0], time=tx.rules.base_time(tx.s, left[0])))
        return
    start_end_of_day(tx)


def auto_end_turn(tx: Tx) -> None:
    """Option ``auto_end_turn`` (AMB-16): once the active seat has no TIME left, nothing is pending and no
    free draw is open to it, its turn ends by itself (and so does a next turn that starts with no TIME)."""
    for _ in range(len(tx.rules.players)):
        s = tx.s
        w = s.free_draw_window
        if s.phase != "day" or s.active_seat is None or s.time_left > 0 or s.pending \
                or (w is not None and w.seat == s.active_seat):
            return
        finish_turn(tx, s.active_seat, auto=True)


_ = R_TURN
