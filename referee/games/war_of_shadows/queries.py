"""What a state means on this match's board under its options: who controls a region or a council
position (§1.9), the turn order and whose move it is in each phase, where agents stand, what a draw
is owed and what the catalogue says of a card. :class:`Queries` is the base of the rules class, which
sets the match's parameters (:class:`~.rules.WarOfShadowsRules` reads them from the configuration);
the deciders, the views and the legal-intent lists all ask these questions of it, and name the rules by
this class (never the rules class, which imports them).
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from referee.engine.chance import Chance
from referee.engine.protocol import Verdict
from schemas import MatchConfig

from .data import EMPIRES, POSITIONS, ActionSpec, Board, CardDef, card_empire, split
from .model import Cursor, State


class Verdicts(Protocol):
    """The verdict on an intent (the engine's ``decide``, bound to the rules)."""

    def __call__(self, state: State, seat: str, intent: Any, chance: Chance | None,
                 waive: frozenset[str] = frozenset()) -> Verdict: ...


class Queries:
    """The questions the rules ask of a state, given the match's parameters."""

    #: the seats, in seating order
    players: tuple[str, ...]
    #: every option's value (given or default)
    options: dict[str, Any]
    #: which of the four modules (§6) the match uses
    modules: dict[str, bool]
    board: Board
    #: the card catalogue, None for a data set without one (every ability is then declared)
    catalogue: Mapping[str, CardDef] | None
    #: card_identity_mode=counted: hands and decks hold empires, not card ids
    counted: bool
    #: agents each player places per round (3 with two players, else 2)
    quota: int
    #: the empires' order in an empire phase (bear first)
    empire_order: tuple[str, ...]
    #: the match's configuration
    config: MatchConfig
    #: a digital match: the referee deals and draws
    digital: bool
    #: loyalty_secret_mode=unrecorded: loyalty tokens are never recorded, only revealed
    unrecorded: bool

    if TYPE_CHECKING:
        # the rules class's protocol methods that the decision (the fold) and the legal-intent lists (the
        # verdict on a filled-in intent) call back: declared for the type checker only, so that at run
        # time the rules class's own (or RulesBase's) stand

        def evolve(self, state: State, event: Any) -> State: ...

        def filled_intent(self, state: State, seat: str, intent: Any, chance: Chance | None) -> Any: ...

        decide: Verdicts

    def is_position(self, pid: Any) -> bool:
        if not isinstance(pid, str) or pid.count(".") != 1:
            return False
        e, p = split(pid)
        return e in EMPIRES and p in POSITIONS

    def is_region(self, rid: Any) -> bool:
        return isinstance(rid, str) and rid in self.board.by_id

    def home(self, rid: str) -> str | None:
        return self.board.region(rid).home

    def control(self, state: State, rid: str) -> str | None:
        """§1.9: the empire whose banners are there, else the home empire. During a pending combat
        the region still belongs to the defender."""
        return self.control_of(state.banners[rid], rid, state.cursor)

    def control_of(self, row: Mapping[str, int], rid: str, c: Cursor | None) -> str | None:
        """Control of ``rid`` were its banners ``row`` (banners by empire), the cursor being ``c``: see
        :meth:`control` (a declared effect asks it of the banners its changes leave)."""
        cols = [e for e in EMPIRES if row[e] > 0]
        if len(cols) == 1:
            return cols[0]
        if not cols:
            return self.home(rid)
        if c is not None and c.combat is not None and c.combat.region == rid:
            return c.combat.defender
        return self.home(rid)

    def conquered(self, state: State, rid: str, empire: str) -> bool:
        return self.control(state, rid) == empire and self.home(rid) != empire

    def controlled_regions(self, state: State, empire: str) -> list[str]:
        return [r for r in self.board.region_ids if self.control(state, r) == empire]

    def cities(self, state: State) -> dict[str, int]:
        out = {e: 0 for e in EMPIRES}
        for r in self.board.regions:
            owner = self.control(state, r.id)
            if owner is not None:
                out[owner] += r.cities
        return out

    def controller_at(self, state: State, empire: str, position: str) -> tuple[str | None, str | None]:
        """(seat, the position of the agent giving that control) for ``empire.position`` (§1.9)."""
        row = state.council[empire]
        for p in POSITIONS[POSITIONS.index(position):]:
            if row[p] is not None:
                return row[p], f"{empire}.{p}"
        return None, None

    def controller(self, state: State, empire: str, position: str) -> str | None:
        return self.controller_at(state, empire, position)[0]

    def turn_order(self, state: State) -> tuple[str, ...]:
        seats = state.seats or self.players
        first = state.first_player if state.first_player in seats else seats[0]
        i = seats.index(first)
        return tuple(seats[i:] + seats[:i])

    def next_seat(self, state: State, seat: str) -> str:
        seats = state.seats or self.players
        return seats[(seats.index(seat) + 1) % len(seats)]

    def ci_target(self, state: State, seat: str) -> str:
        seats = state.seats or self.players
        step = 1 if self.options["ci_target"] == "next_clockwise" else -1
        return seats[(seats.index(seat) + step) % len(seats)]

    def current_slot(self, state: State) -> str | None:
        c = state.cursor
        if c is None:
            return None
        return c.sub_position or f"{c.empire}.{c.position}"

    def next_collector(self, state: State) -> str | None:
        """The player to collect an agent next (agent phase, step 1)."""
        return self._first_not_in(state, state.agent_phase.collected)

    def _first_not_in(self, state: State, done: Container[str]) -> str | None:
        """The first player in turn order not in ``done``, None when all are."""
        return next((p for p in self.turn_order(state) if p not in done), None)

    def current_placer(self, state: State) -> str | None:
        if state.agent_phase.placements_made >= self.quota * len(self.players):
            return None
        order = self.turn_order(state)
        return order[state.agent_phase.placements_made % len(order)]

    def next_decider(self, state: State) -> str | None:
        """The player to swap or skip next (reveal phase, counter-intelligence swap phase)."""
        return self._first_not_in(state, state.reveal_phase.decided)

    def next_namer(self, state: State) -> str | None:
        """The player to name an empire next (counter-intelligence naming phase)."""
        return self._first_not_in(state, state.reveal_phase.named)

    def next_player(self, state: State) -> str | None:
        ph = state.phase
        if ph == "AGENT_COLLECT":
            return self.next_collector(state)
        if ph == "AGENT_PLACE":
            return self.current_placer(state)
        if ph == "EMPIRE_PHASE":
            return state.cursor.acting_player if state.cursor else None
        if ph in ("REVEAL", "CI_SWAP"):
            return self.next_decider(state)
        if ph == "CI_REVEAL":
            pending = state.reveal_phase.pending_naming
            return pending.target if pending else self.next_namer(state)
        return None

    def agents_on_board(self, state: State, seat: str) -> list[str]:
        out = [f"{e}.{p}" for e in EMPIRES for p in POSITIONS if state.council[e][p] == seat]
        out += [r for r in self.board.region_ids if seat in state.region_agents[r]]
        return out

    def region_agent_count(self, state: State, seat: str) -> int:
        return sum(1 for r in self.board.region_ids if seat in state.region_agents[r])

    def free_positions(self, state: State) -> list[str]:
        return [f"{e}.{p}" for e in EMPIRES for p in POSITIONS if state.council[e][p] is None]

    def region_limit_ok(self, state: State, seat: str) -> bool:
        if self.options["region_agent_limit_scope"] == "whole_board":
            return len(self.agents_on_board(state, seat)) < 2
        return self.region_agent_count(state, seat) < 2

    def can_place(self, state: State, seat: str) -> bool:
        if state.players[seat].agent_reserve < 1:
            return False
        if self.free_positions(state):
            return True
        if self.modules["region_agents"] and self.region_limit_ok(state, seat):
            return any(seat not in state.region_agents[r] for r in self.board.region_ids)
        return False

    def hand_has(self, hand: Sequence[str], card: str) -> bool:
        return card in hand or (self.counted and (card_empire(card) or card) in hand)

    def entitlement(self, state: State, empire: str, mode: str, symbol: str | None, divisor: int | None) -> int:
        if mode == "fixed":
            return 1
        assert symbol is not None and divisor
        count = sum(self.board.region(r).symbols(symbol) for r in self.controlled_regions(state, empire))
        if self.options["draw_rounding"] == "ceil":
            return -(-count // divisor)
        return count // divisor

    def expected_draw(self, state: State, empire: str, mode: str, symbol: str | None, divisor: int | None) -> int:
        return min(self.entitlement(state, empire, mode, symbol, divisor), len(state.deck[empire]))

    def actions_at(self, pid: str) -> tuple[ActionSpec, ...]:
        return self.board.council_actions[pid]

    def ability(self, card: str, index: int) -> Any:
        """The catalogue's ability, None for an uncatalogued card (declared cost and effect)."""
        if self.catalogue is None or card not in self.catalogue:
            return None
        return self.catalogue[card].abilities.get(index)

    def active_agent(self, state: State, slot: str) -> tuple[str | None, str | None]:
        """(owner, position) of the agent that gives control of ``slot`` (§4.13 "this agent")."""
        e, p = split(slot)
        return self.controller_at(state, e, p)

    def card_timings(self, card: str, ability: int, effect: str) -> tuple[str, ...]:
        ab = self.ability(card, ability)
        if ab is not None and ab.timing:
            return tuple(ab.timing)
        if effect in ("mutual_annihilation", "reinforcement"):
            return ("during",)
        if effect in ("relocate_agent", "borrow_action"):
            return ("before",)
        return ("before", "during", "after")
