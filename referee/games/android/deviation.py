"""Declared results that break a base rule (§4.30): a declared effect is what the missing pages say, so it
is applied, but where its result contradicts a rule the text gives, the entry is flagged
``rule_deviation`` too, naming the rule, for the audit. :func:`deviations` compares the state before and
after one delta. Pure.

The rules a delta can break (the others are refused as ``manual/inconsistent``: ranges, banks, zones):

* a lead on a location that holds another lead (§4.15 rule 3);
* a lead on a location of another type than its own (§1.7, §4.15 rule 2: a lead keeps its type);
* a lead of a suspect or detective not in the game put on the map (§2 step 4);
* an alibi on a killed suspect (AMB-46, unless ``alibi_on_dead=allow``);
* a killed suspect left with fewer than three hits (§1.8: three hits kill him);
* a hand above its limit (§1.3: 6 cards, Raymond 7; memory cards apart);
* a warrant on a location that is not restricted, or two of one detective's on one location (§1.2);
* an event ability put on the map elsewhere than its card places it, or for an event that grants none
  (§4.28).

Evidence on a killed suspect (the spec's other example) is refused where it could arise
(``place_evidence``: ``evidence/suspect_dead``); no delta places evidence.
"""

from __future__ import annotations

from typing import Any

from .model import AlibiDelta, CardDelta, EventAbilityDelta, HitDelta, LeadDelta, State, WarrantDelta
from .txn import BoundRules


def lead_home(rules: BoundRules, state: State, lead: str) -> str | None:
    """Where ``lead`` starts (its type is that location's type), or None if it is not in the game."""
    t, _, owner = lead.partition(".")
    if t == "testimony":
        murder = rules.data.murders.get(state.murder or "")
        return murder.testimony_leads.get(owner) if murder and owner in state.active_suspects else None
    in_game = {p.detective for p in state.players.values()}
    d = rules.data.detectives.get(owner)
    return d.leads.get(t) if d is not None and owner in in_game else None


def deviations(rules: BoundRules, before: State, after: State, delta: Any) -> list[str]:
    out: list[str] = []
    match delta:
        case LeadDelta(lead=lead, location=loc) if loc != "box":
            others = sorted(f"{t}.{o}" for t, row in after.leads.items() for o, at in row.items()
                            if at == loc and f"{t}.{o}" != lead)
            if others:
                out.append(f"§4.15 rule 3: {lead} on {loc}, which holds {', '.join(others)}")
            home = lead_home(rules, after, lead)
            if home is None:
                out.append(f"§2 step 4: {lead} is not in this game, yet it is put on {loc}")
            elif rules.loc(home).type != rules.loc(loc).type:
                out.append(f"§4.15 rule 2: {lead} is a {rules.loc(home).type} lead; {loc} is {rules.loc(loc).type}")
        case AlibiDelta(suspect=s, amount=n) if n > 0 and not after.suspects[s].alive:
            if rules.options["alibi_on_dead"] == "reject":
                out.append(f"AMB-46: an alibi on the killed {s}")
        case HitDelta(suspect=s, amount=n) if n < 0 and not after.suspects[s].alive and after.suspects[s].hits < 3:
            out.append(f"§1.8: {s} is killed with {after.suspects[s].hits} hit(s) (three hits kill)")
        case CardDelta(zone=zone) if zone.endswith(".hand"):
            seat = zone.partition(".")[0]
            p = after.players[seat]
            limit = rules.hand_limit(p.detective or "")
            if len(p.hand) > limit and len(p.hand) > len(before.players[seat].hand):
                out.append(f"§1.3: {seat} holds {len(p.hand)} twilight cards (limit {limit})")
        case WarrantDelta(seat=seat, location=loc, action="place"):
            if not rules.loc(loc).restricted:
                out.append(f"§1.2: a warrant of {seat}'s on {loc}, which is not restricted")
            if after.players[seat].warrants.count(loc) > 1:
                out.append(f"§1.2: two of {seat}'s warrants on {loc}")
        case EventAbilityDelta(event=ev, location=loc, action="add"):
            e = rules.data.events[ev]
            if e.grants is None:
                out.append(f"§4.28: {ev} grants no ability")
            elif e.grant_location != loc:
                out.append(f"§4.28: {ev}'s ability is at {e.grant_location}, not {loc}")
    return out
