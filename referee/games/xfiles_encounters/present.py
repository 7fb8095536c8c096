"""The table drawn as boards (``boards``), from one role's view alone: the Shadows and the Sector, the
Bureau, the evidence and the agents."""

from __future__ import annotations

from typing import Any

from schemas.board import Area, Board

from . import flow


def _slot_line(slot: dict[str, Any]) -> str:
    if slot["state"] == "empty":
        return "(empty)"
    if slot["state"] == "hidden":
        return f"face down ({slot['origin']})" + (f" {slot['card']}" if slot["card"] else "")
    return str(slot["card"])


def boards(v: dict[str, Any]) -> tuple[Board, ...]:
    if "shadows" not in v:
        return ()
    row = [Area(id="sector", label="Sector", lines=tuple(c or "face down" for c in v["sector"]) or ("(empty)",))]
    row += [Area(id=f"shadows.{s}", lines=(_slot_line(v["shadows"][s]),)) for s in flow.SLOTS]
    row.append(Area(id="conspiracy_deck", lines=(f"{v['conspiracy_deck'].get('count', 0)} cards",
                                                 f"stack {v['season'] or '-'}")))
    table = Board(title="Shadows and Sector", layout="row", areas=tuple(row),
                  covers=("sector", "shadows", "conspiracy_deck", "season"))
    bureau = Board(title="Bureau", layout="row", covers=("bureau", "academy_deck", "special_agents"), areas=(
        *(Area(id=f"bureau.{s}", label=f"scan {v['options']['bureau_scan_costs'][int(s) - 1]}",
               lines=(_slot_line(v["bureau"][s]),)) for s in flow.SLOTS),
        Area(id="academy", lines=(f"{v['academy_deck']['count']} cards",)),
        Area(id="special_agents", lines=(f"{v['special_agents'].get('count', 0)} left",)),
    ))
    evidence = Board(title="Evidence", layout="row", covers=("evidence",), areas=tuple(
        Area(id=f"evidence.{p}", lines=(e["state"] + (f" {e['card']}" if e["card"] else ""),))
        for p, e in sorted(v["evidence"].items())))
    seats = []
    for seat, p in v["players"].items():
        seats.append(Area(id=seat, label=str(p["avatar"]), lines=(
            "hand: " + (", ".join(p["hand"]) or "-"), "play: " + (", ".join(x["card"] for x in p["play"]) or "-"),
            "discard: " + str(len(p["discard"])) + ", deck: " + str(len(p["deck"]))),
            facts=(("damage", f"{p.get('damage', 0)}/{p.get('health', 0)}"), ("wounds", str(len(p["wounds"]))),
                   ("scars", str(len(p["scars"]))), ("defeated", "yes" if p["defeated"] else "no"))))
    agents = Board(title="Agents", layout="tableau", covers=("players",), areas=tuple(seats))
    return (table, bureau, evidence, agents)
