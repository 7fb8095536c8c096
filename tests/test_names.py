"""Names wherever a person reads (issue 25 item 1): for a long match of each game (its bundled replay),
the viewer's page, ``referee show`` and ``replay``'s sentences give every card, location, office and
region by its printed name — no word a person reads is an id the game's ``name_of`` names. The id
stays in the notation and, in the viewer, on hover (a ``title``). Copycat's street is in slot order.

The viewer's drawing is made by its script; :func:`drawn_texts` reads the page's frames as the script
draws them (its ``worded``: each word that is a named id shown as the name), the browser suite
(test_html_browser.py) drives the script itself."""

from __future__ import annotations

import html
import os
import re
from typing import Any

import pytest

from conftest import ROOT
from referee.engine.present import WORD, named
from referee.export import export
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.transcript import import_transcript
from test_viewer import apply, frames

REPLAYS = {
    "android": "android/thursday-club.txt",
    "by_all_means": "by_all_means/club-night.txt",
    "copycat": "copycat/thursday-club.txt",
    "war_of_shadows": "war_of_shadows/ember-coast.txt",
    "xfiles_encounters": "xfiles_encounters/two-agents.txt",
}


@pytest.fixture(scope="module")
def matches() -> tuple[Referee, dict[str, str]]:
    r = Referee(MemoryStore())
    out = {}
    for game, rel in REPLAYS.items():
        path = os.path.join(ROOT, "replays", rel)
        with open(path, encoding="utf-8") as fh:
            out[game] = import_transcript(r, fh.read(), path, os.path.dirname(path)).match_id
    return r, out


def named_ids(rules: Any, texts: list[str]) -> set[str]:
    """The words of ``texts`` that are ids the game gives a printed name (each distinct word asked once: a
    long match's page repeats the same few hundred words in hundreds of thousands of places)."""
    words = {w for t in set(texts) for w in WORD.findall(t)}
    return {w for w in words if (n := rules.name_of(w)) and n != w}


def drawn_texts(page: str) -> list[str]:
    """What the viewer's script writes on the page for a reader at every entry (not the "details" it
    opens on request): the boards' and sections' ids, labels, rows, columns, lines, facts, pieces and
    the headline, each with the named ids as their names (``worded`` in viewer.js)."""
    names: dict[str, str] = {}
    boards: Any = []
    sections: Any = []
    out: list[str] = []
    worded: dict[str, str] = {}  # each text as ``named`` words it with the names known so far
    for frame in frames(page):
        if frame.get("n"):
            names.update(frame["n"])
            worded.clear()
        boards = apply(boards, frame["b"]) if "b" in frame else boards
        sections = apply(sections, frame["s"]) if "s" in frame else sections
        texts = [frame.get("h", "")]
        for b in [*boards, *sections]:
            for a in b.get("areas", []):
                texts += [a.get(k, "") for k in ("label", "row", "col")] + list(a.get("lines", []))
                texts += [x for fact in a.get("facts", []) for x in fact]
                texts.append(a["id"] if b["layout"] != "tableau" else "")  # a tableau's areas are the seats
                for p in a.get("pieces", []):
                    texts += [p.get("card", ""), *p.get("notes", [])]
        for t in texts:
            if t:
                if t not in worded:
                    worded[t] = named(t, names)
                out.append(worded[t])
    return out


def read_text(page: str) -> str:
    """The page's own text a reader sees, but the notation (the moves as typed), the verdicts' refusal
    messages (the referee's words, as recorded) and what people wrote (notes, comments)."""
    text = re.sub(r"<(script|style).*?</\1>", " ", page, flags=re.S)
    text = re.sub(r'<span class="move">.*?</span>', " ", text, flags=re.S)
    text = re.sub(r'<(div|span) class="(why|what|note[^"]*)">.*?</\1>', " ", text, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


@pytest.mark.parametrize("game", sorted(REPLAYS))
@pytest.mark.parametrize("role", ["arbiter", "seat"])
def test_the_viewer_shows_names_not_ids(matches, game, role):
    r, mids = matches
    mid = mids[game]
    loaded = r.load(mid)
    seat = None if role == "arbiter" else loaded.config.players[0]
    page = export(r, mid, "html", seat)
    drawn = drawn_texts(page)
    rules = loaded.rules
    assert not named_ids(rules, drawn), sorted(named_ids(rules, drawn))[:20]
    assert not named_ids(rules, [read_text(page)]), sorted(named_ids(rules, [read_text(page)]))[:20]
    # and there are names to show: the page carries them for its script, the ids kept for the hover
    names = {k: v for f in frames(page) for k, v in f.get("n", {}).items()}
    assert len(names) >= 5 and all(rules.name_of(k) == v for k, v in names.items())
    assert any(name in " ".join(drawn) for name in names.values())


@pytest.mark.parametrize("game", sorted(REPLAYS))
def test_show_and_replay_give_names(matches, cli, game):
    r, mids = matches
    path = os.path.join(ROOT, "replays", REPLAYS[game])
    mid = cli("import", path).last_line.split()[0]
    loaded = r.load(mids[game])
    head = len(r.log(mids[game]))
    for at in (head // 2, head):
        got = cli("show", mid, "--at", at)
        assert got.code == 0, got.err
        found = named_ids(loaded.rules, [got.out])
        assert not found, (at, sorted(found)[:20])
    words = [w for step in r.replay(mids[game]) for w in step.words]
    assert words and not named_ids(loaded.rules, words), sorted(named_ids(loaded.rules, words))[:20]


def test_names_go_through_the_role_s_view(matches):
    """A seat's page names only ids its view shows: the name of a card in another seat's hand is not in
    it (the leak tests search every answer for hidden ids and their names)."""
    r, mids = matches
    mid = mids["by_all_means"]
    loaded = r.load(mid)
    _, final = r.state_at(loaded)
    bob = loaded.config.players[1]
    page = export(r, mid, "html", bob)
    names = {k for f in frames(page) for k in f.get("n", {})}
    hidden = loaded.rules.hidden_ids(final, bob)
    assert names and hidden and not names & hidden


def test_copycats_street_is_in_slot_order(matches):
    r, mids = matches
    answer = r.show(mids["copycat"])
    street = next(b for b in answer.boards if b.title == "Street")
    assert [a.id for a in street.areas] == [f"slot {n}" for n in range(1, 12)]
    assert all(answer.names.get(a.lines[0]) for a in street.areas if a.lines)  # each card by its name


def test_a_war_of_shadows_region_is_named_where_its_board_data_names_it(matches):
    """A region's optional ``name`` in the board data is what people read (the bundled boards give none:
    their regions are read by id)."""
    import msgspec

    r, mids = matches
    loaded = r.load(mids["war_of_shadows"])
    text = loaded.config.cards_text.replace('id = "frostmere"', 'id = "frostmere"\nname = "Frostmere Heights"', 1)
    assert text != loaded.config.cards_text
    rules = type(loaded.rules)(msgspec.structs.replace(loaded.config, cards_text=text))
    assert rules.name_of("frostmere") == "Frostmere Heights" and loaded.rules.name_of("frostmere") is None
    view = loaded.rules.view(r.state_at(loaded)[1], None)
    shown = {a.id: a for b in rules.boards(view) for a in b.areas}
    assert "frostmere" in shown  # the board keeps the id; the front ends draw the name (name_of)
