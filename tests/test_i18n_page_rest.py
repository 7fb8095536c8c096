"""What the pages still showed in English on a Russian page (issue 29), read in the page's language now; the
API's JSON stays English and the same bytes in both languages, and nothing a role may not see reaches it
through the routes that word it. The game template's result reason is in the catalog as the games' are."""

from __future__ import annotations

import re

import msgspec
import pytest

from referee import i18n
from referee.outcome import words
from schemas import ErrorSaid, Outcome

_CYRILLIC = re.compile("[а-яё]", re.I)


def test_the_game_templates_result_reads_russian_and_english_as_before():
    outcome = Outcome(winners=("alice",), reason="last_stone")
    assert words(outcome) == "alice won (last stone)"
    with i18n.speaking("en"):
        assert words(outcome, i18n.gettext) == "alice won (last stone)"
    with i18n.speaking("ru"):
        russian = words(outcome, i18n.gettext)
    assert "последний камень" in russian and "last" not in russian
    # the template's words are extracted like every game's (Babel skips folders named with "_" by default)
    assert "last stone" in {m.id for m in i18n.extracted()}


# -- a match's words in the page's language: GET /matches/{id}/words --------------------------------------

from referee.service import Referee  # noqa: E402
from referee.store.memory import MemoryStore  # noqa: E402
from support.apps import app_client  # noqa: E402
from support.browser import browser, needs_chromium, wait_until  # noqa: E402, F401  (browser: the shared Chromium)
from support.pageleaks import leaks  # noqa: E402


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def drawn():
    """A digital War of Shadows match played by its seats' first choices until a seat draws a card the
    other may not see: (client, referee, match id, tokens, the drawing seat, the other, the entry, its
    answer to the drawing seat)."""
    store = MemoryStore()
    with app_client(lambda: Referee(store)) as client:
        made = client.post("/matches", json={"game": "war_of_shadows", "players": ["alice", "bob"],
                                             "chance": "digital", "seed": 7}).json()
        mid, seats = made["match"]["id"], made["tokens"]["seats"]
        tokens = {**seats, "arbiter": made["tokens"]["arbiter"], "spectator": made["tokens"]["spectator"]}
        for _ in range(60):
            for seat, token in seats.items():
                page = client.get(f"/matches/{mid}/seat", headers=_auth(token)).json()
                if not page["moves"]:
                    continue
                answer = client.post(f"/matches/{mid}/intents", headers=_auth(token), json={
                    "intent": page["moves"][0]["choices"][0]["intent"], "expected_seq": page["seq"]}).json()
                other = next(s for s in seats if s != seat)
                theirs = client.get(f"/matches/{mid}/words?from={answer['seq']}&to={answer['seq']}&lang=en",
                                    headers=_auth(tokens[other])).json()
                if answer["words"] and theirs["entries"][0]["words"] != answer["words"]:
                    yield client, Referee(store), mid, tokens, seat, other, answer["seq"], answer
                    return
                break
        raise AssertionError("no draw hidden from the other seat in 60 moves")


def _words(client, mid: str, token: str, query: str, lang: str) -> tuple[str, dict]:
    got = client.get(f"/matches/{mid}/words?{query}&lang={lang}", headers=_auth(token))
    assert got.status_code == 200, got.text
    return got.text, got.json()


def test_an_accepted_moves_words_read_russian_for_the_token_that_wrote_it_and_english_as_the_json(drawn):
    client, _referee, mid, tokens, seat, _other, seq, answer = drawn
    _, en = _words(client, mid, tokens[seat], f"from={seq}&to={seq}", "en")
    assert en["entries"] == [{"seq": seq, "words": answer["words"]}]  # English: the write's own words
    _, ru = _words(client, mid, tokens[seat], f"from={seq}&to={seq}", "ru")
    [said] = ru["entries"]
    assert said["seq"] == seq and len(said["words"]) == len(answer["words"])
    assert all(_CYRILLIC.search(w) for w in said["words"]), said
    # the desk's view (the arbiter's token) is worded the same way
    _, desk = _words(client, mid, tokens["arbiter"], f"from={seq}&to={seq}", "ru")
    assert desk["entries"][0]["words"] == said["words"]


