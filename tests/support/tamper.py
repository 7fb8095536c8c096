"""Editing a referee database behind its back, as a forger would (for the audit's tests)."""

from __future__ import annotations

import sqlite3


def tamper(path, sql: str) -> None:
    """Run ``sql`` on the database file with the append-only triggers dropped."""
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER IF EXISTS entries_append_only_update")
    conn.execute("DROP TRIGGER IF EXISTS entries_append_only_delete")
    conn.execute("DROP TRIGGER IF EXISTS annotations_append_only_update")
    conn.execute("DROP TRIGGER IF EXISTS annotations_append_only_delete")
    conn.executescript(sql)
    conn.commit()
    conn.close()
