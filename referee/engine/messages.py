"""A game's refusal messages as templates, so a recorded message can be read in another language.

A refusal's message is recorded in English and hashed with its entry: it never changes. Each game
declares, per rejection code, the English templates its messages are built from (``{card} on {cell} is
turned``), and the phrases they embed (``{seat}'s main archive``). A reader of another language gets
the recorded message matched against its code's templates, the template translated and filled with the
values the recorded message holds, each value itself read as a phrase where one matches. A message no
template matches is shown as recorded."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from functools import cached_property

from .codes import InputCode, MatchCode, RulingCode, TranscriptCode, TurnCode
from .speech import Said

_FIELD = re.compile(r"\{(\w+)\}")


def _pattern(template: str, tails: str = "") -> re.Pattern[str]:
    """``template`` as a regular expression, each ``{field}`` a named group (the shortest that fits, which may be
    empty: a conditional ``{s}`` of a plural, a hint left out). A field right after another (``{card}{hint}``)
    holds one of ``tails`` (the phrases that open with words, as a regular expression) or nothing, so the
    field before it takes what is not that phrase (``'C1'``, then `` (did you mean C11 or C14?)``)."""
    out, at, seen = [], 0, set()
    for m in _FIELD.finditer(template):
        out.append(re.escape(template[at:m.start()]))
        name = m.group(1)
        after_field = m.start() == at and at > 0 and tails != ""
        out.append(f"(?P={name})" if name in seen else f"(?P<{name}>(?:{tails})?)" if after_field
                   else f"(?P<{name}>.*?)")
        seen.add(name)
        at = m.end()
    out.append(re.escape(template[at:]))
    return re.compile("".join(out), re.DOTALL)


def _tails(phrases: Iterable[str]) -> str:
    """The phrases that open with words (not with a field) as one regular expression, their fields unnamed."""
    return "|".join(_FIELD.sub(lambda m: "(?:.*?)", re.escape(p).replace(r"\{", "{").replace(r"\}", "}"))
                    for p in phrases if p and not p.startswith("{"))


class Messages:
    """``by_code``: for each rejection code, the English templates of its messages; ``phrases``: the
    templates of the values embedded in them (a zone, a reason)."""

    def __init__(self, by_code: Mapping[str, Iterable[str]] | None = None, phrases: Iterable[str] = ()) -> None:
        self.by_code = {str(code): tuple(ts) for code, ts in (by_code or {}).items()}
        self.phrases = tuple(phrases)

    @cached_property
    def _compiled(self) -> dict[str, tuple[tuple[str, re.Pattern[str]], ...]]:
        phrases = (*self.phrases, *SHARED_PHRASES)  # after its own, those every message may hold ("K06 or K07")
        tails = _tails(phrases)
        table = {code: tuple((t, _pattern(t, tails)) for t in ts) for code, ts in self.by_code.items()}
        table[""] = tuple((t, _pattern(t, tails)) for t in phrases)
        return table

    def templates(self) -> tuple[str, ...]:
        """Every template, codes' and phrases' (the catalog holds each)."""
        return tuple(t for ts in self.by_code.values() for t in ts) + self.phrases

    def render(self, code: str, message: str, translate: Callable[[str], str]) -> str:
        """``message`` (recorded under ``code``) through ``translate``; as recorded when nothing matches."""
        found = self._fill(self._compiled.get(str(code), ()), message, translate)
        return message if found is None else found

    def _fill(self, table: Iterable[tuple[str, re.Pattern[str]]], text: str,
              translate: Callable[[str], str]) -> str | None:
        for template, pattern in table:
            m = pattern.fullmatch(text)
            if m is None:
                continue
            values = {k: self._phrase(v, translate) for k, v in m.groupdict().items()}
            return translate(template).format(**values)
        return None

    def _phrase(self, value: str, translate: Callable[[str], str]) -> str:
        found = self._fill(self._compiled[""], value, translate)
        return value if found is None else found


#: a game that declares no templates: its messages are shown as recorded
NO_MESSAGES = Messages()


def N_(msgid: str) -> str:
    """Marks a template for the catalog (``python -m referee.i18n extract``)."""
    return msgid


#: the phrases any refusal may embed, read after a game's own: several suggestions (``referee.engine.suggest``)
SHARED_PHRASES = (N_("{first} or {second}"),)


#: msgspec's own words for a value that does not fit a type (its fixed set of sentences, the path after them):
#: each a template, so what it says reads in the reader's language inside the refusal that quotes it (:func:`fitting`)
MISFITS = (
    N_("{problem} - at `{path}`"),
    N_("Expected `{expected}`, got `{got}`"),
    N_("Expected `{expected}` of length >= {n}"),
    N_("Expected `{expected}` of length <= {n}"),
    N_("Expected `{expected}` >= {n}"),
    N_("Expected `{expected}` <= {n}"),
    N_("Expected `array` of length {n}, got {got}"),
    N_("Expected `array` of at least length {n}, got {got}"),
    N_("Expected `array` of at most length {n}, got {got}"),
    N_("Expected `{expected}` that's a multiple of {n}"),
    N_("Expected `str` matching regex {regex}"),
    N_("Object missing required field `{field}`"),
    N_("Object contains unknown field `{field}`"),
    N_("Invalid enum value {value}"),
    N_("Invalid value {value}"),
)


def fitting(problem: str) -> str:
    """What msgspec says of a value that does not fit (``str(ValidationError)``) as a phrase said through
    :data:`MISFITS` (:class:`~referee.engine.speech.Said`: its English the same string), to read in the
    reader's language with the refusal it is quoted in; ``problem`` itself when no template fits (a sentence
    of msgspec's this list does not hold stays English)."""
    for template, pattern in _MISFITS:
        found = pattern.fullmatch(problem)
        if found is not None:
            values = {k: fitting(v) if k == "problem" else v for k, v in found.groupdict().items()}
            return Said(template, **values)
    return problem


