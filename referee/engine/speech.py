"""Words a game says to people (its events' sentences), in the reader's language.

A game's ``words.py`` says each sentence through :func:`gettext` and :func:`ngettext` (the marks
``python -m referee.i18n extract`` finds), with named ``{fields}``. The engine knows no language: until
:mod:`referee.i18n` is imported (it installs its own functions here, :func:`speak_through`) every
sentence is the code's own English, filled in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _english(msgid: str, **values: Any) -> str:
    return msgid.format(**values) if values else msgid


def _english_plural(singular: str, plural: str, n: int, **values: Any) -> str:
    return (singular if n == 1 else plural).format(n=n, **values)


def _english_in(context: str, msgid: str, **values: Any) -> str:
    return _english(msgid, **values)


_say: Callable[..., str] = _english
_say_plural: Callable[..., str] = _english_plural
_say_in: Callable[..., str] = _english_in


def speak_through(say: Callable[..., str], say_plural: Callable[..., str],
                  say_in: Callable[..., str] | None = None) -> None:
    """Render the games' sentences with ``say`` (gettext), ``say_plural`` (ngettext) and ``say_in``
    (pgettext: a word whose English means another thing elsewhere) from now on."""
    global _say, _say_plural, _say_in
    _say, _say_plural = say, say_plural
    if say_in is not None:
        _say_in = say_in


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
