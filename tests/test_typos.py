"""Typos, through the CLI: a misspelt card, verb or seat is refused with the closest known names
("did you mean T09?"), an unknown verb lists its five closest verbs rather than all of them, ``--db``
may come before the command, and a line that could not be read is called ``unreadable`` everywhere a
person reads it (``log --only unreadable``; ``unparsed`` still accepted)."""

from __future__ import annotations

from conftest import dump  # noqa: F401 - cli is conftest's fixture

from referee.engine.suggest import closest, did_you_mean

HEADER = "game: by_all_means\nplayers: alice, bob\ncards: demo\ndeck: alice=demo_south, bob=demo_north\nchance: physical\n\n"


def _import(cli, tmp_path, body: str) -> tuple[str, list[dict]]:
    t = tmp_path / "t.txt"
    t.write_text(HEADER + "bob: record_lot winner=alice\n" + body)
    r = cli("import", str(t), "--json")
    assert r.code == 0, r.err
    return r.json["match_id"], r.json["problems"]


def test_the_helper_ranks_by_closeness_then_name_and_never_offers_control_characters():
    assert closest("K6O", ["K60", "K06", "TR6"]) == ["K06", "K60"]  # equally close: by name
    assert closest("k06", ["K07", "K06"]) == ["K06"]  # only the case differs: that one alone
    assert did_you_mean("Smokin Man", ["C01"], names={"Smoking Man": "C12"}) == " (did you mean C12?)"
    assert did_you_mean("alice", ["alic\x1b[2J"]) == ""
    assert did_you_mean("zzz", ["alice", "bob"]) == ""


def test_a_misspelt_card_in_a_transcript_line_suggests_the_card(cli, tmp_path):
    _, problems = _import(cli, tmp_path, "bob: draw_opening_hand cards=T04,T09,T16,T9O\n")
    assert problems[0]["code"] == "input/unknown_reference"
    assert "unknown card 'T9O' (did you mean T09?)" in problems[0]["message"]


def test_a_misspelt_verb_lists_the_five_closest_not_all(cli, tmp_path):
    _, problems = _import(cli, tmp_path, "bob: drwa_main\n")
    message = problems[0]["message"]
    assert problems[0]["code"] == "input/unknown_verb"
    assert "(did you mean draw_main?)" in message
    listed = message.split("verbs: ", 1)[1].split(", ")
    assert len(listed) == 5 and listed[0] == "draw_main"
    assert "choose_order" not in listed  # not the whole list


def test_a_misspelt_seat_suggests_the_seat(cli, tmp_path):
    mid, problems = _import(cli, tmp_path, "alcie: mulligan\n")
    assert problems[0]["code"] == "match/unknown_seat" and "(did you mean alice?)" in problems[0]["message"]
    r = cli("play", mid, "bbo", "mulligan")
    assert r.code != 0 and "'bbo' is not a seat of this match (did you mean bob?)" in r.err
    r = cli("log", mid, "--as", "alicee")
    assert r.code != 0 and "(did you mean alice?)" in r.err


def test_db_before_the_command(cli, tmp_path):
    db = tmp_path / "x.db"
    r = cli("--db", db, "new", "by_all_means", "--players", "alice,bob", "--cards", "spec")
    assert r.code == 0 and db.exists() and not (tmp_path / "r.db").exists()
    mid = r.last_line
    assert cli("--db", db, "play", mid, "alice", "draw_opening_hand", "cards=TR1,TR2,AG1,PL2").code == 0
    assert [e["verdict"] for e in cli("log", mid, "--db", db, "--json").json] == ["accepted"]
    assert cli("--db", db, "log", mid, "--db", db).code == 0  # the same one twice: fine
    before = dump(db)
    r = cli("--db", db, "play", mid, "alice", "end_turn", "--db", tmp_path / "y.db")
    assert r.code == 2 and "--db given twice" in r.err
    assert dump(db) == before and not (tmp_path / "y.db").exists()


