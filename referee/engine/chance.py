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

    __slots__ = ("seed", "salt", "_random")

    def __init__(self, seed: int, salt: str) -> None:
        self.seed = seed
        self.salt = salt
        self._random: random.Random | None = None

    @property
    def _rng(self) -> random.Random:
        """Seeded on first use: most intents consult no chance at all."""
        if self._random is None:
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
