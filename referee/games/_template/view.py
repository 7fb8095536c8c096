"""What a seat may see of the state (``None``: the referee's full view). Nothing is hidden in this
game; a game with hidden zones redacts them here, the same way whatever the hidden truth is."""

from __future__ import annotations

from typing import Any

import msgspec

from .model import State


def view(state: State, seat: str | None) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(state)
    return data
