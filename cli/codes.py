"""The CLI's own codes, a ``StrEnum`` per scope as :mod:`referee.engine.codes` gives the framework's: the CLI
as a client of a referee server, and the files it writes. Imports nothing of ours (cheap at start-up)."""

from __future__ import annotations

from enum import StrEnum


class ClientCode(StrEnum):
    """The CLI as a client of a referee server: its address, its token, the server's answer."""

    BAD_ANSWER = "client/bad_answer"
    BAD_SERVER = "client/bad_server"
    NO_TOKEN = "client/no_token"
    UNREACHABLE = "client/unreachable"
    UNSUPPORTED = "client/unsupported"


class OutputCode(StrEnum):
    """A file the CLI writes (``--out``)."""

    REFUSED = "output/refused"
    WRITE_FAILED = "output/write_failed"


#: every scope, by its prefix
SCOPES: dict[str, type[StrEnum]] = {
    "client": ClientCode,
    "output": OutputCode,
}
