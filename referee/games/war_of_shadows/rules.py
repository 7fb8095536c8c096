"""War of Shadows' rules bound to one match: the configuration checked, and the protocol's methods.

:class:`WarOfShadowsRules` reads the match's players, data set (board and catalogue) and options,
and answers the engine: ``setup``, ``decide`` (every intent of spec §4 with its checks in the spec's
order and its rejection codes; see :mod:`.decide`), ``evolve`` (:mod:`.fold`), ``view`` and
positions (:mod:`.view`), legal intents (:mod:`.legal`), events in words (:mod:`.words`), digital
chance (:mod:`.chance`), redaction and confirmations. ``decide`` never raises for a bad intent: a
failed check is a :class:`Rejected` value with the spec's reason, a message naming the actual values
(never a hidden one) and the rule it comes from. The questions the rules ask of a state (control,
turn order, whose move it is) are its base class's, :class:`~.queries.Queries`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from referee.engine import speech
from referee.engine.chance import Chance
from referee.engine.position import Placed
from referee.engine.protocol import ConfigError, Rejected, RulesBase
from referee.engine.speech import N_
from referee.engine.secrecy import blank
from schemas import MatchConfig, Outcome
from schemas.board import Board
from schemas.listing import Listed

from . import chance as chance_mod
from . import legal as legal_mod
from . import manual
from . import present
from . import setup as setup_mod
from . import view as view_mod
from . import words
from .data import EMPIRES, DataSet, parse_data
from .decide import DECIDERS
from .fold import count_shuffles, evolve
from .model import CardsDiscarded, DiscardCards, Event, Intent, State
from .options import MODULES, resolved
from .txn import Tx
from .queries import Queries
from .codes import Code


class WarOfShadowsRules(Queries, RulesBase[State, Intent, Event]):
    """War of Shadows bound to one match: players, board, catalogue and options."""

    deciders = DECIDERS

    def __init__(self, config: MatchConfig) -> None:
        if config.decks:
            raise ConfigError.said(Code.NO_DECKS,
                                   N_("War of Shadows deals from the empire decks of its data set: --deck is not used"))
        self.config = config
        self.players = tuple(config.players)
        n = len(self.players)
        if not 2 <= n <= 4:
            raise ConfigError.said(Code.INVALID_PLAYER_COUNT, N_("War of Shadows takes 2 to 4 players, got {n}: {seats}"),
                                   n=n, seats=", ".join(self.players))
        if len(set(self.players)) != n or any(not p for p in self.players):
            raise ConfigError.said(Code.INVALID_SEATING, N_("seats must be distinct player ids, got {seats}"),
                                   seats=", ".join(self.players))
        self.options = resolved(config.options)
        if not config.cards_text:
            raise ConfigError.said(Code.INVALID_BOARD_DATA, N_(
                "no board data: name a data set with a board (cards = \"TM-1\", \"demo\" or \"boards\", or a data "
                "file with a [[board]] table)"))
        data: DataSet = parse_data(config.cards_text, config.cards or "")
        if not data.boards:
            raise ConfigError.said(Code.INVALID_BOARD_DATA, N_(
                "data set {name!r} holds no [[board]]; a card catalogue file must carry its board too (copy the "
                "[[board]] of a bundled set)"), name=config.cards or "(inline)")
        wanted = str(self.options["board"] or "")
        if wanted:
            if wanted not in data.boards:
                raise ConfigError.said(Code.INVALID_BOARD_DATA,
                                       N_("board {wanted!r} is not in data set {name!r}, which holds {boards}"),
                                       wanted=wanted, name=config.cards or "(inline)", boards=", ".join(data.board_order))
            self.board = data.boards[wanted]
        else:
            self.board = data.boards[data.board_order[0]]
        self.catalogue = data.catalogue
        order = str(self.options["empire_order"] or "")
        if order:
            names = [x.strip() for x in order.split(",")]
            if sorted(names) != sorted(EMPIRES) or names[0] != "bear":
                raise ConfigError.said(Code.INVALID_BOARD_DATA, N_(
                    "option empire_order must list the five empires once each, starting with bear; got {order!r}"),
                    order=order)
            self.empire_order: tuple[str, ...] = tuple(names)
        else:
            self.empire_order = self.board.empire_order
        self.digital = config.chance == "digital"
        if "mode" in config.options and (config.options["mode"] == "digital") != self.digital:
            raise ConfigError.said(Code.INVALID_MODE, N_(
                "option mode={mode} but the match's chance is {chance}: a digital match needs a seed (seed = N), a "
                "physical one none"), mode=config.options["mode"], chance=config.chance)
        self.counted = self.options["card_identity_mode"] == "counted"
        self.unrecorded = self.options["loyalty_secret_mode"] == "unrecorded"
        self.modules = {m: bool(self.options[m]) for m in MODULES}
        self.quota = 3 if n == 2 else 2

    # -- the protocol ------------------------------------------------------------------------------------

    def setup(self, chance: Chance | None) -> State:
        """State after match creation (§1.12): SETUP, supplies, decks and starting banners placed."""
        return setup_mod.initial_state(self)

    def actors(self, state: State, intent: Intent) -> frozenset[str]:
        # turn order is checked by decide itself, where the spec's check order puts not_your_turn
        return frozenset(self.players)

    def decision(self, state: State, seat: str, chance: Chance | None, waive: frozenset[str]) -> Tx:
        return Tx(self, state, seat, waive)

    def evolve(self, state: State, event: Event) -> State:
        after = evolve(state, event, self.counted)
        return count_shuffles(state, after) if self.digital else after

    def outcome(self, state: State) -> Outcome | None:
        if state.outcome is None:
            return None
        # seat order, however the state was reached (a state read from a snapshot has its players sorted)
        scores = {p: score.total for p in self.players if (score := state.players[p].score) is not None}
        return Outcome(winners=state.outcome.winners, reason=state.outcome.reason, scores=scores or None)

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return view_mod.view(self, state, seat)

    def listing(self) -> tuple[Listed, ...]:
        from .listing import listing

        return listing(self.board, self.catalogue)

    def in_opening(self, state: State) -> bool:
        return bool(state.phase == "SETUP")

    def boards(self, view: dict[str, Any]) -> tuple[Board, ...]:
        return present.boards(self.board, view)

    def headline(self, view: dict[str, Any]) -> str:
        return present.headline(view)

    def sections(self, view: dict[str, Any], drawn: tuple[Board, ...] | None = None) -> tuple[Board, ...]:
        return present.sections(view)  # in words of its own: not from the boards

    def name_of(self, id: str) -> str | None:
        region = self.board.by_id.get(id)
        if region is not None:
            return speech.name(region) or None
        c = (self.catalogue or {}).get(id)
        return None if c is None else speech.name(c) or None

    def hidden_ids(self, state: State, seat: str | None) -> frozenset[str]:
        return view_mod.hidden_ids(self, state, seat)

    position_shape = view_mod.POSITION_SHAPE
    position_refusal = Code.INVALID_POSITION

    def position_base(self, state: State, overrides: Mapping[str, Any]) -> State:
        return view_mod.position_base(self, state, overrides)

    def position_value(self, path: str, value: Any, data: dict[str, Any]) -> Any:
        return view_mod.position_value(path, value)

    def complete_position(self, state: State, placed: Placed) -> State:
        return view_mod.complete_position(self, state, placed)

    def legal_intents(self, state: State, seat: str) -> Sequence[Intent]:
        return legal_mod.legal_intents(self, state, seat)

    def describe_event(self, event: Event) -> str | None:
        return words.describe(self, event)

    def redact(self, item: Intent | Event, actor: str | None, seat: str | None) -> Intent | Event:
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

    def confirmer(self, state: State, seat: str, intent: Intent) -> str | None:
        """A declared effect taking a card from another seat's hand waits for that seat (see
        :func:`.manual.confirmer`)."""
        return manual.confirmer(self, state, seat, intent)

    def chance_fields(self, intent: Intent) -> tuple[str, ...]:
        return chance_mod.chance_fields(self, intent)

    def filled_intent(self, state: State, seat: str, intent: Intent, chance: Chance | None) -> Intent | Rejected:
        return chance_mod.fill(self, state, seat, intent, chance)

    def check_input(self, intent: Intent) -> str | None:
        # Unknown ids are adjudicated (spec §4.0 G3: war_of_shadows/unknown_reference) and recorded,
        # so nothing is refused before adjudication here.
        return None


__all__ = ["WarOfShadowsRules"]
