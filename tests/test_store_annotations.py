"""The annotations' contract (:class:`referee.store.Annotations`): append-only and chained, on every backend."""

from __future__ import annotations

import pytest

from referee.store import Annotations, Conflict
from support.store_contract import a_match, a_note, an_entry, assert_implements, store  # noqa: F401 - fixture


def test_every_backend_implements_the_recorder(store):
    assert_implements(store, Annotations)


def test_annotations(store):
    store.create_match(a_match())
    store.append(an_entry(1), expected_seq=0)
    store.add_annotation(a_note(1, "root", "h1"))
    store.add_annotation(a_note(2, "h1", "h2", seq=0, text="on the match"))
    assert [(a.n, a.seq, a.text, a.by, a.prev_hash, a.hash, a.audience) for a in store.annotations("m1")] == [
        (1, 1, "hm", "arb", "root", "h1", "all"), (2, 0, "on the match", "arb", "h1", "h2", "all")]


@pytest.mark.parametrize(("n", "prev"), [(2, "h1"), (4, "h2"), (3, "other")])
def test_an_annotation_out_of_its_chain_is_a_conflict(store, n, prev):
    """Annotations are chained like entries: the n-th of a match must follow the (n-1)-th by hash."""
    store.create_match(a_match())
    store.add_annotation(a_note(1, "root", "h1"))
    store.add_annotation(a_note(2, "h1", "h2"))
    with pytest.raises(Conflict):
        store.add_annotation(a_note(n, prev, "h3"))
    assert [a.n for a in store.annotations("m1")] == [1, 2]
