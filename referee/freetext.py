r"""Free text in a transcript (and in a txt export, which is one).

Annotations, comments, reasons and header values are free text, and a transcript is read line by line
with markers (``# comment``, ``! good``, ``ruling: stands as played``). So free text is written with
escapes that make it read back as exactly that text and never as anything else: ``\\`` and ``\#``;
``\\uXXXX`` for a line break or control character (which the referee refuses on input, but a database
edited by hand may hold); a backslash before a leading marker character, and ``\\uXXXX`` for leading
or trailing white space (which reading strips). Reading undoes exactly these escapes and leaves any
other backslash alone, so transcripts typed by hand read as they always did.
"""

from __future__ import annotations

import re

from .engine.datafile import is_bad

_UNESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[\\#!?\-—:,])")


def escape_text(text: str, lead: str = "") -> str:
    """``text`` as a transcript writes free text (``lead``: characters that may not begin it bare)."""
    out = []
    last = len(text) - 1
    for i, ch in enumerate(text):
        if ch in "\\#":
            out.append("\\" + ch)
        elif is_bad(ch) or ((i == 0 or i == last) and ch.isspace()):
            out.append(f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}")
        elif i == 0 and ch in lead:
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


def _unescape_one(m: re.Match[str]) -> str:
    code = m.group(1)
    if len(code) > 1:
        value = int(code[1:], 16)
        return m.group(0) if 0xD800 <= value <= 0xDFFF or value > 0x10FFFF else chr(value)
    return code


def unescape_text(text: str) -> str:
    """Free text as written by :func:`escape_text`, read back."""
    return _UNESCAPE.sub(_unescape_one, text) if "\\" in text else text
