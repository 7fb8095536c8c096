"""A served page's language, chosen per request, and the words its script shows in it.

The language of a page (the hall, the arbiter's console, a table's live view, a seat's page, the viewer the
server writes) is ``?lang=`` when the address names one (the page's language switch sets it), else the
best of the request's ``Accept-Language`` that the referee speaks (q-values weigh; a tie keeps the header's
order), else English. It is kept as a link, not a cookie: the address says the language (a hall's screen
bookmarked in Russian stays Russian, a link sent to a player opens as it was sent), nothing is stored on the
server or in the browser, and the pages' own links carry ``?lang=`` on when the reader chose it (the token
stays in the fragment, which the switch keeps).

A page's HTML is written inside :func:`referee.i18n.speaking` (its words from the catalog, in this request's
context only). Its script's words are the ``gettext("…")`` and ``ngettext("…", "…", n)`` calls in the script
(extracted to the same catalog as the Python's, :func:`referee.i18n.extracted`): the server embeds them as
a small JSON table for the chosen language (:func:`prelude`), with the language's plural rule from the
catalog's header, and the script looks each word up there (its own English when the table has none).
What machines read (the API's JSON, codes, notation) stays English whatever the page's language.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from . import i18n
from .engine.codes import InputCode
from .errors import BadInput

#: each language's name in itself, as the switch shows it
NAMES = {"en": "English", "ru": "Русский"}

_CALL = re.compile(r'\b(n?gettext)\(\s*"((?:[^"\\]|\\.)*)"(?:\s*,\s*"((?:[^"\\]|\\.)*)")?')
_FORMS = re.compile(r"plural\s*=\s*([^;]+)")
_SAFE = re.compile(r"[n0-9\s%=!<>&|?:()]+")


def choose(asked: str | None, accept: str | None) -> str:
    """The page's language: ``asked`` (``?lang=``: a language the referee does not speak is refused), else
    the ``Accept-Language`` header's best that it speaks, else ``en``."""
    if asked is not None:
        if asked not in i18n.LANGUAGES:
            raise BadInput.said(InputCode.BAD_ARGUMENT,
                                i18n.N_("lang={asked} is not a language the pages speak: expected one of {known}"),
                                asked=repr(asked), known=", ".join(i18n.LANGUAGES))
        return asked
    return accepted(accept or "")


def accepted(header: str) -> str:
    """The language of ``Accept-Language`` (``ru-RU,ru;q=0.9,en;q=0.8``) the referee speaks that the header
    weighs most (the first of equals), ``en`` when it names none; a malformed part is passed over."""
    best, weight = "en", 0.0
    for part in header.split(","):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        lang = tag.strip().replace("_", "-").split("-")[0].lower()
        if lang in i18n.LANGUAGES and 0 < q <= 1 and q > weight:
            best, weight = lang, q
    return best


def of(request: Any) -> tuple[str, bool]:
    """(the language of an HTTP ``request``'s page (Litestar's), whether the address chose it with ``?lang=``)."""
    asked = request.query_params.get("lang")
    return choose(asked, request.headers.get("accept-language")), asked is not None


def _unescape(literal: str) -> str:
    return str(json.loads(f'"{literal}"'))


@cache
def script_words(script: str) -> tuple[tuple[str, ...], ...]:
    """The words a script asks for: ``(msgid,)`` for each ``gettext("…")``, ``(singular, plural)`` for each
    ``ngettext("…", "…", n)``, in the order they first appear."""
    found: dict[tuple[str, ...], None] = {}
    for fn, first, second in _CALL.findall(script):
        key = (_unescape(first), _unescape(second)) if fn == "ngettext" else (_unescape(first),)
        found.setdefault(key)
    return tuple(found)


