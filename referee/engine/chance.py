"""A seeded chance source: deterministic in (seed, salt), never the global generator.

Digital matches draw every chance outcome from ``Chance(seed, salt)`` where the salt names the
moment (``"setup"``, ``"seq:17"``). The outcome is written into the recorded intent, so replay
never re-rolls; the generator is only consulted again by audit, which must reproduce it.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class Chance:
    """A private ``random.Random`` seeded from sha256(seed, salt)."""

    __slots__ = ("seed", "salt", "_rng")

    def __init__(self, seed: int, salt: str) -> None:
        self.seed = seed
        self.salt = salt
        digest = hashlib.sha256(f"{seed}:{salt}".encode()).digest()
        self._rng = random.Random(int.from_bytes(digest[:16], "big"))

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
