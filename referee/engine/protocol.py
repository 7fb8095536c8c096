"""The game protocol: what every game package provides, as pure functions.

A game module (``referee/games/<id>/``) exposes one object satisfying :class:`Game`. Binding it to a
match configuration gives :class:`Rules`, whose methods are the decider: ``setup``, ``decide``,
``evolve``, ``view``, ``outcome`` and ``legal_intents``. Everything is deterministic and pure.

``Rules`` is the union of six small protocols by concern (:class:`DecidingHooks`, :class:`ViewHooks`,
:class:`PresentationHooks`, :class:`ChanceHooks`, :class:`PositionHooks`, :class:`ContinuationHooks`),
each generic in what it reads, so a function asks for the group it uses. A game's rules class inherits
``RulesBase[State, Intent, Event]`` (its state and its intent and event unions), which declares the
hooks every game writes and gives the others their defaults; what a game has beyond them is declared
once as data, :class:`Capabilities` on its :class:`Game`. ``actors`` has one meaning for every game,
given in :class:`DecidingHooks`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Generic, Literal, Protocol, TypeVar, cast

import msgspec

from schemas import MatchConfig, Outcome, Seat
from schemas.board import Board
from schemas.listing import Listed

from .chance import Chance
from .codes import InputCode, MatchCode, SetupCode
from .position import Placed, PositionError, PositionShape, write_paths
from .present import sections as default_sections
from .present import seat_tableau
from .position import convert as position_convert
from .messages import NO_MESSAGES, Messages
from .rulebook import NO_RULEBOOK, Rulebook
from .speech import N_

S = TypeVar("S")
I = TypeVar("I")  # noqa: E741 - intent
E = TypeVar("E")
S_co = TypeVar("S_co", covariant=True)
S_contra = TypeVar("S_contra", contravariant=True)
E_contra = TypeVar("E_contra", contravariant=True)


class Accepted(msgspec.Struct, Generic[E], frozen=True, tag="accepted"):
    """The intent is legal; ``events`` are the facts it produced, applied in order by ``evolve``."""

    events: tuple[E, ...] = ()
    manual: bool = False


class Rejected(msgspec.Struct, frozen=True, tag="rejected"):
    """The intent is refused. ``code`` is ``scope/reason``; ``rule`` cites the rulebook."""

    code: str
    message: str
    rule: str = ""


class Held(msgspec.Struct, frozen=True, tag="held"):
    """The intent reads what is hidden from its actor (another seat's hand, say), so its verdict would
    tell the actor what it may not know: it waits for ``confirmer`` (that seat, or the arbiter) to
    confirm it, as at a table, and nothing else is played meanwhile. The confirmation is an entry of
    its own, adjudicated then (see ``Rules.confirmer``)."""

    confirmer: str
    reason: str = ""


Verdict = Accepted[Any] | Rejected


class Refusal(Exception):
    """A failed check: the intent is rejected with ``code`` (``<game>/<reason>``), a message naming the
    values, and the rule it cites. Raised deep inside a decision (see :mod:`.decision`); the decider
    returns it as its :attr:`verdict` (``decide`` never raises for a bad intent)."""

    def __init__(self, code: str, message: str, rule: str = "") -> None:
        super().__init__(message)
        # a game's code may be a member of its StrEnum of codes: the verdict holds the plain string
        self.code, self.message, self.rule = str(code), message, rule

    @property
    def verdict(self) -> Rejected:
        return Rejected(self.code, self.message, self.rule)


class Deciding(Protocol[S_co, E]):
    """What :meth:`RulesBase.decide` needs of a game's decision in progress
    (:class:`~referee.engine.decision.Decision`)."""

    @property
    def state(self) -> S_co: ...

    #: whether ``state`` is the state after the events emitted (False: the game folds them itself)
    @property
    def keeps_state(self) -> bool: ...

    def accepted(self) -> Accepted[E]: ...


D = TypeVar("D")


class Deciders(Generic[D]):
    """A game's table of deciders, declared once as data in its ``decide.py`` and named by its rules class
    (``deciders = DECIDERS``): for each intent type the function that judges it on the decision ``D`` (its
    checks raise a :class:`Refusal`, its changes are emitted), with what every intent goes through around
    its decider. :meth:`RulesBase.decide` runs it on a fresh decision, so no game writes that loop.

    * ``before(tx, intent)``: the checks and changes every intent goes through first (the rulebook's
      general checks: the phase, what is pending, the step), in the rulebook's order;
    * ``after(tx, intent)``: what follows every accepted decider (a status check, a note of the action);
    * ``again(tx, start, intent)``: after a refusal, whether the intent is judged once more, on ``tx`` made
      ready for it from ``start``, the state the decision began on (War of Shadows closes an activation
      that is done and judges the intent after it); False lets the refusal stand (the default).
    """

    __slots__ = ("table", "before", "after", "again")

    def __init__(self, table: Mapping[type[Any], Callable[[D, Any], None]], *,
                 before: Callable[[D, Any], None] | None = None, after: Callable[[D, Any], None] | None = None,
                 again: Callable[[D, Any, Any], bool] | None = None) -> None:
        self.table: Mapping[type[Any], Callable[[D, Any], None]] = dict(table)
        self.before, self.after, self.again = before, after, again

    def judge(self, tx: D, intent: Any) -> None:
        """``intent`` judged on ``tx``: ``before``, its decider, ``after``; a failed check raises a
        :class:`Refusal` (after ``again`` declined to judge it once more)."""
        if self.again is None:
            self._once(tx, intent)
            return
        start = cast("Deciding[Any, Any]", tx).state
        try:
            self._once(tx, intent)
        except Refusal:
            if not self.again(tx, start, intent):
                raise
            self._once(tx, intent)

    def _once(self, tx: D, intent: Any) -> None:
        if self.before is not None:
            self.before(tx, intent)
        decider = self.table.get(type(intent))
        if decider is None:
            raise TypeError(f"no decider for the intent {type(intent).__name__} in the game's table")
        decider(tx, intent)
        if self.after is not None:
            self.after(tx, intent)


class OptionSpec(msgspec.Struct, frozen=True, kw_only=True):
    """A named match option: its default, and either a closed set of choices or a type.

    A default that is a list makes a list option (typed ``a,b,c``, or a TOML/JSON array); a default
    that is a map makes a map option (typed ``name:value,name:value``, or a TOML table/JSON object).
    ``of`` is the type of their items (``str`` or ``int``) and ``choices`` then restricts each item.
    """

    name: str
    default: str | int | bool | tuple[str | int, ...] | dict[str, str | int]
    choices: tuple[str | int | bool, ...] = ()
    help: str = ""
    rule: str = ""
    of: Literal["str", "int"] = "str"

    def parse(self, raw: Any) -> Any:
        """Convert a typed-in value to the option's type; raise ``ValueError`` naming what is expected."""
        if isinstance(self.default, (tuple, list)):
            items = raw if isinstance(raw, (list, tuple)) else [x for x in str(raw).split(",") if x.strip()] if str(raw).strip() else []
            return [self._item(x) for x in items]
        if isinstance(self.default, dict):
            if isinstance(raw, dict):
                pairs = list(raw.items())
            else:
                pairs = []
                for part in filter(None, (x.strip() for x in str(raw).split(","))):
                    key, sep, value = part.partition(":")
                    if not sep or not key.strip():
                        raise ValueError(f"option {self.name} takes name:value pairs (e.g. alice:2,bob:0), not {part!r}")
                    pairs.append((key.strip(), value.strip()))
            return {str(k): self._item(v) for k, v in pairs}
        return self._scalar(raw)

    def _item(self, raw: Any) -> str | int:
        if isinstance(raw, (dict, list, tuple, bool)) or raw is None:
            raise ValueError(f"option {self.name}: each item is a {'whole number' if self.of == 'int' else 'word'}, not {raw!r}")
        if self.of == "int":
            try:
                value: str | int = int(str(raw).strip())
            except ValueError:
                raise ValueError(f"option {self.name}: each item is a whole number, not {raw!r}") from None
        else:
            value = str(raw).strip()
        if self.choices and value not in self.choices:
            raise ValueError(f"option {self.name}: each item is one of {', '.join(str(c) for c in self.choices)} (got {raw!r})")
        return value

    def _scalar(self, raw: Any) -> str | int | bool:
        want = type(self.default)
        value: str | int | bool
        if isinstance(raw, (dict, list, tuple)):
            raise ValueError(f"option {self.name} takes one value, not {type(raw).__name__}")
        if isinstance(raw, want) and not (want is int and isinstance(raw, bool)):
            value = cast("str | int | bool", raw)
        elif want is bool:
            text = str(raw).strip().lower()
            if text in ("true", "yes", "1", "on"):
                value = True
            elif text in ("false", "no", "0", "off"):
                value = False
            else:
                raise ValueError(f"option {self.name} takes true or false, not {raw!r}")
        elif want is int:
            try:
                value = int(str(raw).strip())
            except ValueError:
                raise ValueError(f"option {self.name} takes a whole number, not {raw!r}") from None
        else:
            value = str(raw).strip()
        if self.choices and value not in self.choices:
            allowed = ", ".join(str(c).lower() if isinstance(c, bool) else str(c) for c in self.choices)
            raise ValueError(f"option {self.name} takes one of: {allowed} (got {raw!r})")
        return value


class ConfigError(ValueError):
    """A match configuration (players, options, cards, decks, position) is not acceptable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = str(code)  # a member of a StrEnum of codes is kept as its plain string
        self.message = message
        #: the catalog template the message was said through and its values (:meth:`said`), if it was: the
        #: service's error that wraps this one reads it in the reader's language (``RefereeError.text``)
        self.template: tuple[str, dict[str, Any]] | None = None

    @classmethod
    def said(cls, code: str, template: str, /, **values: Any) -> ConfigError:
        """The error, its English message ``template`` (marked ``N_``) filled with ``values``."""
        err = cls(code, template.format(**values))
        err.template = (template, values)
        return err


class InputError(ValueError):
    """An intent is malformed or names something that does not exist: refused before adjudication."""

    def __init__(self, message: str, code: str = InputCode.INVALID) -> None:
        super().__init__(message)
        self.code = str(code)
        self.message = message
        #: the catalog template the message was said through and its values (:meth:`said`), if it was: the
        #: service's error that wraps this one reads it in the reader's language (``RefereeError.text``)
        self.template: tuple[str, dict[str, Any]] | None = None

    @classmethod
    def said(cls, code: str, template: str, /, **values: Any) -> InputError:
        """The error, its English message ``template`` (marked ``N_``) filled with ``values``."""
        err = cls(template.format(**values), code)
        err.template = (template, values)
        return err


# -- the hooks, in groups by concern ----------------------------------------------------------------------
#
# :class:`Rules` is the union of the groups below; an engine or front-end function asks for the group it
# uses (the fold, ``core.apply`` and ``core.fold``, asks for :class:`DecidingHooks` alone).
# Each is generic in what it reads: ``S`` the game's state, ``I`` its intent union, ``E`` its event union
# (type aliases in the game's ``model.py``), so mypy checks a game's hooks against its own unions.


class RandomSource(Protocol):
    """What ``random_intent`` picks with (a ``random.Random`` the caller seeded; the fold never sees one)."""

    def randrange(self, stop: int) -> int: ...


class DecidingHooks(Protocol[S, I, E]):
    """The decider: setup, who may act, the verdict, the fold, and what the engine asks around them.

    **``actors``, one meaning for every game.** ``actors(state, intent)`` is the gate the framework
    keeps: the actors (seats, and the game's declared ``Capabilities.other_actors``) whose ``intent`` is
    adjudicated by the game's rules now; any other actor is refused before the rules are asked, with
    ``turn/not_your_turn``. It is a superset of who could have ``intent`` accepted: every seat whose
    intent ``decide`` would accept is in it (never fewer), and it names nobody outside the seats and
    the declared other actors. Whose turn it is belongs here when the game's rules check it before
    anything else (the template, By All Means, X-Files); a game whose rulebook orders its checks so that
    a move out of turn is refused for another reason first (an unknown card, the wrong phase) answers
    every actor who may ever send that intent and checks the turn in ``decide``, at the rulebook's
    place (War of Shadows, Android, Copycat). Decided from the intent's kind and the public state only.
    """

    config: MatchConfig
    #: the seats, in seating order
    players: tuple[Seat, ...]
    #: the game's declared ``Capabilities.confirmations`` (``Game.bind`` sets it): whether the engine asks
    #: ``confirmer`` if an intent waits for a confirmation; without it no intent is ever held
    confirmations: bool

    def setup(self, chance: Chance | None) -> S:
        """The position after the rulebook's setup. ``chance`` is None for physical chance."""

    def actors(self, state: S, intent: I) -> frozenset[Seat]:
        """The actors whose ``intent`` the rules adjudicate now (see the class's note); the framework
        refuses anyone else with turn/not_your_turn."""

    def confirmer(self, state: S, seat: Seat, intent: I) -> Seat | None:
        """Who must confirm ``intent`` before it is adjudicated, because whether it is legal depends on
        what is hidden from ``seat``: the seat whose hidden zones it reads (a declared effect taking a
        card from an opponent's hand), the arbiter when no seat knows (an archive's order), or None.
        Decided from the intent and the public state only. Default: None. The engine asks it only of a
        game that declares ``Capabilities.confirmations`` (the flag is what gates it)."""

    def filled_intent(self, state: S, seat: Seat, intent: I, chance: Chance | None) -> I | Rejected:
        """Digital match (``chance`` given): the intent with omitted chance fields filled from the
        generator, or Rejected(<game>/chance_mismatch) if a supplied value differs. Physical match
        (``chance`` None): the intent unchanged (the game's ``decide`` checks the typed values)."""

    def check_input(self, intent: I) -> str | None:
        """A message if the intent names something that cannot exist (unknown card id...), else None."""

    def decide(
        self, state: S, seat: Seat, intent: I, chance: Chance | None, waive: frozenset[str] = frozenset()
    ) -> Accepted[E] | Rejected:
        """Accepted(events) or Rejected(code, message, rule). Never raises for a bad intent.

        Called after the framework checks and after ``filled_intent``; ``chance`` is given only in a
        digital match (for chance inside an intent's resolution, e.g. a re-deal). ``waive`` holds
        rejection codes an arbiter ruled away ("stands as played"): skip those checks and resolve the
        intent as far as the rules can; a check whose failure makes resolution impossible still
        rejects.
        """

    def evolve(self, state: S, event: E) -> S:
        """Apply one event. Total over every event tag ever written; no validation, no choices."""

    def same_verdict(self, state: S, recorded: Any, derived: Any) -> bool:
        """Whether a recorded verdict still means the derived one, being in an older vocabulary of events."""

    def applied(self, state: S, verdict: Accepted[E]) -> S | None:
        """The state after ``verdict`` if ``decide`` already computed it (then the engine skips folding
        the events again), else None."""

    def legal_intents(self, state: S, seat: Seat) -> Sequence[I]:
        """Intents ``seat`` could submit now that would be accepted (chance fields may be omitted
        in a digital match)."""


class ViewHooks(Protocol[S_contra, I, E]):
    """What a role may see: the view, the ids hidden from it, an intent or event redacted, the outcome."""

    def view(self, state: S_contra, seat: Seat | None) -> dict[str, Any]:
        """What ``seat`` may see, as JSON-able builtins (None = the referee's full view)."""

    def hidden_ids(self, state: S_contra, seat: Seat | None) -> frozenset[str]:
        """Card ids ``seat`` must not see in this state. Tests search every output a seat gets for
        them; redaction never uses them (what is redacted must not depend on the hidden truth)."""

    def redact(self, item: I | E, actor: Seat | None, seat: Seat | None) -> I | E:
        """An intent or event (recorded with ``actor``) as ``seat`` may see it (None: the arbiter).
        Must depend only on the item, the actor, the seat and the public configuration, never on the
        hidden truth. Default: the Structs' declarations (:mod:`referee.engine.secrecy`)."""

    def outcome(self, state: S_contra) -> Outcome | None:
        """Winners, reason (and scores) once the game is over; None while it goes on."""


class PresentationHooks(Protocol[E_contra]):
    """A role's view and the log in words and pictures for people; built from a view alone."""

    def boards(self, view: dict[str, Any]) -> tuple[Board, ...]:
        """How ``view`` (one role's, from ``view``) is drawn for people: a grid, a map of regions,
        a tableau per seat, a shared row (:mod:`schemas.board`). Built from the view alone, so it shows
        nothing the role may not see. Default: the seats' tableau when the view has ``players``."""

    def headline(self, view: dict[str, Any]) -> str:
        """One line that says where the match stands, for people, from ``view`` alone: whose turn, the
        phase, the score (``referee show`` starts with it; the end of a game is said by the front end
        from the outcome). Default: empty."""

    def sections(self, view: dict[str, Any], drawn: tuple[Board, ...] | None = None) -> tuple[Board, ...]:
        """``view`` in words for a reader, beside the drawn boards: ``tableau`` and ``list`` boards of
        labelled facts (a player's counters, the turn), card ids as the view has them, internal
        fields (object ids, cursors, derived flags) in each area's ``details``. Built from the view
        alone. ``drawn``: ``boards(view)`` where the caller has drawn them already (a game that words
        its view from its boards takes them instead of drawing them again). Default: the tableaux of
        ``boards``, then every key no board covers, in words."""

    def name_of(self, id: str) -> str | None:
        """The printed name of what ``id`` names — a card, a location, an office, a region (a public
        fact of the game's data) — or None when it names nothing with a name. Asked only of the words
        of texts drawn from a role's view (a board, a sentence), so a hidden card is never named; the
        viewer, ``show``, ``replay`` and the log's sentences show the name, the notation the id.
        Default: None."""

    def describe_event(self, event: E_contra) -> str | None:
        """The event in words for transcripts ("bob loses 3 reputation; trust 10 → 8"), or None."""

    def listing(self) -> tuple[Listed, ...]:
        """What a scorekeeper types for this match's cards and places (``referee cards``), from its card
        data alone (never a match's state): each card's id with its printed name, kind and where it is
        found. Default: nothing (``Capabilities.listing`` declares a game that overrides it)."""


class ChanceHooks(Protocol[S_contra, I]):
    """Chance inside intents, and a random legal move."""

    def chance_fields(self, intent: I) -> tuple[str, ...]:
        """The fields of ``intent`` that hold a chance outcome the acting seat cannot know beforehand
        (a card drawn, a random pick), whether filled in or not. In a digital match a seat may not type
        them (the referee draws; a guess would learn the hidden order from the verdict), and a seat's
        list of legal intents shows them as ``?``. A name may be a dotted path into a record the intent
        nests (``args.then.drawn``), given to whatever depth this intent nests (a path through an absent
        record holds nothing). Default: none."""

    def random_intent(self, state: S_contra, rng: RandomSource) -> tuple[Seat, I] | None:
        """One legal (seat, intent) picked with ``rng`` (load tests, benchmarks, fuzzing); None if
        nobody can act. Default: a random pick from every seat's ``legal_intents``; a game with many
        legal intents may pick one without listing them all."""


class PositionHooks(Protocol[S]):
    """A scenario's starting position written over the state after setup."""

    def apply_position(self, state: S, overrides: Mapping[str, Any]) -> S:
        """The state after setup with a scenario's dotted-path overrides applied and completed;
        raise ConfigError if a path is unknown or an invariant breaks. Default (in :class:`RulesBase`):
        the three stages of :mod:`referee.engine.position` — ``position_base``, the paths written as
        ``position_shape`` allows (``position_value`` expanding shorthands), ``complete_position``."""


class ContinuationHooks(Protocol[S_contra]):
    """Where a match sits in a longer run: its opening set-up moves, and the match that continues it."""

    def in_opening(self, state: S_contra) -> bool:
        """Whether ``state`` is still in the game's opening: the set-up moves a transcript begins with
        (``referee template`` writes them, from the legal intents, until this is false). Default: False
        (``Capabilities.opening`` declares a game that overrides it)."""

    def carry_over(self, state: S_contra) -> Mapping[str, Any]:
        """What a match continuing this finished one starts from (``referee new --continue-from``): option
        values for the next match, from public facts of ``state`` alone (a series' next game, its score
        so far, what its players keep). They are written into the new match's configuration, so its
        replay never reads this match. Raise ConfigError naming why this match cannot be continued.
        Default: it cannot (``Capabilities.continuation`` declares a game that overrides it)."""


class Rules(
    DecidingHooks[S, I, E], ViewHooks[S, I, E], PresentationHooks[E], ChanceHooks[S, I], PositionHooks[S],
    ContinuationHooks[S], Protocol[S, I, E],
):
    """A game bound to one match configuration (players, options, cards): every group of hooks. All
    methods are pure. A game's rules class inherits :class:`RulesBase` for the defaults."""


class Capabilities(msgspec.Struct, frozen=True, kw_only=True):
    """What a game has beyond the decider every game has, declared once as data on its :class:`Game`
    (``tests/test_capabilities.py`` holds each declaration to the hooks the game's rules override).
    Front ends read these instead of calling a hook to find out whether the game has the feature."""

    #: a finished match can be continued by the next (a series): the rules override ``carry_over``
    continuation: bool = False
    #: an intent may be held for a confirmation (it reads what its actor cannot see): ``confirmer``, which
    #: the engine asks only when this is set (``bind`` hands it to the rules, ``core.adjudicate`` reads it)
    confirmations: bool = False
    #: its card data can be listed as a scorekeeper types it (``referee cards``): ``listing``
    listing: bool = False
    #: a transcript begins with set-up moves (``referee template`` writes them): ``in_opening``
    opening: bool = False
    #: actors besides the seats that submit intents (Copycat's ``table`` deals and cleans up; a game
    #: may name ``arbiter``): no seat may be called so, and their lines are nobody's to see in full
    other_actors: tuple[str, ...] = ()


class Game(Protocol):
    """One registered game. ``bind`` validates a configuration and returns its :class:`Rules`."""

    id: str
    name: str
    aliases: tuple[str, ...]
    rules_version: str
    min_players: int
    max_players: int
    intent_type: Any
    event_type: Any
    state_type: Any
    #: event kinds a stored log may still hold that the game no longer emits (a union, or None)
    retired_event_type: Any
    #: bundled card/data sets: name -> resource path inside the game package
    card_sets: Mapping[str, str]
    #: the top-level tables of the game's card file, each with the field that keys its entries
    #: ("" for a table given whole): a scenario file may hold them inline, merged over its card set
    card_tables: Mapping[str, str]
    default_card_set: str | None
    summary: str
    capabilities: Capabilities
    #: the rulebook's sections its refusals cite, in English and as printed (:mod:`.rulebook`)
    rulebook: Rulebook
    #: the English templates of its refusal messages, by code (:mod:`.messages`): read in other languages
    messages: Messages

    def options(self) -> Mapping[str, OptionSpec]: ...

    def bind(self, config: MatchConfig) -> Rules[Any, Any, Any]: ...

    def upcast_events(self, events: tuple[Any, ...]) -> tuple[Any, ...]: ...


class GameBase:
    """The :class:`Game` attributes with their defaults; a game's Game class inherits it, sets what it
    has (its id, name, players, types, version, summary, capabilities) and names its rules class in
    ``rules_type``, which :meth:`bind` makes one of per match configuration."""

    id: str
    name: str
    rules_version: str
    min_players: int
    max_players: int
    intent_type: Any
    event_type: Any
    state_type: Any
    #: event kinds a stored log may still hold that the game no longer emits: decoded beside
    #: ``event_type`` and read as today's events by :meth:`upcast_events` (None: there are none)
    retired_event_type: Any = None
    summary: str
    aliases: tuple[str, ...] = ()
    card_sets: Mapping[str, str] = MappingProxyType({})
    card_tables: Mapping[str, str] = MappingProxyType({})
    default_card_set: str | None = None
    capabilities: Capabilities = Capabilities()
    #: the rulebook's sections its refusals cite, in English and as the rulebook prints them: one table, as
    #: data (a refusal records the printed heading; English sentences show the English one)
    rulebook: Rulebook = NO_RULEBOOK
    #: the English templates of its refusal messages, by code, and the phrases they embed (:mod:`.messages`):
    #: a recorded message is read in another language through them (none: shown as recorded)
    messages: Messages = NO_MESSAGES
    #: the game's rules class (its ``__init__`` takes the match configuration and checks it)
    rules_type: Callable[[MatchConfig], Rules[Any, Any, Any]]

    def upcast_events(self, events: tuple[Any, ...]) -> tuple[Any, ...]:
        """A stored verdict's events as the game emits them today (called only for a game with retired
        event kinds; default: as stored). Raises :class:`msgspec.ValidationError` naming a stored event
        it cannot read."""
        return events

    def options(self) -> Mapping[str, OptionSpec]:
        """The match options, by name (default: none)."""
        return {}

    def bind(self, config: MatchConfig) -> Rules[Any, Any, Any]:
        """The rules of one match, carrying the declared capability the engine reads while deciding."""
        rules = self.rules_type(config)
        rules.confirmations = self.capabilities.confirmations
        return rules


class RulesBase(ABC, Generic[S, I, E]):
    """The base of a game's rules class, generic in the game's state ``S``, intent union ``I`` and event
    union ``E`` (``class CopycatRules(RulesBase[State, Intent, Event])``): the hooks every game writes
    are declared here with those types, so mypy checks each game's against its own unions, and the
    optional hooks have their defaults."""

    config: MatchConfig
    #: the seats, in seating order (a game's rules set it from the configuration)
    players: tuple[Seat, ...] = ()
    #: the game's ``Capabilities.confirmations``, set by :meth:`GameBase.bind` (rules made otherwise hold nothing)
    confirmations: bool = False

    # -- deciding (:class:`DecidingHooks`): what every game writes --------------------------------------------

    @abstractmethod
    def setup(self, chance: Chance | None) -> S:
        """Every game defines it."""

    @abstractmethod
    def actors(self, state: S, intent: I) -> frozenset[Seat]:
        """Every game defines it."""

    @abstractmethod
    def filled_intent(self, state: S, seat: Seat, intent: I, chance: Chance | None) -> I | Rejected:
        """Every game defines it."""

    @abstractmethod
    def check_input(self, intent: I) -> str | None:
        """Every game defines it."""

    @abstractmethod
    def evolve(self, state: S, event: E) -> S:
        """Every game defines it."""

    # -- deciding: the verdict by the game's table of deciders -------------------------------------------------

    #: (state, verdict, state after) of the last accepted decision whose decision kept its state
    _last: tuple[S, Accepted[E], S] | None = None

    #: the game's table of deciders (see :class:`Deciders`), declared in its ``decide.py``
    deciders: Deciders[Any]

    @abstractmethod
    def decision(self, state: S, seat: Seat, chance: Chance | None, waive: frozenset[str]) -> Deciding[S, E]:
        """A fresh decision on ``state`` for ``seat`` (the game's :class:`~referee.engine.decision.Decision`),
        ``waive`` the codes an arbiter's ruling waives this once (its ``check`` lets them pass). Every game
        defines it."""

    def judge(self, tx: Any, intent: I) -> None:
        """``intent`` judged on ``tx`` by the game's table of :attr:`deciders` (every game declares its table)."""
        self.deciders.judge(tx, intent)

    #: (state, seat, intent, chance, decision) an accepted decision reached before :meth:`decide` was asked
    #: (a game that judges an intent to fill in its chance keeps it: :meth:`reached`); taken once
    _reached: tuple[S, Seat, I, Chance | None, Deciding[S, E]] | None = None

    def reached(self, state: S, seat: Seat, intent: I, chance: Chance | None, tx: Deciding[S, E]) -> None:
        """Keep ``tx``, an accepted decision on ``intent`` already judged (while filling its chance), for the
        :meth:`decide` that follows on the very same state, intent and chance, so it is not judged twice."""
        self._reached = (state, seat, intent, chance, tx)

    def decide(self, state: S, seat: Seat, intent: I, chance: Chance | None,
               waive: frozenset[str] = frozenset()) -> Accepted[E] | Rejected:
        """The intent judged on a fresh :meth:`decision` (by the table of :attr:`deciders`): the first
        refusal, or the events emitted (and the state after them kept for :meth:`applied`). A decision
        :meth:`reached` on the very same objects, with nothing waived, is taken instead of judging again."""
        reached, self._reached = self._reached, None
        if (reached is not None and not waive and reached[0] is state and reached[2] is intent
                and reached[3] is chance and reached[1] == seat):
            tx = reached[4]
        else:
            tx = self.decision(state, seat, chance, waive)
            try:
                self.judge(tx, intent)
            except Refusal as refusal:
                return refusal.verdict
        verdict = tx.accepted()
        if tx.keeps_state:
            self._last = (state, verdict, tx.state)
        return verdict

    def same_verdict(self, state: S, recorded: Any, derived: Any) -> bool:
        """Whether a recorded verdict that differs from the one derived now still means the same, being
        in an older vocabulary of the game's events (the audit compares like with like); by default a
        verdict means only itself."""
        return False

    def applied(self, state: S, verdict: Accepted[E]) -> S | None:
        """The state :meth:`decide` reached for this very state and verdict (matched by identity)."""
        last = self._last
        if last is not None and last[0] is state and last[1] is verdict:
            return last[2]
        return None

    def confirmer(self, state: S, seat: Seat, intent: I) -> Seat | None:
        return None

    def legal_intents(self, state: S, seat: Seat) -> Sequence[I]:
        return ()

    # -- views (:class:`ViewHooks`) ----------------------------------------------------------------------------

    @abstractmethod
    def view(self, state: S, seat: Seat | None) -> dict[str, Any]:
        """Every game defines it."""

    @abstractmethod
    def hidden_ids(self, state: S, seat: Seat | None) -> frozenset[str]:
        """Every game defines it."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """Every game defines it."""

    def redact(self, item: I | E, actor: Seat | None, seat: Seat | None) -> I | E:
        from .secrecy import redact

        shown: I | E = redact(item, actor, seat)
        return shown

    # -- presentation (:class:`PresentationHooks`) -------------------------------------------------------------

    def boards(self, view: dict[str, Any]) -> tuple[Board, ...]:
        tableau = seat_tableau(view)
        return () if tableau is None else (tableau,)

    def headline(self, view: dict[str, Any]) -> str:
        return ""

    def sections(self, view: dict[str, Any], drawn: tuple[Board, ...] | None = None) -> tuple[Board, ...]:
        return default_sections(self.boards(view) if drawn is None else drawn, view)

    def name_of(self, id: str) -> str | None:
        return None

    def describe_event(self, event: E) -> str | None:
        return None

    def listing(self) -> tuple[Listed, ...]:
        return ()

    # -- chance (:class:`ChanceHooks`) -------------------------------------------------------------------------

    def chance_fields(self, intent: I) -> tuple[str, ...]:
        return ()

    def random_intent(self, state: S, rng: RandomSource) -> tuple[Seat, I] | None:
        options = [(seat, intent) for seat in self.players for intent in self.legal_intents(state, seat)]
        return options[rng.randrange(len(options))] if options else None

    # -- continuation (:class:`ContinuationHooks`) -------------------------------------------------------------

    def in_opening(self, state: S) -> bool:
        return False

    def carry_over(self, state: S) -> Mapping[str, Any]:
        raise ConfigError.said(MatchCode.NO_CONTINUATION, N_("a match of this game cannot be continued by another"))

    # -- positions (:class:`PositionHooks`; see :mod:`referee.engine.position`) --------------------------------

    #: what a position path may name; the default takes the state's own fields, nothing derived
    position_shape: PositionShape = PositionShape()
    #: the refusal code of a bad position (a game sets ``<game>/invalid_position`` or its spec's code)
    position_refusal: str = SetupCode.INVALID_POSITION

    def apply_position(self, state: S, overrides: Mapping[str, Any]) -> S:
        try:
            base = self.position_base(state, overrides)
            data: dict[str, Any] = msgspec.to_builtins(base)
            placed = write_paths(data, overrides, self.position_shape, self.players, self.position_value)
            completed: S = position_convert(data, type(base))
            return self.complete_position(completed, placed)
        except PositionError as exc:
            refused = ConfigError(self.position_refusal, exc.message)
            refused.template = exc.template  # read in the reader's language as the position said it
            raise refused from None

    def position_base(self, state: S, overrides: Mapping[str, Any]) -> S:
        """Stage 1: the state the paths are written into (default: the state after setup)."""
        return state

    def position_value(self, path: str, value: Any, data: dict[str, Any]) -> Any:
        """Stage 2: the value to write for ``path`` (a game expands shorthands; default: as given).
        Raise :class:`PositionError` to refuse it."""
        return value

    def complete_position(self, state: S, placed: Placed) -> S:
        """Stage 3: every supply ``placed`` does not list recomputed from what it places, then the
        invariants checked (raise :class:`PositionError` or ConfigError). Default: as written."""
        return state
