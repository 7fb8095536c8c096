"""A tiny game for engine tests: players take 1-3 stones in turn; whoever takes the last one wins.

It exercises the protocol without By All Means' size: framework checks, digital chance (who starts),
hidden information (each seat holds a secret token), positions and options.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import msgspec

from referee.engine.chance import Chance
from referee.engine.decision import Decision
from referee.engine.position import Placed, PositionError
from referee.engine.protocol import Capabilities, ConfigError, Deciders, GameBase, OptionSpec, Rejected, RulesBase
from schemas import MatchConfig, Outcome

TOKENS = ("K01", "K02", "K03", "K04", "K05", "K06")


class Take(msgspec.Struct, frozen=True, kw_only=True, tag="take"):
    """Take 1 to 3 stones from the pile."""

    __positional__ = ("count",)
    count: int


class Start(msgspec.Struct, frozen=True, kw_only=True, tag="start"):
    """Record who starts and the secret tokens dealt (chance)."""

    first: str | None = None
    tokens: tuple[str, ...] = ()


class Say(msgspec.Struct, frozen=True, kw_only=True, tag="say"):
    """Say something (always accepted, no effect on the pile)."""

    note: str = ""
    mode: Literal["loud", "quiet"] = "quiet"


class Guess(msgspec.Struct, frozen=True, kw_only=True, tag="guess"):
    """Name another seat's secret token: right, and you take a stone from the pile for free; wrong,
    refused. Whether it is right is that seat's secret, so a guess waits for its confirmation."""

    seat: str
    token: str


class Refill(msgspec.Struct, frozen=True, kw_only=True, tag="refill"):
    """The table (not a seat) puts stones back on the pile."""

    count: int


Intent = Take | Start | Say | Guess | Refill


class Taken(msgspec.Struct, frozen=True, kw_only=True, tag="taken"):
    seat: str
    count: int


class Started(msgspec.Struct, frozen=True, kw_only=True, tag="started"):
    first: str
    tokens: tuple[str, ...]


Event = Taken | Started


class State(msgspec.Struct, frozen=True, kw_only=True):
    pile: int
    players: tuple[str, ...]
    active: str | None = None
    tokens: dict[str, str] = {}
    last: str | None = None


class PileTx(Decision):
    """One decision on the pile: the rules it is judged under and the seat acting."""

    __slots__ = ("rules", "seat")

    def __init__(self, rules: PileRules, state: State, seat: str, waive: frozenset[str]) -> None:
        super().__init__("pile/", state, rules.evolve, waive=waive)
        self.rules, self.seat = rules, seat


def _start(tx: PileTx, intent: Start) -> None:
    players = tx.rules.players
    first = intent.first
    if first is None or first not in players:
        tx.fail("bad_first", f"first must be a player, not {first!r}", "R-START")
    tx.require(len(intent.tokens) == len(players), "wrong_token_count", f"deal {len(players)} tokens", "R-START")
    tx.emit(Started(first=first, tokens=intent.tokens))


def _take(tx: PileTx, intent: Take) -> None:
    count = intent.count
    tx.check(1 <= count <= 3, "bad_count", f"take 1 to 3 stones, not {count}", "R-TAKE")
    banned = count in tx.rules.config.options.get("bans", ())  # type: ignore[operator]
    tx.require(not banned, "banned_count", f"taking {count} is banned in this match", "R-TAKE")
    tx.require(count <= tx.state.pile, "not_enough", f"the pile has {tx.state.pile}, not {count}", "R-TAKE")
    tx.emit(Taken(seat=tx.seat, count=count))


def _say(tx: PileTx, intent: Say) -> None:
    """Anything may be said at any time: accepted, and nothing changes (no event)."""


def _refill(tx: PileTx, intent: Refill) -> None:
    tx.emit(Taken(seat="table", count=-intent.count))


def _guess(tx: PileTx, intent: Guess) -> None:
    tx.require(tx.state.tokens.get(intent.seat) == intent.token, "wrong_guess", f"{intent.seat}'s token is not {intent.token}",
               "R-GUESS")
    tx.emit(Taken(seat=tx.seat, count=1))


