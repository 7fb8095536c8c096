"""Data files (TOML) as games and scenario files read them, and what free text may hold.

``tomllib`` recurses once per nested array or inline table, so a hostile file nested a few thousand
levels deep would end in a ``RecursionError`` (an internal error) instead of a refusal. ``load_toml``
reports it as what it is, a file the referee cannot read, with the same exception type as a syntax
error, so every caller that handles one handles both.

A data file's names and texts (card names, ability texts, region names) end up in sentences,
transcripts and pages, so by default every string in it must be one line of printable characters
(:func:`bad_char`): a line break in a card name could otherwise make an exported transcript read
back with a line nobody wrote. Pure: text in, data out.
"""

from __future__ import annotations

from typing import Any

from schemas import DEPTH_MAX

#: explicit bidirectional formatting characters (embeddings, overrides, isolates)
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

_CONTROL_NAMES = {0x00: "NUL", 0x07: "BELL", 0x08: "BACKSPACE", 0x0A: "LINE FEED", 0x0B: "LINE TABULATION",
                  0x0C: "FORM FEED", 0x0D: "CARRIAGE RETURN", 0x1B: "ESCAPE", 0x7F: "DELETE", 0x85: "NEXT LINE"}


def is_bad(ch: str) -> bool:
    """A character free text may not hold: a line break, a control character other than tab, a lone
    surrogate, or a bidirectional override (it would make a line read otherwise than it says)."""
    import unicodedata  # (imported here: text that is all printable, nearly all, never needs it)

    return ch != "\t" and (ch in _BIDI or unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp"))


def bad_char(text: str) -> tuple[int, str] | None:
    """The first character of ``text`` that free text may not hold, with its index, or None."""
    if text.isprintable():  # the common case, in C: every character printable (tab, bidi are not)
        if _BIDI.isdisjoint(text):  # in C too: no bidirectional override
            return None
        return next(((i, ch) for i, ch in enumerate(text) if ch in _BIDI), None)
    for i, ch in enumerate(text):
        if is_bad(ch):
            return i, ch
    return None


def char_name(ch: str) -> str:
    """A character's Unicode name (control characters have none of their own: their usual one)."""
    import unicodedata

    known = _CONTROL_NAMES.get(ord(ch))
    return known if known is not None else str(unicodedata.name(ch, "a control character"))


def load_toml(text: str, *, one_line: bool = True) -> dict[str, Any]:
    """``tomllib.loads(text)``. Nesting too deep to parse, and (with ``one_line``) a string holding a
    character free text may not hold, raise :class:`tomllib.TOMLDecodeError` naming where."""
    import tomllib  # (imported here: a command that reads no data file does without it)

    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise tomllib.TOMLDecodeError(_TOO_DEEP) from None
    # the parse may also succeed where the interpreter's recursion limit was raised (a library in the same
    # process may raise it): the depth is checked here as well, so the refusal never depends on that limit
    stack: list[tuple[str, Any, int]] = [("", data, 1)]
    while stack:
        path, node, depth = stack.pop()
        if depth > DEPTH_MAX:
            raise tomllib.TOMLDecodeError(_TOO_DEEP)
        items: Any = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in items:
            where = f"{path}.{key}" if path else str(key)
            if one_line:
                for text_ in (str(key), value) if isinstance(value, str) else (str(key),):
                    found = bad_char(text_)
                    if found is not None:
                        ch = found[1]
                        raise tomllib.TOMLDecodeError(
                            f"{where} holds {char_name(ch)} (U+{ord(ch):04X}): names and texts in a data file are "
                            "one line of printable characters")
            if isinstance(value, (dict, list)):
                stack.append((where, value, depth + 1))
    return data


_TOO_DEEP = f"arrays or tables nest too deeply to read (a data file needs a few levels; at most {DEPTH_MAX} are accepted)"