@cache
def _plural_rule(lang: str) -> str:
    """The language's plural rule as the catalog's header gives it (a C expression of ``n``, which is also
    JavaScript): which of the forms a count takes."""
    if lang == "en":
        return "n != 1"
    cat = i18n._catalog(lang)
    header = cat.info().get("plural-forms", "") if cat is not None else ""
    found = _FORMS.search(header)
    rule = found.group(1).strip() if found else "n != 1"
    if not _SAFE.fullmatch(rule):  # only arithmetic of n: nothing else is written into a page's script
        raise ValueError(f"the {lang} catalog's plural rule is not an expression of n: {rule!r}")
    return rule


def table(lang: str, script: str) -> dict[str, str | list[str]]:
    """The script's words in ``lang``: each msgid to its translation, each plural's singular to its forms
    (none in English: the script's own words are English)."""
    if lang == "en":
        return {}
    cat = i18n._catalog(lang)
    out: dict[str, str | list[str]] = {}
    if cat is None:
        return out
    for key in script_words(script):
        if len(key) == 1:
            out[key[0]] = cat.gettext(key[0])
        else:
            forms: list[str] = []
            n = 0
            while n < 200 and len(forms) < 6:  # one count of each form the rule gives
                if cat.plural(n) == len(forms):  # type: ignore[attr-defined]  # set from the catalog's header
                    forms.append(cat.ngettext(key[0], key[1], n))
                n += 1
            out[key[0]] = forms
    return out


def prelude(lang: str, script: str, kept: bool) -> str:
    """The JavaScript that gives ``script`` its words in ``lang``: ``gettext(msgid, values)`` and
    ``ngettext(singular, plural, n, values)`` (``{name}`` filled from ``values``, ``{n}`` from ``n``),
    ``LANG`` and ``LANGQ`` (``?lang=xx`` when the reader chose the language with the switch, for the page's
    own links to carry on; empty when the browser's header chose it)."""
    words = json.dumps(table(lang, script), ensure_ascii=False, sort_keys=True)
    words = words.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    rule = _plural_rule(lang)
    return ("const LANG = " + json.dumps(lang) + ", LANGQ = " + json.dumps(f"?lang={lang}" if kept else "")
            + ", WORDS = " + words + ";\n"
            "function fill_(text, values) { return values ? text.replace(/\\{(\\w+)\\}/g, (m, k) => k in values ? "
            "String(values[k]) : m) : text; }\n"
            "function gettext(msgid, values) { const w = WORDS[msgid]; return fill_(typeof w === \"string\" ? w : "
            "msgid, values); }\n"
            "function ngettext(one, many, n, values) { const w = WORDS[one]; const i = Number(" + rule + "); "
            "const text = Array.isArray(w) && w[i] !== undefined ? w[i] : (n === 1 ? one : many); "
            "return fill_(text, Object.assign({n: n}, values || {})); }\n")


def switch(lang: str) -> str:
    """The language switch: a link to this page in each other language (its fragment, the token, kept by
    :data:`KEEP_FRAGMENT`), the current one named, not linked."""
    items = []
    for code in i18n.LANGUAGES:
        name = NAMES[code]
        items.append(f'<b lang="{code}" aria-current="true">{name}</b>' if code == lang else
                     f'<a href="?lang={code}" hreflang="{code}" lang="{code}">{name}</a>')
    label = i18n.gettext("language")
    return f'<nav class="langs" id="langs" aria-label="{label}">' + " · ".join(items) + "</nav>"


#: the script line that keeps the address's fragment (the token) on the switch's links
KEEP_FRAGMENT = ('for (const a of document.querySelectorAll("#langs a")) a.href = a.getAttribute("href") + '
                 "location.hash;\n")


@cache
def words_script() -> str:
    """The script by which a page asks the server for what it shows of the API's JSON in its own language
    (``pagewords.js``: ``outcomeWords``, ``refusalWords``, ``textWords``; :mod:`referee.pagewords`)."""
    from importlib.resources import files

    return files("referee").joinpath("pagewords.js").read_text(encoding="utf-8")


def words(*msgids: str) -> dict[str, str]:
    """Each of a page's words (marked with ``N_`` where the page lists them) in the reader's language, by its
    English: what an f-string of the page's HTML reads (a call inside an f-string is not extracted)."""
    return {m: i18n.gettext(m) for m in msgids}
