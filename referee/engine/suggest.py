"""Suggestions for a misspelt name: the known names closest to what was typed ("did you mean K06?").

Every refusal that names an unknown card, seat, verb, location or office builds its hint here, so
they all rank alike: by closeness (difflib's ratio, compared without case), then by name, so the same
typo always gets the same suggestions. A card may be typed by its name: ``names`` maps such names to
the ids a line takes, and a close name suggests its id. A candidate holding anything unprintable is
never suggested, so a hint cannot carry a control character to a terminal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from difflib import SequenceMatcher

from .speech import N_, Said

#: how alike (0..1) a known name must be to be suggested
CUTOFF = 0.6


def closest(word: str, choices: Iterable[str], *, n: int = 3, names: Mapping[str, str] | None = None,
            cutoff: float = CUTOFF) -> list[str]:
    """Up to ``n`` of ``choices`` (or ids of ``names`` close to ``word``), closest first, ties by name;
    only the exact ones when ``word`` differs from some only in case."""
    typed = word.casefold()
    best: dict[str, float] = {}
    pairs = [(c, c) for c in choices] + sorted((names or {}).items())
    for shown, target in pairs:
        if not target.isprintable() or not shown:
            continue
        score = 1.0 if shown.casefold() == typed else SequenceMatcher(None, typed, shown.casefold()).ratio()
        if score >= cutoff and score > best.get(target, -1.0):
            best[target] = score
    exact = [t for t, score in best.items() if score == 1.0]
    return sorted(exact) if exact else sorted(best, key=lambda t: (-best[t], t))[:n]


def did_you_mean(word: str, choices: Iterable[str], *, n: int = 3, names: Mapping[str, str] | None = None) -> str:
    """`` (did you mean K06?)`` / `` (did you mean K06 or K07?)``, or ``""`` when nothing is close."""
    said = close_names(word, choices, n=n, names=names)
    return f" (did you mean {said}?)" if said else ""


def hint(word: str, choices: Iterable[str], *, n: int = 3, names: Mapping[str, str] | None = None) -> str:
    """:func:`did_you_mean` as a phrase (:class:`~referee.engine.speech.Said`) for a refusal said through the
    catalog, to read in the reader's language with it; ``""`` when nothing is close."""
    said = close_names(word, choices, n=n, names=names)
    return Said(N_(" (did you mean {names}?)"), names=said) if said else ""


def close_names(word: str, choices: Iterable[str], *, n: int = 3, names: Mapping[str, str] | None = None) -> str:
    """What :func:`did_you_mean` suggests (``K06``, ``K06 or K07``), ``""`` when nothing is close: several
    as a phrase (:class:`~referee.engine.speech.Said`) that reads in the reader's language with the refusal
    it is said in."""
    found = closest(word, choices, n=n, names=names)
    if len(found) < 2:
        return found[0] if found else ""
    return Said(N_("{first} or {second}"), first=", ".join(found[:-1]), second=found[-1])
