"""Wire contracts of the pages' words (``POST /pages/words``): what a page shows of the API's JSON, said
in the page's language. The API's JSON is English and stays so whatever the reader's language (machines
read it); a page that shows a result, a recorded refusal or a move's description from it asks for them in
words here, in its own language (``?lang=``, else ``Accept-Language``). Nothing stored is read: the
answer holds the same items, in the same order, said."""

from __future__ import annotations

from typing import Annotated

import msgspec

from . import NAME_MAX, ErrorSaid, Outcome

#: at most this many items of each kind in one request (a hall's tables, a desk's entries)
ITEMS_MAX = 200
WordsText = Annotated[str, msgspec.Meta(max_length=4000)]


class RefusalText(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A recorded refusal as the API gives it (:class:`schemas.Rejection`) and its match's game."""

    game: Annotated[str, msgspec.Meta(max_length=NAME_MAX)]
    code: Annotated[str, msgspec.Meta(max_length=200)]
    message: WordsText
    rule: WordsText = ""
    rule_english: WordsText = ""


class ErrorText(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An error answer's message as the API gave it (:class:`schemas.ErrorBody`), and what it was said
    through when it was (``said``)."""

    message: WordsText
    said: ErrorSaid | None = None


class PageWordsRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The pieces of the API's JSON a page shows: results (:class:`schemas.Outcome`), recorded refusals,
    texts of the catalog (a move's description) and the server's refusals (error answers)."""

    outcomes: Annotated[list[Outcome], msgspec.Meta(max_length=ITEMS_MAX)] = []
    refusals: Annotated[list[RefusalText], msgspec.Meta(max_length=ITEMS_MAX)] = []
    texts: Annotated[list[WordsText], msgspec.Meta(max_length=ITEMS_MAX)] = []
    #: the server's refusals a page shows (an error answer's ``message`` and ``said``)
    errors: Annotated[list[ErrorText], msgspec.Meta(max_length=ITEMS_MAX)] = []


class RefusalWords(msgspec.Struct, frozen=True, kw_only=True):
    """A refusal's message and its rule citation as the reader reads them."""

    message: str
    rule: str


class PageWordsAnswer(msgspec.Struct, frozen=True, kw_only=True):
    """Each item of the request in ``lang``, in its order: a result in words (``alice won (influence)``), a
    refusal through its game's templates and rulebook, a text through the catalog (as given when the
    catalog has no entry for it)."""

    lang: str
    outcomes: list[str]
    refusals: list[RefusalWords]
    texts: list[str]
    #: each error's message in ``lang`` (as given when it was not said through a template the catalog has)
    errors: list[str] = []


#: at most this many entries' words in one request (a desk's dispute with the entries before it)
ENTRIES_MAX = 50


class EntryWords(msgspec.Struct, frozen=True, kw_only=True):
    """What one entry did in words (its events as the caller may see them), in the page's language."""

    seq: int
    words: list[str]


class MatchWordsAnswer(msgspec.Struct, frozen=True, kw_only=True):
    """What a match's page shows of its JSON in the page's language (``GET /matches/{id}/words``), for the
    view of the token that asks (the same view its own reads get): the view's headline and its sections'
    titles after entry ``seq`` (the English title each has in the JSON, and its words), and the words of the
    entries asked for (``words`` of the write's answer, of the log and of the desk)."""

    lang: str
    seq: int
    headline: str
    #: each section's title as the JSON gives it -> as the page's language says it
    titles: dict[str, str]
    entries: list[EntryWords]
