"""The referee's working copy while it decides one intent, and the rulebook's routines.

``decide`` resolves an intent on a :class:`Txn`: every change is an event, applied at once with the
same ``evolve`` the fold uses, so what ``decide`` saw is exactly what a replay produces. A check that
fails raises a refusal, which ``decide`` turns into a ``Rejected`` verdict (nothing is kept).

Routines (rules spec): the counter primitives (4.12), loyalty changes with the negative-loyalty
penalty (4.8), influence entry and reversal, ``send_agent_to_utility`` (4.9), ``territory_leaves``
(4.8), territory and agent entry, the buffer cleanup of a combination (4.5), the status check (5)
and the beginning of a turn (3.3).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

from referee.engine.chance import Chance
from referee.engine.decision import Decision
from referee.engine.protocol import Rules

from .codes import Code
from .data import Card, CardSet, Combination
from .fold import evolve, get_obj
from .geometry import Field
from .model import (
    Agent,
    AgentTurned,
    CardMoved,
    CounterChanged,
    DecisionOpened,
    GameOver,
    Graffiti,
    ImpactsBooked,
    InfluenceBooked,
    LoyaltyChanged,
    NeutralCard,
    Pending,
    State,
    SymbolsCleared,
    Territory,
    TokensChanged,
    TurnBegan,
)

P = "by_all_means/"


@dataclass(frozen=True)
class Ctx:
    """What the rules know of one match besides its state: seats, cards, options, the field."""

    players: tuple[str, str]
    cards: CardSet
    opts: dict[str, Any]
    field: Field
    table: dict[tuple[str, str], Combination]
    exact: bool
    digital: bool
    slots: tuple[str, ...]
    decks: dict[str, tuple[str, ...]]

    def card(self, cid: str) -> Card:
        return self.cards.cards[cid]

    @cached_property
    def graffiti_agents(self) -> frozenset[str]:
        """The ids of the card set's graffiti agents."""
        return frozenset(cid for cid, card in self.cards.cards.items() if card.type == "graffiti_agent")

    def opp(self, seat: str) -> str:
        a, b = self.players
        return b if seat == a else a

    @cached_property
    def everyone(self) -> frozenset[str]:
        """Both seats (who may act when anyone may)."""
        return frozenset(self.players)

    @cached_property
    def _alone(self) -> dict[str, frozenset[str]]:
        return {seat: frozenset([seat]) for seat in self.players}

    def alone(self, seat: str) -> frozenset[str]:
        """Only ``seat`` (one set per seat, made once)."""
        only = self._alone.get(seat)
        return frozenset([seat]) if only is None else only

    def south(self, seat: str) -> bool:
        return seat == self.players[0]


class BoundRules(Rules[State, Any, Any], Protocol):
    """The rules bound to one match as the modules below :mod:`.rules` read them (``ByAllMeansRules`` is
    one): the engine's rules protocol (who may act, the verdict on an intent), and the match's context."""

    @property
    def ctx(self) -> Ctx: ...


class FieldScan:
    """One pass over a field object (see :meth:`Txn._scan`): its territories, face-up agents and
    face-up graffiti agents, each in canonical cell order. The field is immutable (every change
    makes a new one), so a scan stays true for as long as ``field`` is the state's field. Its
    lists are shared by every reader of the scan: read them, never change them."""

    __slots__ = ("field", "territories", "agents", "flipped")

    def __init__(self, ctx: Ctx, field: dict[str, Any]) -> None:
        self.field = field
        graffiti_agents = ctx.graffiti_agents
        territories: list[tuple[str, Territory]] = []
        a, b = ctx.players
        agents: dict[str, list[tuple[str, Agent]]] = {a: [], b: []}
        flipped: dict[str, int] = {a: 0, b: 0}
        for c in ctx.field.cells:
            cell = field[c]
            t = cell.territory
            if t is not None:
                territories.append((c, t))
            agent = cell.agent
            if agent is not None:
                agents.setdefault(agent.controller, []).append((c, agent))
            g = cell.graffiti
            if g is not None and g.face == "up" and g.card in graffiti_agents:
                flipped[g.controller] = flipped.get(g.controller, 0) + 1
        #: every territory: (cell, territory)
        self.territories: tuple[tuple[str, Territory], ...] = tuple(territories)
        #: the face-up agents (in agent slots) each seat controls: (cell, agent)
        self.agents = agents
        #: how many graffiti agents lie face up in a graffiti slot, by controller
        self.flipped = flipped


