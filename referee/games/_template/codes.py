"""The rejection codes, as the game's rules spec names them (a code never changes; the member is the
reason in capitals)."""

from __future__ import annotations

from enum import StrEnum


class Code(StrEnum):
    BAD_COUNT = "template/bad_count"
    BAD_OPTION = "template/bad_option"
    NOT_ENOUGH = "template/not_enough"
