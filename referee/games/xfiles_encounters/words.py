"""Events in words, for transcripts and the log (``describe_event``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import model as m

if TYPE_CHECKING:
    from .txn import BoundRules


def describe(rules: BoundRules, event: Any) -> str | None:
    tag = str(type(event).__struct_config__.tag)
    if not isinstance(event, m.Fact):
        return None
    seat, card, where, n, text = event.seat, event.card, event.where, event.n, event.text
    to = getattr(event, "to", "")  # where a card moved comes to rest (the Shadows row's facts)
    name = card  # whoever reads the sentence gets the card's printed name in its place (``name_of``)
    words = {
        "conspiracy_card_placed": f"a Conspiracy card from stack {text} enters {where} face down" + (
            f", coming to rest at {to}" if to and to != where else ""),
        "card_pushed": f"{name or 'a face-down card'} is pushed on from {where} to {to or 'the left'}"
                       + (" (ambush)" if text == "ambush" else ""),
        "card_entered_sector": f"{name or 'a face-down card'} enters the Sector" + (f" from {where}" if where else ""),
        "season_changed": f"the Conspiracy deck reaches stack {text}",
        "end_game_moved": f"the End Game moves left from {where}" + (f" to {to}" if to else ""),
        "runner_moved": f"{name} runs on from {where}" + (f" to {to}" if to else ""),
        "clone_placed": f"the Clone is placed face down at {to or 'the Shadows'}",
        "action_phase_began": f"{seat}'s action phase begins",
        "card_played": f"{seat} plays {name}",
        "virtual_card_played": f"{seat} plays a copy of {text}'s {name}",
        "points_gained": f"+{n} {text.replace(':', ' (')}{')' if ':' in text else ''}",
        "points_spent": f"{seat} spends {n} {text}",
        "slot_scanned": f"{seat} scans {where}",
        "card_revealed": f"{where}: {name} is revealed",
        "character_recruited": f"{seat} recruits {name}",
        "special_agent_recruited": f"{seat} recruits a Special Agent",
        "fight_declared": f"{seat} fights {name} at {where} (cost {n})",
        "enemy_defeated": f"{name} is defeated",
        "card_defeated": f"{name} is defeated" + (f" ({text})" if text else ""),
        "leader_defeated": f"Leader {name} leaves play",
        "strike_due": f"{seat} is struck" + (f" by {name}" if card else "") + f" ({text})",
        "wound_added": f"{seat} takes {name}: {n} damage",
        "strike_missed": f"{seat} draws {name}: a miss",
        "strike_taken": f"{seat} draws {name} {text}",
        "strike_followed_up": f"{seat}'s strike by {getattr(event, 'source', '')} is followed up",
        "strike_cancelled": f"{seat} cancels {name} with {text}",
        "strike_avoided": f"{seat} avoids the strike with {text}",
        "scar_added": f"{seat} takes an unseen scar",
        "player_defeated": f"{seat} is defeated" + (f": {text}" if text else ""),
        "cards_requested": f"{seat} is to draw {n}",
        "cards_drawn": f"{seat} draws {n} card(s)",
        "deck_reshuffled": f"{seat} shuffles the discard into a new deck",
        "turn_ended": f"{seat}'s turn {n} ends",
        "turn_began": f"turn {n}: {seat} plays",
        "the_end_began": f"{name} is revealed: The End begins",
        "end_game_damaged": f"{name} takes {n} damage",
        "end_game_defeated": f"{name} is defeated",
        "game_won": "the team wins: the End Game is defeated",
        "game_lost": f"the team loses ({text.replace('_', ' ')})",
        "doubt_gained": f"{seat} gains a Doubt",
        "belief_gained": f"{seat} gains a Belief",
        "evidence_discovered": f"{seat} discovers evidence through {name}",
        "evidence_collected": f"{seat} collects {where}",
        "ally_gained": f"{seat} gains the Ally {name}",
        "card_coordinated": f"{seat} coordinates {name}",
        "effect_resolved": f"a text is resolved ({text})" + (f": {name}" if card else ""),
        "manual_effect_applied": f"{seat} applies a declared effect of {text}",
    }
    return words.get(tag, tag.replace("_", " ") + (f": {name}" if name else ""))
