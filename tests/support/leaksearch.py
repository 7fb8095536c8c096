"""The byte search of tests/test_leaks.py: whether a text names an id (or a card's name) as a whole word,
and whether it holds one of the arbiter's secrets (a seed, a hash).

A text is cut into its tokens once (:func:`tokens`: every byte but ``A-Za-z0-9_:`` made a space, then
split, in C), and every question is asked of the set of its distinct tokens rather than of the text:
an id of word characters is named exactly when it is one of the text's *words* (runs of ``A-Za-z0-9_``
not right after a ``:``); any other target (a name with spaces, an id with a ``-``) can only be named
where each of its own runs is one of the text's *runs*, and only those are searched for by a regular
expression; a hash of 64 hex digits can only sit inside a run of 64 or more characters. The answers are
exactly those of the regular expressions in :func:`pattern` and :data:`HEX` over the whole text, which
tests/test_leaks.py holds them to (and to finding a name planted in a real answer), at a fraction of the
time: one pass of a regular expression over a few megabytes of export per role was most of the module's
search.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from typing import NamedTuple

WORD_CHARS = "A-Za-z0-9_"
RUN = re.compile(rf"[{WORD_CHARS}]+")
HEX = re.compile(r"[0-9a-f]{64,}")
# every byte but a word character or ':' becomes a space (non-ASCII bytes too: the patterns' classes are ASCII)
_KEEP = bytes(c if chr(c) == ":" or RUN.fullmatch(chr(c)) else 32 for c in range(256))


class Tokens(NamedTuple):
    words: AbstractSet[str]  # the runs of word characters not right after a ':'
    runs: AbstractSet[str]  # every run of word characters


def tokens(text: str | bytes) -> Tokens:
    """The distinct words and runs of ``text`` (see the module's docstring)."""
    data = text.encode() if isinstance(text, str) else text
    chunks = set(data.translate(_KEEP).decode("ascii").split())  # the maximal runs of word characters and ':'
    colons = [c for c in chunks if ":" in c]
    if not colons:
        return Tokens(chunks, chunks)
    words = chunks.difference(colons)
    runs = set(words)
    for chunk in colons:  # a chunk's first run follows no ':' (the chunk is whole); the others do
        parts = chunk.split(":")
        words.add(parts[0])
        runs.update(parts)
    words.discard("")
    runs.discard("")
    return Tokens(words, runs)


def pattern(targets: Iterable[str]) -> re.Pattern[str]:
    """The one regular expression the search answers for: any of ``targets`` as a whole word, not right
    after a ``:`` (longest first, so the match reported is the whole target)."""
    alternatives = "|".join(re.escape(x) for x in sorted(targets, key=lambda x: (-len(x), x)))
    return re.compile(rf"(?<![{WORD_CHARS}:])({alternatives})(?![{WORD_CHARS}])")


def is_plain(x: str) -> bool:
    """Whether ``x`` is made of word characters alone (named by a text exactly when among its words)."""
    return RUN.fullmatch(x) is not None


class Searcher:
    """Where a text first names one of ``targets`` (:func:`pattern`), or None; asked of the text's
    :func:`tokens` first, so that a text naming none (every answer of a passing test) is decided without
    a regular expression over it."""

    def __init__(self, targets: Iterable[str]) -> None:
        targets = set(targets)
        self.plain = frozenset(x for x in targets if is_plain(x))
        # (target, its runs, whether it starts with a word character: then its first run is a word)
        self.others = [(x, frozenset(RUN.findall(x)), RUN.match(x) is not None, pattern([x]))
                       for x in sorted(targets - self.plain)]
        self.whole = pattern(targets) if targets else None

    def names(self, text: str, toks: Tokens | None = None) -> bool:
        """Whether ``text`` names a target (``toks``: its :func:`tokens`, where made already)."""
        if self.whole is None:
            return False
        toks = tokens(text) if toks is None else toks
        if not self.plain.isdisjoint(toks.words):
            return True
        for x, runs, starts_with_a_word, one in self.others:
            if runs <= toks.runs and (not starts_with_a_word or RUN.match(x).group(0) in toks.words):
                if x in text and one.search(text) is not None:  # a plain search first: most runs meet elsewhere
                    return True
        return False

    def find(self, text: str, toks: Tokens | None = None) -> re.Match[str] | None:
        """The first place ``text`` names a target, or None."""
        return self.whole.search(text) if self.whole is not None and self.names(text, toks) else None


def secrets_in(text: str, toks: Tokens, secrets: set[str]) -> list[str]:
    """The secrets ``text`` holds (``toks``: its :func:`tokens`): a hash (64 characters) where one of
    the text's runs of hex digits is it or holds it, anything else (a seed) by a plain search."""
    hashes = {x for x in secrets if len(x) == 64}
    found = [x for x in sorted(secrets - hashes) if x in text]
    for run in sorted(r for r in toks.runs if len(r) >= 64):  # a run of hex digits lies inside a run of word characters
        for hexes in HEX.findall(run):
            found += ([hexes] if hexes in hashes else []) if len(hexes) == 64 else [x for x in sorted(hashes) if x in hexes]
    return found
