"""What each role sees (§1.11, §1.13), the ids a seat must not see, and starting positions (§8.0).

* ``view(state, None)``: the full view — the state's paths plus the derived ones (``week``,
  ``climax``, ``evidence_pile_count``, ``puzzle.closed``, ``hand_count``, ``hand_origins``,
  ``setup_step``). A seat's view redacts with the mark ``"?"``: other seats' hands, hunches, memory
  cards and drawn tokens, face-down evidence it did not place (nor may peek at), the evidence pile's
  contents, the face-down parts of decks, the puzzle piles, the general event deck, the set-aside
  event until it is revealed, and the box. What is redacted never depends on the hidden truth.
* ``hidden_ids``: card ids (hands, memory cards, the set-aside event, the box) a seat does not know.
* Positions: base (the fixed setup, no chance fact), overrides, completion and the §1.2 invariants.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import msgspec
from msgspec.structs import replace

from referee.engine.position import Placed, PositionShape
from referee.engine.speech import N_

from .data import BANKS, EVIDENCE, FAVOR_TYPES, PILES
from .fold import evolve
from .model import (
    ComponentsPlaced, DayStarted, DetectiveAssigned, FirstPlayerChosen, HeroSetupApplied, MurderChosen, Npc,
    SpecificEventSetAside, State, Suspect,
)
from . import positioncheck
from .positioncheck import refused
from .setup import current_step
from .txn import BoundRules

if TYPE_CHECKING:
    from .data import Murder

H = "?"
DERIVED = ("week", "climax", "evidence_pile_count", "puzzle.closed", "players.*.hand_count", "players.*.hand_origins",
           "case", "setup_step")
POSITION_SHAPE = PositionShape(derived=DERIVED, seat_maps=("players",),
                               open_maps=("puzzle.placed", "players.*.npc_favors", "suspects"))


def _hand_origins(rules: BoundRules, hand: tuple[str, ...]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for c in hand:
        card = rules.data.cards.get(c)
        if card is not None:
            out.setdefault(card.detective, {}).setdefault(card.deck, 0)
            out[card.detective][card.deck] += 1
    return {k: dict(sorted(v.items())) for k, v in sorted(out.items())}


def view(rules: BoundRules, state: State, seat: str | None) -> dict[str, Any]:
    """The role's view, its mappings in key order (a live state and one decoded from a snapshot alike):
    the state's builtins come sorted (:func:`_builtins`), and the few mappings the view adds keys to or
    builds afresh are put in order where they are made (tests/test_android_view_order.py compares the
    bytes with a recursive sort of the whole view)."""
    data = _view(rules, state, seat)
    data["puzzle"] = _sorted(data["puzzle"])
    for s in state.players:
        data["players"][s] = _sorted(data["players"][s])
    return _sorted(data)


def _builtins(state: State) -> dict[str, Any]:
    """The state as builtins, every mapping's keys and every struct's fields in sorted order."""
    out: dict[str, Any] = msgspec.to_builtins(state, order="sorted")
    return out


def _sorted(mapping: dict[str, Any]) -> dict[str, Any]:
    """``mapping``'s keys in order (one level: what it holds is in order already)."""
    return {k: mapping[k] for k in sorted(mapping)}


def _view(rules: BoundRules, state: State, seat: str | None) -> dict[str, Any]:
    data: dict[str, Any] = _builtins(state)
    full = seat is None
    ended = state.phase in ("closing", "over")
    reveal_hunches = ended and rules.options["closing_reveal"] == "all"
    data["setup_step"] = current_step(rules, state) if state.phase == "setup" else None
    data["week"] = 1 if state.day <= rules.data.days_per_week else 2
    data["climax"] = state.phase != "setup" and rules.climax(state)
    data["evidence_pile_count"] = sum(state.evidence_pile.values())
    data["puzzle"]["closed"] = bool(state.puzzle.markers) and not any(state.puzzle.piles.values())
    data.pop("result", None)
    for s, p in state.players.items():
        row = data["players"][s]
        row["hand_count"] = len(p.hand)
        row["hand_origins"] = _hand_origins(rules, p.hand)
        row.setdefault("special", {})
        if full or s == seat:
            continue
        row["hand"] = [H for _ in p.hand]
        if p.hunches is not None and not reveal_hunches:
            row["hunches"] = {"guilty": H, "innocent": H}
        if p.memory_card is not None and rules.options["memory_card_visibility"] == "holder":
            row["memory_card"] = H
        if p.drawn_evidence is not None:
            row["drawn_evidence"] = H
    if full:
        return data
    for sus, st in state.suspects.items():
        for file, tokens in st.files.items():
            for i, t in enumerate(tokens):
                if not (t.face_up or t.placed_by == seat or seat in st.peeked_by):
                    data["suspects"][sus]["files"][file][i]["kind"] = H
    la = state.last_action
    if la is not None and la.card is not None and la.seat != seat:
        data["last_action"]["card"] = H
    if la is not None and la.undo and la.seat != seat:  # the seat's own (a card an effect moved is its to name)
        data["last_action"]["undo"] = [H for _ in la.undo]
    data["evidence_pile"] = {k: H for k in sorted(state.evidence_pile)}
    data["puzzle"]["piles"] = {k: [H for _ in v] for k, v in sorted(state.puzzle.piles.items())}
    for det, kinds in state.decks.items():
        for kind, d in kinds.items():
            data["decks"][det][kind]["face_down"] = [H for _ in d.face_down]
    ev = data["events"]
    ev["general_deck"] = [H for _ in state.events.general_deck]
    if state.events.specific is not None and not state.events.specific_revealed:
        ev["specific"] = H
    data["box"] = [H for _ in state.box]
    data["pending"] = [_step_view(st, seat) for st in data["pending"]]
    return data


