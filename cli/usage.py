"""click's own usage errors (a missing argument, an unknown option or command, a value not among the
choices, an extra argument) in the reader's language.

The click that typer carries says them in English and through no catalog, so each is read at the edge,
as a recorded refusal is (:class:`referee.engine.messages.Messages`): the English message matched against
click's templates, the template said through the referee's catalog with the values the message holds (a
value that is itself one of click's phrases, ``'x' is not one of 'a', 'b'.``, said too). A message no
template matches is shown as click wrote it. The usage line, the hint and the ``Error:`` are said the same
way; the exit code stays 2. English opens no catalog and prints what click prints."""

from __future__ import annotations

from typing import IO, Any

from referee import i18n
from referee.i18n import N_

_CODE = "usage"

#: click's (and typer's) usage messages, as they are built (a value's quotes are part of the value)
TEMPLATES = (
    N_("Missing argument {name}."),
    N_("Missing option {name}."),
    N_("Missing parameter {name}."),
    N_("Missing command."),
    N_("No such option: {option} (Possible options: {options})"),
    N_("No such option: {option}"),
    N_("No such command {name}. Did you mean {names}?"),
    N_("No such command {name}."),
    N_("Got unexpected extra argument(s) ({arguments})"),
    N_("Option {option} requires an argument."),
    N_("Option {option} requires {n} arguments."),
    N_("Option {option} does not take a value."),
    N_("Invalid value for {name}: {problem}"),
    N_("Invalid value: {problem}"),
)
#: the values inside them that are click's (or its type checker's) own sentences (a choice refused, a value of
#: the wrong type)
PHRASES = (
    N_("{value} is not one of {choices}."),
    N_("Value {value} is not a valid {kind}."),
    N_("integer"),
    N_("float"),
    N_("boolean"),
    N_("Input should be a valid integer, unable to parse string as an integer"),
    N_("Input should be a valid number, unable to parse string as a number"),
    N_("Input should be a valid boolean, unable to interpret input"),
)


def _said(message: str) -> str:
    from referee.engine.messages import Messages

    return Messages({_CODE: TEMPLATES}, PHRASES).render(_CODE, message, i18n.gettext)


def message(exc: Any) -> str:
    """The error's message (``exc.format_message()``) in the reader's language."""
    text = str(exc.format_message())
    return text if i18n.current() == "en" else _said(text)


def show(exc: Any, file: IO[str] | None = None) -> None:
    """What click's ``exc.show()`` writes (the usage line, the hint at the help, ``Error: ...``) in the
    reader's language; click's own output in English."""
    if i18n.current() == "en":
        exc.show(file)
        return
    import sys

    out = sys.stderr if file is None else file
    ctx = getattr(exc, "ctx", None)
    lines = []
    if ctx is not None:
        from cli.helptext import usage

        lines.append(usage(ctx.get_usage()))
        if ctx.command.get_help_option(ctx) is not None:
            lines.append(i18n.gettext(N_("Try '{command} {option}' for help."), command=ctx.command_path,
                                      option=ctx.help_option_names[0]))
        lines.append("")
    lines.append(i18n.gettext(N_("Error: {message}"), message=message(exc)))
    out.write("\n".join(lines) + "\n")
