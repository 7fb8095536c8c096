"""Android's data file is read table by table (issue 28, point 10 split parse_data): the bundled set
still reads whole, and a fault in each table is still named, with where it is."""

from __future__ import annotations

import os

import pytest

from referee.engine.protocol import ConfigError
from referee.games.android.data import parse_data

DEMO = os.path.join(os.path.dirname(__file__), "..", "referee", "games", "android", "data", "demo.toml")


def _demo() -> str:
    with open(DEMO, encoding="utf-8") as fh:
        return fh.read()


def test_the_bundled_set_reads_whole():
    data = parse_data(_demo(), "demo")
    assert data.maps and data.detectives and data.suspects and data.murders and data.cards and data.events
    assert data.days_per_week == 4 and len(data.days) == 8
    assert data.puzzle.pieces


@pytest.mark.parametrize(("old", "new", "message"), [
    ('days_per_week = 4', 'days_per_week = 3', "calendar: days must list weeks x days_per_week = 6 days, not 8"),
    ('suspects = ["vinnie_the_strangler", "eve_5va3tc"', 'suspects = ["nobody", "eve_5va3tc"',
     "suspect 'nobody' is not a [[suspect]]"),
    ('strong_file = "testimony"', 'strong_file = "nonsense"', "field 'strong_file' is 'nonsense'; expected one of"),
])
def test_a_fault_in_a_table_is_named(old, new, message):
    text = _demo()
    assert old in text
    with pytest.raises(ConfigError) as caught:
        parse_data(text.replace(old, new, 1), "demo")
    assert message in str(caught.value)
    assert "data set 'demo'" in str(caught.value)
