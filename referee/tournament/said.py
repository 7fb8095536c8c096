"""An error of the tournament's pure parts (the fold, the pairing) said through the catalog: its message is a
template marked ``N_`` and the values that fill it, so the service can say it again in the reader's language."""

from __future__ import annotations

from typing import Any

from ..errors import StorageError
from .codes import TournamentCode


class Said(ValueError):
    """``str()`` is the English message; formatted (``f"{exc}"``, a field of another template) it reads in
    the language being spoken (:func:`referee.i18n.gettext`), so an error that wraps it, said in English
    for ``.message`` (under :func:`referee.i18n.speaking`), reads whole in the reader's language later."""

    def __init__(self, template: str, /, **values: Any) -> None:
        super().__init__(template.format(**values))
        self.template, self.values = template, values

    def __format__(self, spec: str) -> str:
        from ..i18n import gettext

        return format(gettext(self.template, **self.values), spec)


def corrupt(exc: Said) -> StorageError:
    """The error a tournament whose records do not fold is refused with: its ``.message`` English (what
    ``--json`` and HTTP carry), its :meth:`~referee.errors.RefereeError.text` whole in the reader's language."""
    from ..i18n import N_, speaking

    with speaking("en"):
        return StorageError.said(TournamentCode.CORRUPT, N_("the tournament's records do not fold: {exc}"), exc=exc)
