"""Running one CLI command as a reader of each language would."""

from __future__ import annotations

from typing import Any

from referee import i18n


def in_both(cli: Any, monkeypatch: Any, *args: str) -> list[Any]:
    """``args`` run under en, under ru, and with ``--json`` under each: (en, ru, json en, json ru); English
    again afterwards."""
    out = []
    for json_too in (False, True):
        for lang in ("en", "ru"):
            monkeypatch.setenv("REFEREE_LANG", lang)
            out.append(cli(*args, *(("--json",) if json_too else ())))
    monkeypatch.setenv("REFEREE_LANG", "en")
    i18n.use("en")
    return out
