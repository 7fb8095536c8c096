"""Reading what people hand the referee, with bounds: files, standard input, TOML and free text.

Everything a person or a program gives the referee passes through here first, so that no input can
make it read forever, allocate without bound, recurse past the stack or smuggle a line break:

* A file is read only if it is a regular file: a FIFO, ``/dev/zero``, ``/dev/urandom``, a directory
  or a socket is refused before a byte is read. No file is read past its limit (the limits are in
  :mod:`schemas`); the error names the file, its size and the limit.
* Text must be UTF-8 (a byte-order mark is allowed); the error names the line and column of the
  first byte that is not.
* TOML nested deeper than the parser's stack is refused like a syntax error
  (:func:`referee.engine.datafile.load_toml`).
* Free text (titles, names, annotations, reasons, notes) is one line of printable characters within
  a length limit. Line breaks would let a text read back as a move or a ruling when a transcript is
  written out and imported again; control characters would drive the terminal that shows them;
  bidirectional overrides would make a line read differently from what it says.
* Values of a position or an option nest at most :data:`schemas.DEPTH_MAX` levels.
"""

from __future__ import annotations

import os
import stat
import sys
from typing import Any

from schemas import DEPTH_MAX

from .engine.codes import InputCode
from .engine.speech import N_
from .engine.datafile import bad_char, char_name, is_bad, load_toml
from .errors import BadInput

def _kind(mode: int) -> str:
    """The refusal of a path that is not a regular file, by what it is (a template of ``what`` and ``path``)."""
    if stat.S_ISDIR(mode):
        return N_("{what} {path} is a directory; give the path of a file")
    if stat.S_ISFIFO(mode):
        return N_("{what} {path} is a pipe; give the path of a file")
    if stat.S_ISCHR(mode):
        return N_("{what} {path} is a character device; give the path of a file")
    if stat.S_ISBLK(mode):
        return N_("{what} {path} is a block device; give the path of a file")
    if stat.S_ISSOCK(mode):
        return N_("{what} {path} is a socket; give the path of a file")
    return N_("{what} {path} is not a regular file; give the path of a file")


def decode(data: bytes, what: str) -> str:
    """UTF-8 text (a leading byte-order mark is dropped), or BadInput naming the first bad byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise BadInput.said(InputCode.BAD_ENCODING, N_(
            "{what} is not UTF-8 text: byte 0x{byte:02x} at line {line}, column {column}; save it as UTF-8"),
            what=what, byte=data[exc.start], line=line, column=column) from None


def read_file(path: str, what: str, limit: int) -> str:
    """The text of the regular file at ``path``, at most ``limit`` bytes (else BadInput)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise BadInput.said(InputCode.UNREADABLE, N_("cannot read {what} {path}: {reason}"),
                            what=what, path=path, reason=str(exc.strerror or exc)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise BadInput.said(InputCode.NOT_A_FILE, _kind(info.st_mode), what=what, path=path)
        if info.st_size > limit:
            raise BadInput.said(InputCode.TOO_LARGE, N_("{what} {path} is {size:,} bytes; the limit is {limit:,} bytes"),
                                what=what, path=path, size=info.st_size, limit=limit)
        chunks: list[bytes] = []
        got = 0
        while got <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > limit:
            raise BadInput.said(InputCode.TOO_LARGE, N_("{what} {path} is more than {limit:,} bytes; the limit is {limit:,} bytes"),
                                what=what, path=path, limit=limit)
    except OSError as exc:
        raise BadInput.said(InputCode.UNREADABLE, N_("cannot read {what} {path}: {reason}"),
                            what=what, path=path, reason=str(exc.strerror or exc)) from None
    finally:
        os.close(fd)
    return decode(b"".join(chunks), f"{what} {path}")


def read_stdin(what: str, limit: int) -> str:
    """Standard input as text, at most ``limit`` bytes (``referee import -``)."""
    data = sys.stdin.buffer.read(limit + 1)
    if len(data) > limit:
        raise BadInput.said(InputCode.TOO_LARGE, N_("{what} on standard input is more than {limit:,} bytes; the limit is {limit:,} "
                                                     "bytes"), what=what, limit=limit)
    return decode(data, what)


def parse_toml(text: str, what: str, *, one_line: bool = True) -> dict[str, Any]:
    """TOML as data, or BadInput with the parser's message."""
    import tomllib  # (only where TOML is read: most commands read none)

    try:
        return load_toml(text, one_line=one_line)
    except tomllib.TOMLDecodeError as exc:
        raise BadInput.said(InputCode.BAD_TOML, N_("{what} is not valid TOML: {reason}"), what=what, reason=str(exc)) from None


def check_text(value: Any, what: str, limit: int, *, required: bool = False, hint: str = "") -> str:
    """``value`` if it is one line of printable text of at most ``limit`` characters, else BadInput
    naming ``what`` and the limit; ``hint`` (how to say what was meant otherwise) ends a message about
    a line break or a control character."""
    if not isinstance(value, str):
        raise BadInput.said(InputCode.BAD_TEXT, N_("{what} must be text, not {type}"), what=what, type=type(value).__name__)
    if required and not value.strip():
        raise BadInput.said(InputCode.BAD_TEXT, N_("{what} is empty"), what=what)
    if len(value) > limit:
        raise BadInput.said(InputCode.TOO_LONG, N_("{what} is {length:,} characters long; at most {limit:,} are accepted"),
                            what=what, length=len(value), limit=limit)
    found = bad_char(value)
    if found is not None:
        i, ch = found
        name = char_name(ch)
        raise BadInput.said(InputCode.BAD_TEXT, N_(
            "{what} holds {name} (U+{code:04X}) at character {at}: it must be one line of printable characters, at "
            "most {limit:,} ({hint})") if hint else N_(
            "{what} holds {name} (U+{code:04X}) at character {at}: it must be one line of printable characters, at "
            "most {limit:,}"), what=what, name=name, code=ord(ch), at=i + 1, limit=limit, hint=hint)
    return value


def visible(text: str) -> str:
    """``text`` with every character free text may not hold written as ``\\uXXXX`` (what a terminal,
    a page or a transcript shows of text that got past the checks, e.g. a database edited by hand)."""
    if bad_char(text) is None:
        return text
    return "".join(f"\\u{ord(ch):04x}" if is_bad(ch) and ord(ch) <= 0xFFFF else
                   f"\\U{ord(ch):08x}" if is_bad(ch) else ch for ch in text)


def check_depth(value: Any, what: str, limit: int = DEPTH_MAX) -> None:
    """BadInput if lists and mappings in ``value`` nest deeper than ``limit`` (checked without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, (list, tuple)):
            children = node
        else:
            continue
        if depth >= limit:
            raise BadInput.said(InputCode.TOO_DEEP, N_("{what} nests more than {limit} levels deep"), what=what, limit=limit)
        stack.extend((child, depth + 1) for child in children)


def same_head(expected: str, head: str) -> bool:
    """Whether a head typed back (``--expect-head``: as an audit, standings or an export printed it, in
    any case, spaces around) is ``head``: the one comparison of an expected audit head, a match's or a
    tournament's."""
    return expected.strip().lower() == head
