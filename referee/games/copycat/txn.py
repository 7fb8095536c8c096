"""The decision being built (a :class:`Tx`), the rule citations, and the chance facts drawn or checked
inside a decision.

A decider works on a :class:`Tx`: every change is an event applied at once with the fold, so later
checks see its effect; a failed check raises a refusal, which ``decide`` returns as a Rejected value.
In a digital match the same deciders run once more to *fill* the intent (``Tx.fill`` set): a chance
fact left out is drawn from the match's generator at the place the rules need it, and recorded under
its path in the intent (``args.then.drawn``), so the log holds the filled intent and replay never
re-rolls. A digital match's decks, supply bands and office departments are ordered lists, shuffled once
from the seed (at setup, and a discard pile when it becomes the deck): a draw takes their top cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, Protocol

from referee.engine.chance import Chance
from referee.engine.decision import Decision
from schemas import MatchConfig

from .codes import Code
from .data import Card, DataSet, OfficeCard, unknown_card
from .model import CardsDrawn, State

R_SETUP = "§2 «Подготовка к игре»"
R_CHANCE = "§4.0.3"
R_DRAW = "§4.1 «Каждый игрок берет в руку 5 карт»"
R_ORDER = "§4.2, §3.2 «Чтобы определить порядок хода»"
R_PLACE = "§4.3 «2. Действия»"
R_PLAY = "§4.4 «Типы карт по цветам»"
R_OFFICE = "§4.5 «Офисы»"
R_PASS = "§4.6"
R_END = "§4.7"
R_LAY = "§4.8 «выкладывает все оставшиеся у него на руках карты»"
R_ACTIVATE = "§4.9"
R_BUY = "§4.10 «Приобретения и прибыль»"
R_CLEANUP = "§4.11 «4. Заметание следов»"
R_MANUAL = "§4.12"
R_EFFECT = "§4.13"
R_LIMIT = "§3.1 «максимум дважды за раунд»"

#: a chance chooser: (path, how many, the candidates in their pile order) -> the cards picked
Chooser = Callable[[str, int, tuple[str, ...]], tuple[str, ...]]


def rng_chooser(chance: Chance) -> Chooser:
    def choose(path: str, k: int, pile: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(chance.derive(path).shuffled(sorted(pile))[:k])
    return choose


def first_chooser(path: str, k: int, pile: tuple[str, ...]) -> tuple[str, ...]:
    """A consistent example (legal intents of a physical match): the first cards in id order."""
    return tuple(sorted(pile)[:k])


class BoundRules(Protocol):
    """The rules bound to one match as every module below :mod:`.rules` reads them (``CopycatRules`` is
    one): the configuration, seats, options, cards and offices, the fold, and an intent's chance filling."""

    config: MatchConfig
    #: the seats, in seating order
    players: tuple[str, ...]
    #: every option's value (given or default)
    options: dict[str, Any]
    #: the data set, and its cards as the match's options make them
    data: DataSet
    cards: dict[str, Card]
    offices: dict[str, OfficeCard]
    office_order: tuple[str, ...]
    #: each seat's starter set (its letter)
    sets: dict[str, str]

    @property
    def removed(self) -> tuple[str, ...]:
        """The cards a two-player match takes out."""

    def evolve(self, state: State, event: Any) -> State: ...

    def fill(self, state: State, seat: str, intent: Any, chooser: Chooser, chance: Chance | None = None) -> Any: ...


