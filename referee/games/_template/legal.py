"""The intents a seat could submit now that would be accepted."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .data import MAX_TAKE
from .model import State, Take


def legal(state: State, seat: str) -> Sequence[Any]:
    if seat != state.active or state.pile == 0:
        return []
    return [Take(count=c) for c in range(1, MAX_TAKE + 1) if c <= state.pile]
