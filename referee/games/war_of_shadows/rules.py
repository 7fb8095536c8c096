"""The decider: every intent of spec §4 with its checks in the spec's order and its rejection codes.

``decide`` never raises for a bad intent: a failed check is a :class:`Rejected` value with the
spec's reason (``war_of_shadows/<reason>``, or the framework's ``turn/not_your_turn``), a message
naming the actual values (never a hidden one) and the rule it comes from. Accepted intents produce
events; system steps (activations, skips, the supply limit, the round counter, scoring) are events
recorded with the intent that caused them.

Implicit closure (§3.3 rule 7): an intent refused while the current activation is ``done`` and that
names a later position (or belongs to a later phase) is evaluated again on the state after closing
that activation; if it is accepted there, the closure events are recorded before its own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from referee.engine.chance import Chance
from referee.engine.decision import Refusal
from referee.engine.protocol import Accepted, ConfigError, Rejected, RulesBase
from referee.engine.secrecy import blank
from schemas import ARBITER, MatchConfig, Outcome

from . import legal as legal_mod
from . import view as view_mod
from .data import (
    ALL_CARDS,
    BANNERS_PER_EMPIRE,
    CARDS_PER_EMPIRE,
    EMPIRES,
    AGENTS,
    HAND_LIMIT,
    MULTIPLIER,
    POSITIONS,
    ROUNDS,
    SUPPLY_LIMIT,
    SUPPLY_LIMIT_FARM,
    PRIMITIVES,
    SLOTS,
    SOCIETIES,
    SYMBOLS,
    ActionSpec,
    Board,
    CardDef,
    DataSet,
    card_empire,
    parse_data,
)
from .fold import RESERVE, Zones, evolve, fanatic_id, is_position, token_id
from .model import (
    ActionDone,
    AddBanners,
    AgentCollected,
    AgentMoved,
    AgentPlaced,
    AnnihilationDeclared,
    ArrangeLoyalty,
    Arrangement,
    Attack,
    AttackLaunched,
    AuditFlagRaised,
    BannersAdded,
    BannersDelta,
    BannersMoved,
    BannersReturned,
    CardPlayed,
    CardResolved,
    CardResolving,
    CardsDiscarded,
    CardsDrawn,
    ChooseSociety,
    CiNameEmpire,
    CiNamed,
    CiReveal,
    CiScored,
    CollectAgent,
    CombatPending,
    CombatResolved,
    ConfigureMatch,
    DealFanaticEmpire,
    DeckShuffled,
    Delta,
    DiscardCards,
    DiscardDelta,
    DrawDelta,
    Effect,
    EmpirePhaseEnded,
    EndPosition,
    FanaticEmpireDealt,
    FinalReveal,
    FinalRevealed,
    FirstPlayerPassed,
    FirstPlayerSet,
    FortTriggered,
    GameEnded,
    LoyaltyArranged,
    LoyaltyRevealed,
    LoyaltySwapped,
    ManualEffect,
    ManualEffectApplied,
    MoveAgent,
    MoveAgentDelta,
    MoveBannersDelta,
    PassPosition,
    PhaseChanged,
    PlaceAgent,
    PlacementSkipped,
    PlayCard,
    Player,
    PositionActivated,
    PositionEnded,
    PositionPassed,
    PositionSkipped,
    ResolveCombat,
    RoundMarkerPlaced,
    RoundStarted,
    ScoreComputed,
    ScoreDelta,
    SetFirstPlayer,
    SetupCompleted,
    SkipSwap,
    SocietyChosen,
    State,
    SubActivationOpened,
    SupplyLimitEnforced,
    SupplyLimitRemoval,
    SwapLoyalty,
    SwapSkipped,
    TakeCards,
    TransferCardDelta,
    WinnerDeclared,
)
from .options import MODULES, resolved
from .queries import Queries
from .txn import (
    R_ACTIVATION,
    R_ADD,
    R_ATTACK,
    R_CHANCE,
    R_CI,
    R_COLLECT,
    R_COMBAT,
    R_COMMON,
    R_CONFIG,
    R_DEAL,
    R_DISCARD,
    R_END,
    R_FINAL,
    R_FIRST,
    R_LOYALTY,
    R_MANUAL,
    R_MOVE,
    R_NOTES,
    R_PASS,
    R_PLACE,
    R_PLAY,
    R_REGION_AGENTS,
    R_REVEAL,
    R_SOCIETY,
    R_TAKE,
    Refuse,
    Tx,
    plural,
    split,
)


class WarOfShadowsRules(Queries, RulesBase):
    """War of Shadows bound to one match: players, board, catalogue and options."""

    def __init__(self, config: MatchConfig) -> None:
        if config.decks:
            raise ConfigError("war_of_shadows/no_decks",
                              "War of Shadows deals from the empire decks of its data set: --deck is not used")
        self.config = config
        self.players = tuple(config.players)
        n = len(self.players)
        if not 2 <= n <= 4:
            raise ConfigError("war_of_shadows/invalid_player_count",
                              f"War of Shadows takes 2 to 4 players, got {n}: {', '.join(self.players)}")
        if len(set(self.players)) != n or any(not p for p in self.players):
            raise ConfigError("war_of_shadows/invalid_seating",
                              f"seats must be distinct player ids, got {', '.join(self.players)}")
        self.options = resolved(config.options)
        if not config.cards_text:
            raise ConfigError("war_of_shadows/invalid_board_data",
                              "no board data: name a data set with a board (cards = \"TM-1\", \"demo\" or \"boards\", "
                              "or a data file with a [[board]] table)")
        data: DataSet = parse_data(config.cards_text, config.cards or "")
        if not data.boards:
            raise ConfigError("war_of_shadows/invalid_board_data",
                              f"data set {config.cards or '(inline)'!r} holds no [[board]]; a card catalogue file "
                              f"must carry its board too (copy the [[board]] of a bundled set)")
        wanted = str(self.options["board"] or "")
        if wanted:
            if wanted not in data.boards:
                raise ConfigError("war_of_shadows/invalid_board_data",
                                  f"board {wanted!r} is not in data set {config.cards or '(inline)'!r}, which holds "
                                  f"{', '.join(data.board_order)}")
            self.board: Board = data.boards[wanted]
        else:
            self.board = data.boards[data.board_order[0]]
        self.catalogue: Mapping[str, CardDef] | None = data.catalogue
        order = str(self.options["empire_order"] or "")
        if order:
            names = [x.strip() for x in order.split(",")]
            if sorted(names) != sorted(EMPIRES) or names[0] != "bear":
                raise ConfigError("war_of_shadows/invalid_board_data",
                                  f"option empire_order must list the five empires once each, starting with bear; got {order!r}")
            self.empire_order: tuple[str, ...] = tuple(names)
        else:
            self.empire_order = self.board.empire_order
        self.digital = config.chance == "digital"
        if "mode" in config.options and (config.options["mode"] == "digital") != self.digital:
            raise ConfigError(
                "war_of_shadows/invalid_mode",
                f"option mode={config.options['mode']} but the match's chance is {config.chance}: a digital match "
                "needs a seed (seed = N), a physical one none",
            )
        self.counted = self.options["card_identity_mode"] == "counted"
        self.unrecorded = self.options["loyalty_secret_mode"] == "unrecorded"
        self.modules = {m: bool(self.options[m]) for m in MODULES}
        self.quota = 3 if n == 2 else 2
        self._last: tuple[State, Any, State] | None = None

    # -- the protocol ------------------------------------------------------------------------------------

    def setup(self, chance: Chance | None) -> State:
        """State after match creation (§1.12): SETUP, supplies, decks and starting banners placed."""
        banners = {r.id: {e: 0 for e in EMPIRES} for r in self.board.regions}
        supply = {e: BANNERS_PER_EMPIRE for e in EMPIRES}
        for r in self.board.regions:
            if r.start_banners and r.start_banner_empire:
                banners[r.id][r.start_banner_empire] += r.start_banners
                supply[r.start_banner_empire] -= r.start_banners
        deck = {
            e: tuple([e] * CARDS_PER_EMPIRE) if self.counted else tuple(sorted(c for c in ALL_CARDS if card_empire(c) == e))
            for e in EMPIRES
        }
        return State(
            seats=self.players,
            banners=banners,
            banner_supply=supply,
            deck=deck,
            council={e: {p: None for p in POSITIONS} for e in EMPIRES},
            region_agents={r.id: () for r in self.board.regions},
            players={p: _new_player() for p in self.players},
        )

    def actors(self, state: State, intent: Any) -> frozenset[str]:
        # turn order is checked by decide itself, where the spec's check order puts not_your_turn
        return frozenset(self.players)

    def evolve(self, state: State, event: Any) -> State:
        return evolve(state, event, self.counted)

    def outcome(self, state: State) -> Outcome | None:
        if state.outcome is None:
            return None
        scores = {p: pl.score.total for p, pl in state.players.items() if pl.score is not None}
        return Outcome(winners=state.outcome.winners, reason=state.outcome.reason, scores=scores or None)

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return view_mod.view(self, state, seat)

    def hidden_ids(self, state: State, seat: str | None) -> frozenset[str]:
        return view_mod.hidden_ids(self, state, seat)

    def apply_position(self, state: State, overrides: Mapping[str, Any]) -> State:
        return view_mod.apply_position(self, state, overrides)

    def legal_intents(self, state: State, seat: str) -> Sequence[Any]:
        return legal_mod.legal_intents(self, state, seat)

    def describe_event(self, event: Any) -> str | None:
        return view_mod.describe_event(self, event)

    def redact(self, item: Any, actor: str | None, seat: str | None) -> Any:
        """The Structs' declarations (hands drawn, tokens laid, empires dealt), and discards: private
        to the discarding seat when the match's ``discard_visibility`` is ``private`` (the event says
        which it was)."""
        shown = super().redact(item, actor, seat)
        if seat is None:
            return shown
        if isinstance(item, DiscardCards) and self.options["discard_visibility"] == "private" \
                and seat != (item.player or actor):
            return msgspec.structs.replace(shown, cards=blank(item.cards))
        if isinstance(item, CardsDiscarded) and item.private and seat != item.player:
            return msgspec.structs.replace(shown, cards=blank(item.cards))
        return shown

    def confirmer(self, state: State, seat: str, intent: Any) -> str | None:
        """A declared effect that discards or passes on a card from another seat's hand waits for that
        seat (or the arbiter, when it reads two hands) to confirm it: whether the card is there is that
        seat's secret."""
        if not isinstance(intent, ManualEffect):
            return None
        actor = intent.player or seat
        who = {d.player for d in intent.deltas if isinstance(d, DiscardDelta) and d.player != actor}
        who |= {d.from_player for d in intent.deltas if isinstance(d, TransferCardDelta) and d.from_player != actor}
        if not who:
            return None
        return who.pop() if len(who) == 1 else ARBITER

    def chance_fields(self, intent: Any) -> tuple[str, ...]:
        """A random first player, the fanatic empires dealt, a digital match's loyalty arrangement, the
        cards drawn (their ids: in counted mode only a number) and the cards a declared draw names."""
        if isinstance(intent, SetFirstPlayer):
            return ("player",) if intent.method == "random" or self.config.chance == "digital" and intent.player is None else ()
        if isinstance(intent, DealFanaticEmpire):
            return ("assignments",)
        if isinstance(intent, ArrangeLoyalty):
            return ("arrangement",) if self.config.chance == "digital" and not self.unrecorded else ()
        if isinstance(intent, TakeCards):
            return () if self.counted else ("cards",)
        if isinstance(intent, ManualEffect) and not self.counted:
            drawn = [d for d in intent.deltas if isinstance(d, DrawDelta) and d.card not in EMPIRES]
            return ("deltas",) if drawn else ()
        return ()

    def check_input(self, intent: Any) -> str | None:
        # Unknown ids are adjudicated (spec §4.0 G3: war_of_shadows/unknown_reference) and recorded,
        # so nothing is refused before adjudication here.
        return None

    # -- decide -------------------------------------------------------------------------------------------

    def decide(self, state: State, seat: str, intent: Any, chance: Chance | None,
               waive: frozenset[str] = frozenset()) -> Accepted[Any] | Rejected:
        first, after = self._evaluate(state, seat, intent, chance, waive)
        if isinstance(first, Rejected):
            tx = Tx(self, state, seat, waive)
            if self._may_close(state, intent):
                self._close_activation(tx)
            elif self._stuck_collector(state):
                self._skip_collectors(tx)
            else:
                return first
            second, after = self._evaluate(tx.state, seat, intent, chance, waive)
            if not isinstance(second, Accepted):
                return second
            first = Accepted(tuple(tx.events) + tuple(second.events), manual=second.manual)
        self._last = (state, first, after)
        return first

    def applied(self, state: State, verdict: Any) -> State | None:
        """The state after the verdict ``decide`` just returned for this very state (it already
        folded those events; the fold would only repeat them)."""
        last = self._last
        if last is not None and last[0] is state and last[1] is verdict:
            return last[2]
        return None

    def _stuck_collector(self, state: State) -> bool:
        nxt = self.next_collector(state) if state.phase == "AGENT_COLLECT" else None
        return nxt is not None and not self.agents_on_board(state, nxt)

    def _skip_collectors(self, tx: Tx) -> None:
        """Collectors with no agent on the board cannot collect: they are skipped (and flagged) when
        the next intent arrives, which is then judged on the state after the skips."""
        while self._stuck_collector(tx.state):
            nxt = self.next_collector(tx.state)
            assert nxt is not None
            tx.emit(PlacementSkipped(player=nxt, step="collect", reason="no agent on the board"),
                    AuditFlagRaised(kind="placement_skipped", note=f"{nxt} had no agent to collect"))
            if self.next_collector(tx.state) is None:
                self._run_agent_phase(tx)

    def _may_close(self, state: State, intent: Any) -> bool:
        c = state.cursor
        if state.phase != "EMPIRE_PHASE" or c is None or c.stage != "done" or c.resolving_card is not None:
            return False
        if isinstance(intent, (ConfigureMatch, ChooseSociety, SetFirstPlayer, DealFanaticEmpire, ArrangeLoyalty)):
            return False
        position = getattr(intent, "position", None)
        return position is None or position != self.current_slot(state)

    def _evaluate(self, state: State, seat: str, intent: Any, chance: Chance | None,
                  waive: frozenset[str]) -> tuple[Accepted[Any] | Rejected, State]:
        tx = Tx(self, state, seat, waive)
        try:
            self._dispatch(tx, intent, chance)
        except Refusal as r:
            return r.verdict, state
        return tx.accepted(), tx.state

    def _dispatch(self, tx: Tx, intent: Any, chance: Chance | None) -> None:
        seat = tx.seat
        if isinstance(intent, ConfigureMatch):
            raise Refuse("already_configured", "the match is already configured (by its header: players, options, "
                         "board and cards); start a new match to change them", R_CONFIG)
        setup = isinstance(intent, (ChooseSociety, SetFirstPlayer, DealFanaticEmpire, ArrangeLoyalty))
        state = tx.state
        # G2
        if not setup and state.phase == "SETUP":
            raise Refuse("setup_incomplete", f"setup is not complete ({self._setup_missing(state)})", R_COMMON)
        # G3: the actor, and every id the intent names
        player = getattr(intent, "player", None)
        if not setup and player is not None and player != seat:
            raise Refuse("unknown_reference", f"player={player} but {seat} submitted it; in-game intents are made "
                         "by the player themself", R_COMMON)
        problem = self._unknown(intent, seat)
        if problem:
            raise Refuse("unknown_reference", problem, R_COMMON)
        handler = getattr(self, "_d_" + type(intent).__struct_config__.tag)
        handler(tx, intent, chance)

    def _setup_missing(self, state: State) -> str:
        missing = []
        no_society = [p for p in self.players if state.players[p].society is None]
        if no_society:
            missing.append("no society: " + ", ".join(no_society))
        if state.first_player is None:
            missing.append("no first player")
        if self.modules["to_each_their_own"] and not state.fanatic_deal_recorded:
            missing.append("no fanatic deal")
        unarranged = [p for p in self.players if not state.players[p].loyalty]
        if unarranged:
            missing.append("loyalty not arranged: " + ", ".join(unarranged))
        return "; ".join(missing) or "nothing missing"

    # -- G3 ---------------------------------------------------------------------------------------------

    def _card_ok(self, card: str, allow_empire: bool = False) -> bool:
        return card in ALL_CARDS or (allow_empire and card in EMPIRES)

    def _place_ok(self, place: str, reserve: bool = False) -> bool:
        return self.is_position(place) or self.is_region(place) or (reserve and place == RESERVE)

    def _unknown(self, intent: Any, seat: str) -> str | None:  # noqa: C901 - one table of ids
        pos = getattr(intent, "position", None)
        if pos is not None and not self.is_position(pos):
            return f"position {pos!r} is not a council position (write <empire>.<position>, e.g. bear.sheriff)"
        match intent:
            case ChooseSociety(player=player, society=society):
                if player is not None and player not in self.players:
                    return f"{player!r} is not a seated player ({', '.join(self.players)})"
                if society not in SOCIETIES:
                    return f"{society!r} is not a society ({', '.join(SOCIETIES)})"
            case DealFanaticEmpire(assignments=assignments):
                for p, e in assignments.items():
                    if e not in EMPIRES:
                        return f"assignments.{p}: {e!r} is not an empire ({', '.join(EMPIRES)})"
            case ArrangeLoyalty(player=player, arrangement=arrangement):
                if player is not None and player not in self.players:
                    return f"{player!r} is not a seated player ({', '.join(self.players)})"
                if isinstance(arrangement, Arrangement):
                    for slot in SLOTS:
                        e = getattr(arrangement, slot)
                        if e is not None and e not in EMPIRES:
                            return f"arrangement.{slot}: {e!r} is not an empire ({', '.join(EMPIRES)})"
            case CollectAgent(from_=src):
                if not self._place_ok(src):
                    return f"{src!r} is neither a council position nor a region of board {self.board.board_id}"
            case PlaceAgent(to=dst):
                if not self._place_ok(dst):
                    return f"{dst!r} is neither a council position nor a region of board {self.board.board_id}"
            case AddBanners(placements=placements):
                for pl in placements:
                    if not self.is_region(pl.region):
                        return f"{pl.region!r} is not a region of board {self.board.board_id}"
            case Attack(from_=src, to=dst):
                for r in (src, dst):
                    if not self.is_region(r):
                        return f"{r!r} is not a region of board {self.board.board_id}"
            case TakeCards(variant=variant, cards=cards):
                if variant.mode == "per_symbol" and variant.symbol not in SYMBOLS:
                    return f"variant.symbol {variant.symbol!r} is not a board symbol ({', '.join(SYMBOLS)})"
                if self.counted:
                    if not (len(cards) == 1 and cards[0].isdigit()) and any(not self._card_ok(c, True) for c in cards):
                        return "counted mode: write cards=N (how many were drawn)"
                else:
                    for c in cards:
                        if not self._card_ok(c):
                            return f"{c!r} is not a card id (<empire>_c1 .. <empire>_c8)"
            case MoveAgent(destination=dst):
                if not self._place_ok(dst):
                    return f"destination {dst!r} is neither a council position nor a region"
            case PlayCard(card=card, ability=ability, extra_cost_cards=extra, effect=effect, declared_cost=cost):
                for c in (card, *extra):
                    if not self._card_ok(c):
                        return f"{c!r} is not a card id (<empire>_c1 .. <empire>_c8)"
                ab = self.ability(card, ability)
                if ability < 1 or (self.catalogue is not None and card in self.catalogue and ab is None):
                    have = sorted(self.catalogue[card].abilities) if self.catalogue and card in self.catalogue else []
                    return f"{card} has no ability {ability}" + (f" (abilities: {', '.join(map(str, have))})" if have else "")
                for e in cost:
                    if e not in EMPIRES:
                        return f"declared_cost: {e!r} is not an empire symbol"
                if isinstance(effect, Effect):
                    if effect.primitive not in PRIMITIVES:
                        return f"effect.primitive {effect.primitive!r} is not a known effect ({', '.join(PRIMITIVES)}); use effect=manual"
                    for name in ("destination", "target"):
                        v = getattr(effect, name)
                        if v is not None and not self._place_ok(v):
                            return f"effect.{name} {v!r} is neither a council position nor a region"
                    for name, v in (("from", effect.from_), ("to", effect.to), ("region", effect.region)):
                        if v is not None and not self.is_region(v):
                            return f"effect.{name} {v!r} is not a region of board {self.board.board_id}"
                    if effect.empire is not None and effect.empire not in EMPIRES:
                        return f"effect.empire {effect.empire!r} is not an empire"
                    for pl in effect.placements:
                        if not self.is_region(pl.region):
                            return f"effect.placements: {pl.region!r} is not a region"
            case ManualEffect(card=card, deltas=deltas):
                if not self._card_ok(card):
                    return f"{card!r} is not a card id"
                for d in deltas:
                    why = self._delta_refs(d)
                    if why:
                        return why
            case DiscardCards(cards=cards):
                for c in cards:
                    if not self._card_ok(c, self.counted):
                        return f"{c!r} is not a card id"
            case SwapLoyalty(slot_a=a, slot_b=b, revealed=revealed):
                for s in (a, b):
                    if s not in SLOTS:
                        return f"{s!r} is not a loyalty slot ({', '.join(SLOTS)})"
                if revealed is not None:
                    for s in SLOTS:
                        e = getattr(revealed, s)
                        if e is not None and e not in EMPIRES:
                            return f"revealed.{s}: {e!r} is not an empire"
            case CiNameEmpire(empire=e):
                if e not in EMPIRES:
                    return f"{e!r} is not an empire ({', '.join(EMPIRES)})"
            case CiReveal(empire=e, slot=s):
                if e not in EMPIRES:
                    return f"{e!r} is not an empire ({', '.join(EMPIRES)})"
                if s not in SLOTS:
                    return f"{s!r} is not a loyalty slot ({', '.join(SLOTS)})"
            case FinalReveal(arrangement=arrangement):
                if arrangement is not None:
                    for slot in SLOTS:
                        e = getattr(arrangement, slot)
                        if e is not None and e not in EMPIRES:
                            return f"arrangement.{slot}: {e!r} is not an empire"
        return None

    def _delta_refs(self, d: Any) -> str | None:
        match d:
            case BannersDelta(region=r, empire=e):
                if not self.is_region(r):
                    return f"delta banners: {r!r} is not a region"
                if e not in EMPIRES:
                    return f"delta banners: {e!r} is not an empire"
            case MoveBannersDelta(from_=a, to=b, empire=e):
                for r in (a, b):
                    if not self.is_region(r):
                        return f"delta move_banners: {r!r} is not a region"
                if e not in EMPIRES:
                    return f"delta move_banners: {e!r} is not an empire"
            case DrawDelta(player=p, card=c) | DiscardDelta(player=p, card=c):
                if p not in self.players:
                    return f"delta {d.__struct_config__.tag}: {p!r} is not a player"
                if not self._card_ok(c, allow_empire=True):
                    return f"delta {d.__struct_config__.tag}: {c!r} is not a card id (or, for an unidentified card, an empire)"
            case TransferCardDelta(from_player=a, to_player=b, card=c):
                for p in (a, b):
                    if p not in self.players:
                        return f"delta transfer_card: {p!r} is not a player"
                if not self._card_ok(c, allow_empire=self.counted):
                    return f"delta transfer_card: {c!r} is not a card id"
            case MoveAgentDelta(player=p, from_=a, to=b):
                if p not in self.players:
                    return f"delta move_agent: {p!r} is not a player"
                for x in (a, b):
                    if not self._place_ok(x, reserve=True):
                        return f"delta move_agent: {x!r} is not a council position, region or 'reserve'"
            case ScoreDelta(player=p):
                if p not in self.players:
                    return f"delta score: {p!r} is not a player"
        return None

    # -- setup intents (§4.1–4.5) --------------------------------------------------------------------------

    def _d_choose_society(self, tx: Tx, intent: ChooseSociety, chance: Chance | None) -> None:
        s = tx.state
        player = intent.player or tx.seat
        tx.check(s.phase == "SETUP", "wrong_phase", f"societies are chosen during setup; the game is in {s.phase}", R_SOCIETY)
        have = s.players[player].society
        tx.check(have is None, "already_chosen", f"{player} already plays {have}", R_SOCIETY)
        taken = [p for p in self.players if s.players[p].society == intent.society]
        tx.check(not taken, "society_taken", f"{intent.society} is already taken by {', '.join(taken)}", R_SOCIETY)
        tx.emit(SocietyChosen(player=player, society=intent.society))
        self._maybe_complete_setup(tx)

    def _d_set_first_player(self, tx: Tx, intent: SetFirstPlayer, chance: Chance | None) -> None:
        s = tx.state
        tx.check(s.phase == "SETUP", "wrong_phase", f"the first player is set during setup; the game is in {s.phase}", R_FIRST)
        tx.check(intent.player in self.players, "unknown_reference",
                 f"set_first_player needs player=<one of {', '.join(self.players)}>, got {intent.player!r}", R_FIRST)
        tx.check(s.first_player is None, "already_set", f"the first player is already {s.first_player}", R_FIRST)
        assert intent.player is not None
        tx.emit(FirstPlayerSet(player=intent.player, method=intent.method))
        self._maybe_complete_setup(tx)

    def _d_deal_fanatic_empire(self, tx: Tx, intent: DealFanaticEmpire, chance: Chance | None) -> None:
        s = tx.state
        tx.check(self.modules["to_each_their_own"], "module_disabled",
                 "deal_fanatic_empire belongs to the module to_each_their_own, which this match does not use", R_DEAL)
        tx.check(s.phase == "SETUP", "wrong_phase", f"the deal happens during setup; the game is in {s.phase}", R_DEAL)
        names = list(intent.assignments)
        ok = sorted(names) == sorted(self.players)
        tx.check(ok, "unknown_reference",
                 f"assignments must name every seated player exactly once ({', '.join(self.players)}), got "
                 f"{', '.join(names) or 'none'}", R_DEAL)
        empires = list(intent.assignments.values())
        dup = sorted(e for e, n in Counter(empires).items() if n > 1)
        tx.check(not dup, "deal_not_distinct",
                 f"one token set deals distinct empires, but {', '.join(dup)} was dealt twice", R_DEAL)
        tx.check(not s.fanatic_deal_recorded, "already_set", "the fanatic empires were already dealt", R_DEAL)
        for p in self.players:
            tx.emit(FanaticEmpireDealt(player=p, token=fanatic_id(p, intent.assignments[p])))
        self._maybe_complete_setup(tx)

    def _d_arrange_loyalty(self, tx: Tx, intent: ArrangeLoyalty, chance: Chance | None) -> None:
        s = tx.state
        player = intent.player or tx.seat
        tx.check(s.phase == "SETUP", "wrong_phase", f"loyalty is arranged during setup; the game is in {s.phase}", R_LOYALTY)
        tx.check(s.players[player].society is not None, "setup_incomplete",
                 f"{player} has no society yet: choose_society first", R_LOYALTY)
        tx.check(not s.players[player].loyalty, "already_arranged", f"{player}'s loyalty tokens are already laid", R_LOYALTY)
        if self.modules["to_each_their_own"]:
            tx.check(s.fanatic_deal_recorded, "deal_required",
                     "with to_each_their_own the fanatic empires are dealt first (deal_fanatic_empire)", R_DEAL)
        arrangement = intent.arrangement
        if self.unrecorded:
            tx.check(arrangement == "unrecorded", "invalid_loyalty_arrangement",
                     "this match does not record arrangements (loyalty_secret_mode=unrecorded): write arrangement=unrecorded",
                     R_LOYALTY)
            tx.emit(LoyaltyArranged(player=player, tokens=()))
        else:
            empires = [getattr(arrangement, slot) for slot in SLOTS] if isinstance(arrangement, Arrangement) else []
            ok = len(empires) == 5 and sorted(e or "" for e in empires) == sorted(EMPIRES)
            tx.check(ok, "invalid_loyalty_arrangement",
                     "the arrangement must put each of the 5 empires in exactly one of the 5 slots "
                     "(arrangement.fanaticism=… arrangement.devotion=… arrangement.involvement=… "
                     "arrangement.indifference=… arrangement.opposition=…)", R_LOYALTY)
            if self.modules["to_each_their_own"]:
                tx.check(empires[0] == s.players[player].fanatic_dealt, "fanatic_mismatch",
                         "the fanaticism slot must hold the empire dealt to this player", R_DEAL)
            tx.emit(LoyaltyArranged(player=player, tokens=tuple(token_id(player, e) for e in empires if e)))
        self._maybe_complete_setup(tx)

    def _maybe_complete_setup(self, tx: Tx) -> None:
        s = tx.state
        if s.phase != "SETUP":
            return
        if any(s.players[p].society is None or not s.players[p].loyalty for p in self.players):
            return
        if s.first_player is None or (self.modules["to_each_their_own"] and not s.fanatic_deal_recorded):
            return
        tx.emit(SetupCompleted())
        self._start_round(tx, 1)

    # -- agent phase (§4.6–4.7) -------------------------------------------------------------------------------

    def _d_collect_agent(self, tx: Tx, intent: CollectAgent, chance: Chance | None) -> None:
        s = tx.state
        tx.check(s.phase == "AGENT_COLLECT", "wrong_phase",
                 f"agents are collected at the start of rounds 2-4; the game is in {s.phase} of round {s.round}", R_COLLECT)
        nxt = self.next_collector(s)
        if tx.seat != nxt:
            raise Refuse("turn/not_your_turn", f"{nxt} collects next, not {tx.seat}", R_COLLECT)
        src = intent.from_
        if self.is_position(src):
            e, p = split(src)
            here = s.council[e][p] == tx.seat
        else:
            here = tx.seat in s.region_agents[src]
        tx.check(here, "agent_not_found", f"{tx.seat} has no agent on {src}", R_COLLECT)
        tx.emit(AgentCollected(player=tx.seat, from_=src))
        self._run_agent_phase(tx)

    def _d_place_agent(self, tx: Tx, intent: PlaceAgent, chance: Chance | None) -> None:
        s = tx.state
        if s.phase != "AGENT_PLACE":
            why = ("collection is not finished" if s.phase == "AGENT_COLLECT"
                   else f"the game is in {s.phase} of round {s.round}")
            raise Refuse("wrong_phase", f"agents are placed in the agent phase; {why}", R_PLACE)
        placer = self.current_placer(s)
        if tx.seat != placer:
            raise Refuse("turn/not_your_turn", f"{placer} places next, not {tx.seat}", R_PLACE)
        pl = s.players[tx.seat]
        tx.check(pl.agent_reserve >= 1, "no_agent_in_reserve", f"{tx.seat} has no agent left to place", R_PLACE)
        dst = intent.to
        if self.is_position(dst):
            e, p = split(dst)
            holder = s.council[e][p]
            tx.check(holder is None, "position_occupied", f"{dst} already holds {holder}'s agent", R_PLACE)
            if not self.options["allow_replace_same_position"]:
                tx.check(s.agent_phase.collected_from.get(tx.seat) != dst, "position_occupied",
                         f"{tx.seat} collected an agent from {dst} this round (allow_replace_same_position=false)",
                         R_PLACE)
        else:
            tx.check(self.modules["region_agents"], "module_disabled",
                     f"{dst} is a region: agents go to regions only with the module region_agents", R_REGION_AGENTS)
            tx.check(tx.seat not in s.region_agents[dst], "duplicate_region_agent",
                     f"{tx.seat} already has an agent in {dst}", R_REGION_AGENTS)
            if self.options["region_agent_limit_scope"] == "whole_board":
                n = len(self.agents_on_board(s, tx.seat))
                tx.check(n < 2, "region_agent_limit",
                         f"{tx.seat} has {plural(n, 'agent')} on the board (at most 2, region_agent_limit_scope=whole_board)",
                         R_REGION_AGENTS)
            else:
                n = self.region_agent_count(s, tx.seat)
                tx.check(n < 2, "region_agent_limit", f"{tx.seat} already has {plural(n, 'agent')} in regions (at most 2)",
                         R_REGION_AGENTS)
        tx.emit(AgentPlaced(player=tx.seat, to=dst))
        self._run_agent_phase(tx)

    def _start_round(self, tx: Tx, rnd: int) -> None:
        tx.emit(RoundStarted(round=rnd))
        self._run_agent_phase(tx)

    def _run_agent_phase(self, tx: Tx) -> None:
        """System steps of the agent phase: skip who cannot act, move on when a step is complete."""
        while True:
            s = tx.state
            if s.phase == "AGENT_COLLECT":
                # a collector without any agent on the board (only after a manual effect, or in a
                # position) is skipped lazily, by the next intent: see _skip_collectors
                if self.next_collector(s) is None:
                    tx.emit(PhaseChanged(phase="AGENT_PLACE"))
                    continue
                return
            if s.phase == "AGENT_PLACE":
                placer = self.current_placer(s)
                if placer is None:
                    tx.emit(PhaseChanged(phase="EMPIRE_PHASE"))
                    self._walk(tx, self.empire_order[0], 0)
                    return
                if not self.can_place(s, placer):
                    why = "no agent in reserve" if s.players[placer].agent_reserve < 1 else "no free council position"
                    tx.emit(PlacementSkipped(player=placer, step="place", reason=why),
                            AuditFlagRaised(kind="placement_skipped", note=f"{placer}: {why}"))
                    continue
                return
            return

    # -- the walk (§3.3), supply limit (§4.16), round counter, end of round -------------------------------

    def _walk(self, tx: Tx, empire: str, index: int) -> None:
        order = self.empire_order
        ei = order.index(empire)
        while True:
            if index < len(POSITIONS):
                p = POSITIONS[index]
                who = self.controller(tx.state, empire, p)
                if who is not None:
                    tx.emit(PositionActivated(position=f"{empire}.{p}", acting_player=who))
                    return
                tx.emit(PositionSkipped(position=f"{empire}.{p}"))
                index += 1
                continue
            self._supply_limit(tx, empire)
            tx.emit(EmpirePhaseEnded(empire=empire))
            ei += 1
            if ei < len(order):
                empire, index = order[ei], 0
                continue
            self._round_counter(tx)
            return

    def _close_activation(self, tx: Tx) -> None:
        c = tx.state.cursor
        assert c is not None
        tx.emit(PositionEnded(position=f"{c.empire}.{c.position}"))
        self._walk(tx, c.empire, POSITIONS.index(c.position) + 1)

    def _supply_limit(self, tx: Tx, empire: str) -> None:
        removals = []
        for r in self.board.regions:
            limit = SUPPLY_LIMIT_FARM if r.farm else SUPPLY_LIMIT
            for e in EMPIRES:
                n = tx.state.banners[r.id][e]
                if n > limit:
                    removals.append(SupplyLimitRemoval(region=r.id, empire=e, removed=n - limit))
        tx.emit(SupplyLimitEnforced(empire_phase=empire, removals=tuple(removals)))

    def _round_counter(self, tx: Tx) -> None:
        rnd = tx.state.round
        tx.emit(RoundMarkerPlaced(round=rnd))
        if rnd >= ROUNDS:
            self._game_end(tx)
            return
        if self.options["first_player_pass_timing"] == "at_round_counter":
            self._pass_first(tx)
        tx.emit(PhaseChanged(phase="DISCARD"))
        self._maybe_end_discard(tx)

    def _pass_first(self, tx: Tx) -> None:
        fp = tx.state.first_player or self.players[0]
        tx.emit(FirstPlayerPassed(from_=fp, to=self.next_seat(tx.state, fp)))

    def _maybe_end_discard(self, tx: Tx) -> None:
        s = tx.state
        if all(len(s.players[p].hand) <= HAND_LIMIT for p in self.players):
            tx.emit(PhaseChanged(phase="CI_SWAP" if self.modules["counter_intelligence"] else "REVEAL"))

    def _end_of_round(self, tx: Tx) -> None:
        if self.options["first_player_pass_timing"] == "end_of_round":
            self._pass_first(tx)
        self._start_round(tx, tx.state.round + 1)

    def _game_end(self, tx: Tx) -> None:
        s = tx.state
        unrevealed = tuple(
            (p, sum(1 for t in s.players[p].loyalty.values() if not t.revealed)) for p in self.players
        )
        tx.emit(GameEnded(unrevealed=unrevealed))
        if self.unrecorded:
            tx.emit(PhaseChanged(phase="FINAL_SCORING"))
            return
        for p in self.players:
            for slot in SLOTS:
                tok = tx.state.players[p].loyalty.get(slot)
                if tok is not None and not tok.revealed and tok.empire is not None:
                    tx.emit(LoyaltyRevealed(player=p, slot=slot, empire=tok.empire, why="game_end"))
        self._score(tx)

    def score_of(self, state: State, seat: str) -> dict[str, int]:
        """The §5 breakdown for one player from a state whose tokens are all known."""
        cities = self.cities(state)
        pl = state.players[seat]
        if self.modules["region_agents"] and self.options["region_agent_city_scope"] == "all_players":
            for r in self.board.region_ids:
                owner = self.control(state, r)
                if owner is not None:
                    cities[owner] += len(state.region_agents[r])
        slot_of = {t.empire: slot for slot, t in pl.loyalty.items() if t.empire is not None}
        base = sum(MULTIPLIER[slot] * cities[t.empire] for slot, t in pl.loyalty.items() if t.empire is not None)
        region_points = 0
        if self.modules["region_agents"] and self.options["region_agent_city_scope"] == "owner_only":
            for r in self.board.region_ids:
                if seat in state.region_agents[r]:
                    owner = self.control(state, r)
                    if owner is not None and owner in slot_of:
                        region_points += MULTIPLIER[slot_of[owner]]
        secrets = (pl.unrevealed_at_end or 0) if self.modules["keep_secrets"] else 0
        total = base + region_points + secrets + pl.ci_bonus + pl.bonus
        return {"base": base, "region_agents": region_points, "keep_secrets": secrets, "ci_bonus": pl.ci_bonus,
                "bonus": pl.bonus, "total": total}

    def _score(self, tx: Tx) -> None:
        totals: dict[str, int] = {}
        for p in self.players:
            sc = self.score_of(tx.state, p)
            totals[p] = sc["total"]
            tx.emit(ScoreComputed(player=p, **sc))
        s = tx.state
        best = max(totals.values())
        tied = [p for p in self.players if totals[p] == best]
        reason = "score"
        if len(tied) > 1:
            fewest = min(s.players[p].swaps_made for p in tied)
            narrowed = [p for p in tied if s.players[p].swaps_made == fewest]
            if len(narrowed) < len(tied):
                reason = "fewest_swaps"
            tied = narrowed
        if len(tied) > 1:
            most = max(len(s.players[p].hand) for p in tied)
            narrowed = [p for p in tied if len(s.players[p].hand) == most]
            if len(narrowed) < len(tied):
                reason = "most_cards"
            tied = narrowed
        if len(tied) > 1:
            reason = str(self.options["final_tie"])
            if reason == "first_in_turn_order":
                tied = [next(p for p in self.turn_order(s) if p in tied)]
        tx.emit(WinnerDeclared(winners=tuple(tied), reason=reason))

    # -- the activation prefix (§4.0 A1–A6) --------------------------------------------------------------

    def _in_empire_phase(self, tx: Tx, verb: str) -> None:
        s = tx.state
        if s.phase != "EMPIRE_PHASE" or s.cursor is None:
            raise Refuse("wrong_phase", f"{verb} is an empire-phase intent; the game is in {s.phase} of round {s.round}",
                         R_COMMON)

    def _slot_prefix(self, tx: Tx, intent: Any, *, verb: str) -> tuple[str, str, str]:
        """A1–A6 for action intents (``action``) and pass_position; returns (slot, empire, position)."""
        self._in_empire_phase(tx, verb)
        s = tx.state
        c = s.cursor
        assert c is not None
        slot = self.current_slot(s)
        assert slot is not None
        pos = intent.position
        # A1
        if c.resolving_card is not None:
            expected = c.resolving_kind == "replacement" and pos == c.sub_position and c.stage != "combat_pending"
            if not expected:
                want = (f"manual_effect card={c.resolving_card}" if c.resolving_kind == "manual"
                        else f"the substituted action at {c.sub_position}")
                raise Refuse("card_resolving", f"{c.resolving_card} is still being resolved: next comes {want}", R_PLAY)
        # A2
        if c.stage == "combat_pending":
            raise Refuse("combat_pending", f"a combat in {c.combat.region if c.combat else '?'} is pending: "
                         f"resolve_combat position={slot} first", R_COMBAT)
        # A3
        if pos != slot:
            raise Refuse("not_active_position", f"{pos} is not the active position; the action slot is {slot}",
                         R_ACTIVATION)
        # A4
        tx.check(tx.seat == c.acting_player, "not_controller",
                 f"{slot} is controlled by {c.acting_player}, not {tx.seat}", R_ACTIVATION)
        # A5
        if c.stage == "done":
            raise Refuse("action_already_taken", f"{slot} has already performed its action", R_ACTIVATION)
        e, p = split(slot)
        return slot, e, p

    def _offered(self, tx: Tx, slot: str, intent: Any) -> ActionSpec:
        """A6: the action (with its variant) must be printed at the slot's position."""
        c = tx.state.cursor
        assert c is not None
        if isinstance(intent, MoveAgent) and c.sub_position is not None and not self.options["move_agent_chain"]:
            raise Refuse("chained_move", f"{slot} was reached by {c.sub_by}: its action cannot be move_agent "
                         "(move_agent_chain=false)", R_MOVE)
        specs = self.actions_at(slot)
        found: ActionSpec | None = None
        for spec in specs:
            if isinstance(intent, AddBanners) and spec.type == "add_banners" and spec.count == intent.count:
                found = spec
            elif isinstance(intent, Attack) and spec.type == "attack":
                found = spec
            elif isinstance(intent, MoveAgent) and spec.type == "move_agent":
                found = spec
            elif isinstance(intent, TakeCards) and spec.type == "take_cards":
                v = intent.variant
                if spec.mode == v.mode == "fixed" and (v.n is None or v.n == spec.n):
                    found = spec
                elif spec.mode == v.mode == "per_symbol" and v.symbol == spec.symbol and v.divisor == spec.divisor:
                    found = spec
            if found is not None:
                break
        if found is None:
            printed = ", ".join(s.describe() for s in specs)
            what = type(intent).__struct_config__.tag
            if isinstance(intent, AddBanners):
                what = f"add_banners(count {intent.count})"
            elif isinstance(intent, TakeCards):
                v = intent.variant
                what = f"take_cards(fixed {v.n or 1})" if v.mode == "fixed" else f"take_cards(per_symbol {v.symbol}/{v.divisor})"
            tx.check(False, "action_not_offered", f"{slot} offers {printed}, not {what}", R_ACTIVATION)
            return ActionSpec(type=type(intent).__struct_config__.tag, count=getattr(intent, "count", None))
        return found

    def _action_done(self, tx: Tx, slot: str) -> None:
        c = tx.state.cursor
        assert c is not None
        if c.resolving_kind == "replacement" and c.sub_position == slot and c.resolving_card is not None:
            tx.emit(CardResolved(card=c.resolving_card))
        tx.emit(ActionDone(position=slot))

    # -- council actions (§4.9–4.15) -------------------------------------------------------------------

    def _d_add_banners(self, tx: Tx, intent: AddBanners, chance: Chance | None) -> None:
        slot, e, _ = self._slot_prefix(tx, intent, verb="add_banners")
        spec = self._offered(tx, slot, intent)
        s = tx.state
        supply = s.banner_supply[e]
        tx.check(supply >= 1, "supply_empty", f"the {e} supply is empty", R_ADD)
        total = sum(pl.n for pl in intent.placements)
        want = min(intent.count, supply)
        if self.options["add_banners_exact"]:
            ok = total == want
            expect = f"exactly {want}"
        else:
            ok = 1 <= total <= want
            expect = f"1 to {want}"
        ok = ok and all(pl.n >= 1 for pl in intent.placements)
        tx.check(ok, "wrong_banner_count",
                 f"place {expect} banner(s) (count {intent.count}, {e} supply {supply}), each placement at least 1; "
                 f"got {total}", R_ADD)
        for pl in intent.placements:
            owner = self.control(s, pl.region)
            tx.check(owner == e, "region_not_controlled", f"{pl.region} is controlled by {owner}, not the {e}", R_ADD)
        tx.emit(BannersAdded(empire=e, position=slot, placements=intent.placements))
        if spec.qualifier:
            tx.emit(AuditFlagRaised(kind="qualifier_unenforced", note=f"{slot}: {spec.qualifier}"))
        self._action_done(tx, slot)

    ATTACK_CHECKS = ("source_not_controlled", "target_not_enemy", "sea_border", "not_adjacent", "no_banners_moved",
                     "insufficient_banners", "cannot_abandon_conquered")

    def _attack_check(self, state: State, empire: str, src: str, dst: str, count: int, code: str) -> str | None:
        """One of the §4.10 checks: the message if it fails, else None."""
        have = state.banners[src][empire]
        if code == "source_not_controlled":
            owner = self.control(state, src)
            return None if owner == empire else f"{src} is controlled by {owner}, not the {empire}"
        if code == "target_not_enemy":
            if self.control(state, dst) == empire:
                return f"{dst} is already controlled by the {empire}: attacks target other empires' regions"
            return None
        if code == "sea_border":
            return f"{src} and {dst} face each other across water: no attacks over the sea" if self.board.across_sea(src, dst) else None
        if code == "not_adjacent":
            return None if self.board.adjacent(src, dst) else f"{src} and {dst} share no land border"
        if code == "no_banners_moved":
            return None if count >= 1 else f"an attack moves at least 1 banner, not {count}"
        if code == "insufficient_banners":
            return None if count <= have else f"{src} holds {plural(have, empire + ' banner')}, not {count}"
        if self.home(src) != empire and count > have - 1:
            return f"{src} is a conquered region: at least 1 of its {have} {empire} banners must stay"
        return None

    def attack_problem(self, state: State, empire: str, src: str, dst: str, count: int) -> tuple[str, str] | None:
        """§4.10 checks 1–7 in order: (reason, message) of the first that fails, or None."""
        for code in self.ATTACK_CHECKS:
            msg = self._attack_check(state, empire, src, dst, count, code)
            if msg is not None:
                return code, msg
        return None

    def _d_attack(self, tx: Tx, intent: Attack, chance: Chance | None) -> None:
        slot, e, _ = self._slot_prefix(tx, intent, verb="attack")
        self._offered(tx, slot, intent)
        for code in self.ATTACK_CHECKS:
            msg = self._attack_check(tx.state, e, intent.from_, intent.to, intent.count, code)
            if msg is not None:
                tx.check(False, code, msg, R_ATTACK)
        self._launch(tx, e, slot, intent.from_, intent.to, intent.count, intent.resolve)

    def _fort_strikes(self, region: str, attacker: str) -> bool:
        r = self.board.region(region)
        return r.fort and (bool(self.options["fort_owner_neutral"]) or r.home != attacker)

    def _launch(self, tx: Tx, e: str, slot: str, src: str, dst: str, count: int, resolve: bool) -> None:
        defender = self.control(tx.state, dst)
        tx.emit(AttackLaunched(empire=e, position=slot, from_=src, to=dst, count=count, defender=defender))
        fort = False
        if self._fort_strikes(dst, e) and tx.state.banners[dst][e] >= 1:
            tx.emit(FortTriggered(region=dst, empire=e))
            fort = True
        a_after = tx.state.banners[dst][e]
        d = tx.state.banners[dst][defender] if defender is not None else 0
        if resolve:
            self._resolve(tx, dst, e, defender, count, a_after, fort, annihilation=False, pending=False)
            self._action_done(tx, slot)
        else:
            tx.emit(CombatPending(region=dst, attacker=e, defender=defender, a_in=count, a_after_fort=a_after, d=d,
                                  fort=fort))

    def _resolve(self, tx: Tx, region: str, attacker: str, defender: str | None, a_in: int, a_after: int, fort: bool,
                 *, annihilation: bool, pending: bool) -> None:
        """§4.11: attrition 1 for 1 (or, after mutual annihilation, everything is destroyed)."""
        row = tx.state.banners[region]
        a = row[attacker]
        d = row[defender] if defender is not None else 0
        if annihilation:
            a_left = d_left = 0
        else:
            k = min(a, d)
            a_left, d_left = a - k, d - k
        result = "attacker_won" if a_left > 0 else "defender_won" if d_left > 0 else "no_winner"
        tx.emit(CombatResolved(
            region=region, attacker=attacker, defender=defender, fort=fort, a_in=a_in, a_after_fort=a_after,
            attacking=a, defending=d, attacker_left=a_left, defender_left=d_left,
            losses=(a - a_left) + (d - d_left), result=result, annihilation=annihilation, pending=pending,
        ))

    def _d_resolve_combat(self, tx: Tx, intent: ResolveCombat, chance: Chance | None) -> None:
        self._in_empire_phase(tx, "resolve_combat")
        s = tx.state
        c = s.cursor
        assert c is not None
        slot = self.current_slot(s)
        if c.resolving_card is not None and not (c.resolving_kind == "replacement" and intent.position == c.sub_position):
            raise Refuse("card_resolving", f"{c.resolving_card} is still being resolved", R_PLAY)
        if intent.position != slot:
            raise Refuse("not_active_position", f"{intent.position} is not the active position; the action slot is {slot}",
                         R_ACTIVATION)
        tx.check(tx.seat == c.acting_player, "not_controller", f"{slot} is controlled by {c.acting_player}, not {tx.seat}",
                 R_ACTIVATION)
        if c.stage != "combat_pending" or c.combat is None:
            raise Refuse("no_pending_combat", f"no combat is pending at {slot}", R_COMBAT)
        cb = c.combat
        self._resolve(tx, cb.region, cb.attacker, cb.defender, cb.a_in, cb.a_after_fort, cb.fort,
                      annihilation=cb.annihilation, pending=True)
        assert slot is not None
        self._action_done(tx, slot)

    def _d_take_cards(self, tx: Tx, intent: TakeCards, chance: Chance | None) -> None:
        slot, e, _ = self._slot_prefix(tx, intent, verb="take_cards")
        spec = self._offered(tx, slot, intent)
        s = tx.state
        owed = self.entitlement(s, e, spec.mode or "fixed", spec.symbol, spec.divisor)
        deck = s.deck[e]
        if self.options["short_deck_draw"] == "forbid_action" and len(deck) < owed:
            tx.check(False, "wrong_draw_count",
                     f"the {e} deck holds {len(deck)}, fewer than the {owed} owed (short_deck_draw=forbid_action)", R_TAKE)
        expected = min(owed, len(deck))
        if self.counted:
            cards = intent.cards
            n = int(cards[0]) if len(cards) == 1 and cards[0].isdigit() else len(cards)
            tx.check(n == expected, "wrong_draw_count",
                     f"{slot} draws {expected} (entitled to {owed}, {e} deck {len(deck)}), not {n}", R_TAKE)
            drawn = tuple([e] * min(n, len(deck)))
        else:
            tx.check(len(intent.cards) == expected, "wrong_draw_count",
                     f"{slot} draws {expected} (entitled to {owed}, {e} deck {len(deck)}), not {len(intent.cards)}", R_TAKE)
            dup = sorted(c for c, k in Counter(intent.cards).items() if k > 1)
            tx.check(not dup, "duplicate_card", f"{', '.join(dup)} is named twice", R_TAKE)
            for c in intent.cards:
                if c not in deck:
                    raise Refuse("card_not_in_deck", f"{c} is not in the {e} deck", R_TAKE)
            drawn = tuple(intent.cards)
        tx.emit(CardsDrawn(player=tx.seat, empire=e, cards=drawn, position=slot))
        self._action_done(tx, slot)

    def _d_move_agent(self, tx: Tx, intent: MoveAgent, chance: Chance | None) -> None:
        slot, e, p = self._slot_prefix(tx, intent, verb="move_agent")
        self._offered(tx, slot, intent)
        s = tx.state
        owner, at = self.active_agent(s, slot)
        if self.options["move_agent_subject"] == "occupant_only":
            tx.check(s.council[e][p] is not None, "agent_not_found",
                     f"{slot} is empty (move_agent_subject=occupant_only: only an agent on the slot moves)", R_MOVE)
        tx.check(owner == tx.seat and at is not None, "agent_not_found",
                 f"no agent of {tx.seat} gives control of {slot}", R_MOVE)
        dst = intent.destination
        ok = self.is_position(dst) and split(dst)[0] == e
        tx.check(ok, "invalid_destination", f"{dst} is not a council position of the {e}", R_MOVE)
        assert at is not None
        if dst == at:
            raise Refuse("same_position", f"the active agent already stands on {dst}", R_MOVE)
        de, dp = split(dst)
        other = s.council[de][dp]
        tx.emit(AgentMoved(player=tx.seat, from_=at, to=dst, swapped_with=other),
                SubActivationOpened(position=dst, by="move_agent"))

    def action_available(self, state: State, slot: str, spec: ActionSpec, in_sub: bool) -> bool:
        """§4.14: whether an offered action could be performed now."""
        e, p = split(slot)
        if spec.type == "add_banners":
            return state.banner_supply[e] >= 1 and bool(self.controlled_regions(state, e))
        if spec.type == "take_cards":
            owed = self.entitlement(state, e, spec.mode or "fixed", spec.symbol, spec.divisor)
            if self.options["short_deck_draw"] == "forbid_action" and len(state.deck[e]) < owed:
                return False
            return min(owed, len(state.deck[e])) >= 1
        if spec.type == "move_agent":
            if in_sub and not self.options["move_agent_chain"]:
                return False
            if self.options["move_agent_subject"] == "occupant_only" and state.council[e][p] is None:
                return False
            return True
        if spec.type == "attack":
            for src in self.board.region_ids:
                have = state.banners[src][e]
                if have < 1 or self.control(state, src) != e:
                    continue
                for dst in self.board.neighbours[src]:
                    if self.attack_problem(state, e, src, dst, 1) is None:
                        return True
            return False
        return False

    def _d_pass_position(self, tx: Tx, intent: PassPosition, chance: Chance | None) -> None:
        slot, e, p = self._slot_prefix(tx, intent, verb="pass_position")
        s = tx.state
        in_sub = s.cursor is not None and s.cursor.sub_position is not None
        if not self.options["allow_pass"]:
            available = [spec.describe() for spec in self.actions_at(slot) if self.action_available(s, slot, spec, in_sub)]
            tx.check(not available, "action_required",
                     f"{slot} must act: {', '.join(available)} is available (allow_pass=false)", R_PASS)
        tx.emit(PositionPassed(position=slot, player=tx.seat))
        self._action_done(tx, slot)

    def _d_end_position(self, tx: Tx, intent: EndPosition, chance: Chance | None) -> None:
        self._in_empire_phase(tx, "end_position")
        s = tx.state
        c = s.cursor
        assert c is not None
        slot = self.current_slot(s)
        if c.resolving_card is not None:
            raise Refuse("card_resolving", f"{c.resolving_card} is still being resolved", R_PLAY)
        if c.stage == "combat_pending":
            raise Refuse("combat_pending", f"resolve the combat at {slot} first", R_COMBAT)
        if intent.position != slot:
            raise Refuse("not_active_position", f"{intent.position} is not the active position; the action slot is {slot}",
                         R_ACTIVATION)
        tx.check(tx.seat == c.acting_player, "not_controller", f"{slot} is controlled by {c.acting_player}, not {tx.seat}",
                 R_ACTIVATION)
        if c.stage != "done":
            raise Refuse("wrong_phase", f"{slot} has not performed its action yet", R_END)
        self._close_activation(tx)

    # -- cards (§4.17–4.18, §7) --------------------------------------------------------------------------

    def _d_play_card(self, tx: Tx, intent: PlayCard, chance: Chance | None) -> None:  # noqa: C901 - §4.17 in order
        s = tx.state
        c = s.cursor
        slot = self.current_slot(s)
        # 1
        window = s.phase == "EMPIRE_PHASE" and c is not None and intent.position == slot and tx.seat == c.acting_player
        if not window:
            if s.phase != "EMPIRE_PHASE" or c is None:
                msg = f"cards are played around a council position's action; the game is in {s.phase}"
            elif intent.position != slot:
                msg = f"{intent.position} is not the active position ({slot})"
            else:
                msg = f"only {c.acting_player}, who controls {slot}, may play cards now"
            raise Refuse("no_card_window", msg, R_PLAY)
        assert c is not None and slot is not None
        # 2
        during_ok = ("combat_pending",) if self.options["during_window"] == "combat_only" else ("pending", "combat_pending")
        stage_ok = {"before": c.stage == "pending", "during": c.stage in during_ok, "after": c.stage == "done"}[intent.timing]
        if not stage_ok:
            raise Refuse("no_card_window", f"a {intent.timing} card cannot be played now ({slot} is {c.stage})", R_PLAY)
        # 3
        if c.resolving_card is not None:
            raise Refuse("card_resolving", f"{c.resolving_card} is still being resolved", R_PLAY)
        hand = s.players[tx.seat].hand
        # 4
        if not self.hand_has(hand, intent.card):
            raise Refuse("card_not_in_hand", f"{intent.card} is not in {tx.seat}'s hand", R_PLAY)
        # 5
        rest = list(hand)
        rest.remove(intent.card if intent.card in rest else card_empire(intent.card) or intent.card)
        seen: set[str] = {intent.card}
        for x in intent.extra_cost_cards:
            if x in seen:
                raise Refuse("duplicate_card", f"{x} is named twice (the played card cannot pay twice)", R_PLAY)
            seen.add(x)
            entry = x if x in rest else (card_empire(x) if self.counted and card_empire(x) in rest else None)
            if entry is None:
                raise Refuse("card_not_in_hand", f"cost card {x} is not in {tx.seat}'s hand", R_PLAY)
            rest.remove(entry)
        # 6
        paid = sorted(card_empire(x) or x for x in (intent.card, *intent.extra_cost_cards))
        own = card_empire(intent.card) or ""
        ab = self.ability(intent.card, intent.ability)
        effect_name = intent.effect if isinstance(intent.effect, str) else intent.effect.primitive
        flags: list[AuditFlagRaised] = []
        if ab is not None:
            tx.check(paid == sorted(ab.cost), "cost_mismatch",
                     f"ability {intent.ability} of {intent.card} costs {'+'.join(ab.cost)}; paid {'+'.join(paid)}", R_PLAY)
            tx.check(effect_name == ab.effect, "effect_mismatch",
                     f"ability {intent.ability} of {intent.card} is {ab.effect}, not {effect_name}", R_PLAY)
            if self.counted:
                flags.append(AuditFlagRaised(kind="cost_unverified", card=intent.card))
        else:
            declared = sorted(intent.declared_cost)
            tx.check(bool(declared), "cost_mismatch",
                     f"{intent.card} has no catalogued ability {intent.ability}: declare its cost (declared_cost=…)", R_PLAY)
            tx.check(own in declared, "cost_mismatch", f"the played card pays one {own} symbol: the cost must contain {own}",
                     R_PLAY)
            if intent.ability == 1:
                tx.check(declared == [own], "cost_mismatch",
                         f"a card's first ability costs only the card itself ({own}), not {'+'.join(declared)}", R_PLAY)
            tx.check(paid == declared, "cost_mismatch", f"declared cost {'+'.join(declared)}; paid {'+'.join(paid)}", R_PLAY)
            flags.append(AuditFlagRaised(kind="cost_unverified", card=intent.card))
        # 7
        timings = self.card_timings(intent.card, intent.ability, effect_name)
        tx.check(intent.timing in timings, "timing_not_allowed",
                 f"{effect_name} of {intent.card} is played {'/'.join(timings)}, not {intent.timing}", R_NOTES)
        effect = intent.effect
        plan = self._primitive_plan(tx, intent, effect, slot) if isinstance(effect, Effect) else None
        # effects
        tx.emit(CardPlayed(player=tx.seat, card=intent.card, ability=intent.ability, timing=intent.timing,
                           position=slot, paid=tuple(intent.extra_cost_cards), effect=effect_name,
                           declared_cost=tuple(intent.declared_cost)))
        for empire in EMPIRES:
            if empire in paid:
                tx.emit(DeckShuffled(empire=empire))
        tx.emit(*flags)
        if plan is None:
            tx.emit(CardResolving(card=intent.card, kind="manual"))
            return
        plan(tx)

    def _primitive_plan(self, tx: Tx, intent: PlayCard, effect: Effect, slot: str) -> Any:
        """Check a primitive's preconditions (§7) now; return the function that applies it."""
        s = tx.state
        c = s.cursor
        assert c is not None
        e_active = split(slot)[0]
        prim = effect.primitive
        card = intent.card
        if prim == "mutual_annihilation":
            if c.combat is None:
                raise Refuse("no_card_window", "mutual annihilation needs a pending combat (attack … resolve=false)", R_NOTES)
            combat_region = c.combat.region
            return lambda t: t.emit(AnnihilationDeclared(region=combat_region))
        if prim == "reinforcement":
            if c.combat is None or c.combat.attacker != e_active:
                raise Refuse("no_card_window", f"reinforcement needs a pending combat of the {e_active}", R_NOTES)
            from_region, n, combat_region = effect.from_, effect.count or 0, c.combat.region
            if from_region is None or self.control(s, from_region) != e_active or from_region == combat_region:
                raise Refuse("source_not_controlled",
                             f"effect.from must be a region the {e_active} controls, other than {combat_region}; got {from_region}", R_NOTES)
            have = s.banners[from_region][e_active]
            if n < 1:
                raise Refuse("no_banners_moved", f"reinforcement moves at least 1 banner, not {n}", R_NOTES)
            if n > have:
                raise Refuse("insufficient_banners", f"{from_region} holds {have} {e_active} banner(s), not {n}", R_NOTES)
            tx.check(not (self.home(from_region) != e_active and n > have - 1), "cannot_abandon_conquered",
                     f"{from_region} is conquered: 1 {e_active} banner must stay", R_NOTES)
            again = self.options["fort_trigger"] == "per_entering_group" and self._fort_strikes(combat_region, e_active)

            def reinforce(t: Tx) -> None:
                t.emit(BannersMoved(from_=from_region, to=combat_region, empire=e_active, count=n, why="reinforcement"))
                if again:
                    t.emit(FortTriggered(region=combat_region, empire=e_active))
            return reinforce
        if prim == "relocate_agent":
            destination = effect.destination
            free = self.free_positions(s)
            if not free:
                raise Refuse("no_free_position", "every council position is occupied", R_NOTES)
            if destination is None or not self.is_position(destination):
                raise Refuse("invalid_destination", f"effect.destination must be a council position, got {destination}", R_NOTES)
            de, dp = split(destination)
            holder = s.council[de][dp]
            if holder is not None:
                raise Refuse("position_occupied", f"{destination} holds {holder}'s agent", R_NOTES)
            owner, at = self.active_agent(s, slot)
            if owner != tx.seat or at is None:
                raise Refuse("agent_not_found", f"no agent of {tx.seat} gives control of {slot}", R_NOTES)

            def relocate(t: Tx) -> None:
                t.emit(AgentMoved(player=t.seat, from_=at, to=destination),
                       SubActivationOpened(position=destination, by="relocate_agent"),
                       CardResolving(card=card, kind="replacement"))
            return relocate
        if prim == "borrow_action":
            target = effect.target
            if target is None or not self.is_position(target) or target == slot:
                raise Refuse("invalid_destination", f"effect.target must be another council position, got {target}", R_NOTES)
            te, tp = split(target)
            who = self.controller(s, te, tp)
            tx.check(who == tx.seat, "not_controlled_position", f"{target} is controlled by {who}, not {tx.seat}", R_NOTES)

            def borrow(t: Tx) -> None:
                t.emit(SubActivationOpened(position=target, by="borrow_action"),
                       CardResolving(card=card, kind="replacement"))
            return borrow
        if prim == "move_banners":
            src, dst, emp, n = effect.from_, effect.to, effect.empire, effect.count or 0
            if src is None or dst is None or emp is None or src == dst:
                raise Refuse("invalid_destination", "move_banners needs effect.from, effect.to (another region), "
                             "effect.empire and effect.count", R_NOTES)
            if c.combat is not None and c.combat.region in (src, dst):
                raise Refuse("combat_pending", f"a combat is pending in {c.combat.region}", R_NOTES)
            have = s.banners[src][emp]
            if n < 1:
                raise Refuse("no_banners_moved", f"move at least 1 banner, not {n}", R_NOTES)
            if n > have:
                raise Refuse("insufficient_banners", f"{src} holds {have} {emp} banner(s), not {n}", R_NOTES)
            tx.check(not (self.home(src) != emp and n > have - 1), "cannot_abandon_conquered",
                     f"{src} is not {emp} home: 1 {emp} banner must stay", R_NOTES)
            defender = self.control(s, dst)

            def move(t: Tx) -> None:
                t.emit(BannersMoved(from_=src, to=dst, empire=emp, count=n, why="move_banners"),
                       AuditFlagRaised(kind="suitability_unverified", card=card))
                if defender is not None and defender != emp:
                    fort = False
                    if self._fort_strikes(dst, emp):
                        t.emit(FortTriggered(region=dst, empire=emp))
                        fort = True
                    a_after = t.state.banners[dst][emp]
                    self._resolve(t, dst, emp, defender, n, a_after, fort, annihilation=False, pending=False)
            return move
        if prim == "disband":
            region, empire = effect.region, effect.empire
            if region is None or empire is None:
                raise Refuse("invalid_destination", "disband needs effect.region and effect.empire", R_NOTES)
            if c.combat is not None and c.combat.region == region:
                raise Refuse("combat_pending", f"a combat is pending in {region}", R_NOTES)
            have = s.banners[region][empire]
            if have < 1:
                raise Refuse("no_banners_moved", f"{region} holds no {empire} banner", R_NOTES)
            friendly = [r for r in self.board.neighbours[region] if self.control(s, r) == empire]
            split_out = self.options["disband_destination"] == "adjacent_controlled_split" and friendly
            placements = effect.placements
            if split_out:
                total = sum(p.n for p in placements)
                ok = total == have and all(p.n >= 1 and p.region in friendly for p in placements)
                if not ok:
                    raise Refuse("invalid_destination",
                                 f"the {have} disbanded {empire} banner(s) go to neighbouring {empire} regions "
                                 f"({', '.join(friendly)}): effect.placements=region:n,… adding up to {have}", R_NOTES)
            elif placements:
                raise Refuse("invalid_destination", f"the disbanded {empire} banners return to the supply: give no placements",
                             R_NOTES)

            def disband(t: Tx) -> None:
                if split_out:
                    for p in placements:
                        t.emit(BannersMoved(from_=region, to=p.region, empire=empire, count=p.n, why="disband"))
                else:
                    t.emit(BannersReturned(region=region, empire=empire, count=have, why="disband"))
                t.emit(AuditFlagRaised(kind="suitability_unverified", card=card))
            return disband
        raise Refuse("unknown_reference", f"unknown effect {prim}", R_NOTES)

    def _d_manual_effect(self, tx: Tx, intent: ManualEffect, chance: Chance | None) -> None:
        s = tx.state
        c = s.cursor
        # 1
        awaiting = (s.phase == "EMPIRE_PHASE" and c is not None and c.resolving_kind == "manual"
                    and c.resolving_card == intent.card and tx.seat == c.acting_player)
        if not awaiting:
            if c is not None and c.resolving_kind == "manual" and s.phase == "EMPIRE_PHASE":
                msg = f"{c.acting_player}'s {c.resolving_card} awaits its declaration, not {tx.seat}'s {intent.card}"
            else:
                msg = f"no manual card effect of {tx.seat} awaits a declaration ({intent.card})"
            raise Refuse("no_card_window", msg, R_MANUAL)
        assert c is not None
        # 2
        zones = Zones(s, self.counted)
        before_control = {r: self.control(s, r) for r in self.board.region_ids}
        deviation = False
        for i, d in enumerate(intent.deltas, start=1):
            if isinstance(d, BannersDelta) and d.delta > 0:
                now = self.control_of(zones.banners[d.region], d.region, c)
                if now != d.empire:
                    deviation = True
            if isinstance(d, MoveAgentDelta) and (not is_position(d.from_) or not is_position(d.to)):
                deviation = True
            if isinstance(d, DrawDelta) and not self.counted and d.card in EMPIRES:
                raise Refuse("effect_inconsistent", f"delta {i}: name the card drawn (an id of the {d.card} deck)", R_MANUAL)
            why = zones.apply(d)
            if why:
                raise Refuse("effect_inconsistent", f"delta {i}: {why}", R_MANUAL)
        pending_region = c.combat.region if c.combat else None
        fights = []
        for r in self.board.region_ids:
            cols = [e for e in EMPIRES if zones.banners[r][e] > 0]
            if len(cols) > 2:
                raise Refuse("effect_inconsistent", f"after the deltas {r} would hold banners of "
                             f"{len(cols)} empires ({', '.join(cols)}); at most two", R_MANUAL)
            if len(cols) == 2 and r != pending_region:
                fights.append((r, cols))
        for r, owner in before_control.items():
            if owner is not None and self.home(r) != owner and zones.banners[r][owner] == 0:
                deviation = True
        # effects
        tx.emit(ManualEffectApplied(player=tx.seat, card=intent.card, description=intent.description, deltas=intent.deltas))
        for r, cols in fights:
            prev = before_control[r]
            if prev in cols:
                defender: str | None = prev
            elif self.home(r) in cols:
                defender = self.home(r)
            else:
                defender = cols[0]
            attacker = next(e for e in cols if e != defender)
            fort = False
            a_in = tx.state.banners[r][attacker]
            if self._fort_strikes(r, attacker):
                tx.emit(FortTriggered(region=r, empire=attacker))
                fort = True
            self._resolve(tx, r, attacker, defender, a_in, tx.state.banners[r][attacker], fort,
                          annihilation=False, pending=False)
        tx.emit(AuditFlagRaised(kind="manual_effect", card=intent.card))
        if deviation:
            tx.emit(AuditFlagRaised(kind="rule_deviation", card=intent.card))
        tx.emit(CardResolved(card=intent.card))
        tx.manual = True

    # -- discard and reveal phases (§4.19–4.24) ----------------------------------------------------------

    def _d_discard_cards(self, tx: Tx, intent: DiscardCards, chance: Chance | None) -> None:
        s = tx.state
        tx.check(s.phase == "DISCARD", "wrong_phase", f"cards are discarded in the discard phase; the game is in {s.phase}",
                 R_DISCARD)
        tx.check(tx.seat not in s.discard_phase.discarded, "already_discarded", f"{tx.seat} has already discarded", R_DISCARD)
        hand = list(s.players[tx.seat].hand)
        for card in intent.cards:
            entry = card if card in hand else (card_empire(card) if self.counted and card_empire(card) in hand else None)
            if entry is None:
                raise Refuse("card_not_in_hand", f"{card} is not in {tx.seat}'s hand (or is named twice)", R_DISCARD)
            hand.remove(entry)
        size = len(s.players[tx.seat].hand)
        need = max(0, size - HAND_LIMIT)
        if self.options["discard_exact"]:
            tx.check(len(intent.cards) == need, "wrong_discard_count",
                     f"{tx.seat} holds {size} cards and must discard {need}, not {len(intent.cards)}", R_DISCARD)
        else:
            tx.check(len(intent.cards) >= need, "wrong_discard_count",
                     f"{tx.seat} holds {size} cards and must discard at least {need}, not {len(intent.cards)}", R_DISCARD)
        private = self.options["discard_visibility"] == "private"
        tx.emit(CardsDiscarded(player=tx.seat, cards=tuple(intent.cards), private=private))
        for e in EMPIRES:
            if any((card_empire(c) or c) == e for c in intent.cards):
                tx.emit(DeckShuffled(empire=e))
        self._maybe_end_discard(tx)

    def _reveal_turn(self, tx: Tx, verb: str) -> None:
        s = tx.state
        if s.phase not in ("REVEAL", "CI_SWAP"):
            raise Refuse("wrong_phase", f"{verb} belongs to the reveal phase; the game is in {s.phase}", R_REVEAL)
        nxt = self.next_decider(s)
        if tx.seat != nxt:
            raise Refuse("turn/not_your_turn",
                         f"{nxt} decides next, not {tx.seat}" + (" (one decision per player per phase)"
                                                                  if tx.seat in s.reveal_phase.decided else ""),
                         R_REVEAL)

    def _after_decision(self, tx: Tx) -> None:
        s = tx.state
        if self.next_decider(s) is not None:
            return
        if s.phase == "CI_SWAP":
            tx.emit(PhaseChanged(phase="CI_REVEAL"))
            return
        self._end_of_round(tx)

    def _d_swap_loyalty(self, tx: Tx, intent: SwapLoyalty, chance: Chance | None) -> None:
        self._reveal_turn(tx, "swap_loyalty")
        s = tx.state
        a, b = intent.slot_a, intent.slot_b
        tx.check(a != b, "same_slot", f"slot_a and slot_b are both {a}", R_REVEAL)
        loyalty = s.players[tx.seat].loyalty
        for slot in (a, b):
            tx.check(not loyalty[slot].revealed, "slot_revealed", f"the token in {tx.seat}'s {slot} slot is already face up "
                     "and locked", R_REVEAL)
        rev = intent.revealed
        given = {slot: getattr(rev, slot) for slot in SLOTS if rev is not None and getattr(rev, slot) is not None}
        if s.phase == "CI_SWAP":
            tx.check(not given, "reveal_mismatch", "in the counter-intelligence swap phase the tokens stay face down: "
                     "give no revealed.*", R_REVEAL)
            tx.emit(LoyaltySwapped(player=tx.seat, slot_a=a, slot_b=b))
        else:
            tx.check(set(given) == {a, b}, "reveal_mismatch",
                     f"name the two revealed tokens: revealed.{a}=<empire> revealed.{b}=<empire>", R_REVEAL)
            if self.unrecorded:
                shown = [t.empire for t in loyalty.values() if t.revealed]
                ok = given[a] != given[b] and given[a] not in shown and given[b] not in shown
                tx.check(ok, "reveal_mismatch",
                         f"revealed.{a}={given[a]} revealed.{b}={given[b]} contradicts {tx.seat}'s tokens already face up",
                         R_REVEAL)
            else:
                ok = given[a] == loyalty[b].empire and given[b] == loyalty[a].empire
                tx.check(ok, "reveal_mismatch",
                         f"revealed.{a}={given[a]} revealed.{b}={given[b]} is not what lies in those slots after the swap",
                         R_REVEAL)
            tx.emit(LoyaltySwapped(player=tx.seat, slot_a=a, slot_b=b),
                    LoyaltyRevealed(player=tx.seat, slot=a, empire=given[a]),
                    LoyaltyRevealed(player=tx.seat, slot=b, empire=given[b]))
        self._after_decision(tx)

    def _d_skip_swap(self, tx: Tx, intent: SkipSwap, chance: Chance | None) -> None:
        self._reveal_turn(tx, "skip_swap")
        tx.emit(SwapSkipped(player=tx.seat))
        self._after_decision(tx)

    def _d_ci_name_empire(self, tx: Tx, intent: CiNameEmpire, chance: Chance | None) -> None:
        s = tx.state
        tx.check(self.modules["counter_intelligence"], "module_disabled",
                 "ci_name_empire belongs to the module counter_intelligence, which this match does not use", R_CI)
        if s.phase != "CI_REVEAL":
            raise Refuse("wrong_phase", f"empires are named in the counter-intelligence reveal phase; the game is in "
                         f"{s.phase}", R_CI)
        pending = s.reveal_phase.pending_naming
        nxt = None if pending else self.next_namer(s)
        if tx.seat != nxt:
            who = f"{pending.target} must first reveal {pending.empire}" if pending else f"{nxt} names next"
            raise Refuse("turn/not_your_turn", f"{who}, not {tx.seat}", R_CI)
        target = self.ci_target(s, tx.seat)
        loyalty = s.players[target].loyalty
        shown = [slot for slot, t in loyalty.items() if t.revealed and t.empire == intent.empire]
        if shown:
            raise Refuse("target_empire_revealed",
                         f"{target}'s {intent.empire} token is already face up (in {shown[0]})", R_CI)
        if self.unrecorded:
            tx.emit(CiNamed(player=tx.seat, target=target, empire=intent.empire))
            return
        slot = next(sl for sl, t in loyalty.items() if t.empire == intent.empire)
        tx.emit(CiNamed(player=tx.seat, target=target, empire=intent.empire),
                CiScored(player=tx.seat, target=target, empire=intent.empire, slot=slot, points=MULTIPLIER[slot]))
        self._after_naming(tx)

    def _after_naming(self, tx: Tx) -> None:
        if self.next_namer(tx.state) is None:
            self._end_of_round(tx)

    def _d_ci_reveal(self, tx: Tx, intent: CiReveal, chance: Chance | None) -> None:
        s = tx.state
        tx.check(self.modules["counter_intelligence"], "module_disabled",
                 "ci_reveal belongs to the module counter_intelligence, which this match does not use", R_CI)
        if not self.unrecorded or s.phase != "CI_REVEAL":
            raise Refuse("wrong_phase", "ci_reveal is for the counter-intelligence reveal phase of a match with "
                         f"loyalty_secret_mode=unrecorded (this match: {self.options['loyalty_secret_mode']}, {s.phase})", R_CI)
        pending = s.reveal_phase.pending_naming
        if pending is None or pending.target != tx.seat or pending.empire != intent.empire:
            raise Refuse("no_pending_naming", f"nobody asked {tx.seat} to reveal {intent.empire}", R_CI)
        loyalty = s.players[tx.seat].loyalty
        tx.check(not loyalty[intent.slot].revealed, "slot_revealed", f"{tx.seat}'s {intent.slot} token is already face up",
                 R_CI)
        clash = [sl for sl, t in loyalty.items() if t.revealed and t.empire == intent.empire]
        tx.check(not clash, "reveal_mismatch", f"{tx.seat}'s {intent.empire} token is already face up in {clash[0] if clash else ''}",
                 R_CI)
        tx.emit(CiScored(player=pending.player, target=tx.seat, empire=intent.empire, slot=intent.slot,
                         points=MULTIPLIER[intent.slot]))
        self._after_naming(tx)

    def _d_final_reveal(self, tx: Tx, intent: FinalReveal, chance: Chance | None) -> None:
        s = tx.state
        if s.phase != "FINAL_SCORING" or not self.unrecorded:
            raise Refuse("wrong_phase", f"final_reveal is for final scoring with loyalty_secret_mode=unrecorded "
                         f"(the game is in {s.phase})", R_FINAL)
        pl = s.players[tx.seat]
        tx.check(not pl.final_revealed, "already_arranged", f"{tx.seat} has already revealed their tokens", R_FINAL)
        arr = intent.arrangement
        empires = [getattr(arr, slot) for slot in SLOTS] if arr is not None else []
        ok = len(empires) == 5 and sorted(e or "" for e in empires) == sorted(EMPIRES)
        tx.check(ok, "invalid_loyalty_arrangement", "give arrangement.<slot>=<empire> for all five slots, each empire once",
                 R_FINAL)
        for slot, e in zip(SLOTS, empires):
            t = pl.loyalty[slot]
            tx.check(not t.revealed or t.empire == e, "reveal_mismatch",
                     f"{tx.seat}'s {slot} token is face up showing {t.empire}, not {e}", R_FINAL)
        tx.emit(FinalRevealed(player=tx.seat, arrangement=tuple(e or "" for e in empires)))
        if all(tx.state.players[p].final_revealed for p in self.players):
            self._score(tx)

    # -- digital chance (§1.11) ------------------------------------------------------------------------

    def filled_intent(self, state: State, seat: str, intent: Any, chance: Chance | None) -> Any:
        """Digital match: fill omitted chance outcomes from the seeded generator; a typed outcome must
        be the generator's (else ``chance_mismatch``). Physical match: the intent as typed."""
        if chance is None:
            return intent
        if isinstance(intent, SetFirstPlayer) and (intent.player is None or intent.method == "random"):
            pick = chance.choice(self.players)
            if intent.player not in (None, pick):
                return self._mismatch(f"player={intent.player}")
            return msgspec.structs.replace(intent, player=pick, method="random")
        if isinstance(intent, DealFanaticEmpire):
            empires = chance.shuffled(EMPIRES)
            dealt = {p: empires[i] for i, p in enumerate(self.players)}
            if intent.assignments and intent.assignments != dealt:
                return self._mismatch("the assignments")
            return DealFanaticEmpire(assignments=dealt)
        if isinstance(intent, ArrangeLoyalty):
            player = intent.player or seat
            if player not in state.players:
                return intent
            if self.unrecorded:
                return msgspec.structs.replace(intent, arrangement=intent.arrangement or "unrecorded")
            fanatic = state.players[player].fanatic_dealt
            if self.modules["to_each_their_own"] and fanatic is None:
                return intent  # decide says deal_required
            rest = [e for e in EMPIRES if e != fanatic] if fanatic else list(EMPIRES)
            shuffled = chance.shuffled(rest)
            empires = [fanatic, *shuffled] if fanatic else shuffled
            generated = Arrangement(**dict(zip(SLOTS, empires)))
            if intent.arrangement is not None and intent.arrangement != generated:
                return self._mismatch("the arrangement")
            return msgspec.structs.replace(intent, arrangement=generated)
        if isinstance(intent, TakeCards):
            n = self._digital_draw(state, intent)
            if n is None:
                return intent
            empire, count = n
            if self.counted:
                return intent if intent.cards else msgspec.structs.replace(intent, cards=(str(count),))
            drawn = tuple(sorted(chance.shuffled(state.deck[empire])[:count]))
            if intent.cards and tuple(sorted(intent.cards)) != drawn:
                return self._mismatch(f"cards={','.join(intent.cards)}")
            return msgspec.structs.replace(intent, cards=drawn)
        if isinstance(intent, ManualEffect) and not self.counted:
            deltas: list[Delta] = []
            deck = {e: sorted(v) for e, v in state.deck.items()}
            changed = False
            for d in intent.deltas:
                if isinstance(d, DrawDelta) and d.card in EMPIRES and deck[d.card]:
                    pick = chance.choice(deck[d.card])
                    deck[d.card].remove(pick)
                    deltas.append(DrawDelta(player=d.player, card=pick))
                    changed = True
                else:
                    deltas.append(d)
            return msgspec.structs.replace(intent, deltas=tuple(deltas)) if changed else intent
        return intent

    def _mismatch(self, what: str) -> Rejected:
        return Rejected("war_of_shadows/chance_mismatch",
                        f"{what} differs from the match's seeded generator: in a digital match leave chance outcomes out "
                        "and the referee fills them in", R_CHANCE)

    def _digital_draw(self, state: State, intent: TakeCards) -> tuple[str, int] | None:
        if not self.is_position(intent.position):
            return None
        empire = split(intent.position)[0]
        v = intent.variant
        if v.mode == "per_symbol" and (v.symbol not in SYMBOLS or not v.divisor):
            return None
        return empire, self.expected_draw(state, empire, v.mode, v.symbol, v.divisor)


def _new_player() -> Player:
    return Player(agent_reserve=AGENTS)


__all__ = ["WarOfShadowsRules"]
