"""Data files (TOML) as games and scenario files read them: one parser with bounded nesting.

``tomllib`` recurses once per nested array or inline table, so a hostile file nested a few thousand
levels deep would end in a ``RecursionError`` (an internal error) instead of a refusal. ``load_toml``
reports it as what it is, a file the referee cannot read, with the same exception type as a syntax
error, so every caller that handles one handles both. Pure: text in, data out.
"""

from __future__ import annotations

import tomllib
from typing import Any

from schemas import DEPTH_MAX


def load_toml(text: str) -> dict[str, Any]:
    """``tomllib.loads(text)``; nesting too deep to parse raises :class:`tomllib.TOMLDecodeError`."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise tomllib.TOMLDecodeError(
            f"arrays or tables nest too deeply to read (a data file needs a few levels; at most {DEPTH_MAX} are accepted)"
        ) from None
