"""A seeded chance source: deterministic in (seed, salt), never the global generator.

Digital matches draw every chance outcome from ``Chance(seed, salt)`` where the salt names the
moment (``"setup"``, ``"play"``); a game derives each outcome from it and its own history of draws
(``chance.derive("players.alice.deck:shuffle2:drawn7")``), never from an entry number. The outcome is written into the recorded intent, so replay
never re-rolls; the generator is only consulted again by audit, which must reproduce it.

Also the paths of an intent's chance fields (:func:`chance_value`, :func:`typed_chance`,
:func:`with_chance`): a game names them with ``Rules.chance_fields``, as field names or dotted paths
into the records an intent nests.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec

if TYPE_CHECKING:
    import random

T = TypeVar("T")


class Chance:
    """A private ``random.Random`` seeded from sha256(seed, salt)."""

    __slots__ = ("seed", "salt", "_random")

    def __init__(self, seed: int, salt: str) -> None:
        self.seed = seed
        self.salt = salt
        self._random: random.Random | None = None

    @property
    def _rng(self) -> random.Random:
        """Seeded on first use: most intents consult no chance at all."""
        if self._random is None:
            import random  # (imported here: a command that draws nothing does without it)

            digest = hashlib.sha256(f"{self.seed}:{self.salt}".encode()).digest()
            self._random = random.Random(int.from_bytes(digest[:16], "big"))
        return self._random

    def shuffled(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        self._rng.shuffle(out)
        return out

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise ValueError("choice from an empty sequence")
        return items[self._rng.randrange(len(items))]

    def randint(self, low: int, high: int) -> int:
        return self._rng.randint(low, high)

    def derive(self, salt: str) -> Chance:
        return Chance(self.seed, f"{self.salt}/{salt}")


# -- chance fields of an intent (Rules.chance_fields) --------------------------------------------------------
#
# A game names the fields of an intent that hold chance outcomes. A name is a field of the intent or a
# dotted path into the records it nests (``args.then.drawn``): a path through an absent record (None)
# holds nothing.


def chance_value(intent: Any, path: str) -> Any:
    """The value at ``path`` (a field name or a dotted path) of ``intent``; None where a record on the
    way is absent."""
    value = intent
    for name in path.split("."):
        if value is None:
            return None
        value = getattr(value, name)
    return value


def typed_chance(paths: Sequence[str], intent: Any) -> list[str]:
    """Those of ``paths`` that ``intent`` fills in (a value that is not empty)."""
    return [p for p in paths if chance_value(intent, p) not in (None, (), [], {}, "")]


def with_chance(intent: Any, path: str, value: Callable[[Any, msgspec.structs.FieldInfo], Any]) -> Any:
    """``intent`` with the field at ``path`` replaced by ``value(current, field)`` (the field's
    description gives its default); unchanged where a record on the way is absent."""
    head, _, rest = path.partition(".")
    if intent is None:
        return None
    if rest:
        inner = getattr(intent, head)
        if inner is None:
            return intent
        return msgspec.structs.replace(intent, **{head: with_chance(inner, rest, value)})
    field = next(f for f in msgspec.structs.fields(intent) if f.name == head)
    return msgspec.structs.replace(intent, **{head: value(getattr(intent, head), field)})


def left_out(_current: Any, field: msgspec.structs.FieldInfo) -> Any:
    """A field's default (the value it has when the notation leaves it out)."""
    return field.default if field.default is not msgspec.NODEFAULT else field.default_factory()
