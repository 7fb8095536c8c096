"""What a page shows of the API's JSON, said in the page's language: ``POST /pages/words``.

The API's JSON stays English whatever the reader's language (machines read it, and it is the same bytes
in every language). A page that shows a piece of it a person reads (the hall's results and the sides
asked to confirm one, a recorded refusal on a seat's page or the arbiter's desk, a move's description)
asks here for that piece in its own language (:mod:`referee.pagelang`: ``?lang=``, else
``Accept-Language``), said by the same code the CLI and the viewer say it with: a result by
:func:`referee.outcome.words`, a refusal through its game's templates and rulebook
(:func:`referee.i18n.refused`), a text through the catalog. Codes the page knows itself (a table's state,
why a table holds up the round) it words with its own ``gettext``; this is for what only the server can
say. Nothing stored is read and no token is needed: the answer says what the request holds. The route is
mounted with the seat page's (:mod:`referee.seatpage.routes`)."""

from __future__ import annotations

from typing import Any

from litestar import Request, post
from litestar.params import JSONBody

from schemas.pages import PageWordsAnswer, PageWordsRequest, RefusalWords

from .web import ERRORS


def said(asked: PageWordsRequest, lang: str) -> PageWordsAnswer:
    """Each item of ``asked`` in ``lang``."""
    from . import i18n
    from .outcome import words

    with i18n.speaking(lang):
        outcomes = [words(o, i18n.gettext) for o in asked.outcomes]
        refusals = []
        for r in asked.refusals:
            message, rule = i18n.refused(r.game, r.code, r.message, r.rule, r.rule_english)
            refusals.append(RefusalWords(message=message, rule=rule))
        texts = [i18n.gettext(t) if t else t for t in asked.texts]
    return PageWordsAnswer(lang=lang, outcomes=outcomes, refusals=refusals, texts=texts)


@post("/pages/words", responses=ERRORS, sync_to_thread=True, tags=["pages"], status_code=200,
      summary="What a page shows of the API's JSON (results, recorded refusals, moves' descriptions) in the "
              "page's language (?lang=, else Accept-Language); the API's own JSON stays English")
def page_words(request: Request[Any, Any, Any], data: JSONBody[PageWordsRequest]) -> PageWordsAnswer:
    from .pagelang import of

    return said(data, of(request)[0])
