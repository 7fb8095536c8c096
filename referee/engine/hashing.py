"""The log's hashes, on their own: canonical bytes, the entry chain and the annotation chain.

Kept apart from the fold (:mod:`referee.engine.core`, which re-exports them) so that the store, which
seals the annotations of an old database when it migrates it, uses the one definition of an
annotation's hash without importing the engine.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

_encoder = msgspec.json.Encoder(order="sorted")


def canonical(value: Any) -> bytes:
    """Deterministic JSON bytes of any msgspec/builtin value (sorted keys and fields)."""
    return _encoder.encode(value)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def entry_hash(prev_hash: str, body: bytes) -> str:
    return sha256_hex(prev_hash.encode("ascii") + b"\n" + body)


def annotations_root(match_id: str) -> str:
    """What the first annotation of a match chains to."""
    return sha256_hex(b"referee:annotations\n" + match_id.encode("utf-8"))


def annotation_hash(prev_hash: str, *, match_id: str, n: int, seq: int, kind: str, text: str, by: str,
                    audience: str) -> str:
    """The hash of the ``n``-th annotation of a match, chained to ``prev_hash`` like an entry's (its
    clock reading is not part of it: a time is kept for people, it is not evidence)."""
    body = canonical({"match": match_id, "n": n, "seq": seq, "kind": kind, "text": text, "by": by,
                      "audience": audience})
    return entry_hash(prev_hash, body)
