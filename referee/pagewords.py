"""What a page shows of the API's JSON, said in the page's language: ``POST /pages/words``.

The API's JSON stays English whatever the reader's language (machines read it, and it is the same bytes
in every language). A page that shows a piece of it a person reads (the hall's results and the sides
asked to confirm one, a recorded refusal on a seat's page or the arbiter's desk, a move's description)
asks here for that piece in its own language (:mod:`referee.pagelang`: ``?lang=``, else
``Accept-Language``), said by the same code the CLI and the viewer say it with: a result by
:func:`referee.outcome.words`, a refusal through its game's templates and rulebook
(:func:`referee.i18n.refused`), a text through the catalog, a server's refusal (an error answer) through
the template its ``said`` names (:func:`error_said` adds it to the answer) when the catalog has it. Codes the page knows itself (a table's state,
why a table holds up the round) it words with its own ``gettext``; this is for what only the server can
say. Nothing stored is read and no token is needed: the answer says what the request holds. The route is
mounted with the seat page's (:mod:`referee.seatpage.routes`)."""

from __future__ import annotations

from typing import Any

from litestar import Request, post
from litestar.params import JSONBody

from schemas.pages import ErrorText, PageWordsAnswer, PageWordsRequest, RefusalWords

from .errorsaid import Unsaid as _Unsaid
from .errorsaid import checked
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
        errors = [error_words(e, lang) for e in asked.errors]
    return PageWordsAnswer(lang=lang, outcomes=outcomes, refusals=refusals, texts=texts, errors=errors)


# -- the server's refusals ---------------------------------------------------------------------------------


def error_words(error: ErrorText, lang: str) -> str:
    """An error answer's message in the reader's language (speaking ``lang``): its ``said`` through the
    catalog, when the catalog has the template (and each phrase's) and every field is a plain name filled
    by a plain value; else the message as given. The request's words are the caller's own: nothing is read."""
    if lang == "en" or error.said is None:
        return error.message
    try:
        return _said(error.said.template, error.said.values)
    except _Unsaid:
        return error.message


def _said(template: str, values: dict[str, Any]) -> str:
    """``template`` filled with ``values`` through the catalog (a phrase among the values too; a phrase the
    catalog does not translate as English says it)."""
    from . import i18n

    said = i18n.gettext(template)
    if said == template:
        raise _Unsaid(template)  # not a translated entry of the catalog
    filled = {}
    for key, value in values.items():
        if isinstance(value, dict):
            phrase, inner = value.get("template"), value.get("values", {})
            if set(value) - {"template", "values"} or not isinstance(phrase, str) or not isinstance(inner, dict):
                raise _Unsaid(template)
            try:
                filled[key] = _said(phrase, inner)
            except _Unsaid:
                filled[key] = _filled(phrase, phrase, inner)
        else:
            filled[key] = value
    return _filled(template, said, filled)


def _filled(template: str, text: str, values: dict[str, Any]) -> str:
    """``text`` (``template`` or its translation) with its fields filled, each a plain name that ``template``
    has too and ``values`` fills with a plain value (:func:`referee.errorsaid.checked`)."""
    checked(template, text, values)
    try:
        return text.format(**values)
    except (KeyError, ValueError, IndexError, TypeError) as exc:
        raise _Unsaid(template) from exc


@post("/pages/words", responses=ERRORS, sync_to_thread=True, tags=["pages"], status_code=200,
      summary="What a page shows of the API's JSON (results, recorded refusals, moves' descriptions) in the "
              "page's language (?lang=, else Accept-Language); the API's own JSON stays English")
def page_words(request: Request[Any, Any, Any], data: JSONBody[PageWordsRequest]) -> PageWordsAnswer:
    from .pagelang import of

    return said(data, of(request)[0])
