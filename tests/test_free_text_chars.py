"""What free text may not hold (:func:`referee.engine.datafile.bad_char`): its quick paths (the whole
text printable, no bidirectional override in it) find the same first bad character, at the same index,
as a scan of every character by :func:`is_bad`."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine.datafile import bad_char, is_bad

_CHARS = st.sampled_from(["a", " ", "\t", "\n", "\r", "\x00", "\x7f", "\x85", "\xa0", "\u2028", "\u2029", "\u202a",
                          "\u202e", "\u2066", "\u2069", "\u200f", "\ud800", "é", "🂡", "="])


def _scan(text: str) -> tuple[int, str] | None:
    return next(((i, ch) for i, ch in enumerate(text) if is_bad(ch)), None)


# (hypothesis builds its table of Unicode categories on the first text drawn, about a second: on a loaded
# machine its too-slow check failed the test for that alone)
@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(_CHARS, st.text(max_size=3)), max_size=12).map("".join))
def test_the_first_bad_character_is_the_one_a_full_scan_finds(text):
    assert bad_char(text) == _scan(text)


def test_a_bidirectional_override_in_printable_text_is_found_where_it_is():
    assert bad_char("card=K07 \u202enote") == (9, "\u202e")
    assert bad_char("card=K07 note") is None
    assert bad_char("a\tb") is None  # a tab is not printable, but free text may hold one
