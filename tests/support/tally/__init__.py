"""Tally, a co-operative test game for the engine (issue 11): 1 to 5 seats, one shared deck no seat
owns, hidden hands, a secret look, and a team that wins or loses together.

The seats take turns. A turn: ``draw`` the top card of the shared deck into your hand (chance: typed in
a physical match, drawn from the seed in a digital one), then ``play card=…`` it onto the common
tally or ``keep``. The team wins when the tally is exactly the target; it loses when the tally goes
past it or the deck runs out. ``peek`` shows the top card of the deck to the seat alone (a secret look).
Everything is invented; nothing of it is a real game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from referee.engine.chance import Chance
from referee.engine.datafile import load_toml
from referee.engine.decision import Decision
from referee.engine.position import Placed, PositionError, PositionShape
from referee.engine.protocol import ConfigError, Deciders, GameBase, OptionSpec, Rejected, RulesBase
from schemas import MatchConfig, Outcome
from schemas.board import Area, Board

# -- intents, events, state ----------------------------------------------------------------------------------


class Draw(msgspec.Struct, frozen=True, kw_only=True, tag="draw"):
    """Draw the top card of the shared deck [chance: the card]."""

    __private__ = ("card",)
    card: str | None = None


class Play(msgspec.Struct, frozen=True, kw_only=True, tag="play"):
    """Play a card from your hand onto the tally (public)."""

    card: str


class Keep(msgspec.Struct, frozen=True, kw_only=True, tag="keep"):
    """End your turn without playing."""


class Peek(msgspec.Struct, frozen=True, kw_only=True, tag="peek"):
    """Look at the top card of the deck, alone (a secret look)."""


Intent = Draw | Play | Keep | Peek


class Drawn(msgspec.Struct, frozen=True, kw_only=True, tag="drawn"):
    __private__ = ("card",)
    __owner__ = "seat"
    seat: str
    card: str


class Played(msgspec.Struct, frozen=True, kw_only=True, tag="played"):
    seat: str
    card: str
    value: int


class Passed(msgspec.Struct, frozen=True, kw_only=True, tag="passed"):
    seat: str


class Seen(msgspec.Struct, frozen=True, kw_only=True, tag="seen"):
    """A secret look: ``card`` is shown to ``seat`` alone."""

    __private__ = ("card",)
    __owner__ = "seat"
    seat: str
    card: str


Event = Drawn | Played | Passed | Seen


class State(msgspec.Struct, frozen=True, kw_only=True):
    active: str
    deck: tuple[str, ...]
    drawn: bool = False
    hands: dict[str, tuple[str, ...]] = {}
    #: the cards played onto the tally, in order
    played: tuple[str, ...] = ()
    tally: int = 0


# -- the rules -------------------------------------------------------------------------------------------------


class TallyTx(Decision):
    """One decision of Tally: the rules it is judged under and the seat acting."""

    __slots__ = ("rules", "seat")

    def __init__(self, rules: TallyRules, state: State, seat: str, waive: frozenset[str]) -> None:
        super().__init__("tally/", state, rules.evolve, waive=waive)
        self.rules, self.seat = rules, seat


def _draw(tx: TallyTx, intent: Draw) -> None:
    tx.require(not tx.state.drawn, "already_drawn", f"{tx.seat} has drawn this turn", "R-TURN")
    card = intent.card
    if card is None or card not in tx.state.deck:
        tx.fail("not_in_deck", f"{card} cannot come from the deck", "R-DRAW")
    tx.emit(Drawn(seat=tx.seat, card=card))


def _play(tx: TallyTx, intent: Play) -> None:
    card, seat = intent.card, tx.seat
    tx.require(card in tx.state.hands.get(seat, ()), "not_in_hand", f"{card} is not in {seat}'s hand", "R-PLAY")
    tx.emit(Played(seat=seat, card=card, value=tx.rules.values[card]))


def _keep(tx: TallyTx, intent: Keep) -> None:
    tx.emit(Passed(seat=tx.seat))


def _peek(tx: TallyTx, intent: Peek) -> None:
    tx.require(bool(tx.state.deck), "deck_empty", "the deck is empty", "R-PEEK")
    tx.emit(Seen(seat=tx.seat, card=tx.state.deck[0]))


class TallyRules(RulesBase[State, Intent, Event]):
    deciders = Deciders({Draw: _draw, Play: _play, Keep: _keep, Peek: _peek})

    def __init__(self, config: MatchConfig) -> None:
        self.config = config
        self.players = config.players
        self.target = int(config.options.get("target", 10))  # type: ignore[call-overload]
        data = load_toml(config.cards_text or "")
        self.values = {c["id"]: int(c["value"]) for c in data.get("card", [])}
        self.names = {c["id"]: str(c["name"]) for c in data.get("card", [])}
        decks = {d["id"]: tuple(d["cards"]) for d in data.get("deck", [])}
        unknown = sorted(set(config.decks) - {"shared"})
        if unknown:
            raise ConfigError("tally/bad_deck", f"tally has one deck, 'shared'; not {', '.join(unknown)}")
        deck_id = config.decks.get("shared", next(iter(decks), ""))
        if deck_id not in decks:
            raise ConfigError("tally/bad_deck", f"no deck {deck_id!r} in the card data")
        self.deck = decks[deck_id]

    def setup(self, chance: Chance | None) -> State:
        deck = tuple(chance.shuffled(self.deck)) if chance is not None else tuple(sorted(self.deck))
        return State(active=self.players[0], deck=deck, hands={p: () for p in self.players})

    def actors(self, state: State, intent: Intent) -> frozenset[str]:
        return frozenset([state.active])

    def filled_intent(self, state: State, seat: str, intent: Intent, chance: Chance | None) -> Intent | Rejected:
        if chance is not None and isinstance(intent, Draw) and state.deck:
            top = state.deck[0]
            if intent.card not in (None, top):
                return Rejected("tally/chance_mismatch", "the typed card is not the one the generator dealt")
            return Draw(card=top)
        return intent

    def chance_fields(self, intent: Intent) -> tuple[str, ...]:
        return ("card",) if isinstance(intent, Draw) else ()

    def decision(self, state: State, seat: str, chance: Chance | None, waive: frozenset[str]) -> TallyTx:
        return TallyTx(self, state, seat, waive)

    def evolve(self, state: State, event: Event) -> State:
        match event:
            case Drawn(seat=seat, card=card):
                deck = list(state.deck)
                deck.remove(card)
                hands = {**state.hands, seat: tuple(sorted((*state.hands[seat], card)))}
                return msgspec.structs.replace(state, deck=tuple(deck), hands=hands, drawn=True)
            case Played(seat=seat, card=card, value=value):
                hand = list(state.hands[seat])
                hand.remove(card)
                return self._next(msgspec.structs.replace(state, hands={**state.hands, seat: tuple(hand)},
                                                          played=(*state.played, card), tally=state.tally + value))
            case Passed():
                return self._next(state)
            case Seen():
                return state
        raise TypeError(f"unknown event {event!r}")

    def _next(self, state: State) -> State:
        i = self.players.index(state.active)
        return msgspec.structs.replace(state, active=self.players[(i + 1) % len(self.players)], drawn=False)

    def outcome(self, state: State) -> Outcome | None:
        if state.tally == self.target:
            return Outcome(winners=self.players, reason="exact_tally", kind="team_win", scores={"tally": state.tally})
        if state.tally > self.target:
            return Outcome(winners=(), reason="over_the_target", kind="team_loss", scores={"tally": state.tally})
        if not state.deck and not any(state.hands.values()):
            return Outcome(winners=(), reason="deck_ran_out", kind="team_loss", scores={"tally": state.tally})
        return None

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        data: dict[str, Any] = msgspec.to_builtins(state)
        data["deck"] = list(state.deck) if seat is None else None
        data["deck_size"] = len(state.deck)
        data["target"] = self.target
        if seat is not None:
            data["hands"] = {p: (list(h) if p == seat else ["?"] * len(h)) for p, h in state.hands.items()}
        return data

    def boards(self, view: dict[str, Any]) -> tuple[Board, ...]:
        """The table as a shared row (the deck, the played cards, the tally) and each seat's hand."""
        table = Board(title="Table", layout="row", covers=("deck", "deck_size", "played", "tally", "target"), areas=(
            Area(id="deck", lines=(f"{view['deck_size']} cards",)),
            Area(id="played", lines=tuple(view["played"])),
            Area(id="tally", label=f"target {view['target']}", lines=(str(view["tally"]),)),
        ))
        hands = Board(title="Hands", layout="tableau", covers=("hands",),
                      areas=tuple(Area(id=seat, lines=tuple(cards)) for seat, cards in view["hands"].items()))
        return (table, hands)

    def hidden_ids(self, state: State, seat: str | None) -> frozenset[str]:
        if seat is None:
            return frozenset()
        # every copy of a card id counts: an id is hidden when some copy of it is where the seat cannot look
        return frozenset(c for p, h in state.hands.items() if p != seat for c in h) | frozenset(state.deck)

    def legal_intents(self, state: State, seat: str) -> Sequence[Intent]:
        if seat != state.active or self.outcome(state) is not None:
            return []
        if not state.drawn and state.deck:
            return [Draw(card=state.deck[0] if self.config.chance == "physical" else None), Peek()]
        return [*(Play(card=c) for c in dict.fromkeys(state.hands[seat])), Keep()]

    def describe_event(self, event: Event) -> str | None:
        match event:
            case Drawn(seat=seat, card=card):
                return f"{seat} draws {card} {self.names.get(card, '')}".rstrip()
            case Played(seat=seat, card=card, value=value):
                return f"{seat} plays {card} {self.names.get(card, '')} (+{value})"
            case Passed(seat=seat):
                return f"{seat} keeps"
            case Seen(seat=seat, card=card):
                return f"{seat} looks at the top card: {card} {self.names.get(card, '')}".rstrip()
        return None

    def check_input(self, intent: Intent) -> str | None:
        card = getattr(intent, "card", None)
        if isinstance(card, str) and card not in self.values:
            return f"unknown card {card!r}; cards are {', '.join(sorted(self.values))}"
        return None

    # positions: the engine writes the paths; the game completes what they leave out
    position_shape = PositionShape(derived=("deck_size", "target"), seat_maps=("hands",))
    position_refusal = "tally/invalid_position"

    def complete_position(self, state: State, placed: Placed) -> State:
        """The deck is what the hands and the played pile leave of the shared deck, and the tally the
        played cards' values — unless the position lists them, when they are checked instead."""
        if state.active not in self.players:
            raise PositionError(f"active: {state.active!r} is not a seat ({', '.join(self.players)})")
        left = Counter(self.deck)
        for where, cards in [*((f"hands.{p}", h) for p, h in state.hands.items()), ("played", state.played)]:
            for card in cards:
                if left[card] == 0:
                    raise PositionError(f"{where}: no {card!r} left in the shared deck for it")
                left[card] -= 1
        if "deck" in placed:
            deck = state.deck
        else:  # the setup's deck, in its order, less what the position placed elsewhere
            keep, kept = Counter(left), []
            for card in state.deck:
                if keep[card] > 0:
                    keep[card] -= 1
                    kept.append(card)
            deck = tuple(kept)
        if Counter(deck) != left:
            raise PositionError(f"deck: the shared deck minus the hands and the played cards is "
                                f"{sorted(left.elements())}, not {sorted(deck)}")
        tally = sum(self.values[c] for c in state.played)
        if "tally" in placed and state.tally != tally:
            raise PositionError(f"tally: the played cards add up to {tally}, not {state.tally}")
        hands = {p: tuple(sorted(h)) for p, h in state.hands.items()}
        return msgspec.structs.replace(state, deck=deck, hands=hands, tally=tally)


class TallyGame(GameBase):
    id = "tally"
    name = "Tally"
    rules_version = "1"
    min_players = 1
    max_players = 5
    intent_type = Intent
    event_type = Event
    state_type = State
    rules_type = TallyRules
    card_sets: Mapping[str, str] = {"demo": "deck.toml"}
    card_tables: Mapping[str, str] = {"card": "id", "deck": "id"}
    default_card_set = "demo"
    summary = "A co-operative test game: reach the target tally together with cards from one shared deck."

    def options(self) -> Mapping[str, OptionSpec]:
        return {"target": OptionSpec(name="target", default=10, help="the tally the team must reach exactly")}


TALLY = TallyGame()
