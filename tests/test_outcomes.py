"""Every kind of end reads the same in words wherever it is shown (issue 11): one winner, several
winners, a draw, a ranking with scores, a team's win and a team's loss (everyone lost, never a draw) —
in the CLI, the txt, Markdown, HTML and JSON exports, and over HTTP; and a scenario's [outcome] checks
each. The test game Pile's option ``ending`` picks the kind its last stone makes."""

from __future__ import annotations

import json

import pytest

from cli import render
from referee.export import export
from referee.scenario import run_file
from referee.service import Referee
from referee.store.memory import MemoryStore
from support.apps import app_client
from support.pile import PILE

PLAYERS = ["alice", "bob", "carol"]
KINDS = [
    ("last_stone", "win", "carol won (last stone)"),
    ("shared", "win", "carol and alice won (shared stone)"),
    ("draw", "draw", "draw (even pile)"),
    ("ranking", "ranking", "1st carol (3), 2nd alice and bob (1) — most stones"),
    ("team_win", "team_win", "the team won (pile cleared): alice, bob and carol"),
    ("team_loss", "team_loss", "everyone lost (pile toppled)"),
]


def _finished(r: Referee, ending: str) -> str:
    m = r.new_match("pile", PLAYERS, options={"stones": 3, "ending": ending})
    assert r.submit(m.id, "alice", "start first=carol tokens=K01,K02,K03").accepted
    assert r.submit(m.id, "carol", "take 3").accepted
    return m.id


@pytest.mark.parametrize("ending,kind,sentence", KINDS, ids=[k[0] for k in KINDS])
def test_each_kind_of_end_reads_alike_everywhere(ending, kind, sentence, capsys, db_store):
    store = db_store  # on each backend
    r = Referee(store, games=[PILE])
    with app_client(lambda: Referee(store, games=[PILE])) as c:
        made = c.post("/matches", json={"game": "pile", "players": PLAYERS, "options": {"stones": 3, "ending": ending}}).json()
        mid, spectator = made["match"]["id"], made["tokens"]["spectator"]
        assert r.submit(mid, "alice", "start first=carol tokens=K01,K02,K03").accepted
        assert r.submit(mid, "carol", "take 3").accepted
        answer = c.get(f"/matches/{mid}/state", headers={"Authorization": f"Bearer {spectator}"}).json()
    outcome = r.show(mid).outcome
    assert answer["outcome"]["winners"] == list(outcome.winners) and answer["outcome"]["reason"] == outcome.reason
    assert answer["outcome"].get("kind") == outcome.kind and answer["outcome"].get("ranking", []) == [list(p) for p in outcome.ranking]
    assert outcome is not None and outcome.how == kind
    capsys.readouterr()
    render.state(r.show(mid, seat="bob"))
    assert sentence in capsys.readouterr().out.replace("\n", " ")
    for fmt in ("txt", "md", "html"):
        text = export(r, mid, fmt, "spectator")
        assert sentence in text.replace("&#x27;", "'"), (fmt, text[:400])
        if kind == "team_loss":
            assert "draw" not in text.split("<script>")[0].lower(), fmt  # the page's code draws boards
    doc = json.loads(export(r, mid, "json", "bob"))
    assert doc["outcome"] == answer["outcome"]


def test_the_txt_result_header_round_trips_every_kind():
    from referee.transcript import import_transcript

    r = Referee(MemoryStore(), games=[PILE])
    for ending, _kind, sentence in KINDS:
        text = export(r, _finished(r, ending), "txt", "arbiter")
        again = import_transcript(r, text)
        assert not again.problems, (ending, again.problems)
        assert f"result: {sentence}" in text


@pytest.mark.parametrize("outcome_toml,passes", [
    ('winners = []\nreason = "pile_toppled"\nkind = "team_loss"', True),
    ('winners = []\nkind = "draw"', False),  # a team loss is not a draw
    ('kind = "ranking"\nranking = [["carol"], ["bob", "alice"]]\nscores = { carol = 3 }', True),
    ('ranking = [["carol", "bob"], ["alice"]]', False),
])
def test_a_scenario_outcome_checks_each_kind(tmp_path, outcome_toml, passes):
    ending = "team_loss" if "team_loss" in outcome_toml or "draw" in outcome_toml else "ranking"
    path = tmp_path / "end.toml"
    path.write_text(f'''game = "pile"
players = ["alice", "bob", "carol"]
[options]
stones = 3
ending = "{ending}"
[[steps]]
actor = "alice"
intent = "start first=carol tokens=K01,K02,K03"
[[steps]]
actor = "carol"
intent = "take 3"
[outcome]
{outcome_toml}
''', encoding="utf-8")
    result = run_file(str(path), games=[PILE])
    assert result.passed is passes, [f.what for f in result.failures]
