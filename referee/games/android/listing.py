"""What a scorekeeper types for Android (``referee cards android [SET] [--option map=ID]``), from the data
set alone, all of it public: the map's locations (and districts), the detectives with their NPCs,
plots, decks and special cards, the suspects, the murders, the leads, the twilight and event cards, the
puzzle pieces and the evidence tokens. Nothing of a match (no hand, no set-aside card) is read."""

from __future__ import annotations

from referee.engine import speech
from schemas.listing import Listed

from .data import EVIDENCE, DataSet, MapData


def _yes(*pairs: tuple[str, bool]) -> list[str]:
    return [word for word, has in pairs if has]


def listing(data: DataSet, board: MapData) -> tuple[Listed, ...]:  # noqa: C901 - one block per kind of thing
    out: list[Listed] = []
    for did, body in sorted(board.districts.items()):
        out.append(Listed(typed=did, kind="district", where=board.map_id, note=body))
    for lid in board.order:
        loc = board.locations[lid]
        facts = [loc.type, loc.quality, *_yes(("major", loc.major), ("restricted", loc.restricted))]
        if loc.bank:
            facts.append(f"{loc.bank} bank")
        if loc.ability is not None:
            cost = " + ".join([f"{loc.ability.time} TIME"] + [f"{n} {t} favor" for t, n in sorted(loc.ability.favors.items())])
            facts.append(f"ability: {loc.ability.text or f'{cost}: {loc.ability.effect}'}")
        where = f"{board.map_id} {loc.coord or f'({loc.x},{loc.y})'}, {loc.district} ({loc.body})"
        out.append(Listed(typed=lid, name=speech.name(loc), kind="location", where=where, note="; ".join(facts)))
    for did, d in sorted(data.detectives.items()):
        out.append(Listed(typed=did, name=speech.name(d), kind="detective", where=f"starts at {d.start_location}",
                          note=f"{d.title}; hand {d.hand_limit}, {d.base_time} TIME, ruler {d.ruler_length}"
                               + (f" ({d.ruler_class})" if d.ruler_class else "")))
        for kind in ("light", "dark"):
            n = sum(1 for c in data.cards.values() if c.detective == did and c.deck == kind)
            out.append(Listed(typed=f"{did}.{kind}", kind="deck", where=did, note=f"{n} twilight cards"))
        for t in ("physical", "document"):
            out.append(Listed(typed=f"{t}.{did}", kind="lead", where=f"starts at {d.leads[t]}",
                              note=f"{t} lead ({board.locations[d.leads[t]].type})" if d.leads[t] in board.locations else f"{t} lead"))
        for npc, status, tokens in d.npcs:
            out.append(Listed(typed=npc, kind="npc", where=did, note=f"starts {status}, {tokens} favor tokens"))
        for plot, eligible in d.plots:
            out.append(Listed(typed=plot, kind="plot", where=did, note="" if eligible else "not a starting plot"))
        for card in (*d.memory_cards, *sorted(d.time_bonus)):
            out.append(Listed(typed=card, kind="special card", where=did,
                              note=f"+{d.time_bonus[card]} TIME while in play" if card in d.time_bonus else "memory card"))
    for sid, s in sorted(data.suspects.items()):
        out.append(Listed(typed=sid, name=speech.name(s), kind="suspect", note=f"strong {s.strong_file}, weak {s.weak_file}"))
        out.append(Listed(typed=f"testimony.{sid}", kind="lead", where="per murder sheet", note="testimony lead"))
    for mid in data.murder_order:
        m = data.murders[mid]
        out.append(Listed(typed=mid, name=speech.name(m), kind="murder", where=f"crime scene {m.crime_scene}",
                          note=f"suspects {', '.join(m.suspects)}; specific events {', '.join(m.specific_events)}"))
    for cid, c in sorted(data.cards.items()):
        out.append(Listed(typed=cid, name=speech.name(c) if c.name != cid or c.name_ru else "", kind="twilight card", where=f"{c.detective}.{c.deck}",
                          note=", ".join([f"cost {c.cost}" if c.cost is not None else "cost on the card",
                                          *_yes(("persistent", c.persistent))])))
    for eid, e in sorted(data.events.items()):
        where = "general event deck" if e.kind == "general" else f"specific event of {e.murder or 'a murder'}"
        note = ""
        if e.grants is not None:
            note = f"ability at {e.grant_location}: {e.grants.time} TIME, {e.grants.effect} ({e.uses.replace('_', ' ')})"
        out.append(Listed(typed=eid, name=speech.name(e) if e.name != eid or e.name_ru else "", kind="event", where=where, note=note))
    for pid, p in sorted(data.puzzle.pieces.items()):
        out.append(Listed(typed=pid, kind="puzzle piece", where=f"{p.type} pile",
                          note="ports " + ("".join(p.ports) or "none") + (f"; bonuses {', '.join(p.bonuses)}" if p.bonuses else "")))
    for kind, (count, value) in EVIDENCE.items():
        out.append(Listed(typed=kind, kind="evidence token", where="evidence pile", note=f"{count} in the pile, value {value:+d}"))
    return tuple(out)
