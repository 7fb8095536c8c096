"""What ``referee play`` (and undo, redo, rule, confirm) prints for people, and printing it without rich
where that prints the same.

rich takes about a sixth of a ``referee play`` to import, for a few short lines with a coloured word.
:func:`result` gives the lines as words and styles; :func:`cli.render.result` prints them with rich;
:func:`write` prints them as rich prints them — ANSI colour on a terminal, plain text elsewhere — where
that is certain: on a POSIX system, with none of the settings that change how rich prints
(``FORCE_COLOR``, ``TTY_COMPATIBLE``, ``NO_COLOR``, a dumb ``TERM``, IDLE, Jupyter), every line within
the width rich would wrap at, of characters whose width rich counts as one, with nothing rich would
read as an emoji code, and text the output's encoding can hold. Elsewhere it writes nothing and the
caller uses rich. ``tests/test_startup.py`` holds the two to the same bytes.
"""

from __future__ import annotations

import builtins
import os
import re
import sys
from typing import TYPE_CHECKING, Any

from referee.inputs import visible

if TYPE_CHECKING:
    from referee.api import SubmitResult

#: one printed line: its pieces of text, each with a rich style (or None)
Line = list[tuple[str, str | None]]

#: the SGR codes rich writes for the styles these lines use, whatever the terminal's colour system
ANSI = {"green": "32", "red": "31", "yellow": "33", "dim": "2", "bold": "1"}
#: characters besides printable ASCII that rich counts one cell wide (checked against rich by a test)
NARROW = frozenset("✓✗⏸·")
#: what rich reads as an emoji code (its own pattern)
EMOJI = re.compile(r"(:(\S*?)(?:(?:\-)(emoji|text))?:)")


def result(res: SubmitResult) -> list[Line]:
    """What an appended entry did: accepted with its events in words, rejected with the reason and
    the rule, or held for a confirmation; and the end of the game if it ended."""
    from referee.engine.protocol import Held, Rejected

    from referee.i18n import gettext, refused

    v = res.verdict
    lines: list[Line]
    if isinstance(v, Held):
        who = v.confirmer
        lines = [[("⏸ " + gettext("held"), "yellow"), (f" #{res.seq} {res.actor}: {res.notation}", None)],
                 [("  " + gettext("it reads what only {who} can see: {who} (or the arbiter) confirms it with `referee "
                                  "confirm {match} {seq} --by {who}` (or --decline); nothing else is played meanwhile",
                                  who=who, match=res.match_id[:8], seq=res.seq), None)]]
    elif isinstance(v, Rejected):  # the reason and the rule in the reader's language, through the game's templates
        message, cited = refused(res.game, v.code, v.message, v.rule, res.rule_english)
        lines = [[("✗ " + gettext("rejected"), "red"), (f" #{res.seq} {res.actor}: {res.notation}", None)],
                 [(f"  {v.code}: {message}", None), *([(" ", None), (f"({cited})", "dim")] if v.rule else [])]]
    else:
        lines = [[("✓ " + gettext("accepted"), "green"), (f" #{res.seq} {res.actor}: {res.notation}", None)]]
        lines += [[("  · " + line, None)] for line in (res.words or [event_line(ev) for ev in res.events])]
    if res.outcome is not None:
        from referee.outcome import words

        lines.append([(gettext("Game over"), "bold"), (": " + words(res.outcome), None)])
    return [[(visible(text), style) for text, style in line] for line in lines]


def event_line(ev: Any) -> str:
    """An event without words from its game: its tag and its fields."""
    if isinstance(ev, dict):
        kind = ev.get("type", "?")
        rest = " ".join(f"{k}={fmt(v)}" for k, v in ev.items() if k != "type" and v not in (None, [], {}))
        return f"{kind} {rest}".strip()
    return str(ev)


def fmt(value: Any) -> str:
    """A JSON value as a person reads it: ``true``, ``-`` for nothing, lists as ``a, b``, maps as ``k=v``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "-"
    if isinstance(value, list):
        return ", ".join(fmt(v) for v in value) if value else "[]"
    if isinstance(value, dict):
        return " ".join(f"{k}={fmt(v)}" for k, v in value.items())
    return str(value)


def write(lines: list[Line]) -> bool:
    """Print ``lines`` as rich would, if this module is sure how (see above); False if it printed nothing."""
    out = sys.stdout
    terminal = output_kind(out)
    if terminal is None:
        return False
    colour, width = terminal
    text = []
    for line in lines:
        plain = "".join(piece for piece, _style in line)
        if len(plain) > width or EMOJI.search(plain) or not all(" " <= ch <= "~" or ch in NARROW for ch in plain):
            return False
        text.append("".join(f"\x1b[{ANSI[style]}m{piece}\x1b[0m" if colour and style and piece else piece
                            for piece, style in line) + "\n")
    joined = "".join(text)
    try:
        joined.encode(out.encoding or "utf-8")
    except (LookupError, UnicodeEncodeError):
        return False
    out.write(joined)
    return True


def output_kind(out: Any) -> tuple[bool, int] | None:
    """Whether rich would write colour to ``out`` and the width it would wrap at; None where rich would
    decide by what this module does not follow."""
    env = os.environ
    if sys.platform == "win32" or any(env.get(k) is not None for k in ("FORCE_COLOR", "TTY_COMPATIBLE")):
        return None
    if env.get("NO_COLOR") or env.get("DATABRICKS_RUNTIME_VERSION") or hasattr(builtins, "get_ipython"):
        return None
    if getattr(sys.stdin, "__module__", "").startswith("idlelib") or env.get("TERM", "").strip().lower() in ("dumb", "unknown"):
        return None
    isatty = getattr(out, "isatty", None)
    try:
        colour = bool(isatty()) if isatty is not None else False
    except ValueError:  # a closed file: rich's own answer then
        return None
    width: int | None = None
    for fd in (0, 1, 2):
        try:
            width = os.get_terminal_size(fd).columns
        except (AttributeError, ValueError, OSError):
            continue
        break
    if not colour:  # not a terminal: rich is told not to wrap there (cli.render.console)
        return colour, 100_000
    columns = env.get("COLUMNS")
    if columns is not None and columns.isdigit():
        if int(columns) == 0:
            return None
        width = int(columns)
    return colour, width or 80
