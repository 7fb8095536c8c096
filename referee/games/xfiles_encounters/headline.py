"""The one line that says where an X-Files match stands, from a role's view alone: the turn and whose it
is (or what the table waits on), how the team stands (evidence discovered and collected, each agent's
damage against health, the Doubts taken), and in a series the series' score and rating (R48).

Everything read here is public in every view: the turn, the pending inputs, each evidence's state (not
its card), each player's damage and health, the size of the Doubt stack.
"""

from __future__ import annotations

from typing import Any

from . import series


def headline(view: dict[str, Any], doubts: int) -> str:
    """``view``'s headline; ``doubts``: the Doubt cards in the game (the stack's size at setup)."""
    parts = [_where(view), _evidence(view), _agents(view)]
    stack = view.get("doubt_stack")
    if isinstance(stack, int):
        parts.append(f"Doubts {doubts - stack} taken, {stack} in the stack")
    line = " · ".join(p for p in parts if p)
    said = series.headline(view)
    return f"{said} · {line}" if said else line


def _where(view: dict[str, Any]) -> str:
    """The turn and who acts, or what the table waits on, or how the game ended."""
    status = view.get("status", "")
    if status in ("won", "lost"):
        reason = str((view.get("outcome") or {}).get("reason") or "").replace("_", " ")
        return f"the team {status}" + (f" ({reason})" if reason else "")
    turn: dict[str, Any] = view["turn"] if isinstance(view.get("turn"), dict) else {}
    pending = view.get("pending") or []
    if turn.get("phase") == "setup":
        waiting = sorted({str(p.get("seat")) for p in pending if isinstance(p, dict) and p.get("seat")})
        return "setup" + (": opening draws from " + ", ".join(waiting) if waiting else "")
    where = f"turn {turn.get('number', '?')}, {turn.get('seat', '?')}'s {turn.get('phase', '?')} phase"
    if view.get("the_end"):
        where = "The End · " + where
    if pending and isinstance(pending[0], dict):
        top = pending[0]
        what = str(top.get("kind", "")).replace("_", " ")
        if top.get("location"):
            what += f" at {top['location']}"
        where += f", waiting on {top.get('seat') or turn.get('seat', '?')} to {what}"
    return where


def _evidence(view: dict[str, Any]) -> str:
    evidence = view.get("evidence")
    if not isinstance(evidence, dict) or not evidence:
        return ""
    states = [str(e.get("state")) for e in evidence.values() if isinstance(e, dict)]
    discovered = sum(s in ("discovered", "collected") for s in states)
    collected = states.count("collected")
    line = f"evidence {discovered} of {len(states)} discovered, {collected} collected"
    exposed = states.count("exposed")
    return line + (f", {exposed} exposed" if exposed else "")


def _agents(view: dict[str, Any]) -> str:
    players: dict[str, Any] = view["players"] if isinstance(view.get("players"), dict) else {}
    shown = []
    for seat in view.get("seats") or sorted(players):
        p = players.get(seat)
        if isinstance(p, dict) and "damage" in p and "health" in p:
            shown.append(f"{seat} {p['damage']}/{p['health']}" + (" defeated" if p.get("defeated") else ""))
    return "damage/health " + ", ".join(shown) if shown else ""
