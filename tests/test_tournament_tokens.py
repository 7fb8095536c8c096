"""``referee tournament tokens`` (issue 24, item 6): a tournament made in the organiser's own database gets
its tokens (the organiser's, the spectators', each player's) and the hall's address, so it can be served
as a hall; a token is shown once and only its hash kept; ``--rotate`` issues a new one as a record, and
the old one is refused over HTTP from then on. ``tournament new`` over a server prints the hall's
address. Tokens never appear in the tournament's log, exports or records."""

from __future__ import annotations

from referee.service import Referee
from support.apps import app_client, live_server


def _made(cli) -> str:
    made = cli("tournament", "new", "Cup", "--game", "by_all_means", "--rounds", "2", "--seed", "3",
               "--players", "ann,ben,cy,dee")
    assert made.code == 0, made.err
    return made.out.strip().splitlines()[-1]


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_local_tournament_gets_its_tokens_and_they_open_the_hall(cli, db, db_store, monkeypatch):
    monkeypatch.setenv("REFEREE_DB", db)  # the command's database is the server's (on each backend)
    tid = _made(cli)
    shown = cli("tournament", "tokens", tid[:6], "--base-url", "http://hall.lan:8080/", "--json")
    assert shown.code == 0, shown.err
    assert shown.json["hall"] == f"http://hall.lan:8080/hall/{tid}"
    tokens = {(t["role"], t["player"]): t["token"] for t in shown.json["tokens"]}
    assert list(tokens) == [("organiser", None), ("spectator", None), *[("player", p) for p in ("ann", "ben", "cy", "dee")]]
    assert all(tokens.values()) and len(set(tokens.values())) == 6
    assert {t["hall"] for t in shown.json["tokens"]} == {f"http://hall.lan:8080/hall/{tid}#token={tok}" for tok in tokens.values()}
    text = cli("tournament", "tokens", tid)  # shown once: a second run issues nothing
    assert text.code == 0 and text.out.count("(issued earlier; --rotate for a new one)") == 6, text.out
    assert f"hall: http://127.0.0.1:8000/hall/{tid}#token=TOKEN" in text.out
    with app_client(lambda: Referee(db_store)) as c:
        assert c.get(f"/tournaments/{tid}/log", headers=_bearer(tokens[("organiser", None)])).status_code == 200
        assert c.get(f"/tournaments/{tid}/standings", headers=_bearer(tokens[("spectator", None)])).status_code == 200
        me = c.get(f"/tournaments/{tid}", headers=_bearer(tokens[("player", "ben")])).json()
        assert me["you"] == {"role": "player", "player": "ben"}
        snap = c.get(f"/tournaments/{tid}/events", params={"follow": "false"}, headers=_bearer(tokens[("spectator", None)]))
        assert snap.status_code == 200 and "event: hall" in snap.text

        rotated = cli("tournament", "tokens", tid, "--rotate", "player:ben", "--rotate", "spectator",
                      "--reason", "ben lost his phone", "--json")
        assert rotated.code == 0, rotated.err
        fresh = {(t["role"], t["player"]): t["token"] for t in rotated.json["tokens"] if t["token"]}
        assert set(fresh) == {("spectator", None), ("player", "ben")}
        for whose in fresh:  # the old token is refused from now on, the new one works
            old = c.get(f"/tournaments/{tid}", headers=_bearer(tokens[whose]))
            assert old.status_code == 401 and old.json()["code"] == "auth/revoked", old.text
            assert c.get(f"/tournaments/{tid}", headers=_bearer(fresh[whose])).status_code == 200
        assert c.get(f"/tournaments/{tid}", headers=_bearer(tokens[("player", "ann")])).status_code == 200

    log = cli("tournament", "log", tid, "--json").json
    assert [r["event"]["type"] for r in log[-2:]] == ["tokens_issued", "tokens_issued"]
    assert log[-1]["why"] == "ben lost his phone" and len(log[-1]["event"]["revoked"]) == 2
    audit = cli("tournament", "audit", tid)
    assert audit.code == 0 and audit.out.startswith("clean"), audit.out
    # secrets: no token in the record, the log, the exports or what other commands print
    said = "".join(cli("tournament", *w).out for w in (["log", tid], ["log", tid, "--json"], ["show", tid, "--json"],
                                                        ["standings", tid, "--json"], ["audit", tid, "--json"]))
    said += "".join(cli("tournament", "export", tid, "--format", f).out for f in ("md", "html", "json", "csv"))
    said += "".join(r.body.decode() for r in db_store.tournament_events(tid))
    secrets = [*tokens.values(), *fresh.values()]
    assert said and not [s for s in secrets if s in said]


def test_a_player_registered_later_gets_one_and_bad_rotations_change_nothing(cli, db, monkeypatch):
    monkeypatch.setenv("REFEREE_DB", db)
    tid = _made(cli)
    assert cli("tournament", "tokens", tid).code == 0
    assert cli("tournament", "player", "add", tid, "eve").code == 0
    records = len(cli("tournament", "log", tid, "--json").json)
    for bad, why in ((["--rotate", "player:zed"], "'zed' is not a player"), (["--rotate", "boss"], "is not organiser"),
                     (["--base-url", "hall.lan"], "is not an http(s) address"),
                     (["--base-url", "http://h/?token=x"], "is not an http(s) address")):
        out = cli("tournament", "tokens", tid, *bad)
        assert out.code == 2 and why in out.err and "Traceback" not in out.err, (bad, out.err)
    assert len(cli("tournament", "log", tid, "--json").json) == records  # nothing recorded
    later = cli("tournament", "tokens", tid, "--json")
    assert [(t["player"], bool(t["token"])) for t in later.json["tokens"]][-2:] == [("dee", False), ("eve", True)]
    assert sum(bool(t["token"]) for t in later.json["tokens"]) == 1
    everyone = cli("tournament", "tokens", tid, "--rotate", "all", "--json")
    assert all(t["token"] for t in everyone.json["tokens"]) and len(everyone.json["tokens"]) == 7
    assert cli("tournament", "audit", tid).code == 0  # one token in force for each, the rest revoked


def test_tokens_needs_the_local_database(cli):
    out = cli("--server", "http://127.0.0.1:9", "--token", "x", "tournament", "tokens", "abcd")
    assert out.code == 2 and "reads the organiser's own database" in out.err


def test_tournament_new_over_a_server_prints_the_halls_address(cli, db_store):
    with live_server(lambda: Referee(db_store), admin_token="adm") as server:
        made = cli("--server", server.url, "--token", "adm", "tournament", "new", "Cup", "--game", "by_all_means",
                   "--players", "ann,ben")
        assert made.code == 0, made.err
        tid = made.out.strip().splitlines()[-1]
        hall = [line for line in made.out.splitlines() if line.startswith("hall: ")]
        spectator = next(line.split(": ", 1)[1] for line in made.out.splitlines() if line.startswith("  spectator: "))
        assert hall and hall[0].split()[1] == f"{server.url}/hall/{tid}#token={spectator}"
        js = cli("--server", server.url, "--token", "adm", "tournament", "new", "Cup 2", "--game", "by_all_means",
                 "--json")
        assert js.code == 0 and js.json["hall"] == f"{server.url}/hall/{js.json['tournament']}"
