"""The end of day (§3.4, §4.31–4.33), the end of the game and the killer (§6.1–6.2), closing (§4.35–4.36)."""

from __future__ import annotations


from referee.engine.suggest import did_you_mean

from .codes import Code
from .data import EVIDENCE
from .manual import apply_deltas
from .model import (
    Case, CaseClosed, CloseCase, DayPhaseEnded, DayStarted, DeclareScore, FirstPlayerChanged, GameEnded,
    GeneralEventResolved, PlotsResolved, ResolveGeneralEvent, ResolvePlots, ResolveSpecificEvent, ScoreDeclared,
    SpecificEventRevealed, State,
)
from .txn import R_CLOSING, R_END_OF_DAY, BoundRules, Tx


def start_end_of_day(tx: Tx) -> None:
    queue = tx.rules.data.days[tx.s.day - 1] if 0 < tx.s.day <= tx.rules.data.last_day else ()
    tx.emit(DayPhaseEnded(queue=tuple(queue)))
    if not tx.s.end_of_day_queue:
        finish_day(tx)


def finish_day(tx: Tx) -> None:
    """§3.4 steps 3–4: the first player changes to the hero marker on the scene; a new day or the end."""
    s = tx.s
    hero = s.scene.hero
    if hero is not None and hero != s.first_player:
        tx.emit(FirstPlayerChanged(seat=hero))
    if tx.s.day < tx.rules.data.last_day:
        fp = tx.s.first_player or tx.rules.players[0]
        tx.emit(DayStarted(day=tx.s.day + 1, seat=fp, time=tx.rules.base_time(tx.s, fp)))
    else:
        tx.emit(GameEnded(case=determine_case(tx.rules, tx.s)))


def _head(tx: Tx, item: str) -> None:
    head = tx.s.end_of_day_queue[0] if tx.s.end_of_day_queue else None
    tx.require(head == item, Code.EVENT_NOT_PENDING, f"the next end-of-day item is {head or 'nothing'}, not {item}", R_END_OF_DAY)


def resolve_general_event(tx: Tx, it: ResolveGeneralEvent) -> None:
    _head(tx, "general_event")
    deck = tx.s.events.general_deck
    card = it.card
    if not deck:
        tx.emit(GeneralEventResolved(card=None))
        tx.flag("empty_general_deck", "the general event deck is exhausted")
    else:
        tx.require(card is not None and card in tx.rules.data.events, Code.REF_UNKNOWN_EVENT, f"no event card {card!r}", R_END_OF_DAY)
        tx.require(card in deck, Code.EVENT_CARD_NOT_IN_DECK, f"{card} is not in the general event deck", R_END_OF_DAY)
        assert card is not None
        e = tx.rules.data.events[card]
        tx.emit(GeneralEventResolved(card=card, grants=e.grants is not None))
    if it.deltas:
        apply_deltas(tx, it.deltas)
        tx.flag("manual_effect", f"general event {card}")
    if not tx.s.end_of_day_queue:
        finish_day(tx)


def resolve_specific_event(tx: Tx, it: ResolveSpecificEvent) -> None:
    _head(tx, "specific_event")
    ev = tx.s.events
    m = tx.rules.data.murders[tx.s.murder or ""]
    if ev.specific == "sealed":
        tx.require(it.card in m.specific_events, Code.EVENT_NOT_THIS_MURDERS_EVENT,
                   f"the sealed card must be named: one of {', '.join(m.specific_events)}", R_END_OF_DAY)
    else:
        tx.require(it.card is None or it.card == ev.specific, Code.EVENT_SPECIFIC_MISMATCH,
                   f"{it.card} is not the card set aside at setup", R_END_OF_DAY)
    tx.require(not ev.specific_revealed, Code.EVENT_ALREADY_REVEALED, "the murder-specific event is already revealed", R_END_OF_DAY)
    card = it.card if ev.specific == "sealed" else ev.specific
    tx.emit(SpecificEventRevealed(card=card or "?"))
    if it.deltas:
        apply_deltas(tx, it.deltas)
        tx.flag("manual_effect", f"specific event {card}")
    if not tx.s.end_of_day_queue:
        finish_day(tx)


