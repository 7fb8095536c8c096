"""The declared-effect vocabulary (§4.25, §4.26): what a ``manual_effect_applied``'s paths may name.

A declared effect is the one X-Files event that keeps state paths for good (issue 28 item 5): a card's
text the referee does not have is played as the changes the player states, so the event records them
as paths (``players.alice``, ``turn.attack``) with their new values. What those paths and values mean
is fixed here, as data: the top-level parts of the state a declaration may change (any part of the
table, never the match's options), and the fields of every record a path or its value holds. A stored
declared effect says the vocabulary it was written in (``ManualEffectApplied.paths``); a renamed,
added or removed field changes what stored paths mean, so it bumps :data:`MANUAL_VOCABULARY` and brings
an upcast of the older paths with it. ``tests/test_xfiles_events.py`` holds this listing to the state's
records, so such a change cannot pass unnoticed.
"""

from __future__ import annotations

#: the vocabulary a declared effect's paths are written in
MANUAL_VOCABULARY = 1

#: every record a declared path or its value holds, by its class in :mod:`.state`, and its fields (as
#: encoded); ``State``'s are the top-level parts a declaration may change
MANUAL_RECORDS: dict[str, tuple[str, ...]] = {
    "AcademyDeck": ("characters", "count", "syndicate_seen"),
    "Audit": ("declared",),
    "CloneEvidence": ("card", "priority"),
    "ConspiracyDeck": ("segments",),
    "Draws": ("drawn", "shuffles"),
    "Evidence": ("card", "in_end_game", "leader", "locked", "state"),
    "GameOutcome": ("reason", "result", "winners"),
    "Pending": ("count", "group", "kind", "location", "origin", "reason", "seat", "source", "strike_no", "strikes",
                "trigger"),
    "PlayEntry": ("activated", "card", "virtual_of"),
    "Played": ("card", "class"),
    "Player": ("avatar", "climax", "coordinated_out", "deck", "defeated", "discard", "hand", "known_top", "play",
               "scars", "skip_next_turn", "symptoms", "vigilant", "wounds"),
    "Segment": ("cards", "label", "quota", "remaining", "seasons", "seen"),
    "Slot": ("attached", "beneath", "card", "origin", "revealed_before", "state", "via_x"),
    "SpecialAgents": ("cards",),
    "State": ("academy_deck", "audit", "belief_stack", "bureau", "climax_dealt", "clone_evidence", "conspiracy_deck",
              "defeated_characters", "defeated_conspiracy", "doubt_stack", "draws", "end_game_damage",
              "end_game_strikes", "evidence", "outcome", "pending", "players", "revealed_before", "season", "seats",
              "sector", "shadows", "special_agents", "status", "strike_deck", "strike_discard", "the_end", "turn",
              "x_leader"),
    "StrikeDeck": ("blind", "cards"),
    "Turn": ("attack", "avoid_used", "belief_card_activated", "belief_text_resolved", "beliefs_played",
             "coordinate_forbidden", "coordinated", "doubt_resolved", "end_game_fights", "fight_target", "grants",
             "groups", "lessons_resolved", "number", "phase", "play_log", "played_classes", "recruit", "seat",
             "solo_coordinated", "step", "strike_queue", "virtual_played"),
}

#: the top-level parts of the state a declaration may change (a path goes at most one level further:
#: ``turn.attack``, ``players.alice``)
MANUAL_PATHS = frozenset(MANUAL_RECORDS["State"])
