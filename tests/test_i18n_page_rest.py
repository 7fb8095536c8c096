"""What the pages still showed in English on a Russian page (issue 29), read in the page's language now; the
API's JSON stays English and the same bytes in both languages, and nothing a role may not see reaches it
through the routes that word it. The game template's result reason is in the catalog as the games' are."""

from __future__ import annotations

import re

from referee import i18n
from referee.outcome import words
from schemas import Outcome

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