def _step_view(step: dict[str, Any], seat: str | None) -> dict[str, Any]:
    if step.get("kind") is not None and step.get("seat") != seat:
        step = {**step, "kind": H}
    return step


def hidden_ids(rules: BoundRules, state: State, seat: str | None) -> frozenset[str]:
    if seat is None:
        return frozenset()
    out: set[str] = set()
    for s, p in state.players.items():
        if s != seat:
            out.update(p.hand)
            if p.memory_card and rules.options["memory_card_visibility"] == "holder":
                out.add(p.memory_card)
    if state.events.specific and state.events.specific != "sealed" and not state.events.specific_revealed:
        out.add(state.events.specific)
    out.update(x for x in state.box if not x.startswith("hunch."))
    # what the seat itself holds is its own
    me = state.players.get(seat)
    if me is not None:
        out.difference_update(me.hand)
        if me.memory_card:
            out.discard(me.memory_card)
    return frozenset(out)


# -- positions (§8.0) ---------------------------------------------------------------------------------------

def position_base(rules: BoundRules, state: State, overrides: Mapping[str, Any]) -> State:
    if overrides.get("phase") == "setup":
        return state
    murder = str(overrides.get("murder") or rules.data.murder_order[0])
    if murder not in rules.data.murders:
        raise refused(N_("position path 'murder': no murder {murder!r} in the data set"), murder=murder)
    events: list[Any] = [MurderChosen(murder=murder)]
    for s in rules.players:
        det = str(overrides.get(f"players.{s}.detective") or s)
        if det not in rules.data.detectives:
            raise refused(N_("position path 'players.{seat}.detective': no detective {detective!r} (a seat is named "
                             "after its detective unless the position says otherwise)"), seat=s, detective=det)
        events.append(DetectiveAssigned(seat=s, detective=det))
    first = str(overrides.get("first_player") or rules.players[0])
    if first not in rules.players:
        raise refused(N_("position path 'first_player': {seat!r} is not a seat"), seat=first)
    events += [ComponentsPlaced(), SpecificEventSetAside(card="sealed"), FirstPlayerChosen(seat=first)]
    for s in rules.players:
        events.append(HeroSetupApplied(seat=s, detective=str(overrides.get(f"players.{s}.detective") or s)))
    for e in events:
        state = evolve(rules, state, e)
    state = replace(state, setup=replace(state.setup, extra_drawn=True, memory_dealt=True))
    return evolve(rules, state, DayStarted(day=1, seat=first, time=0))


def position_value(rules: BoundRules, path: str, value: Any, data: dict[str, Any]) -> Any:
    if path == "events.active" and isinstance(value, list):
        out = []
        for a in value:
            if isinstance(a, dict) and "cost" in a:
                a = {**{k: v for k, v in a.items() if k != "cost"}, "time": int(dict(a["cost"]).get("time", 0))}
            out.append(a)
        return out
    return value


