"""The rules bound to one match: the configuration checked, setup (R1), whose move it is, the end (R3),
and the protocol's methods, each handing on to the module that does the work."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.engine.chance import Chance
from referee.engine.protocol import ConfigError, Rejected, RulesBase
from referee.engine.speech import N_
from schemas import MatchConfig, Outcome

from .decide import DECIDERS
from .fold import evolve
from .legal import legal
from .model import Event, Intent, State
from .txn import Tx
from .view import view
from .codes import Code


class TemplateRules(RulesBase[State, Intent, Event]):
    """``RulesBase[State, Intent, Event]``: the game's state and its intent and event unions (``model.py``),
    so mypy checks every hook below against them. ``actors`` answers whose turn it is, since this game's
    rules check the turn before anything else (a game whose rulebook checks something first answers every
    seat that may ever send the intent, and checks the turn in its decider: see ``DecidingHooks``). Its
    verdicts come of its table of deciders and the decision it makes (``RulesBase.decide`` runs them)."""

    deciders = DECIDERS

    def __init__(self, config: MatchConfig) -> None:
        self.config = config
        self.players = config.players
        stones = config.options.get("stones", 10)
        if not isinstance(stones, int) or stones < 1:
            raise ConfigError.said(Code.BAD_OPTION, N_("option stones takes a whole number of at least 1, not {stones!r}"),
                                   stones=stones)
        self.stones = stones

    def setup(self, chance: Chance | None) -> State:
        return State(pile=self.stones, active=self.players[0])

    def actors(self, state: State, intent: Intent) -> frozenset[str]:
        return frozenset([state.active]) if state.pile else frozenset()

    def decision(self, state: State, seat: str, chance: Chance | None, waive: frozenset[str]) -> Tx:
        return Tx(self.players, state, seat, waive)

    def filled_intent(self, state: State, seat: str, intent: Intent, chance: Chance | None) -> Intent | Rejected:
        return intent  # no chance in this game

    def check_input(self, intent: Intent) -> str | None:
        return None

    def evolve(self, state: State, event: Event) -> State:
        return evolve(self.players, state, event)

    def outcome(self, state: State) -> Outcome | None:
        if state.pile or state.last is None:
            return None
        return Outcome(winners=(state.last,), reason="last_stone")

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return view(state, seat)

    def legal_intents(self, state: State, seat: str) -> Sequence[Intent]:
        return legal(state, seat)

    def hidden_ids(self, state: State, seat: str | None) -> frozenset[str]:
        return frozenset()
