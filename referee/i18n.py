"""The reader's language: which one (``--lang``, then ``$REFEREE_LANG``, then the locale), and the words
in it, from gettext catalogs kept with Babel (``referee/locale/<lang>/LC_MESSAGES/referee.po``, compiled
to ``.mo`` beside it and shipped as package data).

English is the source language: its words are the code's own, so an English run never opens a catalog.
A catalog is read the first time a word is rendered in another language. What machines read never
changes with the language: codes, notation, JSON, the log (its recorded messages are hashed: a refusal
is read in another language at the presentation edge, :func:`refusal`).

``python -m referee.i18n extract|update|compile`` keeps the catalogs: extract the marked strings to
``referee/locale/referee.pot``, merge them into each language's ``.po``, compile the ``.mo`` files."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.errors import BadInput

if TYPE_CHECKING:
    from gettext import GNUTranslations

    from babel.messages.catalog import Catalog

    from referee.engine.messages import Messages
    from referee.engine.rulebook import Rulebook

#: the languages with a catalog (English is the code's own words)
LANGUAGES: tuple[str, ...] = ("en", "ru")
DOMAIN = "referee"
LOCALE_DIR = Path(__file__).parent / "locale"

_current = "en"
#: the language one HTTP request's page is written in (:func:`speaking`), over the process's :data:`_current`:
#: a server's threads each answer in their own request's language
_asked: ContextVar[str | None] = ContextVar("referee_page_language", default=None)
_catalogs: dict[str, GNUTranslations] = {}


def _known(value: str) -> str | None:
    """A language tag or locale name (``ru``, ``ru_RU.UTF-8``, ``en-GB``) as one of :data:`LANGUAGES`."""
    tag = value.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return tag if tag in LANGUAGES else None


def choose(explicit: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The reader's language: ``explicit`` (``--lang``), else ``$REFEREE_LANG``, else the first of
    ``$LC_ALL``, ``$LC_MESSAGES``, ``$LANG`` that is set; ``en`` when none is. A language asked for by
    name (``--lang``, ``$REFEREE_LANG``) that has no catalog is refused (:class:`BadInput`), said in the
    language the later sources name if the referee speaks it (``$REFEREE_LANG`` after a refused ``--lang``,
    then the locale: ``LANG=ru_RU.UTF-8`` reads the refusal in Russian), else in English: the refusal comes
    before any language is chosen, so it is chosen for it here (:func:`use`). A locale of another language
    (``de_DE.UTF-8``, ``C``) reads English, as the rest of the system may."""
    env = os.environ if environ is None else environ
    named = (("--lang", explicit), ("REFEREE_LANG", env.get("REFEREE_LANG")))
    for at, (source, value) in enumerate(named):
        if value:
            found = _known(value)
            if found is None:
                later = [_known(v) for _, v in named[at + 1:] if v]
                use(next((lang for lang in later if lang is not None), None) or _locale(env))
                raise BadInput.said("cli/unknown_language", N_("{source} {value} is not a language the referee speaks: "
                                                               "expected one of {languages}"),
                                    source=source, value=repr(value), languages=", ".join(LANGUAGES))
            return found
    return _locale(env)


def _locale(env: Mapping[str, str]) -> str:
    """The language of the first of ``$LC_ALL``, ``$LC_MESSAGES``, ``$LANG`` that is set, if the referee
    speaks it; else ``en``."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return _known(value) or "en"
    return "en"


def use(lang: str) -> None:
    """Render every word from now on in ``lang`` (one of :data:`LANGUAGES`)."""
    global _current
    if lang not in LANGUAGES:
        raise BadInput.said("cli/unknown_language", N_("{value} is not a language the referee speaks: expected one "
                                                       "of {languages}"), value=repr(lang), languages=", ".join(LANGUAGES))
    if lang != "en":
        _install()
    _current = lang


def current() -> str:
    asked = _asked.get()
    return _current if asked is None else asked


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Render every word in ``lang`` inside the block, in this context only (one request of a server that
    answers others at the same time in other languages); the process's language is left as it is."""
    if lang != "en":
        _install()
    token = _asked.set(lang)
    try:
        yield
    finally:
        _asked.reset(token)


def speaking_each(lang: str, pieces: Iterator[str]) -> Iterator[str]:
    """``pieces`` (a page written lazily, a piece at a time, as a streamed answer is) each made in ``lang``,
    whichever thread and context asks for the next one."""
    while True:
        with speaking(lang):
            try:
                piece = next(pieces)
            except StopIteration:
                return
        yield piece


