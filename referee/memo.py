"""The latest answer a process computed for a role of a match, kept with the head it was computed at
(:class:`HeadMemo`): a seat's page (``GET /matches/{id}/seat``) is read again by every open page of the
match after each entry, and by the writer after its own write, so the same answer at the same head is
asked for several times a move.

An answer is a function of the match's log up to its head: entries are never updated or removed, and
whatever changes what a role sees (a move, an undo, a confirmation, a ruling, an amendment, a reopening)
is an appended entry, so the head names the answer. One at an older head is never given out.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable

#: the keys (a match and a role) a process keeps the latest answer of: a hall of 100 three-seat tables and
#: their spectators' views; an answer holds 15-70 KiB (the five games' pages after setup), so at most ~35 MiB
MEMO_SIZE = 512


class HeadMemo:
    """``key -> (head, answer)``, the least recently used key dropped beyond ``size``; safe to share
    between a process's threads (each of which has its own store connection and service)."""

    def __init__(self, size: int = MEMO_SIZE) -> None:
        self.size = size
        self._kept: OrderedDict[Hashable, tuple[int, object]] = OrderedDict()
        self._lock = threading.Lock()
        #: answers given from the memo, and computed (what tests and benchmarks look at)
        self.hits = self.misses = 0

    def get(self, key: Hashable, head: int) -> object | None:
        """The answer kept for ``key`` at ``head`` exactly, or None."""
        with self._lock:
            kept = self._kept.get(key)
            if kept is None or kept[0] != head:
                self.misses += 1
                return None
            self._kept.move_to_end(key)
            self.hits += 1
            return kept[1]

    def put(self, key: Hashable, head: int, answer: object) -> None:
        """Keep ``answer`` as ``key``'s at ``head``, unless one at a later head is kept already (a slow
        thread's answer never replaces a newer one)."""
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None and kept[0] > head:
                return
            self._kept[key] = (head, answer)
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
