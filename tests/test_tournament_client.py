"""Client mode for tournaments and ratings (issue 14): ``referee --server URL --token T tournament ...``
and ``referee --server URL ratings`` go through the server (the one protocol,
``referee.tournament.api.TournamentApi``, answered locally by ``LocalTournaments`` and over HTTP by
``cli.tournament_client.RemoteTournaments``), and every read command's ``--json`` is the same locally
and through the server over one database; a player's and the spectators' tokens read what they may and
are refused the organiser's writes, with the server's code and a non-zero exit."""

from __future__ import annotations

import msgspec

from referee.ratings import answer
from referee.service import Referee
from support.apps import live_server
from support.pile import PILE


def test_tournament_commands_through_a_server_answer_as_they_do_locally(cli, db, db_store, monkeypatch):
    monkeypatch.setenv("REFEREE_DB", db)  # the local commands' database is the server's (on each backend)
    with live_server(lambda: Referee(db_store), admin_token="adm") as server:
        url = ("--server", server.url)
        made = cli(*url, "--token", "adm", "tournament", "new", "Club Cup", "--game", "by_all_means", "--rounds", "2", "--seed", "7",
                   "--players", "ann,ben,cy,dee", "--json")
        assert made.code == 0, made.err
        tid, tokens = made.json["tournament"], made.json["tokens"]
        org = (*url, "--token", tokens["organiser"])
        added = cli(*org, "tournament", "player", "add", tid[:6], "eve", "--name", "Eve", "--json")
        assert added.code == 0 and added.json["token"] and added.json["entered"] == 1, added.err
        bye = cli(*org, "tournament", "bye", tid, "ann", "--round", "1", "--reason", "by mistake")
        assert bye.code == 0, bye.err
        gone = cli(*org, "tournament", "bye", tid, "ann", "--round", "1", "--cancel", "--reason", "meant eve")
        assert gone.code == 0 and "ann: the half-point bye in round 1 is cancelled" in gone.out, gone.err
        again = cli(*org, "tournament", "bye", tid, "ann", "--round", "1", "--cancel")
        assert again.code == 2 and "no half-point bye for round 1" in again.err
        bye = cli(*org, "tournament", "bye", tid, "eve", "--round", "1", "--reason", "arrives after lunch")
        assert bye.code == 0 and "eve: a half-point bye in round 1 (1 points)" in bye.out, bye.err
        paired = cli(*org, "tournament", "pair", tid, "--json")
        assert paired.code == 0, paired.err
        tables = paired.json["tables"]
        assert len(tables) == 2 and paired.json["half_byes"] == ["eve"] and not paired.json["byes"]
        assert all(t["tokens"]["arbiter"] for t in tables)
        done = cli(*org, "tournament", "result", tid, "1", "1", f"win:{tables[0]['seats'][0]}")
        assert done.code == 0 and "recorded" in done.out, done.err
        void = cli(*org, "tournament", "withdraw", tid, "1", "2")
        assert void.code == 2 and "needs a reason" in void.err
        void = cli(*org, "tournament", "withdraw", tid, "1", "2", "--reason", "wrong table", "--json")
        assert void.code == 0 and void.json["done"].startswith("round 1 table 2: pairing withdrawn"), void.err
        fixed = cli(*org, "tournament", "result", tid, "1", "1", "draw", "--correct", "--reason", "misread")
        assert fixed.code == 0 and "rank" in fixed.out, fixed.err
        assert cli(*org, "tournament", "player", "drop", tid, "eve", "--reason", "left").code == 0
        assert cli(*org, "tournament", "tiebreaks", tid, "points,buchholz", "--reason", "announced").code == 0
        assert cli(*org, "tournament", "close", tid).code == 0

        # every read, locally and through the server (the organiser's token), prints the same JSON
        for words in (["show", tid], ["standings", tid], ["standings", tid, "--after-round", "1", "--explain", "ann"],
                      ["standings", tid, "--as-of", "10"], ["log", tid], ["audit", tid]):
            here, there = cli("tournament", *words, "--json"), cli(*org, "tournament", *words, "--json")
            assert here.code == there.code == 0, (words, here.err, there.err)
            assert here.json == there.json, words
        for fmt in ("md", "csv", "json"):
            assert cli("tournament", "export", tid, "--format", fmt).out == \
                cli(*org, "tournament", "export", tid, "--format", fmt).out
        text = cli(*org, "tournament", "show", tid)
        assert text.code == 0 and "table 2:" in text.out and "withdrawn" in text.out and "half-point bye: eve" in text.out

        # a player reads their own tables and the standings, and may not write
        ann = (*url, "--token", tokens["players"]["ann"])
        mine = cli(*ann, "tournament", "show", tid, "--json").json
        assert mine["you"] == {"role": "player", "player": "ann"} and mine["seed"] is None
        assert all("ann" in t["seats"] for r in mine["round"] for t in r["tables"])
        assert cli(*ann, "tournament", "standings", tid, "--json").json == cli("tournament", "standings", tid, "--json").json
        refused = cli(*ann, "tournament", "pair", tid)
        assert refused.code != 0 and "only the organiser may pair a round" in refused.err
        spectator = cli(*url, "--token", tokens["spectator"], "tournament", "log", tid, "--json")
        assert spectator.code == 2 and "only the organiser may read the tournament's records" in spectator.err
        # what needs a local database, or a token, says so
        listed = cli(*org, "tournament", "list")
        assert listed.code == 2 and "needs a local database" in listed.err
        untokened = cli(*url, "tournament", "show", tid)
        assert untokened.code == 2 and "needs a tournament token" in untokened.err


def test_ratings_over_http_are_the_local_numbers(cli, db_store):
    store = db_store  # on each backend
    ref = Referee(store, games=[PILE])
    for players in (["ann", "ben"], ["ann", "ben"], ["ben", "cy"], ["cy", "ann", "ben"]):
        m = ref.new_match("pile", players, options={"stones": "2"})
        ref.submit(m.id, players[0], f"start first={players[0]} tokens={','.join(f'K0{i + 1}' for i in range(len(players)))}")
        ref.submit(m.id, players[0], "take 2")
    ref.new_match("pile", ["dee", "eve"])  # unfinished: neither rated nor counted
    with live_server(lambda: Referee(store, games=[PILE]), admin_token="adm") as server:
        refused = cli("--server", server.url, "ratings", "--json")  # the server's admin token reads them
        assert refused.code != 0 and "admin token" in refused.err, (refused.out, refused.err)
        url = ("--server", server.url, "--token", "adm")
        got = cli(*url, "ratings", "--json")
        assert got.code == 0, got.err
        assert got.json == msgspec.to_builtins(answer(ref))
        assert got.json["rated"] == 4 and got.json["skipped"] == {}
        assert got.json["players"][0]["player"] == "ann"
        model = cli(*url, "ratings", "--model", "thurstone-mosteller-full", "--json").json
        assert model == msgspec.to_builtins(answer(ref, model="thurstone-mosteller-full")) and model != got.json
        shown = cli(*url, "ratings")
        assert shown.code == 0 and "4 matches rated (plackett-luce)\n" in shown.out
        bad = cli(*url, "ratings", "--model", "elo")
        assert bad.code == 2 and "--model must be one of" in bad.err