def _catalog(lang: str) -> GNUTranslations | None:
    if lang not in _catalogs:
        from gettext import GNUTranslations

        path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
        try:
            with path.open("rb") as fh:
                _catalogs[lang] = GNUTranslations(fh)
        except OSError:
            return None  # not shipped: the code's own (English) words
    return _catalogs[lang]


def gettext(msgid: str, **values: Any) -> str:
    """``msgid`` in the reader's language, its ``{fields}`` filled from ``values``."""
    text = msgid
    lang = current()
    if lang != "en":
        cat = _catalog(lang)
        if cat is not None:
            text = cat.gettext(msgid)
    return text.format(**values) if values else text


def ngettext(singular: str, plural: str, n: int, **values: Any) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the reader's language (its CLDR plural rule, from
    the catalog's header), ``{n}`` and the ``values`` filled in."""
    text = singular if n == 1 else plural
    lang = current()
    if lang != "en":
        cat = _catalog(lang)
        if cat is not None:
            text = cat.ngettext(singular, plural, n)
    return text.format(n=n, **values)


_cleaned: dict[str, dict[str, str]] = {}


def cleaned(text: str) -> str:
    """``text`` as a help shows it (typer cleans a help's indentation, :func:`inspect.cleandoc`), in the
    reader's language: the entry whose cleaned msgid is ``text``, cleaned; ``text`` itself in English
    or when no entry is."""
    if _current == "en" or not text:
        return text
    if _current not in _cleaned:
        from inspect import cleandoc

        cat = _catalog(_current)
        found = cat._catalog if cat is not None else {}  # type: ignore[attr-defined]  # gettext's own table
        _cleaned[_current] = {cleandoc(k): cleandoc(v) for k, v in found.items() if isinstance(k, str) and k}
    return _cleaned[_current].get(text, text)

def pgettext(context: str, msgid: str, **values: Any) -> str:
    """``msgid`` in the reader's language where the same English word means another thing elsewhere
    (a match's result "draw", a card's "draw"): the catalog keeps one entry per ``context``."""
    text = msgid
    lang = current()
    if lang != "en":
        cat = _catalog(lang)
        if cat is not None:
            text = cat.pgettext(context, msgid)
    return text.format(**values) if values else text


def N_(msgid: str) -> str:
    """Marks ``msgid`` for the catalog where it is declared; translated where it is shown (with :func:`gettext`)."""
    return msgid


def refusal(messages: Messages, code: str, message: str) -> str:
    """A recorded refusal's message in the reader's language: the game's template of ``code`` that the
    recorded (English) message matches, translated, with the values it names; as recorded when the
    reader reads English or no template matches."""
    if current() == "en":
        return message
    from referee.engine.messages import FRAMEWORK, STILL_ILLEGAL, quoted

    inner = quoted(code, message)
    if inner is not None:  # a ruling that fails even so quotes the game's refusal: read through the game's templates
        waived, inner_code, reason = inner
        return gettext(STILL_ILLEGAL, waived=waived, code=inner_code, reason=refusal(messages, inner_code, reason))
    found = messages.render(code, message, gettext)
    return FRAMEWORK.render(code, message, gettext) if found == message else found


def citation(rulebook: Rulebook, rule: str) -> str:
    """A rule citation as a sentence in the reader's language cites it (the rulebook's own Russian
    headings in Russian, the English ones in English)."""
    if not rule:
        return rule
    return rulebook.russian(rule) if current() == "ru" else rulebook.english(rule)


def refused(game: str, code: str, message: str, rule: str, rule_english: str = "") -> tuple[str, str]:
    """A recorded rejection's message and rule citation as the reader reads them: as recorded (the citation
    with its English headings) in English; otherwise through ``game``'s templates and rulebook
    (:func:`refusal`, :func:`citation`)."""
    if current() == "en" or not game:
        return message, rule_english or rule
    from referee.games import find

    found = find(game)
    if found is None:
        return message, rule_english or rule
    return refusal(found.messages, code, message), citation(found.rulebook, rule)


class Quoted(str):
    """A recorded refusal quoted inside another message (a ruling that cannot stand says why): the string is
    the English as recorded, so the English message is as ever; :attr:`template` reads it in the reader's
    language through the game's templates (:func:`refused`) when the message it is in is read
    (``referee.errors.RefereeError.text``)."""

    game: str
    code: str

    def __new__(cls, game: str, code: str, message: str) -> Quoted:
        quoted = super().__new__(cls, message)
        quoted.game, quoted.code = game, code
        return quoted

    @property
    def template(self) -> tuple[str, dict[str, Any]]:
        return "{refusal}", {"refusal": refused(self.game, self.code, str(self), "")[0]}


