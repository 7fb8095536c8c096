"""Free text in a transcript reads back as that text and nothing else (issue 10, item 2).

A seat's annotation once forged an arbiter's ruling and an undo in the txt export. Here every free
text a txt export writes — annotations of every kind, match comments, a move's trailing comment,
undo, redo and ruling reasons, the title and the other metadata — is filled with hostile text (line
breaks, markers, quotes, backslashes, white space at either end, words that would make a ruling act),
exported as the arbiter, imported again, and compared: the same entries and the same texts, no more.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.errors import BadInput
from referee.export import export
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.freetext import escape_text, unescape_text
from referee.transcript import import_transcript
from support.pile import PILE

FORGERY = "gg\nbob: end_turn\nruling: stands as played — forged\nundo: to=1 by=arbiter reason=x"
HOSTILE = [
    FORGERY, "stands as played", "entry 1 stands as played — yes", "rewind to 1 — misdealt", "# not a comment",
    "! good", "? bad", "disputed: no", "ruling: stands", "undo: to=0 by=arbiter", "redo: by=arbiter", "a: b",
    ' leading and trailing ', "back\\slash \\#", 'quote " and "two"', "line\u2028sep", "tab\tinside", "\\u0041",
    "alice: take 1", "title: forged", "—dash first", ":colon first", "", "   ",
]
# printable text (what the service accepts), built to hit the markers often
PRINTABLE = st.one_of(
    st.sampled_from([t for t in HOSTILE if t.isprintable() or "\t" in t and "\n" not in t]),
    st.lists(st.sampled_from(list("ab #!?:—-\\\"=,. ") + ["stands", "rewind", "ruling", "undo", "entry 1"]),
             max_size=12).map("".join),
    st.text(max_size=30).filter(lambda s: s.isprintable()),
)
# anything at all (what a database edited by hand may hold)
ANY = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=40))


def _clean(text: str) -> str:
    return "".join(ch for ch in text if not 0xD800 <= ord(ch) <= 0xDFFF)


@given(st.text(max_size=60).map(_clean))
def test_escaped_text_reads_back_exactly(text):
    assert unescape_text(escape_text(text)) == text
    assert unescape_text(escape_text(text, lead="!?-—:, ")) == text
    escaped = escape_text(text)
    assert "\n" not in escaped and "\r" not in escaped and len(escaped.splitlines()) <= 1
    assert "#" not in escaped.replace("\\#", "")


def build(texts: dict[str, str], notes: list[str]) -> tuple[Referee, str]:
    referee = Referee(MemoryStore(), games=[PILE], clock=lambda: "2026-11-25T00:00:00Z")
    info = referee.new_match("pile", ["alice", "bob"], title=texts["title"].strip() or "t",
                             meta={"event": texts["event"], "round": texts["round"]})
    mid = info.id
    referee.submit(mid, "alice", "start first=alice tokens=K01,K02", meta={"comment": texts["comment"]})
    referee.submit(mid, "alice", "take 5")  # rejected
    referee.rule_stands(mid, 2, reason=texts["ruling"])
    referee.submit(mid, "bob", "take 1")
    referee.undo(mid, by="arbiter", to=3, reason=texts["undo"])
    referee.redo(mid, by="arbiter", reason=texts["redo"])
    kinds = ("comment", "disputed", "ruling", "good", "mistake")
    for i, text in enumerate(notes):
        # past the checks of `annotate`: as a database edited by hand (or written before them) may hold
        referee.add_annotation(mid, 1 + i % 5, kinds[i % 5], text, "arbiter")
    referee.add_annotation(mid, 0, "comment", notes[0] if notes else "x", "transcript")
    return referee, mid


def shape(referee: Referee, mid: str) -> tuple:
    log = referee.log(mid)
    entries = [(e.seq, e.kind, e.actor, e.notation if e.kind != "ruling" else "", e.verdict,
                e.meta.get("reason") or None, e.meta.get("comment") or None) for e in log]
    notes = sorted((a.seq, a.kind, a.text) for e in log for a in e.annotations)
    m = referee.resolve(mid)
    match_notes = sorted(a.text for a in referee.store.annotations(mid) if a.seq == 0)
    return entries, notes, m.title, match_notes


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=st.fixed_dictionaries({k: PRINTABLE for k in ("title", "event", "round", "comment", "ruling", "undo", "redo")}),
       notes=st.lists(ANY.map(_clean).filter(bool), min_size=1, max_size=6))
def test_every_free_text_survives_a_round_trip_and_forges_nothing(texts, notes):
    texts = {k: (v.strip() if k in ("title", "event", "round") else v) for k, v in texts.items()}
    try:
        referee, mid = build(texts, notes)
    except BadInput:
        return  # text the service refuses on input (too long, control characters): nothing to export
    text = export(referee, mid, "txt", "arbiter")
    again = import_transcript(referee, text, "again.txt")
    first, second = shape(referee, mid), shape(referee, again.match_id)
    assert second[0] == first[0], text  # the same entries: no forged move, undo or ruling
    assert second[1] == first[1], text  # the same annotations, word for word
    assert second[3] == first[3], text
    assert second[2] == first[2]


def test_the_forged_annotation_of_the_issue_stays_one_annotation():
    referee, mid = build({"title": "t", "event": "e", "round": "1", "comment": "", "ruling": "", "undo": "", "redo": ""},
                         [FORGERY])
    before = referee.store.head(mid)
    text = export(referee, mid, "txt", "arbiter")
    assert "\nbob: end_turn" not in text and "\nruling: stands as played — forged" not in text
    again = import_transcript(referee, text, "again.txt")
    assert again.entries == before
    assert [a.text for a in referee.store.annotations(again.match_id) if a.kind == "comment" and a.seq == 1] == [FORGERY]


def test_a_seat_may_not_write_ruling_annotations_over_http(db_store):
    from support.apps import app_client

    store = db_store  # on each backend
    with app_client(lambda: Referee(store, games=[PILE])) as c:
        made = c.post("/matches", json={"game": "pile", "players": ["alice", "bob"]}).json()
        mid, tokens = made["match"]["id"], made["tokens"]
        c.post(f"/matches/{mid}/intents", json={"intent": "start first=alice tokens=K01,K02", "seat": "alice"},
               headers={"Authorization": f"Bearer {tokens['arbiter']}"})
        answer = c.post(f"/matches/{mid}/annotations", json={"seq": 1, "text": "stands as played", "kind": "ruling"},
                        headers={"Authorization": f"Bearer {tokens['seats']['alice']}"})
        assert answer.status_code == 403 and answer.json()["code"] == "auth/forbidden"
        answer = c.post(f"/matches/{mid}/annotations", json={"seq": 1, "text": "stands as played", "kind": "ruling"},
                        headers={"Authorization": f"Bearer {tokens['arbiter']}"})
        assert answer.status_code == 201


@pytest.mark.parametrize("text", ["stands as played — x", "entry 2 stands as played", "rewind to 1"])
def test_an_arbiters_ruling_annotation_that_reads_like_a_ruling_does_not_act_when_read_back(text):
    referee, mid = build({"title": "t", "event": "e", "round": "1", "comment": "", "ruling": "", "undo": "", "redo": ""},
                         [])
    referee.annotate(mid, 4, text, kind="ruling", by="arbiter")
    again = import_transcript(referee, export(referee, mid, "txt", "arbiter"), "again.txt")
    assert again.entries == referee.store.head(mid)
    assert ("ruling", text) in [(a.kind, a.text) for a in referee.store.annotations(again.match_id)]


def test_markdown_and_html_show_hostile_text_as_text():
    referee, mid = build({"title": "t", "event": "e", "round": "1", "comment": "", "ruling": "", "undo": "", "redo": ""},
                         ["x\n## Result\n**alice** won [link](http://evil) <script>alert(1)</script> `code` | cell",
                          "</script><!--<script>"])
    md = export(referee, mid, "md", "arbiter")
    assert [line for line in md.splitlines() if line.startswith("## Result")] == ["## Result"]
    assert "<script>" not in md and "[link](" not in md and "**alice**" not in md
    page = export(referee, mid, "html", "arbiter")
    # the page's own code, its words table, the state after setup, and one JSON script element (the state)
    # per entry
    assert page.count('<script type="application/json" id="initial">') == 1
    assert page.count("<script") == page.count("</script>") == 3 + page.count('<script type="application/json" class="state">')
    assert "</script><!--" not in page.replace('<script type="application/json" class="state">', "")
    assert "<!--" not in page


def test_card_data_with_a_line_break_in_a_name_is_refused(cli, tmp_path):
    import os

    from conftest import ROOT

    with open(os.path.join(ROOT, "referee", "games", "by_all_means", "data", "spec.toml"), encoding="utf-8") as fh:
        text = fh.read()
    first = text.index('name = "') + len('name = "')
    (tmp_path / "evil.toml").write_text(text[:first] + "Evil\\nbob: end_turn " + text[first:], encoding="utf-8")
    r = cli("new", "by_all_means", "--players", "alice,bob", "--cards", str(tmp_path / "evil.toml"))
    assert r.code == 2 and "LINE FEED (U+000A)" in r.err and "one line of printable characters" in r.err
