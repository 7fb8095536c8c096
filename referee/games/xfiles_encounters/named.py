"""The named cards whose effects the rulebook gives (spec §5.6, R45), checked rather than only declared."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .rules import XFilesRules


def effect_answers(rules: XFilesRules, st: dict[str, Any], items: list[dict[str, Any]]) -> list[Any]:
    """Concrete answers to pending effects of named cards (offered by ``legal``)."""
    return []


def manual_intents(rules: XFilesRules, st: dict[str, Any], seat: str) -> list[Any]:
    """Concrete declared effects of named cards face up now (offered by ``legal``)."""
    return []
