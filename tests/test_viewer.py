"""The HTML viewer's page, read without a browser: the problems list names every entry a reader must
check, the frames' patches rebuild the boards exactly, and a seat's page names only the cards its own
view shows (the browser suite, test_html_browser.py, drives the page itself)."""

from __future__ import annotations

import json
import os
import re
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT, examples
from referee.export import export
from referee.exportsource import source
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.transcript import import_transcript
from referee.viewer import Frames, patch
from support.pile import PILE
from test_export import TRANSCRIPT

FRAME = re.compile(r'<script type="application/json" (?:class="state"|id="initial")>(.*?)</script>')


def frames(page: str) -> list[dict[str, Any]]:
    initial = re.search(r'<script type="application/json" id="initial">(.*?)</script>', page)
    assert initial is not None
    steps = re.findall(r'<script type="application/json" class="state">(.*?)</script>', page)
    return [json.loads(initial.group(1))] + [json.loads(x) for x in steps]


def apply(old: Any, p: list[Any]) -> Any:
    """What the page's script does with a patch (viewer.js ``patch``)."""
    if p[0] == "=":
        return p[1]
    if p[0] == "~":
        out = list(old)
        for k, q in p[1].items():
            out[int(k)] = apply(old[int(k)], q)
        return out
    out = dict(old or {})
    for k, q in p[1].items():
        out[k] = apply((old or {}).get(k), q)
    for k in p[2]:
        del out[k]
    return out


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=2), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=examples(300), deadline=None)
@given(json_values, json_values)
def test_a_patch_rebuilds_the_new_value_from_the_old(old, new):
    if old == new:
        return
    p = patch(old, new)
    assert apply(old, json.loads(json.dumps(p))) == new


def test_the_problems_list_names_every_entry_to_check():
    r = Referee(MemoryStore(), games=[PILE])
    mid = import_transcript(r, TRANSCRIPT, "friday.txt").match_id
    page = export(r, mid, "html", "arbiter")
    nav = page[page.index('<nav id="problems"'):]
    listed = [int(x) for x in re.findall(r'<a href="#(\d+)" data-seq="\d+">', nav)]
    # 3: bob's rejected take 5 (and the ruling note); 4: the ruling that lets it stand; 5: bob out of
    # turn; 7: the undo; 8: the disputed move
    assert listed == [3, 4, 5, 7, 8]
    assert "Problems and disputes (5)" in nav and "pile/bad_count" in nav and "misheard the count" in nav
    assert 'class="tag disputed"' in nav and 'class="tag undo"' in nav and 'class="tag ruling"' in nav
    for seq in listed:  # each links to an entry of the page
        assert f'<li class="entry' in page and f' id="{seq}" data-index=' in page


def test_the_frames_rebuild_what_the_game_draws_at_every_entry():
    r = Referee(MemoryStore())
    path = os.path.join(ROOT, "replays", "war_of_shadows", "ember-coast.txt")
    with open(path, encoding="utf-8") as fh:
        mid = import_transcript(r, fh.read(), path, os.path.dirname(path)).match_id
    page = export(r, mid, "html", "anna")
    loaded = r.load(mid)
    doc = json.loads(export(r, mid, "json", "anna"))
    views = [doc["initial_state"]] + [step["state"] for step in doc["steps"]]
    boards: Any = []
    sections: Any = []
    for frame, view in zip(frames(page), views, strict=True):
        boards = apply(boards, frame["b"]) if "b" in frame else boards
        sections = apply(sections, frame["s"]) if "s" in frame else sections
        drawn = [b for b in json.loads(json.dumps(loaded.rules.boards(view), default=_builtins)) if b["layout"] != "tableau"]
        assert boards == drawn
        assert sections == json.loads(json.dumps(loaded.rules.sections(view), default=_builtins))
    assert len(page) < 400_000  # 133 entries: patches, not the whole table after each


def _builtins(value: Any) -> Any:
    import msgspec

    return msgspec.to_builtins(value)