def test_the_words_route_names_nothing_hidden_from_the_role_asking_in_either_language(drawn):
    client, referee, mid, tokens, seat, other, seq, answer = drawn
    _, theirs = _words(client, mid, tokens[other], f"from={seq}&to={seq}", "en")
    ids = set(" ".join(answer["words"]).split()) - set(" ".join(theirs["entries"][0]["words"]).split())
    assert ids  # the card drawn is named to its drawer
    rules = referee.load(mid).rules
    hidden = set(ids)
    for lang in ("en", "ru"):  # each card's printed name, in both languages
        with i18n.speaking(lang):
            hidden |= {n for n in (rules.name_of(x) for x in ids) if n and len(n) > 3}
    for role in (other, "spectator"):
        for lang in ("en", "ru"):
            text, got = _words(client, mid, tokens[role], f"from=1&to={seq}", lang)
            assert not any(h in text for h in hidden), (role, lang, text)
            if role == other:
                assert not leaks(referee, mid, other, text), leaks(referee, mid, other, text)
            assert "?" in " ".join(got["entries"][-1]["words"])  # what is hidden reads as ? in both languages
    for lang in ("en", "ru"):  # and only the view's own headline and titles: the same search over the view
        text, _ = _words(client, mid, tokens[other], "", lang)
        assert not leaks(referee, mid, other, text)


def test_the_views_headline_and_titles_are_said_as_the_referee_says_them_in_the_pages_language(drawn):
    client, referee, mid, tokens, seat, _other, _seq, _answer = drawn
    page = client.get(f"/matches/{mid}/seat", headers=_auth(tokens[seat])).json()
    _, en = _words(client, mid, tokens[seat], f"at={page['seq']}", "en")
    assert en["headline"] == page["view"]["headline"]
    assert en["titles"] == {s["title"]: s["title"] for s in page["view"]["sections"]}
    _, ru = _words(client, mid, tokens[seat], f"at={page['seq']}", "ru")
    with i18n.speaking("ru"):
        view = referee.show(mid, at=page["seq"], seat=seat)
    assert ru["headline"] == view.headline and ru["seq"] == page["seq"]
    assert ru["titles"] == {e["title"]: s.title for e, s in zip(page["view"]["sections"], view.sections)}
    with i18n.speaking("ru"):
        for english, said in ru["titles"].items():  # a title the catalog has reads as the catalog says it
            assert said == english or said == i18n.gettext(english) or _CYRILLIC.search(said)


def test_the_seat_and_write_json_is_the_same_bytes_whatever_the_pages_language(drawn):
    client, _referee, mid, tokens, seat, _other, _seq, _answer = drawn
    for path in ("seat", "state", "log"):
        en = client.get(f"/matches/{mid}/{path}?lang=en", headers={**_auth(tokens[seat]), "Accept-Language": "en"})
        ru = client.get(f"/matches/{mid}/{path}?lang=ru", headers={**_auth(tokens[seat]), "Accept-Language": "ru"})
        assert en.status_code == 200 and en.content == ru.content, path


def test_the_words_route_asks_the_pages_own_token_and_a_bounded_range(drawn):
    client, _referee, mid, tokens, *_ = drawn
    assert client.get(f"/matches/{mid}/words?lang=ru").status_code == 401
    too_many = client.get(f"/matches/{mid}/words?lang=ru&from=1&to=51", headers=_auth(tokens["arbiter"]))
    assert too_many.status_code == 422 and too_many.json()["code"] == "words/range"


# -- a server's refusal shown on a page: the error answer's `said`, worded by POST /pages/words -------------


def _refusal(client, mid: str, token: str, lang: str):
    return client.post(f"/matches/{mid}/intents?lang={lang}", headers={**_auth(token), "Accept-Language": lang},
                       json={"intent": "pass", "expected_seq": 0, "seat": "nobody"})


def test_a_servers_refusal_keeps_its_keys_and_bytes_and_gains_what_it_was_said_through(drawn):
    client, _referee, mid, tokens, seat, *_ = drawn
    en, ru = _refusal(client, mid, tokens[seat], "en"), _refusal(client, mid, tokens[seat], "ru")
    assert en.status_code == 403 and en.content == ru.content  # the same bytes whatever the page's language
    body = en.json()
    assert set(body) == {"code", "message", "detail", "said"}
    assert body["message"] == f"{seat}'s token cannot act for nobody"  # the English message, as before
    assert body["said"] == {"template": "{own}'s token cannot act for {seat}", "values": {"own": seat, "seat": "nobody"}}
    # an error not said through the catalog has no "said" at all
    r = client.get("/no/such/route")
    assert r.status_code == 404 and set(r.json()) == {"code", "message", "detail"}