class Txn(Decision):
    """One decision of By All Means (see :class:`referee.engine.decision.Decision`): the routines of
    the rules spec, each emitting events that are applied at once."""

    __slots__ = ("ctx", "opts", "_exact", "_digital", "chance", "flipped", "deferred", "_scans", "seat")
    state: State

    def __init__(self, ctx: Ctx, state: State, waive: frozenset[str] = frozenset(), chance: Chance | None = None,
                 scans: list[FieldScan | None] | None = None) -> None:
        """``scans`` holds the last :meth:`_scan` of the decisions sharing it (the rules hand each of theirs
        the same, so a decision reuses the one before's while the field is that very object)."""
        super().__init__(P, state, waive=waive)
        self.ctx = ctx
        #: the match options (``ctx.opts``)
        self.opts = ctx.opts
        self._exact = ctx.exact
        self._digital = ctx.digital
        self.chance = chance
        #: cells where a face-down graffiti agent turned face up during this intent
        self.flipped: list[str] = []
        #: a decision the effect awaits, opened once the combination's checks are done
        self.deferred: Pending | None = None
        self._scans: list[FieldScan | None] = [None] if scans is None else scans
        #: who submitted the intent (set by ``decide``)
        self.seat = ""

    # -- plumbing -------------------------------------------------------------------------------------

    def emit(self, *events: Any) -> None:
        """Record events and apply them at once (with ``evolve``, as the fold does)."""
        for event in events:
            self.state = evolve(self.state, event, self._exact, self._digital)
            self.events.append(event)

    def apply(self, state: State, event: Any) -> State:
        return evolve(state, event, self._exact, self._digital)

    def new_oid(self) -> int:
        return self.state.next_oid

    # -- reading the state ----------------------------------------------------------------------------

    def player(self, seat: str) -> Any:
        return self.state.players[seat]

    def cells(self) -> tuple[str, ...]:
        return self.ctx.field.cells

    def _scan(self) -> FieldScan:
        """The scan of the current field, kept while the field is the same object."""
        scans = self._scans
        scanned = scans[0]
        field = self.state.field
        if scanned is None or scanned.field is not field:
            scanned = scans[0] = FieldScan(self.ctx, field)
        return scanned

    def face_up_agents(self, seat: str) -> list[tuple[str, Agent]]:
        return list(self._scan().agents.get(seat, ()))

    def agent_count(self, seat: str) -> int:
        scan = self._scan()
        return len(scan.agents.get(seat, ())) + scan.flipped.get(seat, 0)

    def territories(self, seat: str | None = None) -> tuple[tuple[str, Territory], ...]:
        """(cell, territory) in cell order: every territory, or those ``seat`` controls."""
        found = self._scan().territories
        if seat is None:
            return found
        return tuple([(c, t) for c, t in found if t.controller == seat])

    # -- counters (4.12) ------------------------------------------------------------------------------

    def _set(self, seat: str, counter: str, after: int, cause: str) -> None:
        before = getattr(self.state.players[seat], counter)
        if after != before:
            self.emit(CounterChanged(seat=seat, counter=counter, before=before, after=after, cause=cause))

    def lose(self, seat: str, counter: str, n: int, cause: str) -> None:
        """A loss: reputation or influence below 0 is taken from trust instead (never below 0)."""
        if n <= 0:
            return
        p = self.player(seat)
        if counter == "trust":
            self._set(seat, "trust", max(0, p.trust - n), cause)
            return
        value = getattr(p, counter)
        if value >= n:
            self._set(seat, counter, value - n, cause)
        else:
            self._set(seat, counter, 0, cause)
            self._set(seat, "trust", max(0, p.trust - (n - value)), f"{counter} shortfall ({cause})")

    def gain(self, seat: str, counter: str, n: int, cause: str) -> None:
        if n <= 0:
            return
        p = self.player(seat)
        old = getattr(p, counter)
        new = old + n
        if counter == "trust" and self.opts["trust_cap"] != "none":
            cap = int(self.opts["trust_cap"])
            new = max(old, min(cap, new))
        self._set(seat, counter, new, cause)
        if counter == "reputation":
            limit = self.opts["excess_threshold"]
            if self.opts["excess_reputation"] == "incremental":
                excess = max(0, new - limit) - max(0, old - limit)
            else:
                excess = max(0, new - limit)
            if excess > 0:
                self.lose(seat, "trust", excess, f"reputation above {limit}")

    def pay(self, seat: str, price: int, cause: str) -> None:
        """Paying a price lowers reputation; it is not a loss (with option price_shortfall=trust the
        rest comes from trust)."""
        if price <= 0:
            return
        rep = self.player(seat).reputation
        if rep >= price:
            self._set(seat, "reputation", rep - price, cause)
        else:
            self._set(seat, "reputation", 0, cause)
            self._set(seat, "trust", max(0, self.player(seat).trust - (price - rep)), f"price shortfall ({cause})")

    # -- loyalty (4.8) --------------------------------------------------------------------------------

    def change_loyalty(self, cell: str, delta: int, cause: str) -> None:
        t = self.state.field[cell].territory
        if t is None or delta == 0:
            return
        old, new = t.loyalty, t.loyalty + delta
        self.emit(LoyaltyChanged(cell=cell, before=old, after=new, cause=cause))
        if self.opts["negative_loyalty_penalty"] == "incremental":
            penalty = max(0, -new) - max(0, -old)
        else:
            penalty = -new if new < old and new < 0 else 0
        if penalty > 0:
            self.lose(t.controller, "reputation", penalty, f"negative loyalty of {t.card} at {cell}")

    # -- influence (R-TERRITORY «Влияние») -----------------------------------------------------------

    def influence_applies(self, card: Card) -> bool:
        return card.influence != 0 and (self.opts["object_influence"] == "all_field_cards" or card.type == "territory")

    def influence_enter(self, ref: str) -> None:
        obj = get_obj(self.state, ref)
        card = self.ctx.card(obj.card)
        if not self.influence_applies(card):
            return
        printed = card.influence
        taken = 0
        if printed > 0:
            self.gain(obj.controller, "influence", printed, f"{card.id} enters the field")
        else:
            other = self.ctx.opp(obj.controller)
            taken = min(self.player(other).influence, -printed)
            self.lose(other, "influence", -printed, f"{card.id} enters the field")
        self.emit(InfluenceBooked(ref=ref, inf=printed, inf_taken=taken))

    def influence_leave(self, obj: Any, cause: str) -> None:
        if obj.inf > 0:
            self.lose(obj.controller, "influence", obj.inf, cause)
        elif obj.inf < 0:
            back = -obj.inf if self.opts["influence_reversal"] == "printed" else obj.inf_taken
            self.gain(self.ctx.opp(obj.controller), "influence", back, cause)

    # -- moving cards ---------------------------------------------------------------------------------

    def move(self, card: str, owner: str, src: str, dst: str, **kw: Any) -> None:
        self.emit(CardMoved(card=card, owner=owner, src=src, dst=dst, **kw))

    def to_utility(self, card: str, owner: str, src: str, cause: str = "") -> None:
        """Every card going to a utility goes to its owner's (R-ILLEGAL-ZONES)."""
        self.move(card, owner, src, f"{owner}.utility", cause=cause)

    def entry_tokens(self, card: Card, src_zone: str, src_tokens: tuple[str, ...], lilac: list[str] | None) -> tuple[str, ...]:
        """Active symbols of a card entering the field (4.5): from a buffer it keeps its tokens; from
        hand its printed symbols (A-17), a lilac staying inert (A-38) unless chosen on entry."""
        if src_zone != "hand":
            return src_tokens
        if self.opts["hand_to_field_symbols"] == "none":
            return ()
        out = []
        neutral = self.ctx.cards.neutral_symbol
        for s in card.symbols:
            if s == neutral and self.opts["field_lilac"] == "choose_on_entry":
                chosen = self._lilac_choice(card.id, lilac)
                out.append(chosen)
            else:
                out.append(s)
        return tuple(sorted(out))

    def _lilac_choice(self, cid: str, lilac: list[str] | None) -> str:
        prefix = f"{cid}:"
        for i, item in enumerate(lilac or []):
            if item.startswith(prefix):
                symbol = item[len(prefix):]
                if symbol not in self.ctx.cards.active_symbols:
                    self.fail(Code.LILAC_CHOICE_REQUIRED,
                              f"lilac_as {item}: {symbol!r} is not an active symbol ({', '.join(self.ctx.cards.active_symbols)})",
                              "R-SYMBOLS")
                del lilac[i]  # type: ignore[union-attr]
                return symbol
        self.fail(Code.LILAC_CHOICE_REQUIRED, f"{cid} prints a lilac symbol: name its active symbol with lilac_as={cid}:SYMBOL",
                  "R-SYMBOLS")

    # -- agents (4.9) ---------------------------------------------------------------------------------

    def send_agent_to_utility(self, cell: str, cause: str, chain: bool = True) -> None:
        a = self.state.field[cell].agent
        assert a is not None
        if a.shadow is not None:
            self.move(a.shadow, a.shadow_owner or a.controller, f"{cell}/shadow", f"{a.shadow_owner or a.controller}.utility",
                      cause=f"the shadow absorbs it ({cause})")
            return
        self.agent_leaves(cell, cause)
        if chain:
            for other_cell, other in face_up_agents(self.ctx, self.state, self.ctx.opp(a.controller)):
                if other.card == a.card:
                    self.send_agent_to_utility(other_cell, f"double agent of {a.card}", chain=False)
                    break

    def agent_leaves(self, cell: str, cause: str, with_shadow: bool = False) -> None:
        """The agent (and, for the whole stack, its shadow) goes to its owner's utility: its territory
        loses the presence bonus, its influence is reversed."""
        a = self.state.field[cell].agent
        assert a is not None
        if with_shadow and a.shadow is not None:
            self.move(a.shadow, a.shadow_owner or a.controller, f"{cell}/shadow", f"{a.shadow_owner or a.controller}.utility", cause=cause)
        self.to_utility(a.card, a.owner, f"{cell}/agent", cause)
        t = self.state.field[cell].territory
        if t is not None and t.controller == a.controller:
            self.change_loyalty(cell, -1, f"{a.card} left {cell}")
        self.influence_leave(a, f"{a.card} left the field")

    def kill_stack(self, cell: str, cause: str) -> None:
        """The agent leaves with its shadow (no absorbing), and its double follows."""
        a = self.state.field[cell].agent
        assert a is not None
        self.agent_leaves(cell, cause, with_shadow=True)
        for other_cell, other in face_up_agents(self.ctx, self.state, self.ctx.opp(a.controller)):
            if other.card == a.card:
                self.send_agent_to_utility(other_cell, f"double agent of {a.card}", chain=False)
                break

    def place_agent(self, card: Card, owner: str, src: str, cell: str, tokens: tuple[str, ...]) -> None:
        """N4-N5: place it (turned false, entered this turn), presence bonus, influence."""
        self.move(card.id, owner, src, f"{cell}/agent", oid=self.new_oid(), controller=owner, tokens=tokens,
                  entered_turn=self.state.turn.number, cause="deployed")
        t = self.state.field[cell].territory
        if t is not None and t.controller == owner:
            self.change_loyalty(cell, 1, f"{card.id} stands on it")
        self.influence_enter(f"{cell}/agent")

    # -- territories (4.8) ----------------------------------------------------------------------------

    def arrow_cells(self, cell: str, t: Territory) -> list[str]:
        card = self.ctx.card(t.card)
        frame = t.controller if self.opts["arrow_frame"] == "controller" else t.owner
        return list(self.ctx.field.arrow_cells(cell, card.arrows, self.ctx.south(frame)))

    def impacts(self, cell: str) -> None:
        """E4: the new territory's arrows change its targets' loyalty, then the neighbours' arrows
        pointing at it change its own; each in cell order."""
        new = self.state.field[cell].territory
        assert new is not None
        card = self.ctx.card(new.card)
        made: list[tuple[int, int]] = []
        for target in self.arrow_cells(cell, new):
            t = self.state.field[target].territory
            if t is None:
                continue
            delta = card.impact_own if t.controller == new.controller else card.impact_opp
            if delta:
                self.change_loyalty(target, delta, f"impact of {card.id} at {cell}")
                made.append((t.oid, delta))
        for n in self.ctx.field.neighbours(cell):
            t = self.state.field[n].territory
            if t is None or cell not in self.arrow_cells(n, t):
                continue
            tcard = self.ctx.card(t.card)
            delta = tcard.impact_own if t.controller == new.controller else tcard.impact_opp
            if delta:
                self.change_loyalty(cell, delta, f"impact of {tcard.id} at {n}")
        if made:
            self.emit(ImpactsBooked(cell=cell, impacts=tuple(made)))

    def territory_leaves(self, cell: str, cause: str) -> list[str]:
        """The routine of 4.8; returns the cards that left (for on-leave texts)."""
        c = self.state.field[cell]
        t = c.territory
        assert t is not None
        left = [t.card]
        self.to_utility(t.card, t.owner, f"{cell}/territory", cause)
        self.influence_leave(t, f"{t.card} left the field")
        if self.opts["impact_on_leave"] == "revert":
            for oid, delta in t.impacts:
                for other in self.cells():
                    o = self.state.field[other].territory
                    if o is not None and o.oid == oid:
                        self.change_loyalty(other, -delta, f"impact of {t.card} reverted")
        g = self.state.field[cell].graffiti
        if g is not None and g.face == "up" and self.opts["orphan_graffiti"] == "to_utility" and not self.is_flipped_agent(g):
            self.to_utility(g.card, g.owner, f"{cell}/graffiti", "its territory left")
            self.influence_leave(g, f"{g.card} left the field")
            left.append(g.card)
        elif g is not None and g.face == "down":
            self.flip(cell, g)
        for plot in self.state.field[cell].attached:
            self.move(plot.card, plot.owner, f"{cell}/attached", f"{plot.owner}.utility", oid=plot.oid, cause="its territory left")
            left.append(plot.card)
        return left

    def is_flipped_agent(self, g: Graffiti) -> bool:
        """A graffiti agent lying face up in a graffiti slot (option flip_collision=coexist)."""
        return g.face == "up" and self.ctx.card(g.card).type == "graffiti_agent"

    def flip(self, cell: str, g: Graffiti) -> None:
        """A face-down graffiti agent whose territory left turns face up as an agent (4.8 step 3)."""
        if self.state.field[cell].agent is None:
            self.move(g.card, g.owner, f"{cell}/graffiti", f"{cell}/agent", oid=g.oid, controller=g.controller,
                      entered_turn=self.state.turn.number, cause="flipped face up")
            self.influence_enter(f"{cell}/agent")
            self.flipped.append(cell)
        elif self.opts["flip_collision"] == "coexist":
            self.move(g.card, g.owner, f"{cell}/graffiti", f"{cell}/graffiti", oid=g.oid, controller=g.controller,
                      face="up", cause="flipped face up beside the agent")
        else:
            self.to_utility(g.card, g.owner, f"{cell}/graffiti", "flipped onto a cell with an agent")

    def remove_graffiti(self, cell: str, cause: str) -> None:
        g = self.state.field[cell].graffiti
        assert g is not None
        self.to_utility(g.card, g.owner, f"{cell}/graffiti", cause)
        if g.face == "down":
            self.change_loyalty(cell, -1, f"face-down {g.owner} graffiti agent left")
        else:
            self.influence_leave(g, f"{g.card} left the field")

    def destroy(self, ref: str, cause: str) -> list[str]:
        """An object leaves by its routine (``destroy:`` and effects): agents and territories by
        theirs, anything else to its owner's utility."""
        cell, slot = ref.split("/") if "/" in ref else (ref, "territory")
        if "." in cell:
            obj = get_obj(self.state, ref)
            self.to_utility(obj.card, obj.owner, ref, cause)
            return [obj.card]
        if slot == "agent":
            card = self.state.field[cell].agent.card  # type: ignore[union-attr]
            self.send_agent_to_utility(cell, cause)
            return [card]
        if slot == "graffiti":
            card = self.state.field[cell].graffiti.card  # type: ignore[union-attr]
            self.remove_graffiti(cell, cause)
            return [card]
        return self.territory_leaves(cell, cause)

    # -- decisions, limits --------------------------------------------------------------------------

    def open_decision(self, pending: Pending) -> None:
        self.emit(DecisionOpened(pending=pending))

    def limit_exceeded(self) -> tuple[str, list[str]] | None:
        """A player controlling more face-up agents than the limit (after a flip): (seat, cells of the
        agents that may be given up)."""
        active = self.state.turn.active or self.ctx.players[0]
        by_seat = self._scan().agents
        limit = self.opts["agent_limit"]
        for seat in (active, self.ctx.opp(active)):
            agents = by_seat.get(seat, ())
            if len(agents) > limit:
                return seat, [c for c, _a in agents if c not in self.flipped]
        return None

    # -- the turn ----------------------------------------------------------------------------------------

    def begin_turn(self, seat: str, number: int) -> None:
        p = self.player(seat)
        untapped: tuple[str, ...] = ()
        if self.opts["untap_at_turn_start"]:
            untapped = tuple([c for c, a in self._scan().agents.get(seat, ()) if a.turned])
        extra = max(0, 1 - p.actions_lost_next_turn.extra)
        if number == 1 and not self.opts["first_turn_extra"]:
            extra = 0
        self.emit(TurnBegan(number=number, active=seat, main_left=max(0, 2 - p.actions_lost_next_turn.main),
                            extra_left=extra, draw_only_slot=number == 1, untapped=untapped))

    def winners(self) -> tuple[tuple[str, ...], str] | None:
        """The status check (section 5): (winners, reason) if the game ends now."""
        a, b = self.ctx.players
        opts = self.opts
        players = self.state.players
        territories = self._scan().territories
        full = len(territories) == len(self.cells())
        to_win = opts["influence_to_win"]
        pa, pb = players[a], players[b]
        if not full and pa.influence < to_win and pb.influence < to_win and pa.trust != 0 and pb.trust != 0:
            return None  # (the usual case: no influence win, nobody out of trust, the field not full)
        totals = {a: 0, b: 0}
        if full:  # (the loyalty totals matter only on a full field)
            for _c, t in territories:
                totals[t.controller] = totals.get(t.controller, 0) + t.loyalty
        meets: dict[str, str] = {}
        for p, o in ((a, b), (b, a)):
            if players[p].influence >= to_win:
                meets[p] = "influence"
            elif players[o].trust == 0:
                meets[p] = "trust"
            elif full and totals[p] > totals[o]:
                meets[p] = "full_field"
        if len(meets) == 1:
            (p, reason), = meets.items()
            return (p,), reason
        if len(meets) == 2:
            rule = opts["simultaneous_win"]
            if rule == "draw":
                return (), "draw_simultaneous"
            active = self.state.turn.active or a
            p = active if rule == "active_player" else self.ctx.opp(active)
            return (p,), meets[p]
        if full and totals[a] == totals[b] and opts["full_field_tie"] == "draw":
            return (), "draw_full_field"
        return None

    def status_check(self) -> bool:
        result = self.winners()
        if result is None:
            return False
        self.emit(GameOver(winners=result[0], reason=result[1]))
        return True

    # -- combinations: the cleanup (4.5) -----------------------------------------------------------

    def cleanup(self, actor: str, to_buffer: tuple[int, ...], lilac: tuple[str, ...], spent: tuple[tuple[int, str], ...],
                attach: str | None = None) -> None:
        nz = self.state.neutral_zone
        if nz.symbols:
            self.emit(SymbolsCleared(symbols=nz.symbols))
        cards = list(nz.cards)
        for nc in cards:
            if nc.origin == "plot":
                if attach:
                    self.move(nc.card, nc.owner, "neutral", f"{attach}/attached", oid=nc.oid, cause="stays attached")
                else:
                    self.move(nc.card, nc.owner, "neutral", f"{nc.owner}.utility", oid=nc.oid, cause="played")
        for nc in cards:
            if nc.origin == "buffer":
                self.move(nc.card, nc.owner, "neutral", f"{nc.owner}.utility", oid=nc.oid, cause="combination")
        choices = list(lilac)
        spent_of = dict(spent)
        for nc in cards:
            if nc.origin != "hand":
                continue
            if nc.oid in to_buffer:
                slot = self.free_slots(actor)[0]
                card = self.ctx.card(nc.card)
                printed = list(card.symbols)
                if nc.oid in spent_of:
                    printed.remove(spent_of[nc.oid])
                tokens = []
                for s in printed:
                    tokens.append(self._lilac_choice(card.id, choices) if s == self.ctx.cards.neutral_symbol else s)
                self.move(nc.card, nc.owner, "neutral", f"{actor}.{slot}", oid=nc.oid, tokens=tuple(sorted(tokens)),
                          cause="buffered")
            else:
                self.move(nc.card, nc.owner, "neutral", f"{nc.owner}.utility", oid=nc.oid, cause="combination")

    def free_slots(self, seat: str) -> list[str]:
        buf = self.player(seat).buffer
        return [s for s in self.ctx.slots if buf.get(s) is None]

    def to_neutral(self, card: str, owner: str, src: str, origin: str, oid: int | None = None) -> int:
        oid = oid if oid else self.new_oid()
        self.move(card, owner, src, "neutral", oid=oid, origin=origin, cause="into the neutral zone")
        return oid

    def set_tokens(self, ref: str, after: tuple[str, ...], cause: str) -> None:
        obj = get_obj(self.state, ref)
        if tuple(obj.active_symbols) != tuple(after):
            self.emit(TokensChanged(ref=ref, before=tuple(obj.active_symbols), after=tuple(sorted(after)), cause=cause))

    def turn_agent(self, cell: str, turned: bool, cause: str) -> None:
        a = self.state.field[cell].agent
        if a is not None and a.turned != turned:
            self.emit(AgentTurned(cell=cell, turned=turned, cause=cause))

    # -- the hand ------------------------------------------------------------------------------------

    def require_in_hand(self, seat: str, cards: Sequence[str], rule: str) -> None:
        """Every card named is in ``seat``'s hand, as many times as it is named."""
        hand = self.player(seat).hand
        for cid in dict.fromkeys(cards):  # each card once, in the order named
            n = cards.count(cid)
            have = hand.count(cid)
            if have < n:
                self.fail(Code.CARD_NOT_IN_HAND, f"{cid} is not in {seat}'s hand" if have == 0 else f"{seat}'s hand holds {have} {cid}, not {n}",
                          rule)

    # -- archives ------------------------------------------------------------------------------------

    def archive_cards(self, seat: str, archive: str) -> tuple[str, ...]:
        """Exact tracking: the archive's cards, top first."""
        cards: tuple[str, ...] = getattr(self.player(seat), archive).cards
        return cards

    def check_draw(self, seat: str, archive: str, cards: tuple[str, ...] | list[str], need: int, rule: str = "R-ARCHIVES") -> None:
        """Draw consistency (4.1): the archive holds enough, the named cards are the right number and
        can be in it (pool: in the owner's unseen multiset; exact: the top cards)."""
        arch = getattr(self.player(seat), archive)
        # (the messages are built only when a check fails)
        if not (arch.count > 0 or need == 0):
            self.fail(Code.ARCHIVE_EMPTY, f"{_label(seat, archive)} is empty", rule)
        if len(cards) != need:
            self.fail(Code.WRONG_DRAW_COUNT,
                      f"expected {need} card{'s' if need != 1 else ''} from {_label(seat, archive)}, got {len(cards)}", rule)
        if self.ctx.exact:
            if tuple(cards) != tuple(arch.cards[:need]):
                self.fail(Code.CARD_NOT_IN_ARCHIVE, f"{', '.join(cards) or 'nothing'} is not the top of {_label(seat, archive)}", rule)
            return
        pool = list(self.player(seat).unseen)
        for cid in cards:
            if cid not in pool:
                deck = self.ctx.decks.get(seat, ())
                why = (f"{seat}'s deck has no {cid}" if cid not in deck
                       else f"{cards.count(cid) if cards.count(cid) > 1 else 'every'} cop{'ies' if cards.count(cid) > 1 else 'y'} of {cid} "
                            f"named, but {seat}'s deck has {deck.count(cid)} and {deck.count(cid) - self.player(seat).unseen.count(cid)} "
                            "already came out of the archives")
                self.fail(Code.CARD_NOT_IN_ARCHIVE, f"{cid} cannot be in {_label(seat, archive)}: {why}", rule)
            pool.remove(cid)

    def draw(self, seat: str, archive: str, cards: tuple[str, ...] | list[str], dst: str, cause: str) -> None:
        for cid in cards:
            self.move(cid, seat, f"{seat}.{archive}", dst, cause=cause)