def complete_position(rules: BoundRules, state: State, placed: Placed) -> State:
    """What the position does not give, completed from what it places (the turn, the cards, the
    players' supplies, the box, the general events, the puzzle, the evidence pile, the banks) and
    checked, in that order, then the invariants of :mod:`.positioncheck`."""
    if state.phase == "setup" and not state.murder:
        return state
    m = rules.data.murders.get(state.murder or "")
    if m is None:
        raise refused(N_("position path 'murder': no murder {murder!r}"), murder=state.murder)
    positioncheck.seats(rules, state)
    if "active_suspects" not in placed:
        state = replace(state, active_suspects=m.suspects[: len(rules.players) + 1])
    suspects = dict(state.suspects)
    for s in state.active_suspects:
        if s not in suspects:
            suspects[s] = Suspect(files={t: () for t in ("testimony", "physical", "document")})
    state = replace(state, suspects=suspects)
    state = _complete_turn(rules, state, placed, m)
    dets = sorted({p.detective for p in state.players.values() if p.detective})
    state, box = _complete_cards(rules, state, placed, dets)
    state = _complete_players(rules, state, placed)
    if "box" not in placed:
        state = _complete_box(rules, state, box, dets, m)
    # the general event deck: the cards on the map (active abilities) or discarded are out of it
    if "events.general_deck" not in placed:
        out = {a.event for a in state.events.active} | set(state.events.general_discard)
        state = replace(state, events=replace(state.events, general_deck=tuple(
            c for c in state.events.general_deck if c not in out)))
    state = _complete_puzzle(rules, state, placed)
    state = _complete_evidence(state, placed)
    state = _complete_banks(rules, state, placed)
    for sus, st in state.suspects.items():
        if st.hits >= 3 and st.alive:
            raise refused(N_("position path 'suspects.{suspect}.alive': a suspect with 3 hits is dead"), suspect=sus)
    positioncheck.check(rules, state)
    return state


def _complete_turn(rules: BoundRules, state: State, placed: Placed, m: Murder) -> State:
    """The turn bookkeeping: turn order, the active seat, the time sheet, Lily and Jimmy's places."""
    if "turn_order" not in placed:
        state = replace(state, turn_order=rules.rotation(state.first_player or rules.players[0]))
    if state.phase == "day":
        left = [s for s in state.turn_order if s not in state.turns_done]
        if "active_seat" not in placed:
            state = replace(state, active_seat=left[0] if left else None)
        if "time_sheet_holder" not in placed:
            state = replace(state, time_sheet_holder=state.active_seat)
        if "time_left" not in placed and state.active_seat:
            state = replace(state, time_left=rules.base_time(state, state.active_seat))
    elif "active_seat" not in placed:
        state = replace(state, active_seat=None)
    if "lily_lockwell" not in placed:
        week2 = state.day > rules.data.days_per_week
        state = replace(state, lily_lockwell=m.lily[1 if week2 else 0], jimmy_the_snitch=m.jimmy[1 if week2 else 0])
    return state


def _complete_cards(rules: BoundRules, state: State, placed: Placed, dets: list[str]) -> tuple[State, set[str]]:
    """The decks' face-down cards: those of the detectives in play held nowhere else (hands, in play, a
    deck's bottom, the box); no card in two zones. Also the box as far as the decks fill it."""
    held: Counter[str] = Counter()
    for p in state.players.values():
        held.update(p.hand)
        held.update(p.in_play)
    for det, kinds in state.decks.items():
        for d in kinds.values():
            held.update(d.bottom)
    decks = {k: dict(v) for k, v in state.decks.items()}
    box = set(state.box)
    for det in dets:
        for kind in ("dark", "light"):
            cards = sorted(c.id for c in rules.data.cards.values() if c.detective == det and c.deck == kind)
            path = f"decks.{det}.{kind}.face_down"
            if path in placed:
                fd = decks[det][kind].face_down
                for c in fd:
                    held[c] += 1
                if "box" not in placed:
                    box.update(c for c in cards if held[c] == 0)
            else:
                decks[det][kind] = replace(decks[det][kind], face_down=tuple(c for c in cards if held[c] == 0 and c not in box))
                held.update(decks[det][kind].face_down)
    state = replace(state, decks=decks)
    twice = sorted(c for c, n in held.items() if n > 1)
    if twice:
        raise refused(N_("position: card(s) {cards} are in two zones at once (hands, in_play, decks)"),
                      cards=", ".join(twice))
    return state, box


def _complete_players(rules: BoundRules, state: State, placed: Placed) -> State:
    """Each player's zones sorted, and the warrant, favour and hero marker supplies not given."""
    players = dict(state.players)
    for s, p in players.items():
        p = replace(p, hand=tuple(sorted(p.hand)), in_play=tuple(sorted(p.in_play)), warrants=tuple(sorted(p.warrants)))
        players[s] = p
        if not p.detective:
            continue
        dd = rules.data.detectives[p.detective]
        if f"players.{s}.warrant_supply" not in placed:
            p = replace(p, warrant_supply=2 - len(p.warrants))
        npc = dict(p.npc)
        for n, _st, tokens in dd.npcs:
            if f"players.{s}.npc.{n}.favor_supply" not in placed and n in npc:
                npc[n] = replace(npc[n], favor_supply=max(0, tokens - p.npc_favors.get(n, 0)))
            elif n not in npc:
                npc[n] = Npc(favor_supply=tokens)
        p = replace(p, npc=npc)
        if f"players.{s}.hero_markers_free" not in placed:
            used = (state.scene.hero == s) + (state.puzzle.markers.get(s, "box") != "box") \
                + int(dd.hero_setup.get("hero_markers", 0))
            p = replace(p, hero_markers_free=5 - used)
        players[s] = p
    return replace(state, players=players)


