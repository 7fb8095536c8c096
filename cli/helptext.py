"""Help in the reader's language: typer and click read a command's help, its options' help and the
panels' titles when the command is declared, in English (the code's own words, each marked ``N_`` for
the catalog); :func:`translate` puts them in the reader's language just before the help is rendered
(:mod:`cli.lazy`'s command and group call it). English changes nothing and opens no catalog."""

from __future__ import annotations

from typing import Any

from referee import i18n
from referee.i18n import N_

#: the words of typer's rich help itself (its module's settings, read as the help is printed)
PANELS = {
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "DEFAULT_STRING": N_("[default: {}]"),
    "REQUIRED_LONG_STRING": N_("[required]"),
    "ENVVAR_STRING": N_("[env var: {}]"),
    "DEPRECATED_STRING": N_("(deprecated) "),
}
#: click's help option's own help
HELP_OPTION = N_("Show this message and exit.")
#: how click's usage line starts
USAGE = "Usage: "


def usage(line: str) -> str:
    """A usage line (``Usage: referee play ...``) with its first word in the reader's language."""
    if line.startswith(USAGE) and i18n.current() != "en":
        return i18n.gettext(N_("Usage: ")) + line[len(USAGE):]
    return line


def translate(command: Any, ctx: Any = None) -> None:
    """``command``'s help, short help and epilog, and each parameter's help (and a default shown in
    words; with ``ctx``, the help option's too), in the reader's language; typer's panel titles too. Idempotent: a text already translated
    has no entry of its own and stays as it is."""
    import typer.rich_utils as rich_utils

    for setting, english in PANELS.items():
        setattr(rich_utils, setting, i18n.gettext(english))
    if i18n.current() == "en":
        return
    for field in ("help", "short_help", "epilog"):
        text = getattr(command, field, None)
        if isinstance(text, str):
            setattr(command, field, i18n.cleaned(text))
    for param in command.get_params(ctx) if ctx is not None else getattr(command, "params", ()):
        text = getattr(param, "help", None)
        if isinstance(text, str):
            param.help = i18n.gettext(HELP_OPTION) if text == HELP_OPTION else i18n.cleaned(text)
        shown = getattr(param, "show_default", None)
        if isinstance(shown, str):
            param.show_default = i18n.cleaned(shown)
