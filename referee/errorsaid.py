"""An error answer's ``said`` read back (:class:`schemas.ErrorSaid`: the catalog template a server said an
error's English message through, and its values), for a reader who is not the server: the CLI in client
mode keeps it on the error it raises, so the refusal reads in the reader's language as a local one does
(:meth:`referee.errors.RefereeError.text`). The template and values come over the wire: they are kept only
when each field is a plain name that a plain value (or a phrase, itself a template and values, kept as a
:class:`referee.engine.speech.Said`) fills, in the template and in its translation, and they say the very
message given; else nothing is kept and the message reads as the server gave it."""

from __future__ import annotations

from string import Formatter
from typing import Any


class Unsaid(ValueError):
    """A template or value that cannot be filled safely: the message is shown as given."""


def checked(template: str, text: str, values: dict[str, Any]) -> None:
    """Raise :class:`Unsaid` unless every field of ``template`` and of ``text`` (its translation) is a plain
    name that ``values`` fills with a plain value (no attribute, index, nested field or conversion but
    ``!r``/``!s``)."""
    for source in (template, text):
        try:
            parsed = list(Formatter().parse(source))
        except ValueError as exc:
            raise Unsaid(template) from exc
        for _literal, field, spec, conversion in parsed:
            if field is None:
                continue
            value = values.get(field) if field.isidentifier() else None
            if (field not in values or "{" in (spec or "") or conversion not in (None, "r", "s")
                    or not (value is None or isinstance(value, (str, int, float, bool)))):
                raise Unsaid(template)


def kept(template: str, values: dict[str, Any], message: str) -> tuple[str, dict[str, Any]] | None:
    """``template`` and ``values`` as an error keeps what its message was said through (each phrase a
    ``Said``), when they can be read safely in the current language and say ``message``; else None."""
    try:
        filled = _kept(template, values)
        if template.format(**filled) != message:
            return None
    except (Unsaid, KeyError, ValueError, IndexError, TypeError):
        return None
    return template, filled


def _kept(template: str, values: dict[str, Any]) -> dict[str, Any]:
    from . import i18n
    from .engine.speech import Said

    filled: dict[str, Any] = {}
    for key, value in values.items():
        if isinstance(value, dict):
            phrase, inner = value.get("template"), value.get("values", {})
            if set(value) - {"template", "values"} or not isinstance(phrase, str) or not isinstance(inner, dict):
                raise Unsaid(template)
            filled[key] = Said(phrase, **_kept(phrase, inner))
        else:
            filled[key] = value
    checked(template, i18n.gettext(template), filled)
    return filled
