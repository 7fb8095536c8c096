"""The declared change ops of X-Files (spec §4.26), the items of a manual effect's ``ops=``, and the
buckets a payment or a points op names. Re-exported by :mod:`.model`."""

from __future__ import annotations

from typing import Literal

import msgspec

from referee.engine.decision import named

Bucket = Literal["none", "intelligence", "leadership", "science", "tech", "will"]


# -- declared change ops (§4.26): items of ``ops=``, each starting with its name -----------------------------


class _Op(msgspec.Struct, frozen=True, tag_field="op"):
    """The base of the declared change ops: each is tagged by ``op``, its name in ``ops=``."""


class OpMove(_Op, frozen=True, tag="move"):
    card: str
    from_: str = named("from")
    to: str = ""


class OpGain(_Op, frozen=True, tag="gain"):
    player: str
    card: str
    from_: str = named("from", "box")


class OpDefeat(_Op, frozen=True, tag="defeat"):
    card: str
    from_: str = named("from")


class OpDiscard(_Op, frozen=True, tag="discard"):
    player: str
    card: str


class OpDraw(_Op, frozen=True, tag="draw"):
    player: str
    n: int = 1


class OpPoints(_Op, frozen=True, tag="points"):
    kind: Literal["attack", "recruit"]
    amount: int
    bucket: Bucket = "none"


class OpHeal(_Op, frozen=True, tag="heal"):
    player: str
    k: int = 1


class OpScar(_Op, frozen=True, tag="scar"):
    player: str
    k: int = 1


class OpAddScar(_Op, frozen=True, tag="add_scar"):
    player: str


class OpStrike(_Op, frozen=True, tag="strike"):
    player: str


class OpReveal(_Op, frozen=True, tag="reveal"):
    location: str


class OpHide(_Op, frozen=True, tag="hide"):
    location: str


class OpPlace(_Op, frozen=True, tag="place"):
    card: str
    from_: str = named("from")
    location: str = ""


class OpAttach(_Op, frozen=True, tag="attach"):
    card: str
    from_: str = named("from")
    location: str = ""


class OpBeneath(_Op, frozen=True, tag="beneath"):
    card: str
    from_: str = named("from")
    location: str = ""


class OpGainBelief(_Op, frozen=True, tag="gain_belief"):
    player: str


class OpGainDoubt(_Op, frozen=True, tag="gain_doubt"):
    player: str


class OpBeliefText(_Op, frozen=True, tag="belief_text"):
    player: str


class OpDoubtText(_Op, frozen=True, tag="doubt_text"):
    player: str


class OpCounter(_Op, frozen=True, tag="counter"):
    player: str
    name: Literal["symptoms"]
    value: int


class OpGrant(_Op, frozen=True, tag="grant"):
    kind: Literal["avoid", "cancel", "fight_player"]
    player: str


class OpSwitchAvatars(_Op, frozen=True, tag="switch_avatars"):
    player: str
    with_: str = named("with")


class OpShuffle(_Op, frozen=True, tag="shuffle"):
    zone: str


class OpPeek(_Op, frozen=True, tag="peek"):
    zone: str
    card: str


class OpLock(_Op, frozen=True, tag="lock"):
    location: str


class OpEndGameDamage(_Op, frozen=True, tag="end_game_damage"):
    card: str
    n: int


class OpDefeatPlayer(_Op, frozen=True, tag="defeat_player"):
    player: str


class OpLoseGame(_Op, frozen=True, tag="lose_game"):
    reason: str = "declared_loss"


Op = (OpMove | OpGain | OpDefeat | OpDiscard | OpDraw | OpPoints | OpHeal | OpScar | OpAddScar | OpStrike | OpReveal
      | OpHide | OpPlace | OpAttach | OpBeneath | OpGainBelief | OpGainDoubt | OpBeliefText | OpDoubtText | OpCounter
      | OpGrant | OpSwitchAvatars | OpShuffle | OpPeek | OpLock | OpEndGameDamage | OpDefeatPlayer | OpLoseGame)
