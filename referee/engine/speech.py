"""Words a game says to people (its events' sentences), in the reader's language.

A game's ``words.py`` says each sentence through :func:`gettext` and :func:`ngettext` (the marks
``python -m referee.i18n extract`` finds), with named ``{fields}``. The engine knows no language: until
:mod:`referee.i18n` is imported (it installs its own functions here, :func:`speak_through`) every
sentence is the code's own English, filled in.

A card's, a place's or an office's printed name is said through :func:`name`: the game's data gives each
its English ``name`` (what notation, JSON and every machine read) and may give its Russian ``name_ru``
(the Russian rulebook's, or ours where the data is our own invention); a Russian reader reads the Russian
one where there is one."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


def _english(msgid: str, **values: Any) -> str:
    return msgid.format(**values) if values else msgid


def _english_plural(singular: str, plural: str, n: int, **values: Any) -> str:
    return (singular if n == 1 else plural).format(n=n, **values)


def _english_in(context: str, msgid: str, **values: Any) -> str:
    return _english(msgid, **values)


def _english_reader() -> str:
    return "en"


_say: Callable[..., str] = _english
_say_plural: Callable[..., str] = _english_plural
_say_in: Callable[..., str] = _english_in
_reader: Callable[[], str] = _english_reader


def speak_through(say: Callable[..., str], say_plural: Callable[..., str],
                  say_in: Callable[..., str] | None = None, reader: Callable[[], str] | None = None) -> None:
    """Render the games' sentences with ``say`` (gettext), ``say_plural`` (ngettext) and ``say_in``
    (pgettext: a word whose English means another thing elsewhere) from now on; ``reader`` gives the
    reader's language (``en``, ``ru``) for the printed names (:func:`name`)."""
    global _say, _say_plural, _say_in, _reader
    _say, _say_plural = say, say_plural
    if say_in is not None:
        _say_in = say_in
    if reader is not None:
        _reader = reader


class Named(Protocol):
    """Anything of a game's data with a printed name: its English ``name`` and its Russian ``name_ru``
    (empty where the data gives none)."""

    @property
    def name(self) -> str: ...

    @property
    def name_ru(self) -> str: ...


def name(thing: Named) -> str:
    """``thing``'s printed name in the reader's language: its ``name_ru`` to a Russian reader where the
    data gives one, else its (English) ``name``."""
    if thing.name_ru and _reader() == "ru":
        return thing.name_ru
    return thing.name


def per_reader(build: Callable[[], T]) -> Callable[[], T]:
    """``build`` (a function saying a table of words, e.g. a game's labels) made once per reader's language:
    a board drawn at every step of a match asks the catalog once, not at every step. What it returns is
    shared: read it, do not change it."""
    made: dict[str, T] = {}

    def said() -> T:
        lang = _reader()
        found = made.get(lang)
        if found is None:
            found = made[lang] = build()
        return found

    said.__doc__ = build.__doc__
    return said


def worded_or(otherwise: Callable[[str], str]) -> Callable[[Callable[[], Mapping[str, str]]], Callable[[str], str]]:
    """A decorator: a function saying a table of words (a stored value -> the reader's words for it) made
    into the function that says one value, the table made once per language (:func:`per_reader`), and
    ``otherwise(value)`` for a value the table does not name."""

    def make(build: Callable[[], Mapping[str, str]]) -> Callable[[str], str]:
        table = per_reader(build)

        def say(key: str) -> str:
            return table().get(key) or otherwise(key)

        say.__doc__ = build.__doc__
        return say

    return make


def worded(build: Callable[[], Mapping[str, str]]) -> Callable[[str], str]:
    """:func:`worded_or` that says a value the table does not name as it is."""
    return worded_or(str)(build)


def gettext(msgid: str, **values: Any) -> str:
    """``msgid`` in the reader's language, its ``{fields}`` filled from ``values``."""
    return _say(msgid, **values)


def ngettext(singular: str, plural: str, n: int, **values: Any) -> str:
    """The form of ``singular``/``plural`` for ``n`` (the language's CLDR plural rule), ``{n}`` and the
    ``values`` filled in."""
    return _say_plural(singular, plural, n, **values)


def pgettext(context: str, msgid: str, **values: Any) -> str:
    """``msgid`` as ``context`` means it (the catalog keeps one entry per context), ``values`` filled in."""
    return _say_in(context, msgid, **values)


def N_(msgid: str) -> str:
    """Marks a sentence for the catalog where it is declared; said with :func:`gettext` where it is used."""
    return msgid


class Said(str):
    """A phrase said through a catalog template (marked :func:`N_`) and filled: the string is its English,
    so it goes into an English message as any string does, and :attr:`template` keeps the template and
    the values for a reader of another language (an error's message built of phrases, read whole in that
    language: ``referee.errors.RefereeError.text`` reads a value that is a ``Said`` through its template)."""

    template: tuple[str, dict[str, Any]]

    def __new__(cls, template: str, /, **values: Any) -> Said:
        said = super().__new__(cls, template.format(**values))
        said.template = (template, values)
        return said


def again(text: str, template: tuple[str, dict[str, Any]] | None) -> str:
    """``text``, an error's message, as a phrase of the ``template`` the error kept (said through the
    catalog), to read in the reader's language inside another sentence; ``text`` itself when it kept none."""
    return text if template is None else Said(template[0], **template[1])