def test_one_word_for_lines_that_could_not_be_read(cli, tmp_path):
    mid, problems = _import(cli, tmp_path, "alcie: mulligan\nbob: drwa_main\n")
    assert len(problems) == 2
    lines = cli("log", mid, "--only", "unreadable").out.splitlines()
    assert [ln.split()[:3] for ln in lines] == [["2", "alcie", "unreadable"], ["3", "bob", "unreadable"]]
    assert cli("log", mid, "--only", "unparsed").out.splitlines() == lines  # the old word still works
    assert "unparsed" not in cli("log", mid).out
    r = cli("log", mid, "--only", "unreadble")
    assert r.code == 2 and "unreadable" in r.err
    assert "unreadable" in cli("log", "--help").out
    replay = cli("replay", mid).out
    assert "alcie: alcie: mulligan (unreadable)" in replay and "unparsed" not in replay


def test_an_unknown_location_suggests_the_closest(tmp_path):
    """Android's move to a misspelt location: the refusal (still android/ref/unknown_location) names
    the location meant. The step expects acceptance so the scenario's failure quotes the refusal."""
    import os

    from conftest import ROOT
    from referee.scenario import run_file

    text = open(os.path.join(ROOT, "tests/scenarios/android/sc05_vehicle_ruler.toml"), encoding="utf-8").read()
    head = text[: text.index('intent = "move to=no_such_place"')]
    path = tmp_path / "typo.toml"
    path.write_text(head + 'intent = "move to=midwya"\nexpect = "accepted"\n', encoding="utf-8")
    failures = run_file(str(path)).failures
    assert len(failures) == 1
    assert "rejected:android/ref/unknown_location" in failures[0].what
    assert "no location 'midwya' (did you mean midway?)" in failures[0].what


def test_war_of_shadows_suggests_places_regions_and_cards():
    from test_war_of_shadows import at, new, play

    r, mid = new(position={"phase": "AGENT_PLACE"})
    res = play(r, mid, "raven", "place_agent to=bear.sherif", "war_of_shadows/unknown_reference")
    assert "(did you mean bear.sheriff, " in res.verdict.message  # the closest first
    r2, mid2 = new(position=at("bear", "sheriff", **{"council.bear.sheriff": "raven"}))
    res = play(r2, mid2, "raven", "attack position=bear.sheriff from=bear_l to=lion_1 count=1",
               "war_of_shadows/unknown_reference")
    assert "'bear_l' is not a region of board TM-1 (did you mean bear_1 or bear_2?)" in res.verdict.message
    res = play(r2, mid2, "raven", "play_card card=bear_cl ability=1 timing=before position=bear.sheriff effect=manual",
               "war_of_shadows/unknown_reference")
    assert "'bear_cl' is not a card id (did you mean bear_c1, bear_c2 or bear_c3?)" in res.verdict.message  # ties: by name


def test_copycat_suggests_the_id_of_a_card_or_office_typed_by_name():
    import os

    from conftest import ROOT
    from referee.games.copycat.data import parse_data, unknown_card, unknown_office

    path = os.path.join(ROOT, "referee/games/copycat/data/demo.toml")
    data = parse_data(open(path, encoding="utf-8").read(), path)
    assert unknown_card(data.cards, "Uncle's Golf Clb") == "unknown card id \"Uncle's Golf Clb\" (did you mean A09?)"
    assert unknown_card(data.cards, "a09") == "unknown card id 'a09' (did you mean A09?)"
    assert unknown_office(data.offices, "b_drw_1").startswith("unknown office id 'b_drw_1' (did you mean b_draw_1")


def test_xfiles_suggests_the_closest_card_and_seat():
    """X-Files' unknown cards and seats name the closest ids of the public card list (a card typed by its
    name gets its id) and of the seats; nothing close: no suggestion."""
    from types import SimpleNamespace

    from conftest import ROOT
    from referee.games.xfiles_encounters import model as m
    from referee.games.xfiles_encounters.data import parse_cards
    from referee.games.xfiles_encounters.rules import check_input

    cards = parse_cards(open(f"{ROOT}/referee/games/xfiles_encounters/data/demo.toml", encoding="utf-8").read())
    rules = SimpleNamespace(cards=cards, players=["dana", "fox"])
    assert check_input(rules, m.Draw(cards=["body_swp"])) == "unknown card 'body_swp' (cards) (did you mean body_swap?)"
    assert "(did you mean doggett?)" in check_input(rules, m.Draw(cards=["John Doggett"]))
    assert check_input(rules, m.Draw(cards=["zzzzzzzzzz"])) == "unknown card 'zzzzzzzzzz' (cards)"
    refused = check_input(rules, m.GiveAlly(seat="fxo"))
    assert refused == "unknown seat 'fxo' (did you mean fox?); seats are dana, fox"
