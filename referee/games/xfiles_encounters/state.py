"""X-Files' state (spec §1.7): the referee's full record of the table as plain mappings and lists, so its
paths are the spec's paths. Re-exported by :mod:`.model`."""

from __future__ import annotations

from typing import Any

import msgspec

# -- the state (§1.7) ----------------------------------------------------------------------------------------
# Every record declares its fields in sorted order (state hashes need no sorting, see core.state_bytes).

OptionValue = str | int | bool | list[str | int] | dict[str, str | int]

#: the once-a-turn flags a fresh turn clears
TURN_FLAGS = ("belief_card_activated", "belief_text_resolved", "lessons_resolved", "doubt_resolved",
              "solo_coordinated", "coordinate_forbidden")


def fresh_turn(seats: list[str], seat: str, number: int, phase: str) -> dict[str, Any]:
    """A turn as it begins (the decision's working copy holds it as plain data)."""
    from .data import BUCKETS, CLASSES
    return {
        "number": number, "seat": seat, "phase": phase,
        "attack": {b: 0 for b in BUCKETS}, "recruit": {b: 0 for b in BUCKETS},
        "played_classes": {c: 0 for c in CLASSES}, "play_log": [], "beliefs_played": 0,
        **{f: False for f in TURN_FLAGS},
        "coordinated": {s: "" for s in seats}, "virtual_played": [], "avoid_used": [], "grants": [],
        "step": "", "strike_queue": [], "fight_target": "", "end_game_fights": 0, "groups": 0,
    }


class _Rec(msgspec.Struct, kw_only=True):
    """The base of the state's records: fields given by keyword."""


class AcademyDeck(_Rec):
    characters: list[str] = []
    count: int = 0
    syndicate_seen: int = 0


class Audit(_Rec):
    declared: int = 0


class Slot(_Rec):
    attached: list[str] = []
    beneath: list[str] = []
    card: str = ""
    origin: str = ""
    revealed_before: bool = False
    state: str = "empty"
    via_x: bool = False


class CloneEvidence(_Rec):
    card: str = ""
    priority: int = 0


class Segment(_Rec):
    cards: list[str] = []
    label: str = ""
    quota: dict[str, int] = {}
    remaining: int = 0
    seasons: list[int] = []
    seen: dict[str, int] = {}


class ConspiracyDeck(_Rec):
    segments: list[Segment] = []


class Draws(_Rec):
    """A pile's history: cards drawn from it since its last reshuffle, and reshuffles."""
    drawn: int = 0
    shuffles: int = 0


class Evidence(_Rec):
    card: str = ""
    in_end_game: bool = False
    leader: str = ""
    locked: bool = False
    state: str = "undiscovered"


class GameOutcome(_Rec):
    reason: str = ""
    result: str = ""
    winners: list[str] = []


class Pending(_Rec):
    count: int = 0
    group: int = 0
    kind: str = ""
    location: str = ""
    origin: str = ""
    reason: str = ""
    seat: str = ""
    source: str = ""
    strike_no: int = 0
    strikes: int = 0
    trigger: str = ""


class PlayEntry(_Rec):
    activated: bool = False
    card: str = ""
    virtual_of: str = ""


class Player(_Rec):
    avatar: str = ""
    climax: list[str] = []
    coordinated_out: str = ""
    deck: list[str] = []
    defeated: bool = False
    discard: list[str] = []
    hand: list[str] = []
    known_top: list[str] = []
    play: list[PlayEntry] = []
    scars: list[str] = []
    skip_next_turn: bool = False
    symptoms: int = 0
    vigilant: list[str] = []
    wounds: list[str] = []


class SpecialAgents(_Rec):
    cards: list[str] = []


class StrikeDeck(_Rec):
    blind: int = 0
    cards: list[str] = []


class Played(_Rec):
    card: str = ""
    cls: str = msgspec.field(default="", name="class")


class Turn(_Rec):
    attack: dict[str, int] = {}
    avoid_used: list[str] = []
    belief_card_activated: bool = False
    belief_text_resolved: bool = False
    beliefs_played: int = 0
    coordinate_forbidden: bool = False
    coordinated: dict[str, str] = {}
    doubt_resolved: bool = False
    end_game_fights: int = 0
    fight_target: str = ""
    grants: list[str] = []
    groups: int = 0
    lessons_resolved: bool = False
    number: int = 1
    phase: str = "setup"
    play_log: list[Played] = []
    played_classes: dict[str, int] = {}
    recruit: dict[str, int] = {}
    seat: str = ""
    solo_coordinated: bool = False
    step: str = ""
    strike_queue: list[str] = []
    virtual_played: list[str] = []


class State(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The spec's state model; paths are its paths (``shadows.1``, ``players.alice.hand``).

    Every field is required except those added later, which have defaults and are left out of the
    encoding while they hold them (``omit_defaults``), so a match that never uses them keeps the state
    bytes and hashes it always had."""

    academy_deck: AcademyDeck
    audit: Audit
    belief_stack: int
    bureau: dict[str, Slot]
    #: the climax cards dealt at this game's setup (a series, R48), [] otherwise
    climax_dealt: list[str] = []
    clone_evidence: list[CloneEvidence]
    conspiracy_deck: ConspiracyDeck
    defeated_characters: list[str]
    defeated_conspiracy: list[str]
    doubt_stack: int
    #: each pile's history of draws (``players.<seat>.deck``, ``strike_deck``, a reveal's pool): with the
    #: seed, what a digital match draws from it next (:mod:`.draws`); left out while empty
    draws: dict[str, Draws] = {}
    end_game_damage: dict[str, int]
    end_game_strikes: dict[str, list[str]]
    evidence: dict[str, Evidence]
    options: dict[str, OptionValue]
    outcome: GameOutcome
    pending: list[Pending]
    players: dict[str, Player]
    revealed_before: list[str]
    season: str
    seats: list[str]
    sector: list[str]
    shadows: dict[str, Slot]
    special_agents: SpecialAgents
    status: str
    strike_deck: StrikeDeck
    strike_discard: list[str]
    the_end: bool
    turn: Turn
    #: the Leader X brought into play as a fourth Leader (R45, §5.6), "" until then
    x_leader: str = ""