_MISFITS = tuple((t, _pattern(t)) for t in MISFITS)


#: a ruling's refusal when the intent fails even with the check waived: the game's own refusal (``code``,
#: ``reason``) quoted whole, read through the game's templates (:func:`quoted`)
STILL_ILLEGAL = N_("even with {waived} waived: {code}: {reason}")


def quoted(code: str, message: str) -> tuple[str, str, str] | None:
    """(what was waived, the game's code, the game's message) of a :data:`STILL_ILLEGAL` refusal recorded under
    ``code``; None for any other."""
    if code != RulingCode.STILL_ILLEGAL:
        return None
    found = _pattern(STILL_ILLEGAL).fullmatch(message)
    return None if found is None else (found["waived"], found["code"], found["reason"])


#: the engine's own refusals, recorded before a game's rules are asked (``core``): read through these when
#: the game's templates match nothing
FRAMEWORK = Messages({
    MatchCode.OVER: (N_("the match is over; no further intents are accepted"),),
    MatchCode.AWAITING_CONFIRMATION: (
        N_("entry {held} waits for {who} to confirm it (or decline); nothing else is played meanwhile"),),
    TurnCode.NOT_YOUR_TURN: (N_("{seat} may not {verb} now (may act: {actors})"),),
    RulingCode.CANNOT_WAIVE: (N_("a ruling can waive the game's own checks, not turn order or the end of the match"),),
    # a line the notation cannot read (:mod:`.notation`), recorded as an unparsed entry
    InputCode.INVALID: (
        N_("{what}: expected a whole number, got {raw}"),
        N_("{what}: expected true or false, got {raw}"),
        N_("{what}: expected one of {allowed}, got {raw}"),
        N_("{what}: empty item in {raw}; expected {expected}"),
        N_("{what}: item {item} starts with {tag}; expected one of {tags} (items: {shape})"),
        N_("{what}: item {item} has {parts} part(s); expected {expected}"),
        N_("unbalanced double quote in {text}"),
        N_("empty intent: expected a verb, e.g. 'draw_main card=TR6'"),
    ),
    InputCode.UNKNOWN_VERB: (N_("unknown verb {verb} (did you mean {names}?); {listed}"),
                             N_("unknown verb {verb}; {listed}")),
    InputCode.BAD_ARGUMENT: (
        N_("{verb}: argument {word} is not key=value; expected one of: {keys}"),
        N_("{verb}: argument {key} given twice"),
        N_("{verb}: argument {group}: give either {group}=WORD or its dotted fields ({group}.NAME=...), not both"),
        N_("{verb}: {problem}; usage: {usage}"),
    ),
    InputCode.UNKNOWN_ARGUMENT: (N_("{verb}: unknown argument {key} (did you mean {names}?); {verb} takes: {keys}"),
                                 N_("{verb}: unknown argument {key}; {verb} takes: {keys}")),
    InputCode.MISSING_ARGUMENT: (N_("{verb}: missing argument {names}; usage: {usage}"),),
    # a transcript's undo, redo, confirm or decline line the import cannot read (``referee.transcript``)
    TranscriptCode.BAD_LINE: (
        N_("{what}: expected {allowed}, got {word}"),
        N_("{what} must be an entry number, not {value}"),
        N_("expected '<seat>: <intent>' (e.g. 'alice: draw_main card=TR6'), an annotation ('! …', '? …', "
           "'disputed: …', 'ruling: …'), 'undo: …' or 'redo: …'"),
        N_("{what}: {problem}"),
    ),
}, phrases=(
    # the pieces the notation's refusals are built of (each a ``speech.Said`` where it is said)
    N_("argument {key} ({field})"),
    N_("argument {key}"),
    N_("{shape} (the last {n} may be left off)"),
    N_("a comma-separated list of {choices}"),
    N_("a comma-separated list ({item}s)"),
    N_("expected one of: {verbs}"),
    N_("the closest of the {n} verbs: {verbs}"),
    N_("no arguments"),
    N_("unbalanced double quote in {text}"),
    N_("{first} or {second}"),
    *MISFITS,  # what msgspec says of an argument that does not fit, inside a recorded refusal
))
