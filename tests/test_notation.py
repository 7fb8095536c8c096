"""The notation is generated from intent Structs: one rule set for every game."""

from __future__ import annotations

from typing import Literal

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.engine.notation import format_intent, parse_intent, verbs_of
from referee.engine.protocol import InputError


class Effect(msgspec.Struct, frozen=True, kw_only=True):
    primitive: Literal["relocate_agent", "gain"]
    destination: str | None = None


class Placement(msgspec.Struct, frozen=True):
    token: str
    count: int


class Deploy(msgspec.Struct, frozen=True, kw_only=True, tag="deploy"):
    """Deploy things."""

    __positional__ = ("card",)
    card: str
    from_: Literal["hand", "buf1", "buf2"] = msgspec.field(default="hand", name="from")
    cells: tuple[str, ...] = ()
    effect: Effect | None = None
    placements: tuple[Placement, ...] = ()
    amount: int | None = None
    secret: bool = False
    note: str = ""


class Pass(msgspec.Struct, frozen=True, kw_only=True, tag="pass_turn"):
    """Pass."""


Intent = Deploy | Pass


def test_every_form_of_the_notation():
    got = parse_intent(
        Intent,
        'deploy card=TR1 from=buf2 cells=A1,B2 effect.primitive=relocate_agent effect.destination=lion.chancellor '
        'placements=lion_1:2,lion_2:1 amount=3 secret=true note="Burner Phone"',
    )
    assert got == Deploy(
        card="TR1", from_="buf2", cells=("A1", "B2"),
        effect=Effect(primitive="relocate_agent", destination="lion.chancellor"),
        placements=(Placement("lion_1", 2), Placement("lion_2", 1)), amount=3, secret=True, note="Burner Phone",
    )
    assert parse_intent(Intent, format_intent(got)) == got


def test_positional_shorthand_and_defaults():
    assert parse_intent(Intent, "deploy TR9") == Deploy(card="TR9")
    assert format_intent(Deploy(card="TR9")) == "deploy card=TR9"
    assert parse_intent(Intent, "pass_turn") == Pass()


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("", "empty intent"),
        ("deplo card=X", "did you mean deploy"),
        ("deploy", "missing argument card"),
        ("deploy card=X from=deck", "argument from: expected one of buf1|buf2|hand, got 'deck'"),
        ("deploy card=X amount=two", "argument amount: expected a whole number"),
        ("deploy card=X secret=maybe", "expected true or false"),
        ("deploy card=X colour=red", "unknown argument 'colour'"),
        ("deploy card=X card=Y", "given twice"),
        ("deploy card=X placements=lion_1", "expected token:count"),
        ("deploy card=X placements=lion_1:many", "expected a whole number"),
        ("deploy card=X effect.primitive=fly", "expected one of"),
        ('deploy card=X note="open', "unbalanced double quote"),
        ("deploy card=X cells=A1,,B2", "empty item"),
        ("pass_turn now", "not key=value"),
    ],
)
def test_syntax_errors_name_the_argument_and_what_was_expected(text, fragment):
    with pytest.raises(InputError) as info:
        parse_intent(Intent, text)
    assert fragment in info.value.message


def test_usage_lines_are_generated():
    usage = verbs_of(Intent)["deploy"].signature()
    assert usage.startswith("deploy card=TEXT [from=buf1|buf2|hand] [cells=str,...]")
    assert "[placements=token:count,...]" in usage and "[effect.primitive=gain|relocate_agent]" in usage


words = st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126, exclude_characters=',:"\\#='), min_size=1, max_size=8)


@given(
    card=words,
    cells=st.lists(words, max_size=4),
    placements=st.lists(st.tuples(words, st.integers(-50, 50)), max_size=3),
    note=st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=20),
    amount=st.none() | st.integers(-1000, 1000),
)
def test_format_then_parse_round_trips(card, cells, placements, note, amount):
    intent = Deploy(card=card, cells=tuple(cells), placements=tuple(Placement(t, c) for t, c in placements),
                    note=note, amount=amount)
    assert parse_intent(Intent, format_intent(intent)) == intent


# -- mappings, word-or-record fields and tagged record lists (added for War of Shadows) ---------------


class Arrangement(msgspec.Struct, frozen=True, kw_only=True):
    fanaticism: str | None = None
    devotion: str | None = None


class Banners(msgspec.Struct, frozen=True, tag_field="type", tag="banners"):
    region: str
    empire: str
    delta: int


class Note(msgspec.Struct, frozen=True, tag_field="type", tag="note"):
    """A record with no fields: written as its tag alone."""


