"""What a match's page shows of the match's JSON in the page's language: ``GET /matches/{id}/words``.

The match's JSON stays English (machines read it; the same bytes whatever the reader's language). A page
of the match (a seat's, the arbiter's desk) shows people parts of it that only the server can say: the
view's headline and its sections' titles, and the sentences an entry's events make (``words`` in a
write's answer, the log and the desk). It asks here, with the token its own reads use, for them in its
language (:mod:`referee.pagelang`). Everything is said from what that token's view already shows, by the
same code as the JSON (:class:`referee.redaction.View`, :meth:`referee.service.Referee.show`), so nothing
reaches a role that its own reads would not: a hidden card is ``?`` in either language. The route is
mounted with the seat page's (:mod:`referee.seatpage.routes`)."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from schemas import ARBITER
from schemas.pages import ENTRIES_MAX, EntryWords, MatchWordsAnswer

from .errors import BadInput
from .i18n import N_

if TYPE_CHECKING:
    from .access import Access
    from .auth import Principal


class WordsCode(StrEnum):
    """The route's own refusal (a range of entries it will not word at once)."""

    RANGE = "words/range"


def match_words(access: Access, p: Principal, lang: str, *, at: int | None = None, start: int = 1,
                stop: int = 0) -> MatchWordsAnswer:
    """``p``'s view of the match after entry ``at`` (default: the head) in ``lang``: its headline, its
    sections' titles, and the words of entries ``start..stop`` (none when ``stop`` < ``start``)."""
    from .i18n import speaking
    from .redaction import View

    if stop >= start and (start < 1 or stop - start + 1 > ENTRIES_MAX):
        raise BadInput.said(WordsCode.RANGE, N_("the words of at most {most} entries a request, from entry 1 on: "
                                                "not {start} to {stop}"), most=ENTRIES_MAX, start=start, stop=stop)
    referee = access.referee
    loaded = referee.load(p.match_id)
    role = None if p.view == ARBITER else p.view
    with speaking("en"):
        english = referee.show(loaded.match.id, at=at, seat=role)
    with speaking(lang):
        said = referee.show(loaded.match.id, at=at, seat=role)
        view = View(loaded, role)
        entries = [EntryWords(seq=entry.seq, words=view.words(view.entry(entry, body)[1]))
                   for entry, body in (referee.bodies(loaded, start, stop) if stop >= start else ())]
    # the titles in the order both views list them (none if the head moved between the two readings)
    titles = {e.title: s.title for e, s in zip(english.sections, said.sections) if e.title} \
        if english.seq == said.seq else {}
    return MatchWordsAnswer(lang=lang, seq=said.seq, headline=said.headline, titles=titles, entries=entries)