def _complete_box(rules: BoundRules, state: State, box: set[str], dets: list[str], m: Murder) -> State:
    """The box: the hunches, memory cards and specific events not dealt, with what the decks left."""
    if all(p.hunches for p in state.players.values()):
        for word in ("guilty", "innocent"):
            dealt = {getattr(p.hunches, word) for p in state.players.values() if p.hunches}
            box.update(f"hunch.{word}.{x}" for x in state.active_suspects if x not in dealt)
    if any(p.memory_card for p in state.players.values()):
        held_mem = {p.memory_card for p in state.players.values()}
        for det in dets:
            box.update(c for c in rules.data.detectives[det].memory_cards if c not in held_mem)
    spec = state.events.specific
    if spec and spec != "sealed":
        box.update(e for e in m.specific_events if e != spec)
    return replace(state, box=tuple(sorted(box)))


def _complete_puzzle(rules: BoundRules, state: State, placed: Placed) -> State:
    """The puzzle's piles hold the pieces placed nowhere else; given piles, a piece nowhere is discarded."""
    pz = state.puzzle
    pieces = rules.data.puzzle.pieces
    if "puzzle.piles" not in placed:
        taken = {x.piece for x in pz.placed.values()} | set(pz.discarded) | {st.piece for st in state.pending if st.piece}
        pz = replace(pz, piles={t: tuple(sorted(p.id for p in pieces.values() if p.type == t and p.id not in taken))
                                for t in PILES})
    else:
        somewhere = {x.piece for x in pz.placed.values()} | set(pz.discarded) | {st.piece for st in state.pending if st.piece} \
            | {x for v in pz.piles.values() for x in v}
        missing = [p for p in sorted(pieces) if p not in somewhere]
        pz = replace(pz, discarded=tuple(sorted((*pz.discarded, *missing))))
    return replace(state, puzzle=pz)


def _complete_evidence(state: State, placed: Placed) -> State:
    """The evidence pile: each kind's tokens not on a sheet or drawn; the two add up to its count."""
    on_sheets: Counter[str] = Counter(t.kind for s in state.suspects.values() for toks in s.files.values() for t in toks)
    on_sheets.update(p.drawn_evidence for p in state.players.values() if p.drawn_evidence)
    if "evidence_pile" not in placed:
        state = replace(state, evidence_pile={k: c - on_sheets.get(k, 0) for k, (c, _v) in EVIDENCE.items()})
    for k, (count, _v) in EVIDENCE.items():
        if state.evidence_pile.get(k, 0) + on_sheets.get(k, 0) != count or state.evidence_pile.get(k, 0) < 0:
            raise refused(N_("position path 'evidence_pile.{kind}': {pile} in the pile and {placed} placed make not "
                             "{count}"), kind=k, pile=state.evidence_pile.get(k, 0), placed=on_sheets.get(k, 0),
                          count=count)
    return state


def _complete_banks(rules: BoundRules, state: State, placed: Placed) -> State:
    """Each bank: its size less what is in play, unless given; the two add up to its size."""
    banks = dict(state.banks)
    used_by: dict[str, int] = {
        **{f"{t}_favor": sum(p.favors.get(t, 0) for p in state.players.values()) for t in FAVOR_TYPES},
        "alibi": sum(s.alibis for s in state.suspects.values()),
        "hit": sum(s.hits for s in state.suspects.values()),
        "trauma": sum(p.trauma for p in state.players.values()),
        "dropship_pass": sum(p.dropship_passes for p in state.players.values()),
        "baggage": sum((p.plot.good_baggage + p.plot.bad_baggage) if p.plot else 0 for p in state.players.values()),
        **{t: sum(p.tokens.get(t, 0) for p in state.players.values()) for t in ("haas", "jinteki", "conspiracy")},
    }
    for bank, size in BANKS.items():
        if bank == "alibi":
            size = int(rules.options["alibi_supply"])
        if f"banks.{bank}" not in placed:
            banks[bank] = size - used_by[bank]
        if (banks[bank] < 0 and rules.options["bank_limits"] == "hard") or banks[bank] + used_by[bank] != size:
            raise refused(N_("position path 'banks.{bank}': {held} in the bank and {used} in play make not {size}"),
                          bank=bank, held=banks[bank], used=used_by[bank], size=size)
    return replace(state, banks=banks)