class Arrange(msgspec.Struct, frozen=True, kw_only=True, tag="arrange"):
    """Arrange tokens."""

    arrangement: Literal["unrecorded"] | Arrangement | None = None
    assignments: dict[str, Literal["lion", "bear"]] = {}
    options: dict[str, str] = {}
    deltas: tuple[Banners | Note, ...] = ()


class Play(msgspec.Struct, frozen=True, kw_only=True, tag="play"):
    """Play with a required word-or-record effect."""

    effect: Literal["manual"] | Effect


Intent2 = Arrange | Play


def test_mapping_fields_are_dotted_keys_one_per_entry():
    got = parse_intent(Intent2, "arrange assignments.raven=lion assignments.rat=bear options.allow_pass=true")
    assert got == Arrange(assignments={"raven": "lion", "rat": "bear"}, options={"allow_pass": "true"})
    assert parse_intent(Intent2, format_intent(got)) == got
    assert "assignments.raven=lion" in format_intent(got)
    with pytest.raises(InputError) as info:
        parse_intent(Intent2, "arrange assignments.raven=wolf")
    assert "argument assignments.raven: expected one of bear|lion" in info.value.message
    with pytest.raises(InputError) as info:
        parse_intent(Intent2, "arrange assignments.raven.x=lion")
    assert "unknown argument" in info.value.message
    assert "[assignments.NAME=bear|lion]" in verbs_of(Intent2)["arrange"].signature()


def test_a_word_or_a_record():
    assert parse_intent(Intent2, "arrange arrangement=unrecorded") == Arrange(arrangement="unrecorded")
    rec = parse_intent(Intent2, "arrange arrangement.fanaticism=lion arrangement.devotion=bear")
    assert rec == Arrange(arrangement=Arrangement(fanaticism="lion", devotion="bear"))
    for intent in (Arrange(arrangement="unrecorded"), rec, Play(effect="manual"),
                   Play(effect=Effect(primitive="relocate_agent", destination="eagle.chancellor"))):
        assert parse_intent(Intent2, format_intent(intent)) == intent
    assert format_intent(Play(effect="manual")) == "play effect=manual"
    with pytest.raises(InputError) as info:
        parse_intent(Intent2, "arrange arrangement=unrecorded arrangement.devotion=bear")
    assert "not both" in info.value.message
    with pytest.raises(InputError) as info:
        parse_intent(Intent2, "arrange arrangement=shuffled")
    assert "expected one of unrecorded" in info.value.message
    with pytest.raises(InputError) as info:
        parse_intent(Intent2, "play")
    assert "missing argument effect" in info.value.message
    assert parse_intent(Intent2, "play effect.primitive=gain") == Play(effect=Effect(primitive="gain"))


def test_a_list_of_tagged_records_names_each_records_type_first():
    got = parse_intent(Intent2, "arrange deltas=banners:bear_1:bear:+1,note,banners:lion_2:lion:-2")
    assert got.deltas == (Banners("bear_1", "bear", 1), Note(), Banners("lion_2", "lion", -2))
    assert parse_intent(Intent2, format_intent(got)) == got
    assert "deltas=banners:bear_1:bear:1,note,banners:lion_2:lion:-2" in format_intent(got)
    with pytest.raises(InputError) as info:
        parse_intent(Intent2, "arrange deltas=fly:bear_1")
    assert "expected one of banners, note" in info.value.message
    with pytest.raises(InputError) as info:
        parse_intent(Intent2, "arrange deltas=banners:bear_1:bear")
    assert "expected banners:region:empire:delta" in info.value.message
    assert "[deltas=banners:region:empire:delta|note,...]" in verbs_of(Intent2)["arrange"].signature()


# -- records that nest themselves, and list items that leave off trailing defaults (issue 11) -----------


class EffectArgs(msgspec.Struct, frozen=True, kw_only=True):
    """Copycat's effect arguments: ``then`` continues a copy chain to any depth."""

    drawn: tuple[str, ...] = ()
    choice: Literal["coin", "vp"] | None = None
    target_card: str | None = None
    then: EffectArgs | None = None


class Op(msgspec.Struct, frozen=True, tag="adjust"):
    counter: str
    delta: int = 1
    note: str = ""


class Move(msgspec.Struct, frozen=True, tag="move"):
    card: str
    to: str


class UseOffice(msgspec.Struct, frozen=True, kw_only=True, tag="use_office"):
    office: str
    args: EffectArgs | None = None
    ops: tuple[Op | Move, ...] = ()


Chained = UseOffice | Pass


