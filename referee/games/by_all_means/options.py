"""Match options: every ambiguity of the rules spec (section 6, A-01..A-57) with its default ruling
first, and the rule parameters. ``--option name=value`` at creation; scenario ``[options]``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.decision import FLAG, option
from referee.engine.protocol import OptionSpec
from referee.engine.speech import N_


_o = option  # the engine's option builder


_B = FLAG

OPTIONS: tuple[OptionSpec, ...] = (
    _o("field_orientation", "3x4", ("3x4", "4x3"), N_("A-01: 3 columns x 4 rows (players at the 3-cell edges), or 4x3"), "R-SETUP"),
    _o("max_copies", 2, (2, 3), N_("A-02: copies of one card id allowed in a deck"), "R-SETUP"),
    _o("combination_table", "reference", ("reference", "card_set"),
       N_("A-03: symbol pair -> effect table; card_set is automatic when the card set has [[combination]]"), "R-COMBO-TABLE"),
    _o("inspire_own_delta", 2, (2, -2), N_("A-04: inspire's change to your own territory (a table entry's own_delta wins)"), "R-COMBO-TABLE"),
    _o("untap_at_turn_start", True, _B, N_("A-05: the active player's agents untap when their turn begins"), "R-AGENTS"),
    _o("single_card_digits", True, _B, N_("A-06: one card may make 7, 9, 11 or 13 (5 always needs two)"), "R-DIGITS"),
    _o("price_shortfall", "reject", ("reject", "trust"), N_("A-07: paying more than your reputation is refused, or the rest comes from trust"), "R-COUNTERS"),
    _o("excess_reputation", "incremental", ("incremental", "total"), N_("A-08: trust lost above 21: only the part this gain created, or the whole excess"), "R-COUNTERS"),
    _o("negative_loyalty_penalty", "incremental", ("incremental", "full_on_decrease"),
       N_("A-09: reputation lost when loyalty goes below 0: the newly negative part, or the full negative value on every drop"), "R-TERRITORY-ORDER"),
    _o("influence_reversal", "printed", ("printed", "actual"),
       N_("A-10: red influence given back when its object leaves: as printed, or what was actually taken"), "R-TERRITORY"),
    _o("simultaneous_win", "draw", ("draw", "active_player", "non_active_player"), N_("A-11: both players meet a winning condition"), "R-VICTORY"),
    _o("full_field_tie", "draw", ("draw", "continue"), N_("A-12: 12 territories with equal loyalty totals"), "R-VICTORY"),
    _o("status_check", "end_of_turn", ("end_of_turn", "immediate"), N_("A-13: the status check runs only at step 12, or also after every accepted intent"), "R-VICTORY"),
    _o("attack_agent_extra", True, _B, N_("A-14: attacking an agent may use the extra action"), "R-EXTRA"),
    _o("agent_attack_kinds", "merged", ("merged", "distinct"), N_("A-15: both attacks are one kind of agent action, or two"), "R-AGENT-DEFAULTS"),
    _o("mixed_field_sources", False, _B, N_("A-16: field symbols may pair with hand or buffer symbols"), "R-SYMBOLS"),
    _o("hand_to_field_symbols", "printed", ("printed", "none"), N_("A-17: a card entering the field from hand gets its printed symbols as tokens"), "R-BUFFER"),
    _o("double_agent_pair", "one_object", ("one_object", "two_objects"), N_("A-18: double agents count as one object in a field combination"), "R-DOUBLE"),
    _o("agent_limit_discard", "whole_stack", ("whole_stack", "shadow_first"), N_("A-19: the agent given up for the limit leaves with its shadow"), "R-GRAFFIGENTS"),
    _o("shadow_saves_from_territory", True, _B, N_("A-20: an opponent's territory entering a shadowed agent's cell kills only the shadow"), "R-SHADOW"),
    _o("flip_collision", "to_utility", ("to_utility", "coexist"),
       N_("A-21: a face-down graffiti agent flipping onto a cell with an agent goes to utility, or stays face up in the graffiti slot"), "R-GRAFFIGENTS"),
    _o("orphan_graffiti", "to_utility", ("to_utility", "remain"), N_("A-22: a face-up graffiti whose territory leaves"), "R-GRAFFITI"),
    _o("graffiti_price", "card_price", ("card_price", "free"), N_("A-23: a graffiti costs its X/Y price"), "R-ACTIONS"),
    _o("slander_extra_requires_agent", True, _B, N_("A-24: 'lose an extra action' only for a player who controls an agent"), "R-COMBO-LEGALITY"),
    _o("restoration_full_buffer", "illegal", ("illegal", "no_effect"), N_("A-25: restoration with a full buffer"), "R-COMBO-LEGALITY"),
    _o("partial_archive_moves", "allow", ("allow", "require_full"), N_("A-26: info leak / download on an archive with fewer cards than the text says"), "R-COMBO-LEGALITY"),
    _o("download_placement", "top", ("top", "bottom", "shuffle"), N_("A-27: where downloaded cards go in the main archive"), "R-COMBO-TABLE"),
    _o("reaction_timing", "end_step", ("end_step", "after_status_check"),
       N_("A-28: reactions in step end (before overpopulation..status check), or after the status check"), "R-OPP-TURN"),
    _o("free_ability_turns_agent", True, _B, N_("A-29: an agent using a free activated ability turns"), "R-ICONS"),
    _o("discard_zones_default", "hand", ("hand", "anywhere"), N_("A-30: where 'Discard this card' works when the card data does not say"), "R-DISCARD"),
    _o("repeat_rule", "effect_and_objects", ("effect_and_objects", "effect_and_card_ids", "off"),
       N_("A-31: what makes a combination 'the same with the same cards' in one turn"), "R-BUFFER"),
    _o("trust_cap", "none", ("none", "10"), N_("A-32: upper bound of trust"), "R-COUNTERS"),
    _o("recenter_when_empty", True, _B, N_("A-33: a territory on an empty field must go on a central cell"), "R-FIELD"),
    _o("arrow_frame", "controller", ("controller", "owner"), N_("A-34: arrows are read in the controller's frame, or the owner's"), "R-IMPACT"),
    _o("territory_on_enemy_agent", "destroys", ("destroys", "forbidden"), N_("A-35: a territory placed on an opponent's agent sends it to utility, or is not allowed"), "R-AGENTS"),
    _o("agent_free_cell", "no_territory_no_agent", ("no_territory_no_agent", "fully_empty"),
       N_("A-36: an agent's 'empty cell' has no territory and no agent, or nothing at all"), "R-AGENTS"),
    _o("face_down_price", "card_price", ("card_price", "free"), N_("A-37: a face-down graffiti agent costs its X/Y price"), "R-GRAFFIGENTS"),
    _o("field_lilac", "inert", ("inert", "choose_on_entry"),
       N_("A-38: a printed lilac entering the field from hand stays inert, or becomes the symbol named in lilac_as"), "R-SYMBOLS"),
    _o("plot_precondition", "declared_changes", ("declared_changes", "audit_only"),
       N_("A-39: a plot whose declared changes cannot all be applied is refused, or played with those items skipped and flagged"), "R-PLOTS"),
    _o("utilize_empty_main", "allow_no_draw", ("allow_no_draw", "reject"), N_("A-40: utilization with an empty main archive"), "R-UTILIZE"),
    _o("buffer_capacity_check", "after_departures", ("after_departures", "before_action"),
       N_("A-41: slots freed by this action's buffer cards may be reused by its hand cards"), "R-BUFFER"),
    _o("start_draw_short", "draw_available", ("draw_available", "skip"), N_("A-42: empty hand at turn start with fewer than 2 cards in the main archive"), "R-HAND"),
    _o("on_leave_before_status_check", False, _B,
       N_("A-43: close_turn pauses (decision on_leave_window) so culled cards' on-leave texts come before the status check"), "R-ICONS"),
    _o("buffer_public", True, _B, N_("A-44: buffers are public"), "R-BUFFER"),
    _o("sabotage_chooser", "target", ("target", "actor"), N_("A-45: who picks the two cards sabotage discards"), "R-COMBO-TABLE"),
    _o("impact_on_leave", "keep", ("keep", "revert"), N_("A-46: impacts are one-time, or undone when the territory that made them leaves"), "R-IMPACT"),
    _o("machinations_move_scope", "any_field_objects", ("any_field_objects", "own_objects"), N_("A-47: machinations' symbol move"), "R-DIGITS"),
    _o("agent_limit_order", "replace_first", ("replace_first", "place_first"), N_("A-48: the replaced agent leaves before the new one enters"), "R-GRAFFIGENTS"),
    _o("reaction_limit", 2, (), N_("A-49: reactions per opponent turn"), "R-OPP-TURN"),
    _o("forced_discard_triggers", False, _B, N_("A-50: cards discarded by sabotage give their 'Discard this card' effect (declared)"), "R-DISCARD"),
    _o("first_turn_extra", True, _B, N_("A-51: the first player's first turn has the extra action"), "R-SETUP"),
    _o("neutral_lilac_pair", "allowed", ("allowed", "forbidden"), N_("A-52: the neutral combination's second symbol may itself be lilac"), "R-NEUTRAL-COMBO"),
    _o("archive_tracking", "pool", ("pool", "exact"),
       N_("A-53: pool = any unseen card may be drawn (physical chance); exact = ordered archives (digital; the default there)"), "R-ARCHIVES"),
    _o("face_down_counts_as_graffiti", True, _B, N_("A-54: a face-down graffiti agent counts as a graffiti for the resilience bonus"), "R-GRAFFIGENTS"),
    _o("object_influence", "all_field_cards", ("all_field_cards", "territories_only"), N_("A-55: which field cards' printed influence applies"), "R-TERRITORY"),
    _o("buffer_abilities", False, _B, N_("A-56: buffer cards may use activated abilities"), "R-OBJECTS"),
    _o("cull_scope", "both", ("both", "active_only"), N_("A-57: culling at the end of a turn removes both players' territories, or the active player's"), "R-EFFECT-ORDER"),
    # rule parameters (variants and tests)
    _o("deck_size", 40, (), N_("cards in a deck"), "R-SETUP"),
    _o("extra_archive_size", 15, (), N_("cards dealt to the extra archive (the rest go to the main archive)"), "R-ARCHIVES"),
    _o("opening_hand", 4, (), N_("cards in the opening hand"), "R-SETUP"),
    _o("max_mulligan", 4, (), N_("cards a mulligan may return"), "R-SETUP"),
    _o("start_reputation", 6, (), N_("starting reputation"), "R-SETUP"),
    _o("start_influence", 0, (), N_("starting influence"), "R-SETUP"),
    _o("start_trust", 10, (), N_("starting trust"), "R-SETUP"),
    _o("influence_to_win", 10, (), N_("influence that wins at a status check"), "R-COUNTERS"),
    _o("excess_threshold", 21, (), N_("reputation above which gains cost trust"), "R-COUNTERS"),
    _o("overpopulation_threshold", 5, (), N_("loyalty above which a territory costs reputation at the end of its controller's turn"), "R-OVERPOP"),
    _o("empty_main_penalty", 3, (), N_("reputation lost at the end of a turn with an empty main archive"), "R-ARCHIVES"),
    _o("empty_hand_draw", 2, (), N_("cards drawn at the start of a turn with an empty hand"), "R-HAND"),
    _o("buffer_slots", 2, (1, 2, 3, 4), N_("buffer slots (buf1, buf2, ...)"), "R-BUFFER"),
    _o("agent_limit", 2, (), N_("face-up agents a player may control"), "R-GRAFFIGENTS"),
    _o("reaction_window", True, _B, N_("step end exists (reactions, end-of-turn texts); false = end_turn closes the turn at once"), "R-OPP-TURN"),
)

OPTION_MAP: Mapping[str, OptionSpec] = {o.name: o for o in OPTIONS}

_NON_NEGATIVE = ("deck_size", "extra_archive_size", "opening_hand", "max_mulligan", "start_reputation",
                 "start_influence", "start_trust", "influence_to_win", "excess_threshold",
                 "overpopulation_threshold", "empty_main_penalty", "empty_hand_draw", "agent_limit",
                 "reaction_limit")


def resolve(given: Mapping[str, Any]) -> dict[str, Any]:
    """Every option's value for a match: the given ones over the defaults. Raises ValueError."""
    values: dict[str, Any] = {o.name: o.default for o in OPTIONS}
    for key, raw in given.items():
        spec = OPTION_MAP.get(key)
        if spec is None:
            raise ValueError(f"by_all_means has no option {key!r}")
        values[key] = spec.parse(raw)
    for key in _NON_NEGATIVE:
        if values[key] < 0:
            raise ValueError(f"option {key} must be 0 or more, not {values[key]}")
    if values["extra_archive_size"] > values["deck_size"]:
        raise ValueError("option extra_archive_size cannot exceed deck_size")
    if values["agent_limit"] < 1:
        raise ValueError("option agent_limit must be at least 1")
    return values
