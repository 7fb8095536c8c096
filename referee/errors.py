"""Domain errors of the service layer. Each front end maps them to an exit code or an HTTP status in
exactly one place. None of these is raised for an illegal move: that is a Rejected verdict, logged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

E = TypeVar("E", bound="RefereeError")


class RefereeError(Exception):
    """Base: ``code`` is stable (``scope/reason``), ``message`` says what is wrong and how to fix it."""

    exit_code = 2
    http_status = 400

    def __init__(self, code: str, message: str, detail: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = str(code)  # a member of a StrEnum of codes is kept as its plain string
        self.message = message
        self.detail = detail or {}
        #: the catalog template the message was said through and its values (:meth:`said`), if it was
        self.template: tuple[str, dict[str, Any]] | None = None

    @classmethod
    def said(cls: type[E], code: str, template: str, /, **values: Any) -> E:
        """The error, its message said through ``template`` (marked ``N_`` where it is written) filled
        with ``values``: :attr:`message` is the English one (what ``--json`` and HTTP carry, as ever),
        :meth:`text` the message in the reader's language."""
        err = cls(code, template.format(**values))
        err.template = (template, values)
        return err

    def text(self, gettext: Callable[..., str]) -> str:
        """The message in the reader's language, through ``gettext`` (:func:`referee.i18n.gettext`; this
        module imports nothing of ours): as :attr:`message` when it was not said through the catalog. An
        error raised while handling a store's error with the same message (``raise StorageError(code,
        str(exc)) from None``) reads as the store said it (the store keeps its template as this does)."""
        said = self.kept()
        if said is None:
            return self.message
        return read(said, gettext)

    def kept(self) -> tuple[str, dict[str, Any]] | None:
        """The template and values :meth:`text` reads the message through (this error's own, or the one an
        error it wraps with the same message kept); None when the message was not said through the catalog."""
        if self.template is not None:
            return self.template
        cause = self.__context__
        kept = getattr(cause, "template", None)  # a StoreError's (this module imports nothing of ours)
        if kept is not None and str(cause) == self.message:
            return kept  # type: ignore[no-any-return]
        return None


def read(said: tuple[str, dict[str, Any]], gettext: Callable[..., str]) -> str:
    """A template and its values said through ``gettext``, each value that was itself said through a
    template (a phrase, ``referee.engine.speech.Said``: a string keeping its ``template``) read so too."""
    template, values = said
    return gettext(template, **{k: _value(v, gettext) for k, v in values.items()})


def _value(value: Any, gettext: Callable[..., str]) -> Any:
    said = getattr(value, "template", None) if isinstance(value, str) else None
    return value if said is None else read(said, gettext)


class BadInput(RefereeError):
    """Malformed or impossible input: nothing was written."""


class NotFound(RefereeError):
    exit_code = 3
    http_status = 404


class ConflictError(RefereeError):
    """A stale writer: the log moved on since the sequence number it named."""

    exit_code = 4
    http_status = 409


class StorageError(RefereeError):
    exit_code = 5
    http_status = 503