# -- keeping the catalogs ---------------------------------------------------------------------------


def _root() -> Path:
    return Path(__file__).resolve().parent.parent


def _extracted_dir(path: str) -> bool:
    """Whether Babel reads a folder's files: not a hidden or private one (``__pycache__``), but the game
    template's (``games/_template``), whose words a copied game keeps."""
    name = Path(path).name
    return name == "_template" or not name.startswith((".", "_"))


def extracted() -> Catalog:
    """Every marked string of the package (``gettext``, ``ngettext``, ``N_``), with where it is marked."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    catalog = Catalog(project="referee", charset="utf-8")
    keywords = {"gettext": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
    # the pages' scripts call gettext/ngettext too (:mod:`referee.pagelang` gives them their words)
    methods = [("**.py", "python"), ("**.js", "javascript")]
    for sub in ("referee", "cli"):
        for filename, lineno, message, comments, context in extract_from_dir(
                str(_root() / sub), method_map=methods, keywords=keywords, comment_tags=("i18n:",),
                directory_filter=_extracted_dir):
            catalog.add(message, locations=[(f"{sub}/{filename}", lineno)], auto_comments=comments, context=context)
    for doc, where in intent_descriptions():
        catalog.add(doc, locations=[where], auto_comments=["an intent's description (its docstring)"])
    return catalog


def intent_descriptions() -> list[tuple[str, tuple[str, int]]]:
    """Each game's intent descriptions, with where each is declared: an intent's description is its Struct's
    docstring (the notation reads it, :func:`referee.engine.notation.describe`), which no keyword marks, so
    the catalog takes them from the games themselves; shown through :func:`gettext` where they are shown."""
    from referee.engine import notation
    from referee.games import all_games

    lines: dict[str, list[str]] = {}  # each module's lines, read once
    out = []
    for game in all_games():
        for verb in notation.describe(game.intent_type).values():
            if verb.doc:
                module = sys.modules[verb.cls.__module__]
                path = Path(module.__file__ or "").resolve().relative_to(_root()).as_posix()
                if path not in lines:
                    lines[path] = (_root() / path).read_text(encoding="utf-8").splitlines()
                start = f"class {verb.cls.__name__}("
                line = next((n for n, text in enumerate(lines[path], 1) if text.startswith(start)), 0)
                out.append((verb.doc, (path, line)))
    return out


def extract() -> Path:
    """The marked strings (:func:`extracted`) into ``referee/locale/referee.pot``."""
    from babel.messages.pofile import write_po

    catalog = extracted()
    pot = LOCALE_DIR / f"{DOMAIN}.pot"
    with pot.open("wb") as fh:
        write_po(fh, catalog, width=100, omit_header=False, sort_output=True)
    return pot


def update() -> None:
    """Merge the template into each language's ``.po`` (new entries untranslated, gone ones dropped)."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    pot = extract()
    with pot.open("rb") as fh:
        template = read_po(fh)
    for lang in LANGUAGES[1:]:
        po = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
        po.parent.mkdir(parents=True, exist_ok=True)
        if po.exists():
            with po.open("rb") as fh:
                catalog = read_po(fh, locale=lang)
        else:
            catalog = Catalog(locale=lang, project="referee", charset="utf-8")
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        with po.open("wb") as fh:
            write_po(fh, catalog, width=100, sort_output=True, ignore_obsolete=True)


def compile_all() -> None:
    """Each language's ``.po`` compiled to the ``.mo`` the referee reads."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for lang in LANGUAGES[1:]:
        po = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
        with po.open("rb") as fh:
            catalog = read_po(fh, locale=lang)
        with po.with_suffix(".mo").open("wb") as fh:
            write_mo(fh, catalog)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    steps = {"extract": extract, "update": update, "compile": compile_all}
    if len(args) != 1 or args[0] not in steps:
        sys.stderr.write(gettext(N_("usage: python -m referee.i18n extract|update|compile")) + "\n")
        return 2
    steps[args[0]]()
    return 0



def _install() -> None:
    """The games' sentences (:mod:`referee.engine.speech`) said in the reader's language from now on: done
    the first time another language than English is chosen (:func:`use`, :func:`speaking`), since the
    games' sentences are the code's own English until then and an English run need not import them."""
    from referee.engine import speech

    speech.speak_through(gettext, ngettext, pgettext, current)



if __name__ == "__main__":
    sys.exit(main())
