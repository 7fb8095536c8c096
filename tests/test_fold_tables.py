"""Issue 28, point 10: the folds split into a table of one small handler per kind of event (and X-Files'
declared change ops into one per kind of op). A table must cover its union exactly (a kind without a
handler would fail only when first recorded), and an event of no known kind is still refused by name."""

from __future__ import annotations

import typing

import msgspec
import pytest

from referee.games.android import fold as android_fold
from referee.games.android.model import Event as AndroidEvent
from referee.games.copycat import fold as copycat_fold
from referee.games.copycat.model import Event as CopycatEvent
from referee.games.xfiles_encounters import ops as xfiles_ops
from referee.games.xfiles_encounters.model import Op as XFilesOp
from referee.games.war_of_shadows import fold as wos_fold
from referee.games.war_of_shadows.model import Event as WarOfShadowsEvent

TABLES = [
    pytest.param(AndroidEvent, android_fold.HANDLERS, id="android"),
    pytest.param(CopycatEvent, copycat_fold.HANDLERS, id="copycat"),
    pytest.param(WarOfShadowsEvent, wos_fold.HANDLERS, id="war_of_shadows"),
    pytest.param(XFilesOp, xfiles_ops.HANDLERS, id="xfiles_ops"),  # its declared change ops, one table too
]


@pytest.mark.parametrize(("union", "table"), TABLES)
def test_the_table_covers_its_union_exactly(union, table):
    kinds = set(typing.get_args(union))
    assert len(kinds) > 20
    assert sorted(k.__name__ for k in kinds - set(table)) == []
    assert sorted(k.__name__ for k in set(table) - kinds) == []


class Stray(msgspec.Struct, frozen=True):
    """An event of no game."""


def test_an_unknown_event_is_refused_by_name():
    with pytest.raises(TypeError, match=r"android: unknown event Stray\(\)"):
        android_fold.evolve(None, None, Stray())
    with pytest.raises(TypeError, match=r"copycat: unknown event Stray\(\)"):
        copycat_fold.evolve(None, None, Stray())
    with pytest.raises(TypeError, match=r"war_of_shadows: unknown event Stray\(\)"):
        wos_fold.evolve(None, Stray())