def test_a_servers_refusal_reads_russian_on_a_russian_page_and_as_given_in_english(drawn):
    client, _referee, mid, tokens, seat, *_ = drawn
    body = _refusal(client, mid, tokens[seat], "ru").json()
    item = {"message": body["message"], "said": body["said"]}
    assert client.post("/pages/words?lang=en", json={"errors": [item]}).json()["errors"] == [body["message"]]
    [said] = client.post("/pages/words?lang=ru", json={"errors": [item]}).json()["errors"]
    assert said == f"токен {seat} не может действовать за nobody"
    # a phrase inside a message (a said value) is worded too: an unknown verb's closest verbs
    r = client.post(f"/matches/{mid}/intents", headers=_auth(tokens[seat]), json={"intent": "frob x=1", "expected_seq": 0})
    body = r.json()
    assert r.status_code == 422 and isinstance(body["said"]["values"]["listed"], dict)
    [said] = client.post("/pages/words?lang=ru", json={"errors": [{"message": body["message"], "said": body["said"]}]}).json()["errors"]
    assert said.startswith("неизвестный глагол 'frob'; ") and "verbs" not in said and _CYRILLIC.search(said.split(";")[1])


@pytest.mark.parametrize("said", [
    {"template": "no such entry of the catalog {x}", "values": {"x": "1"}},  # not the catalog's: as given
    {"template": "{own.__class__}'s token cannot act for {seat}", "values": {"own": "a", "seat": "b"}},
    {"template": "{own}'s token cannot act for {seat}", "values": {"own": "a"}},  # a field without its value
    {"template": "{own}'s token cannot act for {seat}", "values": {"own": {"x": 1}, "seat": "b"}},
])
def test_a_refusal_the_catalog_cannot_say_is_shown_as_the_server_gave_it(drawn, said):
    client = drawn[0]
    got = client.post("/pages/words?lang=ru", json={"errors": [{"message": "as given", "said": said}]})
    assert got.status_code == 200 and got.json()["errors"] == ["as given"]


def test_the_pages_word_the_servers_refusals_through_the_error_answers_said():
    from importlib.resources import files

    for page in ("seatpage/seat.js", "tournament/arbiter.js", "tournament/hall.js", "tournament/follow.js"):
        script = files("referee").joinpath(page).read_text(encoding="utf-8")
        assert "errorSaid(" in script, page
        for english in ("(answer && answer.message)", "(r.data && r.data.message)", "(await res.json()).message"):
            assert english not in script, (page, english)  # no refusal shown as the JSON words it


def test_an_error_whose_message_is_not_what_its_template_says_carries_no_said():
    from referee.errors import BadInput
    from referee.web import error_said

    err = BadInput.said("x/y", "{card} is not yours", card="K07")
    assert error_said(err) == ErrorSaid(template="{card} is not yours", values={"card": "K07"})
    err.message = "? is not yours"  # a message changed after it was said: its values may say more than it does
    assert error_said(err) is msgspec.UNSET


def test_no_page_shows_the_pairings_blocks_why_in_english():
    """``/pairings``' ``blocks[].why`` is English words for scripts and the CLI; the hall shows why a table
    holds up the round from each table's ``why_code`` (tests/test_i18n_page_words.py), and no page reads
    ``blocks``."""
    from importlib.resources import files

    for page in ("tournament/hall.js", "tournament/arbiter.js", "tournament/table.js", "tournament/follow.js",
                 "seatpage/seat.js", "playerpage.js", "viewer/viewer.js", "pagewords.js"):
        assert ".blocks" not in files("referee").joinpath(page).read_text(encoding="utf-8"), page


