"""The delta kinds of declared effects (spec §4.30): one tagged record each, with one fixed field list
(``favor:<seat>:<type>:<±n>``), as the notation's tagged records require. Re-exported by :mod:`.model`."""

from __future__ import annotations

from typing import Literal

import msgspec

Side = Literal["good", "bad"]


# -- deltas of declared effects (§4.30) --------------------------------------------------------------------

class _Delta(msgspec.Struct, frozen=True, tag_field="type"):
    """The base of every delta kind: a delta is a tagged record (``type``), one field list per kind."""


class MoveDetectiveDelta(_Delta, frozen=True, tag="move_detective"):
    seat: str
    location: str


class TimeDelta(_Delta, frozen=True, tag="time"):
    amount: int


class TimeModifierDelta(_Delta, frozen=True, tag="time_modifier"):
    seat: str
    amount: int


class TwilightDelta(_Delta, frozen=True, tag="twilight"):
    seat: str
    amount: int


class TwilightFullDelta(_Delta, frozen=True, tag="twilight_full"):
    seat: str
    direction: Literal["light", "dark"]


class FavorDelta(_Delta, frozen=True, tag="favor"):
    seat: str
    favor_type: str
    amount: int


class NpcFavorDelta(_Delta, frozen=True, tag="npc_favor"):
    seat: str
    npc: str
    amount: int


class NpcStatusDelta(_Delta, frozen=True, tag="npc_status"):
    seat: str
    npc: str
    status: Literal["alive", "dead"]


class BaggageDelta(_Delta, frozen=True, tag="baggage"):
    seat: str
    side: Side
    amount: int


class TraumaDelta(_Delta, frozen=True, tag="trauma"):
    seat: str
    amount: int


class DropshipPassDelta(_Delta, frozen=True, tag="dropship_pass"):
    seat: str
    amount: int


class TokenDelta(_Delta, frozen=True, tag="token"):
    seat: str
    token: Literal["haas", "jinteki", "conspiracy"]
    amount: int


class WarrantDelta(_Delta, frozen=True, tag="warrant"):
    seat: str
    location: str
    action: Literal["place", "remove"]


class HitDelta(_Delta, frozen=True, tag="hit"):
    suspect: str
    amount: int


class AlibiDelta(_Delta, frozen=True, tag="alibi"):
    suspect: str
    amount: int


class FlipEvidenceDelta(_Delta, frozen=True, tag="flip_evidence"):
    suspect: str
    file: str
    index: int
    face: Literal["up", "down"]


class PeekDelta(_Delta, frozen=True, tag="peek"):
    seat: str
    suspect: str


class LeadDelta(_Delta, frozen=True, tag="lead"):
    lead: str
    location: str


class MarkerDelta(_Delta, frozen=True, tag="marker"):
    marker: Literal["lily_lockwell", "jimmy_the_snitch"]
    location: str


class CardDelta(_Delta, frozen=True, tag="card"):
    """Move a card to a zone (``<seat>.hand``, ``face_down``, ``bottom``, ``<seat>.in_play``, ``box``).
    The card id is the declaring seat's to see (it may go into a hand)."""

    __private__ = ("card",)
    card: str
    zone: str


class SpecialDelta(_Delta, frozen=True, tag="special"):
    seat: str
    track: Literal["sanity", "money"]
    amount: int


class MoodDelta(_Delta, frozen=True, tag="mood"):
    seat: str
    side: str


class DirectiveDelta(_Delta, frozen=True, tag="directive"):
    seat: str
    card: str
    action: Literal["in", "out"]


class PlotDelta(_Delta, frozen=True, tag="plot"):
    seat: str
    plot: str


class VpDelta(_Delta, frozen=True, tag="vp"):
    seat: str
    amount: int


class HeroMarkerDelta(_Delta, frozen=True, tag="hero_marker"):
    seat: str
    amount: int


class SceneHeroDelta(_Delta, frozen=True, tag="scene_hero"):
    seat: str


class EventAbilityDelta(_Delta, frozen=True, tag="event_ability"):
    event: str
    location: str
    action: Literal["add", "remove"]


class CancelLastActionDelta(_Delta, frozen=True, tag="cancel_last_action"):
    """«Отмена»: undo the active seat's last action (it names nothing: the state knows what to undo)."""


class NoteDelta(_Delta, frozen=True, tag="note"):
    text: str


Delta = (
    MoveDetectiveDelta | TimeDelta | TimeModifierDelta | TwilightDelta | TwilightFullDelta | FavorDelta
    | NpcFavorDelta | NpcStatusDelta | BaggageDelta | TraumaDelta | DropshipPassDelta | TokenDelta | WarrantDelta
    | HitDelta | AlibiDelta | FlipEvidenceDelta | PeekDelta | LeadDelta | MarkerDelta | CardDelta | SpecialDelta
    | MoodDelta | DirectiveDelta | PlotDelta | VpDelta | HeroMarkerDelta | SceneHeroDelta | EventAbilityDelta
    | CancelLastActionDelta | NoteDelta
)