def _label(seat: str, archive: str) -> str:
    return f"{seat}'s {archive.replace('_', ' ')}"


def face_up_agents(ctx: Ctx, state: State, seat: str) -> list[tuple[str, Agent]]:
    """Face-up agents (agents and face-up graffiti agents in agent slots) a seat controls, by cell."""
    out = []
    for c in ctx.field.cells:
        a = state.field[c].agent
        if a is not None and a.controller == seat:
            out.append((c, a))
    return out


def agent_count(ctx: Ctx, state: State, seat: str) -> int:
    n = len(face_up_agents(ctx, state, seat))
    for c in ctx.field.cells:
        g = state.field[c].graffiti
        if g is not None and g.controller == seat and g.face == "up" and ctx.card(g.card).type == "graffiti_agent":
            n += 1
    return n


def graffiti_count(ctx: Ctx, state: State, seat: str) -> int:
    n = 0
    for c in ctx.field.cells:
        g = state.field[c].graffiti
        if g is None or g.controller != seat:
            continue
        if g.face == "up" and ctx.card(g.card).type == "graffiti":
            n += 1
        elif g.face == "down" and ctx.opts["face_down_counts_as_graffiti"]:
            n += 1
    return n


def efficiency(ctx: Ctx, state: State, cell: str) -> int:
    a = state.field[cell].agent
    assert a is not None
    card = ctx.card(a.card)
    bonus = 1 if card.type == "graffiti_agent" and agent_count(ctx, state, a.controller) > 1 else 0
    return card.efficiency + bonus


def resilience(ctx: Ctx, state: State, cell: str) -> int:
    a = state.field[cell].agent
    assert a is not None
    card = ctx.card(a.card)
    bonus = 1 if card.type == "graffiti_agent" and graffiti_count(ctx, state, a.controller) > 0 else 0
    return card.resilience + bonus


def revealed(state: State, cell: str) -> bool:
    a = state.field[cell].agent
    assert a is not None
    t = state.field[cell].territory
    return a.turned or t is None or t.controller != a.controller


def reckless(ctx: Ctx, state: State, cell: str) -> bool:
    a = state.field[cell].agent
    assert a is not None
    if state.field[cell].territory is None:
        return True
    return a.entered_turn == state.turn.number and "operative" not in ctx.card(a.card).keywords


def is_double(ctx: Ctx, state: State, cell: str) -> bool:
    a = state.field[cell].agent
    assert a is not None
    return any(o.card == a.card for _c, o in face_up_agents(ctx, state, ctx.opp(a.controller)))


def neutral_cards(state: State) -> Iterator[NeutralCard]:
    yield from state.neutral_zone.cards
