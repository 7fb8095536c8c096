"""Events in words, for transcripts and the log (``describe_event``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.engine.speech import N_, gettext, ngettext, pgettext

from . import model as m

if TYPE_CHECKING:
    from .txn import BoundRules

#: the facts said in one sentence, by tag: ``{seat}``, ``{card}`` (the card's id: whoever reads the sentence
#: gets its printed name in its place, ``name_of``), ``{where}``, ``{to}``, ``{n}``, ``{text}``, ``{source}``
_SAID = {
    "season_changed": N_("the Conspiracy deck reaches stack {text}"),
    "action_phase_began": N_("{seat}'s action phase begins"),
    "card_played": N_("{seat} plays {card}"),
    "virtual_card_played": N_("{seat} plays a copy of {text}'s {card}"),
    "points_spent": N_("{seat} spends {n} {text}"),
    "slot_scanned": N_("{seat} scans {where}"),
    "card_revealed": N_("{where}: {card} is revealed"),
    "character_recruited": N_("{seat} recruits {card}"),
    "special_agent_recruited": N_("{seat} recruits a Special Agent"),
    "fight_declared": N_("{seat} fights {card} at {where} (cost {n})"),
    "enemy_defeated": N_("{card} is defeated"),
    "leader_defeated": N_("Leader {card} leaves play"),
    "wound_added": N_("{seat} takes {card}: {n} damage"),
    "strike_missed": N_("{seat} draws {card}: a miss"),
    "strike_taken": N_("{seat} draws {card} {text}"),
    "strike_followed_up": N_("{seat}'s strike by {source} is followed up"),
    "strike_cancelled": N_("{seat} cancels {card} with {text}"),
    "strike_avoided": N_("{seat} avoids the strike with {text}"),
    "scar_added": N_("{seat} takes an unseen scar"),
    "cards_requested": N_("{seat} is to draw {n}"),
    "deck_reshuffled": N_("{seat} shuffles the discard into a new deck"),
    "turn_ended": N_("{seat}'s turn {n} ends"),
    "turn_began": N_("turn {n}: {seat} plays"),
    "the_end_began": N_("{card} is revealed: The End begins"),
    "end_game_damaged": N_("{card} takes {n} damage"),
    "end_game_defeated": N_("{card} is defeated"),
    "game_won": N_("the team wins: the End Game is defeated"),
    "doubt_gained": N_("{seat} gains a Doubt"),
    "belief_gained": N_("{seat} gains a Belief"),
    "evidence_discovered": N_("{seat} discovers evidence through {card}"),
    "evidence_collected": N_("{seat} collects {where}"),
    "ally_gained": N_("{seat} gains the Ally {card}"),
    "card_coordinated": N_("{seat} coordinates {card}"),
    "manual_effect_applied": N_("{seat} applies a declared effect of {text}"),
}
#: the facts said by their tag alone (then ``: {card}`` when they name one)
_TAGS = {
    "ability_activated": N_("ability activated"), "belief_activated": N_("belief activated"),
    "doubt_resolved": N_("doubt resolved"), "bureau_slot_refilled": N_("bureau slot refilled"),
    "fight_failed": N_("fight failed"), "event_resolved": N_("event resolved"),
    "evidence_exposed": N_("evidence exposed"), "card_sacrificed": N_("card sacrificed"),
    "vigilant_used": N_("vigilant used"), "coordinated_card_returned": N_("coordinated card returned"),
    "actions_ended": N_("actions ended"), "strike_phase_began": N_("strike phase began"),
    "strike_deck_reshuffled": N_("strike deck reshuffled"), "player_fought": N_("player fought"),
    "turn_cleaned_up": N_("turn cleaned up"), "setup_completed": N_("setup completed"),
}
#: the reasons its outcomes give that no other word names, as referee.outcome says them (through the catalog)
OUTCOME_REASONS = (N_("end game defeated"),)

#: the points a card gives and the classes and causes the facts name, by id
_WORDS = {
    "recruit": N_("recruit"), "attack": N_("attack"), "none": N_("none"), "tech": N_("tech"),
    "science": N_("science"), "intelligence": N_("intelligence"), "leadership": N_("leadership"),
    "will": N_("will"), "strike_phase": N_("strike_phase"), "end_game_strike": N_("end_game_strike"),
    "ravage": N_("ravage"), "declared_loss": N_("declared loss"), "player_defeated": N_("player defeated"),
    "strikes_exhausted": N_("strikes exhausted"), "team_defeated": N_("team defeated"), "event": N_("event"),
    "ability": N_("ability"), "belief": N_("belief"), "doubt": N_("doubt"),
    # i18n: what set a text off, by its id in English
    "bureau_slot": N_("bureau_slot"), "elude": N_("elude"), "on_play": N_("on_play"), "on_strike": N_("on_strike"),
    "strike_card": N_("strike_card"),
}


def _word(key: str) -> str:
    if key == "event":  # a card type here; "event" elsewhere is a tournament's
        return pgettext("an X-Files card type", "event")
    return gettext(_WORDS[key]) if key in _WORDS else key


def describe(rules: BoundRules, event: Any) -> str | None:  # noqa: C901 - one sentence per fact
    tag = str(type(event).__struct_config__.tag)
    if not isinstance(event, m.Fact):
        return None
    seat, card, where, n, text = event.seat, event.card, event.where, event.n, event.text
    to = getattr(event, "to", "")  # where a card moved comes to rest (the Shadows row's facts)
    source = getattr(event, "source", "")
    if tag == "strike_taken" and source and text == f"against {source}":
        return gettext("{seat} draws {card} against {source}", seat=seat, card=card, source=source)
    if tag in _SAID:
        shown = _word(text) if tag == "points_spent" else text  # the points' kind, said in words
        return gettext(_SAID[tag], seat=seat, card=card, where=where, to=to, n=n, text=shown,
                       source=source)
    said = card or gettext("a face-down card")
    match tag:
        case "conspiracy_card_placed":
            if to and to != where:
                return gettext("a Conspiracy card from stack {stack} enters {where} face down, coming to rest at {to}",
                               stack=text, where=where, to=to)
            return gettext("a Conspiracy card from stack {stack} enters {where} face down", stack=text, where=where)
        case "card_pushed":
            target = to or gettext("the left")
            if text == "ambush":
                return gettext("{card} is pushed on from {where} to {to} (ambush)", card=said, where=where, to=target)
            return gettext("{card} is pushed on from {where} to {to}", card=said, where=where, to=target)
        case "card_entered_sector":
            if where:
                return gettext("{card} enters the Sector from {where}", card=said, where=where)
            return gettext("{card} enters the Sector", card=said)
        case "end_game_moved":
            if to:
                return gettext("the End Game moves left from {where} to {to}", where=where, to=to)
            return gettext("the End Game moves left from {where}", where=where)
        case "runner_moved":
            if to:
                return gettext("{card} runs on from {where} to {to}", card=card, where=where, to=to)
            return gettext("{card} runs on from {where}", card=card, where=where)
        case "clone_placed":
            return gettext("the Clone is placed face down at {to}", to=to or gettext("the Shadows"))
        case "points_gained":
            kind, colon, why = text.partition(":")
            if colon:
                return gettext("+{n} {kind} ({why})", n=n, kind=_word(kind), why=_word(why))
            return gettext("+{n} {kind}", n=n, kind=_word(kind))
        case "card_defeated":
            if text:
                return gettext("{card} is defeated ({why})", card=card, why=text)
            return gettext("{card} is defeated", card=card)
        case "strike_due":
            if card:
                return gettext("{seat} is struck by {card} ({why})", seat=seat, card=card, why=_word(text))
            return gettext("{seat} is struck ({why})", seat=seat, why=_word(text))
        case "player_defeated":
            if text:
                return gettext("{seat} is defeated: {why}", seat=seat, why=text)
            return gettext("{seat} is defeated", seat=seat)
        case "cards_drawn":
            return ngettext("{seat} draws {n} card(s)", "{seat} draws {n} card(s)", n, seat=seat)
        case "game_lost":
            return gettext("the team loses ({why})", why=_word(text) if text in _WORDS else text.replace("_", " "))
        case "effect_resolved":
            if card:
                return gettext("a text is resolved ({text}): {card}", text=_word(text), card=card)
            return gettext("a text is resolved ({text})", text=_word(text))
    words = gettext(_TAGS[tag]) if tag in _TAGS else tag.replace("_", " ")
    return words + (f": {card}" if card else "")