def resolve_plots(tx: Tx, it: ResolvePlots) -> None:
    _head(tx, "plot_resolution")
    tx.emit(PlotsResolved())
    apply_deltas(tx, it.deltas)
    tx.flag("manual_effect", "plot resolution")
    if not tx.s.end_of_day_queue:
        finish_day(tx)


# -- the killer (§6.2) ------------------------------------------------------------------------------------------

def determine_case(rules: BoundRules, s: State) -> Case:
    totals: dict[str, int] = {}
    discarded: dict[str, tuple[str, ...]] = {}
    perjury_value = int(rules.options["perjury_value"])
    before = rules.options["perjury_timing"] == "before_discards"

    def value(kind: str, converted: bool = False) -> int:
        if kind == "perjury":
            return perjury_value
        v = EVIDENCE.get(kind, (0, 0))[1]
        return 5 if converted and kind == "surprise_witness" else v

    for sus in s.active_suspects:
        data = rules.data.suspects[sus]
        st = s.suspects[sus]
        remaining: list[str] = []
        gone: list[str] = []
        for file in ("testimony", "physical", "document"):
            kinds = [t.kind for t in st.files.get(file, ())]
            single = len(kinds) == 1 and not rules.options["single_token_discard"]
            if kinds and not single and file in (data.weak_file, data.strong_file):
                n_perj = sum(1 for k in kinds if k == "perjury")
                conv = before and n_perj > 0

                def key(k: str, conv: bool = conv) -> int:
                    return value(k, conv)

                pick = max(kinds, key=key) if file == data.weak_file else min(kinds, key=key)
                kinds.remove(pick)
                gone.append(f"{file}:{pick}")
            remaining += kinds
        negatives = st.alibis + sum(1 for k in remaining if k == "surprise_witness")
        perjuries = sum(1 for k in remaining if k == "perjury")
        total = sum(value(k) for k in remaining) - 5 * st.alibis + 10 * min(perjuries, negatives)
        totals[sus] = total
        discarded[sus] = tuple(gone)
    eligible = {k: v for k, v in totals.items() if v > 0 and (s.suspects[k].alive or rules.options["dead_can_be_killer"])}
    killer: str | tuple[str, ...] = "none"
    if eligible:
        top = max(eligible.values())
        tied = tuple(k for k in s.active_suspects if eligible.get(k) == top)
        if len(tied) == 1:
            killer = tied[0]
        elif rules.options["killer_tie"] == "all_tied":
            killer = tied
    return Case(discarded=discarded, killer=killer, totals=totals)


def scores(rules: BoundRules, s: State) -> dict[str, int]:
    token_vp = dict(rules.options["token_vp"])
    out = {}
    for seat, p in s.players.items():
        vp = -p.trauma + p.vp + sum(d.vp for d in p.declared)
        vp += sum(int(token_vp.get(t, 1)) * n for t, n in p.tokens.items())
        out[seat] = vp
    return out


def declare_score(tx: Tx, it: DeclareScore) -> None:
    if it.seat not in tx.rules.players:
        tx.fail(Code.REF_UNKNOWN_SEAT, f"{it.seat!r} is not a seat{did_you_mean(it.seat, tx.rules.players)}", R_CLOSING)
    tx.emit(ScoreDeclared(seat=it.seat, source=it.source, vp=it.vp))
    tx.flag("declared_score", f"{it.seat} {it.source} {it.vp:+d}")


def close_case(tx: Tx, it: CloseCase) -> None:
    sc = scores(tx.rules, tx.s)
    best = max(sc.values()) if sc else 0
    tx.emit(CaseClosed(scores=sc, winners=tuple(s for s in tx.rules.players if sc.get(s) == best)))