class PileRules(RulesBase[State, Intent, Event]):
    deciders = Deciders({Start: _start, Take: _take, Say: _say, Refill: _refill, Guess: _guess})

    def __init__(self, config: MatchConfig) -> None:
        self.config = config
        self.players = config.players
        self.start = int(config.options.get("stones", 10))

    def setup(self, chance: Chance | None) -> State:
        return State(pile=self.start, players=self.players)

    def actors(self, state: State, intent: Intent) -> frozenset[str]:
        if isinstance(intent, Refill):
            return frozenset(["table"])
        if isinstance(intent, (Take, Guess)):
            return frozenset([state.active]) if state.active else frozenset()
        if isinstance(intent, Start):
            return frozenset(self.players) if state.active is None else frozenset()
        return frozenset(self.players)

    def filled_intent(self, state: State, seat: str, intent: Intent, chance: Chance | None) -> Intent | Rejected:
        if chance is None or not isinstance(intent, Start):
            return intent
        first = chance.choice(self.players)
        tokens = tuple(chance.shuffled(TOKENS)[: len(self.players)])
        if intent.first not in (None, first) or intent.tokens not in ((), tokens):
            return Rejected("pile/chance_mismatch", "the typed outcome differs from the match's generator")
        return Start(first=first, tokens=tokens)

    def decision(self, state: State, seat: str, chance: Chance | None, waive: frozenset[str]) -> PileTx:
        return PileTx(self, state, seat, waive)

    def evolve(self, state: State, event: Event) -> State:
        match event:
            case Started(first=first, tokens=tokens):
                return msgspec.structs.replace(state, active=first, tokens=dict(zip(self.players, tokens)))
            case Taken(seat="table", count=count):
                return msgspec.structs.replace(state, pile=state.pile - count)
            case Taken(seat=seat, count=count):
                i = self.players.index(seat)
                nxt = self.players[(i + 1) % len(self.players)]
                return msgspec.structs.replace(state, pile=state.pile - count, active=nxt, last=seat)
            case _:
                raise TypeError(f"unknown event {event!r}")

    def confirmer(self, state: State, seat: str, intent: Intent) -> str | None:
        return intent.seat if isinstance(intent, Guess) and intent.seat != seat else None

    def redact(self, item: Intent | Event, actor: str | None, seat: str | None) -> Intent | Event:
        """The tokens dealt are listed in seat order: each seat sees its own (a game's own rule)."""
        if seat is None or not isinstance(item, (Start, Started)) or not item.tokens:
            return item
        return msgspec.structs.replace(item, tokens=tuple(
            t if i < len(self.players) and self.players[i] == seat else "?" for i, t in enumerate(item.tokens)))

    def describe_event(self, event: Event) -> str | None:
        match event:
            case Taken(seat=seat, count=count):
                return f"{seat} takes {count} stone{'s' if count != 1 else ''}"
            case Started(first=first):
                return f"{first} starts; tokens dealt"
        return None

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        data = msgspec.to_builtins(state)
        data["nicknames"] = dict(self.config.options.get("nicknames", {}))  # type: ignore[call-overload]
        if seat is not None:
            data["tokens"] = {s: (t if s == seat else "?") for s, t in state.tokens.items()}
        return data

    def outcome(self, state: State) -> Outcome | None:
        """The last stone ends the game; the option ``ending`` says which kind of end it makes, so that
        every kind of outcome can be shown by every front end."""
        if state.pile != 0 or state.last is None:
            return None
        last, ending = state.last, self.config.options.get("ending", "last_stone")
        others = tuple(p for p in self.players if p != last)
        if ending == "shared":
            return Outcome(winners=(last, others[0]), reason="shared_stone")
        if ending == "draw":
            return Outcome(winners=(), reason="even_pile", kind="draw")
        if ending == "ranking":
            return Outcome(winners=(last,), reason="most_stones", kind="ranking", ranking=((last,), others),
                           scores={last: 3, **{p: 1 for p in others}})
        if ending == "team_win":
            return Outcome(winners=self.players, reason="pile_cleared", kind="team_win")
        if ending == "team_loss":
            return Outcome(winners=(), reason="pile_toppled", kind="team_loss")
        return Outcome(winners=(last,), reason="last_stone")

    def legal_intents(self, state: State, seat: str) -> Sequence[Intent]:
        if state.active is None:
            return [Start()]
        if seat != state.active:
            return []
        return [Take(count=c) for c in (1, 2, 3) if c <= state.pile]

    def check_input(self, intent: Intent) -> str | None:
        if isinstance(intent, Start):
            for t in intent.tokens:
                if t not in TOKENS:
                    return f"unknown token {t!r}; tokens are {', '.join(TOKENS)}"
        return None

    position_refusal = "pile/position_invalid"

    def complete_position(self, state: State, placed: Placed) -> State:
        if state.pile < 0:
            raise PositionError("pile must be >= 0")
        return state

    def hidden_ids(self, state: State, seat: str | None) -> frozenset[str]:
        if seat is None:
            return frozenset()
        return frozenset(t for s, t in state.tokens.items() if s != seat)


class PileGame(GameBase):
    id = "pile"
    name = "Pile"
    aliases = ("nim",)
    rules_version = "1"
    min_players = 2
    max_players = 4
    intent_type = Intent
    event_type = Event
    state_type = State
    rules_type = PileRules
    capabilities = Capabilities(confirmations=True, other_actors=("table",))
    summary = "Take 1-3 stones; the last stone wins (a test game)."

    def options(self) -> Mapping[str, OptionSpec]:
        return {
            "stones": OptionSpec(name="stones", default=10, help="stones in the pile"),
            "bans": OptionSpec(name="bans", default=(), of="int", choices=(1, 2, 3),
                               help="counts nobody may take (a list: 2,3)"),
            "nicknames": OptionSpec(name="nicknames", default={}, help="what each seat is called (a map: alice:Al)"),
            "ending": OptionSpec(name="ending", default="last_stone", help="what kind of end the last stone makes",
                                 choices=("last_stone", "shared", "draw", "ranking", "team_win", "team_loss")),
        }


PILE = PileGame()
