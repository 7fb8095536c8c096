"""Domain errors of the service layer. Each front end maps them to an exit code or an HTTP status in
exactly one place. None of these is raised for an illegal move: that is a Rejected verdict, logged.
"""

from __future__ import annotations

from typing import Any


class RefereeError(Exception):
    """Base: ``code`` is stable (``scope/reason``), ``message`` says what is wrong and how to fix it."""

    exit_code = 2
    http_status = 400

    def __init__(self, code: str, message: str, detail: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = str(code)  # a member of a StrEnum of codes is kept as its plain string
        self.message = message
        self.detail = detail or {}


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
