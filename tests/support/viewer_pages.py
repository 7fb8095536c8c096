"""The bundled replays' HTML viewers, exported once per test process for every browser test that opens them.

Exporting a demo's viewer takes 0.2-1.5 s of CPU (X-Files' lone agent the most: 1.1 MB of page), and the
page tests open the same few: every replay for its first seat, the demos for the arbiter. :func:`viewer`
imports each replay once into an in-memory referee and writes each (replay, role) page once, in a directory
of the process's own, removed at exit. What it gives is read only: a test that changes a match makes its own.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

_lock = threading.Lock()
_matches: dict[str, tuple[Any, str]] = {}
_pages: dict[tuple[str, str], Path] = {}
_dir: list[str] = []


def replay(name: str) -> tuple[Any, str]:
    """``name`` (``game/file.txt`` under replays/) imported once into an in-memory referee: (referee, match id)."""
    from referee.service import Referee
    from referee.store.memory import MemoryStore
    from referee.transcript import import_transcript

    with _lock:
        if name not in _matches:
            path = ROOT / "replays" / name
            referee = Referee(MemoryStore())
            mid = import_transcript(referee, path.read_text(encoding="utf-8"), str(path), str(path.parent)).match_id
            _matches[name] = (referee, mid)
        return _matches[name]


def viewer(name: str, role: str | None = None) -> tuple[Path, Any, str]:
    """The viewer of replay ``name`` for ``role`` (None: its first seat), written once: (page, referee, match id)."""
    from referee.export import export

    referee, mid = replay(name)
    role = role or referee.load(mid).config.players[0]
    with _lock:
        if (name, role) not in _pages:
            if not _dir:
                _dir.append(tempfile.mkdtemp(prefix="referee-viewers-"))
                atexit.register(shutil.rmtree, _dir[0], True)
            page = Path(_dir[0]) / f"{name.replace('/', '-').removesuffix('.txt')}-{role}.html"
            page.write_text(export(referee, mid, "html", role), encoding="utf-8")
            _pages[(name, role)] = page
        return _pages[(name, role)], referee, mid

