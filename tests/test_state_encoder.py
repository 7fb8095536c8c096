"""The audit's :class:`referee.engine.core.StateEncoder` puts a state's canonical bytes together field by
field, reusing the bytes of fields whose value is the very object it encoded before: its bytes must be
``state_bytes``'s (the fully sorted encoding every recorded state hash is taken over) on every state."""

from __future__ import annotations

import msgspec
import pytest

from referee.engine import core
from referee.games import GAMES
from test_properties import play_random

SORTED = msgspec.json.Encoder(order="sorted")


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_by_field_bytes_are_the_sorted_encoding_on_every_state_of_a_walk(game):
    referee, mid, live = play_random(game, seed=11, steps=120)
    loaded = referee.load(mid)
    encoder = core.StateEncoder(game.state_type)
    assert encoder._type is game.state_type  # every game's state is put together field by field
    state = loaded.initial
    seen = [encoder.encode(state)]
    assert seen[0] == SORTED.encode(state)
    for (_entry, body), expected in zip(referee.bodies(loaded), live, strict=True):
        state = referee.advance(loaded, state, body)
        got = encoder.encode(state)
        assert got == SORTED.encode(state) and core.sha256_hex(got) == expected
    # back to the first state (an undo's jump): every field is another object again
    assert encoder.encode(loaded.initial) == seen[0]


class Omitting(msgspec.Struct, frozen=True, omit_defaults=True, kw_only=True):
    a: int = 1000
    b: tuple[int, ...] = ()
    c: list[int] = []
    d: dict[str, int] = {}
    e: int | msgspec.UnsetType = msgspec.UNSET
    f: str = "x"
    g: set[int] = set()


class Plain(msgspec.Struct, frozen=True, kw_only=True):
    a: int
    b: int | msgspec.UnsetType = msgspec.UNSET
    c: tuple[int, ...] = ()


def test_omitted_fields_are_left_out_as_msgspec_leaves_them_out():
    values = [
        Omitting(), Omitting(a=int("1000")), Omitting(a=1001), Omitting(b=tuple([])), Omitting(b=(1,)),
        Omitting(c=[]), Omitting(c=[1]), Omitting(d={}), Omitting(d={"k": 1}), Omitting(e=3), Omitting(e=0),
        Omitting(f="".join(["x"])), Omitting(f="y"), Omitting(g=set()), Omitting(g={2, 1}),
        Plain(a=1), Plain(a=1, b=2), Plain(a=2, c=(1, 2)),
    ]
    for tp in (Omitting, Plain):
        encoder = core.StateEncoder(tp)
        assert encoder._type is tp
        for value in values:  # one after another (what changed), then each again from nothing
            assert encoder.encode(value) == SORTED.encode(value) == core.StateEncoder(tp).encode(value)


def test_types_it_cannot_spell_are_encoded_whole():
    class Tagged(msgspec.Struct, tag=True):
        a: int

    class Unsorted(msgspec.Struct):
        b: int
        a: int

    def three() -> list[int]:
        return [1, 2, 3]

    class Odd(msgspec.Struct, omit_defaults=True):
        a: list[int] = msgspec.field(default_factory=three)

    for value in (Tagged(a=1), Unsorted(b=1, a=2), Odd()):
        encoder = core.StateEncoder(type(value))
        assert encoder._type is None
        assert encoder.encode(value) == SORTED.encode(value)