@pytest.mark.parametrize("text", [
    "use_office office=a1_reuse args.target_card=c20 args.then.drawn=A12,A13",
    "use_office office=a1 args.then.then.choice=vp",
    "use_office office=a1 args.then.then.then.then.target_card=c3 args.then.then.then.then.then.drawn=X1",
    "use_office office=a1 args.choice=coin args.then.choice=vp args.then.then.choice=coin",
])
def test_a_record_that_nests_itself_is_written_to_any_depth(text):
    intent = parse_intent(Chained, text)
    depth, node = 0, intent.args
    while node is not None:
        depth, node = depth + 1, node.then
    assert depth == 1 + max(word.count(".then") for word in text.split())  # as deep as the deepest key
    assert format_intent(intent) == text
    assert parse_intent(Chained, format_intent(intent)) == intent


def test_a_nested_record_names_a_wrong_field_with_the_usual_error():
    with pytest.raises(InputError, match="unknown argument 'args.then.colour'"):
        parse_intent(Chained, "use_office office=a1 args.then.colour=red")
    with pytest.raises(InputError, match="expected one of coin|vp"):
        parse_intent(Chained, "use_office office=a1 args.then.then.choice=gold")


def test_list_items_may_leave_off_trailing_fields_with_defaults():
    intent = parse_intent(Chained, "use_office office=a1 ops=adjust:vp,adjust:coin:-2,adjust:vp:3:bonus")
    assert intent.ops == (Op("vp"), Op("coin", -2), Op("vp", 3, "bonus"))
    assert format_intent(intent) == "use_office office=a1 ops=adjust:vp,adjust:coin:-2,adjust:vp:3:bonus"
    with pytest.raises(InputError, match=r"expected adjust:counter:delta:note \(the last 2 may be left off\)"):
        parse_intent(Chained, "use_office office=a1 ops=adjust")
    with pytest.raises(InputError, match="expected move:card:to"):
        parse_intent(Chained, "use_office office=a1 ops=move:c1")


def test_a_nested_value_lands_where_its_key_says():
    intent = parse_intent(Chained, "use_office office=a1 args.then.then.choice=vp args.then.drawn=A1")
    assert intent.args.then.drawn == ("A1",) and intent.args.then.then.choice == "vp" and intent.args.choice is None


# -- splitting a line into words: the fast path and shlex agree on every line --------------------------

#: the characters that matter to a lexer (separators, quotes, escapes, spaces shlex does not split on,
#: NUL, a lone surrogate, line separators) beside ordinary ones
_LEXED = st.sampled_from([" ", "  ", "\t", "\r", "\n", '"', "\\", "'", "\x00", "\xa0", "\x0b", "\x0c", "\x1c",
                          "\x85", "\u2028", "\u3000", "\ud800", "=", ",", ":", ".", "#", "é", "🂡", "a", "K07",
                          "card=", "note="])


def _split_outcome(split, text):
    try:
        return ("words", split(text))
    except InputError as exc:
        return ("refused", exc.message, exc.code)


@given(st.lists(st.one_of(_LEXED, st.text(max_size=4)), max_size=14).map("".join))
def test_splitting_a_line_gives_the_words_shlex_gives(text):
    from referee.engine.notation import shlex_words, split_words

    assert _split_outcome(split_words, text) == _split_outcome(shlex_words, text)


@pytest.mark.parametrize("text", ["", "   ", "draw_main card=K07", " a  b\tc\r\nd ", "x\xa0y z", "a\x00b",
                                  "note=don't", 'note="Burner Phone"', 'a "b', "a\\ b", 'say "a \\" b"', "end\\"])
def test_splitting_known_lines_agrees_with_shlex(text):
    from referee.engine.notation import shlex_words, split_words

    assert _split_outcome(split_words, text) == _split_outcome(shlex_words, text)


def test_a_line_is_split_without_shlex(monkeypatch):
    """Neither a plain line nor one with quotes and escapes goes through shlex (the tests' reference)."""
    import shlex

    from referee.engine import notation

    def refuse(*args, **kwargs):
        raise AssertionError("shlex used to split a line")

    monkeypatch.setattr(notation, "shlex_words", refuse)
    monkeypatch.setattr(shlex, "shlex", refuse)
    assert notation.split_words("deploy  K07\tcells=a1,b2\nnote=x\xa0y") == ["deploy", "K07", "cells=a1,b2", "note=x\xa0y"]
    assert notation.split_words('deploy note="a b" x=\\"q\\" say="a \\" \\\\ \\n" e=""') == [
        "deploy", "note=a b", 'x="q"', 'say=a " \\ \\n', "e="]
    with pytest.raises(InputError, match="unbalanced double quote"):
        notation.split_words('deploy note="a b')
    with pytest.raises(InputError, match="unbalanced double quote"):
        notation.split_words("deploy end\\")
    assert parse_intent(Intent, "deploy K07 amount=2").amount == 2