@needs_chromium
@pytest.mark.slow
def test_a_seats_page_says_a_moves_words_and_a_servers_refusal_in_russian_in_chromium(browser):  # noqa: F811
    """A seat's page under ?lang=ru: an accepted move's sentences as GET /matches/M/words says them (not the
    write's English words), a page opened with a token that has no seat page says the server's refusal in
    Russian; in English both as the JSON says them."""
    from support.live import LiveServer

    store = MemoryStore()
    with app_client(lambda: Referee(store)) as client, LiveServer(client.app) as server:
        def made() -> tuple[str, dict[str, str]]:
            m = client.post("/matches", json={"game": "war_of_shadows", "players": ["alice", "bob"],
                                              "chance": "digital", "seed": 7}).json()
            return m["match"]["id"], {**m["tokens"]["seats"], "spectator": m["tokens"]["spectator"]}

        for lang in ("ru", "en"):
            twin, twins = made()  # the same seed: a move tried on the twin first, played on the page when it has words
            mid, tokens = made()
            for _ in range(30):
                seat, choice = next((s, g["choices"][0]["intent"]) for s in ("alice", "bob")
                                    for g in client.get(f"/matches/{twin}/seat", headers=_auth(twins[s])).json()["moves"]
                                    if len(g["choices"]) <= 6)
                head = client.get(f"/matches/{twin}/seat", headers=_auth(twins[seat])).json()["seq"]
                tried = client.post(f"/matches/{twin}/intents", headers=_auth(twins[seat]),
                                    json={"intent": choice, "expected_seq": head}).json()
                if tried["verdict"] == "accepted" and tried["words"]:
                    break
                assert client.post(f"/matches/{mid}/intents", headers=_auth(tokens[seat]),
                                   json={"intent": choice, "expected_seq": head}).status_code == 201
            assert tried["verdict"] == "accepted" and tried["words"], tried
            browser.get("about:blank")
            browser.get(f"{server.url}/play/{mid}?lang={lang}#token={tokens[seat]}")
            wait_until(browser, "return Number(document.body.dataset.loads || 0) > 0")
            browser.execute_script("document.querySelector(arguments[0]).click();",
                                   f'#moves button.choice[data-intent="{choice}"]')
            text = wait_until(browser, "return document.body.dataset.verdict === 'accepted' && "
                                       "document.getElementById('verdict').textContent;")
            said = client.get(f"/matches/{mid}/words?lang=ru&from={tried['seq']}&to={tried['seq']}",
                              headers=_auth(tokens[seat])).json()["entries"][0]["words"]
            for english, russian in zip(tried["words"], said):
                assert (russian in text, english in text) == ((True, False) if lang == "ru" else (False, True)), text
            browser.get("about:blank")
            browser.get(f"{server.url}/play/{mid}?lang={lang}#token={tokens['spectator']}")
            who = wait_until(browser, "const t = document.getElementById('who').textContent; "
                                      "return t.includes(':') && t.length > 40 && t;")
            assert ("токеном этого места" in who) == (lang == "ru") and ("seat's token" in who) == (lang == "en"), who


def test_the_desks_token_reads_a_tables_words_in_russian_as_the_tables_arbiter():
    """The arbiter's desk asks GET /matches/M/words with the organiser's token (the server takes it as the
    table's arbiter): the words of an entry in Russian, as the desk's own JSON (the arbiter's view) gives them
    in English."""
    from referee.tournament.access import Entrant, TournamentAccess
    from referee.tournament.arbiter import desk
    from schemas.tournament import CreateTournament, PairRequest

    store = MemoryStore()
    access = TournamentAccess(Referee(store))
    made = access.create(CreateTournament(name="Cup", game="war_of_shadows", rounds=1, seed=5, players=["ann", "ben"]))
    org = Entrant(tournament=made.tournament, role="organiser")
    [table] = access.pair(org, PairRequest(tokens=False)).tables
    ref = access.service.referee
    for _ in range(30):  # the table's first legal moves until one is said in words
        legal = ref.legal(table.match_id).legal
        seat = next(s for s in table.seats if legal.get(s))
        done = ref.submit(table.match_id, seat, legal[seat][0])
        if done.accepted and ref.log(table.match_id, start=done.seq, stop=done.seq)[0].events:
            break
    ref.annotate(table.match_id, done.seq, "is that right?", kind="disputed", by=seat)
    [matter] = desk(access, org)["matters"]
    english = matter["disputed"]["words"]
    assert english
    with app_client(lambda: Referee(store)) as client:
        got = client.get(f"/matches/{table.match_id}/words?lang=ru&from={done.seq}&to={done.seq}",
                         headers=_auth(made.tokens.organiser))
        assert got.status_code == 200, got.text
        [said] = got.json()["entries"]
        assert len(said["words"]) == len(english) and all(_CYRILLIC.search(w) for w in said["words"]), said
        en = client.get(f"/matches/{table.match_id}/words?lang=en&from={done.seq}&to={done.seq}",
                        headers=_auth(made.tokens.organiser)).json()
        assert en["entries"][0]["words"] == english
