"""Android's state (spec §1.13): the referee's full record of the table, its Structs' fields declared in
sorted order (the engine's convention for fast canonical hashing). Re-exported by :mod:`.model`."""

from __future__ import annotations

import msgspec

from referee.engine.decision import named


# -- state (§1.13); fields declared in sorted order ------------------------------------------------------------

class Step(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One entry of ``pending``: ``step`` names what it awaits from ``seat``. The drawn token's kind
    (``evidence_placement``) is the seat's alone."""

    __private__ = ("kind",)
    __owner__ = "seat"
    bonuses: tuple[str, ...] = ()
    file: str | None = None
    from_: str | None = named("from", None)
    kind: str | None = None
    lead: str | None = None
    lead_type: str | None = None
    piece: str | None = None
    piece_type: str | None = None
    seat: str
    source: str | None = None
    step: str


class Deck(msgspec.Struct, frozen=True, kw_only=True):
    bottom: tuple[str, ...] = ()
    face_down: tuple[str, ...] = ()


class Draws(msgspec.Struct, frozen=True, kw_only=True):
    """A pile's history of draws: cards drawn from it since its last reshuffle, and reshuffles. With the
    seed, what a digital match draws from it next (:mod:`.chance`)."""

    drawn: int = 0
    shuffles: int = 0


class ActiveAbility(msgspec.Struct, frozen=True, kw_only=True):
    event: str
    location: str
    time: int = 0
    uses: str = "first_only"


class Events(msgspec.Struct, frozen=True, kw_only=True):
    active: tuple[ActiveAbility, ...] = ()
    general_deck: tuple[str, ...] = ()
    general_discard: tuple[str, ...] = ()
    specific: str | None = None
    specific_revealed: bool = False


class Token(msgspec.Struct, frozen=True, kw_only=True):
    face_up: bool = False
    kind: str
    placed_by: str


class Suspect(msgspec.Struct, frozen=True, kw_only=True):
    alibis: int = 0
    alive: bool = True
    files: dict[str, tuple[Token, ...]] = {}
    hits: int = 0
    peeked_by: tuple[str, ...] = ()


class Placement(msgspec.Struct, frozen=True, kw_only=True):
    piece: str
    rotation: int = 0


class Puzzle(msgspec.Struct, frozen=True, kw_only=True):
    discarded: tuple[str, ...] = ()
    markers: dict[str, str] = {}
    piles: dict[str, tuple[str, ...]] = {}
    placed: dict[str, Placement] = {}


class Scene(msgspec.Struct, frozen=True, kw_only=True):
    hero: str | None = None
    location: str | None = None


class Window(msgspec.Struct, frozen=True, kw_only=True):
    quality: str
    seat: str


class Hunches(msgspec.Struct, frozen=True, kw_only=True):
    guilty: str
    innocent: str


class Npc(msgspec.Struct, frozen=True, kw_only=True):
    favor_supply: int = 0
    status: str = "alive"


class Plot(msgspec.Struct, frozen=True, kw_only=True):
    bad_baggage: int = 0
    current: str
    good_baggage: int = 0


class Special(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    directives: tuple[str, ...] | None = None
    money: int | None = None
    mood: str | None = None
    sanity: int | None = None


class Declared(msgspec.Struct, frozen=True, kw_only=True):
    source: str
    vp: int


class Player(msgspec.Struct, frozen=True, kw_only=True):
    abilities_used: tuple[str, ...] = ()
    declared: tuple[Declared, ...] = ()
    detective: str | None = None
    drawn_evidence: str | None = None
    dropship_passes: int = 0
    favors: dict[str, int] = {}
    hand: tuple[str, ...] = ()
    hero_markers_free: int = 0
    hunches: Hunches | None = None
    in_play: tuple[str, ...] = ()
    location: str | None = None
    memory_card: str | None = None
    npc: dict[str, Npc] = {}
    npc_favors: dict[str, int] = {}
    plot: Plot | None = None
    special: Special = Special()
    time_modifier: int = 0
    tokens: dict[str, int] = {}
    trauma: int = 0
    twilight: int = 0
    vp: int = 0
    warrant_supply: int = 0
    warrants: tuple[str, ...] = ()


class Case(msgspec.Struct, frozen=True, kw_only=True):
    discarded: dict[str, tuple[str, ...]] = {}
    killer: str | tuple[str, ...] = "none"
    totals: dict[str, int] = {}


class Result(msgspec.Struct, frozen=True, kw_only=True):
    scores: dict[str, int] = {}
    winners: tuple[str, ...] = ()


class LastAction(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The active seat's most recent action, as ``cancel_last_action`` needs it (§4.30): where the
    detective came from, the card drawn (the drawer's alone), the hero marker it replaced, the lead, or
    the inverse of each effect of an ability or a light card (:mod:`.cancel`)."""

    __private__ = ("card", "undo")
    __owner__ = "seat"
    card: str | None = None
    hero: str | None = None
    lead: str | None = None
    location: str | None = None
    #: the light card played (public: it was played face up)
    played: str | None = None
    seat: str
    #: the effect declaration the action still awaits (``ability:<location>``, ``event:<event>``)
    source: str | None = None
    #: the deltas that undo its effects, in the order to apply them, in notation (``favor:raymond:corp:-1``;
    #: the seat's alone to see, as a card a delta moves is)
    undo: tuple[str, ...] = ()
    verb: str


class Flag(msgspec.Struct, frozen=True, kw_only=True):
    kind: str
    note: str = ""


class Setup(msgspec.Struct, frozen=True, kw_only=True):
    extra_drawn: bool = False
    memory_dealt: bool = False
    specific_set: bool = False


class State(msgspec.Struct, frozen=True, kw_only=True):
    active_seat: str | None = None
    active_suspects: tuple[str, ...] = ()
    audit_flags: tuple[Flag, ...] = ()
    banks: dict[str, int] = {}
    box: tuple[str, ...] = ()
    case: Case | None = None
    day: int = 0
    decks: dict[str, dict[str, Deck]] = {}
    #: each pile's history of draws: ``<detective>.<light|dark>``, ``general_deck``, ``evidence_pile``,
    #: ``puzzle.<pile>``
    draws: dict[str, Draws] = {}
    end_of_day_queue: tuple[str, ...] = ()
    events: Events = Events()
    evidence_pile: dict[str, int] = {}
    first_player: str | None = None
    free_draw_window: Window | None = None
    jimmy_the_snitch: str | None = None
    last_action: LastAction | None = None
    leads: dict[str, dict[str, str]] = {}
    lily_lockwell: str | None = None
    murder: str | None = None
    pending: tuple[Step, ...] = ()
    phase: str = "setup"
    players: dict[str, Player] = {}
    puzzle: Puzzle = Puzzle()
    result: Result | None = None
    scene: Scene = Scene()
    setup: Setup = Setup()
    suspects: dict[str, Suspect] = {}
    time_left: int = 0
    time_sheet_holder: str | None = None
    turn_order: tuple[str, ...] = ()
    turns_done: tuple[str, ...] = ()
