"""Whether a page's answer names what is hidden from the role reading it (the seat pages' and the actor
pages' leak check, asked of every answer of a whole match): the ids ``hidden_ids`` gives for that role now
and the names only hidden cards bear, searched as whole words by tests/test_leaks.py's search.

The same answers as ``_naming(hidden | names_of(loaded, hidden, card_names(loaded)))(text)`` of
tests/test_leaks.py, which it was, at a fraction of the cost over a match of a few hundred answers: a
match's card names and, for each name, which cards bear it as a word of theirs are worked out once a match
(``names_of`` searched every hidden name in every shown one, per answer: most of the check's time), and
the search for one set of targets is built once (a seat's hidden set repeats from answer to answer).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

#: a Russian name's key among a match's names (tests/test_leaks.py's ``RU``: its card's id with this after it)
RU = "@ru"


def card_of(key: str) -> str:
    """The card a key of the match's names names (tests/test_leaks.py's ``card_of``)."""
    return key[:-len(RU)] if key.endswith(RU) else key


class MatchNames:
    """A match's card names (tests/test_leaks.py's ``card_names``: English and Russian) and, per name, the
    cards whose names hold it as a whole word (a card's own name among them)."""

    def __init__(self, every: dict[str, str]) -> None:
        self.every = every
        self._bearers: dict[str, frozenset[str]] = {}

    def bearers(self, name: str) -> frozenset[str]:
        found = self._bearers.get(name)
        if found is None:
            word = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")
            found = self._bearers[name] = frozenset(card_of(key) for key, other in self.every.items()
                                                    if word.search(other))
        return found

    def only_hidden(self, ids: frozenset[str]) -> frozenset[str]:
        """The names of ``ids`` (longer than 3 characters) that no card outside ``ids`` bears, whole or as
        words of its name (tests/test_leaks.py's ``names_of``)."""
        every = self.every
        named = [every[key] for cid in ids for key in (cid, cid + RU) if key in every]  # English, Russian
        return frozenset(name for name in named if len(name) > 3 and self.bearers(name) <= ids)


#: each match's names, by its id and genesis hash (a match's cards are fixed when it is created)
_matches: dict[tuple[str, str], MatchNames] = {}


def _names(mid: str, loaded: Any) -> MatchNames:
    from test_leaks import card_names

    key = (mid, loaded.match.genesis_hash)
    found = _matches.get(key)
    if found is None:
        found = _matches[key] = MatchNames(card_names(loaded))
    return found


@functools.lru_cache(maxsize=512)
def _finder(targets: frozenset[str]) -> Callable[[str], re.Match[str] | None]:
    from test_leaks import _naming

    return _naming(set(targets))


def leaks(referee: Any, mid: str, role: str | None, text: str) -> list[str]:
    """Ids hidden from ``role`` now (and the names only hidden cards bear) that ``text`` names as a word."""
    loaded = referee.load(mid)
    _, state = referee.state_at(loaded)
    hidden = frozenset(loaded.rules.hidden_ids(state, role))
    names = _names(mid, loaded)
    found = _finder(hidden | names.only_hidden(hidden))(text)
    return [] if found is None else [found.group(0)]