class Tx(Decision):
    __slots__ = ("rules", "seat", "fill", "fills", "chance")

    def __init__(self, rules: BoundRules, state: State, seat: str, waive: frozenset[str] = frozenset(),
                 fill: Chooser | None = None, chance: Chance | None = None) -> None:
        super().__init__("copycat/", state, rules.evolve, waive=waive)
        self.rules = rules
        self.seat = seat
        self.fill = fill
        #: a digital match's generator: its decks, bands and departments are ordered lists, drawn from
        #: the top; a discard pile becomes a deck in the order this shuffles it into (None: physical)
        self.chance = chance
        #: chance facts drawn while filling: path in the intent -> value
        self.fills: dict[str, Any] = {}

    @property
    def st(self) -> State:
        state: State = self.state
        return state

    def fact(self, path: str, given: Any, k: int, pile: tuple[str, ...], what: str, rule: str = R_CHANCE) -> Any:
        """A chance fact of ``k`` cards from ``pile``: as given (recorded mode), or drawn and recorded
        (filling a digital match), where a given value must be what the generator draws."""
        if self.fill is not None:
            drawn = self.fill(path, k, pile)
            if given is not None and Counter(given) != Counter(drawn):
                self.fail(Code.CHANCE_MISMATCH, f"{path}: the typed {what} differs from what the referee's generator drew "
                          "(leave it out in a digital match)", rule)
            self.fills[path] = drawn
            return drawn
        if given is None:
            if k == 0:
                return ()
            self.fail(Code.CHANCE_MISSING, f"{path}: name the {what} ({k} card{'s' if k != 1 else ''})", rule)
        return given

    def draw_own(self, seat: str, requested: int, drawn: tuple[str, ...] | None, path: str, rule: str = R_CHANCE) -> None:
        """Own-deck draw validation (§4.0.3) and the draw."""
        p = self.st.players[seat]
        need = min(requested, len(p.deck) + len(p.discard))
        new_deck: tuple[str, ...] | None = None
        if self.chance is not None:  # digital: the top of the deck, then of the discard pile shuffled
            top = p.deck[:need]
            # the seed's alone (not the entry's number): a seat reshuffles at most once a round
            salt = f"copycat:reshuffle:{seat}:{self.st.round}"
            shuffled = tuple(Chance(self.chance.seed, salt).shuffled(sorted(p.discard))) if need > len(top) else ()
            picked = (*top, *shuffled[:need - len(top)])
            if need > len(top):
                new_deck = shuffled[need - len(top):]
            if drawn is not None and Counter(drawn) != Counter(picked):
                self.fail(Code.CHANCE_MISMATCH, f"{path}: the typed cards differ from what the referee's generator drew "
                          "(leave them out in a digital match)", rule)
            if self.fill is not None:
                self.fills[path] = picked
            drawn = picked
        elif self.fill is not None:
            from_deck = self.fill(path + "#deck", min(need, len(p.deck)), p.deck)
            rest = self.fill(path + "#discard", need - len(from_deck), p.discard)
            picked = (*from_deck, *rest)
            if drawn is not None and Counter(drawn) != Counter(picked):
                self.fail(Code.CHANCE_MISMATCH, f"{path}: the typed cards differ from what the referee's generator drew "
                          "(leave them out in a digital match)", rule)
            self.fills[path] = picked
            drawn = picked
        elif drawn is None:
            if need == 0:
                drawn = ()
            else:
                self.fail(Code.CHANCE_MISSING, f"{path}: name the {need} card{'s' if need != 1 else ''} {seat} drew", rule)
        if len(drawn) != need:
            self.fail(Code.WRONG_DRAW_COUNT, f"{seat} draws {need} card{'s' if need != 1 else ''} here "
                      f"({len(p.deck)} in the deck, {len(p.discard)} in the discard pile), not {len(drawn)}", rule)
        for card in drawn:
            if card not in self.rules.cards:
                self.fail(Code.UNKNOWN_CARD, f"{path}: {unknown_card(self.rules.cards, card)}", rule)
        left = Counter(p.deck)
        from_deck_l: list[str] = []
        rest_l: list[str] = []
        for card in drawn:
            if left[card] > 0:
                left[card] -= 1
                from_deck_l.append(card)
            else:
                rest_l.append(card)
        if Counter(rest_l) - Counter(p.discard):
            self.fail(Code.CARD_NOT_IN_DECK, f"{path}: a drawn card is in neither {seat}'s deck nor discard pile", rule)
        if rest_l and Counter(from_deck_l) != Counter(p.deck):
            self.fail(Code.DISCARD_BEFORE_DECK_EMPTY, f"{path}: a card of the discard pile was named while "
                      f"{seat}'s deck still held cards (the pile is shuffled in only when the deck is empty)", rule)
        if drawn or rest_l:
            self.emit(CardsDrawn(seat=seat, from_deck=tuple(from_deck_l), from_discard=tuple(rest_l),
                                 reshuffled=bool(rest_l), new_deck=new_deck if rest_l else None))

    def supply_facts(self, path: str, given: tuple[str, ...] | None, empty: int, rule: str) -> tuple[str, ...]:
        """Supply draw validation (§4.0.3): the cards for ``empty`` slots, top band first."""
        bands = [list(b.cards) for b in self.st.supply.bands]
        total = sum(len(b) for b in bands)
        need = min(empty, total)
        if self.chance is not None:  # digital: the bands are ordered, drawn from the top
            ordered = tuple(c for b in bands for c in b)[:need]
            if given is not None and tuple(given) != ordered:
                self.fail(Code.CHANCE_MISMATCH, f"{path}: the typed cards differ from what the referee's generator drew "
                          "(leave them out in a digital match)", rule)
            if self.fill is not None:
                self.fills[path] = ordered
            given = ordered
        elif self.fill is not None:
            picked: list[str] = []
            sim = [list(b) for b in bands]
            for i in range(need):
                band = next(b for b in sim if b)
                card = self.fill(f"{path}.{i}", 1, tuple(band))[0]
                band.remove(card)
                picked.append(card)
            if given is not None and tuple(given) != tuple(picked):
                self.fail(Code.CHANCE_MISMATCH, f"{path}: the typed cards differ from what the referee's generator drew "
                          "(leave them out in a digital match)", rule)
            self.fills[path] = tuple(picked)
            given = tuple(picked)
        elif given is None:
            if need == 0:
                return ()
            self.fail(Code.CHANCE_MISSING, f"{path}: name the {need} card{'s' if need != 1 else ''} drawn from the supply", rule)
        if len(given) != need:
            self.fail(Code.WRONG_DRAW_COUNT, f"{path}: {need} card{'s' if need != 1 else ''} come from the supply here "
                      f"({empty} empty slot{'s' if empty != 1 else ''}, {total} in the supply), not {len(given)}", rule)
        for card in given:
            if card not in self.rules.cards:
                self.fail(Code.UNKNOWN_CARD, f"{path}: {unknown_card(self.rules.cards, card)}", rule)
            top: list[str] = next((b for b in bands if b), [])
            if card not in top:
                self.fail(Code.CARD_NOT_IN_SUPPLY, f"{path}: a refill card is not in the top band of the supply", rule)
            top.remove(card)
        return tuple(given)