def test_a_seats_page_names_only_the_cards_its_view_shows():
    r = Referee(MemoryStore())
    path = os.path.join(ROOT, "replays", "by_all_means", "club-night.txt")
    with open(path, encoding="utf-8") as fh:
        mid = import_transcript(r, fh.read(), path, os.path.dirname(path)).match_id
    page = export(r, mid, "html", "bob")
    named = {card: name for frame in frames(page) for card, name in frame.get("n", {}).items()}
    doc = json.dumps(json.loads(export(r, mid, "json", "bob"))["steps"]) + json.dumps(
        json.loads(export(r, mid, "json", "bob"))["initial_state"])
    assert named and all(f'"{card}"' in doc for card in named)  # every id named is one bob's view shows
    assert named["T09"] == "Orchard Terraces"
    loaded = r.load(mid)
    # the cards alice held that bob never saw: neither their ids nor their names are in his page
    _, final = r.state_at(loaded)
    hidden = loaded.rules.hidden_ids(final, "bob") - set(named)
    every = {cid: c.name for cid, c in loaded.rules.ctx.cards.cards.items()}
    shown_names = set(named.values())
    checked = 0
    for card in hidden:
        if card not in doc:  # an id bob's view never showed (not even as a copy of his own)
            assert not re.search(rf"(?<![A-Za-z0-9_]){card}(?![A-Za-z0-9_])", page), card
            checked += 1
        if every.get(card) and every[card] not in shown_names and every[card] not in TRANSCRIPT_NOTES:
            assert every[card] not in page, card
            checked += 1
    assert checked >= 3


#: names people wrote in the demo's own notes (shown as written: not the referee's to hide)
TRANSCRIPT_NOTES = ("Pilgrim Bridge",)


def test_a_frame_draws_the_view_once_and_words_it_as_a_second_drawing_would(monkeypatch):
    """Android words its view from its boards (the protocol's default ``sections``): the viewer draws each
    view once and hands that drawing to ``sections``, whose words are those of drawing the view again."""
    r = Referee(MemoryStore())
    path = os.path.join(ROOT, "replays", "android", "thursday-club.txt")
    with open(path, encoding="utf-8") as fh:
        mid = import_transcript(r, fh.read(), path, os.path.dirname(path)).match_id
    loaded = r.load(mid)
    src = source(r, mid, "mia")
    views = [src.view.state(loaded.initial)] + [step.state for step in src.steps()]
    rules = loaded.rules
    expected = [(json.loads(msgspec.json.encode([b for b in rules.boards(v) if b.layout != "tableau"])),
                 json.loads(msgspec.json.encode(rules.sections(v)))) for v in views]
    draw, drawn = rules.boards, []

    def counted(view: dict[str, Any]) -> Any:
        drawn.append(view)
        return draw(view)

    monkeypatch.setattr(rules, "boards", counted)
    frames = Frames(rules)
    boards: Any = None
    sections: Any = None
    for view, (want_boards, want_sections) in zip(views, expected, strict=True):
        frame = frames.frame(view)
        boards = apply(boards, json.loads(json.dumps(frame["b"]))) if "b" in frame else boards
        sections = apply(sections, json.loads(json.dumps(frame["s"]))) if "s" in frame else sections
        assert (boards, sections) == (want_boards, want_sections)
    assert len(drawn) == len(views) and all(a is b for a, b in zip(drawn, views))  # once a view


def test_a_field_worded_before_is_worded_again_as_it_was_and_values_that_read_apart_stay_apart():
    """The words of a view's field are kept by its ``repr`` (:func:`referee.engine.present.fact_list` reads
    a changed field only): ``1`` and ``True``, a list and a tuple still read apart, and a path given twice
    stands once, where it came first, as it came last (as the leaves of the whole view read)."""
    from referee.engine.present import fact_list

    def facts(view: dict[str, Any]) -> Any:
        board = fact_list(view)
        assert board is not None
        return board.areas[0].facts

    one = {"n": 1, "flag": True, "cards": ["K07"], "pair": ("a", "b"), "m": {"x": {}}}
    other = {"n": True, "flag": 1, "cards": ("K07",), "pair": ["a", "b"], "m": {"x": {}}}
    said = [("n", "1"), ("flag", "true"), ("cards", "K07"), ("pair", "('a', 'b')"), ("m x", "—")]
    assert facts(one) == facts(dict(one)) == tuple(said)
    assert facts(other) == (("n", "true"), ("flag", "1"), ("cards", "('K07',)"), ("pair", "a, b"), ("m x", "—"))
    assert facts(one) == tuple(said)
    assert facts({"a.b": 1, "c": 2, "a": {"b": 3}}) == (("a b", "3"), ("c", "2"))
