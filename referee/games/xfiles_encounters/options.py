"""Match options (spec §2.1 and the ambiguities of §7): the default ruling first, then the others.

The spec calls ``bureau_scan_costs`` and ``shadows_scan_costs`` required (the rulebook prints no mat
values); here they default to the fixture's ``1,1,1,2,2`` so a match can be created without them.
``avatars`` and ``academy_characters`` left empty mean: drawn from the seed in a digital match, the
first-game roster (§2.5) in a recorded one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.decision import FLAG, option
from referee.engine.protocol import OptionSpec
from referee.engine.speech import N_

from .data import ACADEMY, AVATARS, BUCKETS

_B = (False, True)

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(name="avatars", default={}, choices=AVATARS, help=N_("R07: avatar per seat (alice:skinner,bob:mulder); "
               "empty = drawn (digital) or the first-game roster (recorded)"), rule="R07"),
    OptionSpec(name="academy_characters", default=(), choices=ACADEMY, help=N_("R11: the four Academy characters; "
               "empty = drawn (digital) or burks,follmer,pendrell,lone_gunmen (recorded)"), rule="R11"),
    option("conspiracy_method", "standard", ("standard", "random", "all_seasons"), N_("R10: how season stacks are chosen"), "R10"),
    OptionSpec(name="seasons", default=(1, 2, 3), of="int", choices=(1, 2, 3, 4, 5, 6, 7, 8, 9),
               help=N_("R10: the A, B and C seasons"), rule="R10"),
    OptionSpec(name="bureau_scan_costs", default=(1, 1, 1, 2, 2), of="int", help=N_("G01: Recruit to scan bureau.1-5"), rule="R21"),
    OptionSpec(name="shadows_scan_costs", default=(1, 1, 1, 2, 2), of="int", help=N_("G01: Attack to scan shadows.1-5"), rule="R24"),
    OptionSpec(name="bureau_slot_texts", default=("", "", "", "", ""), help=N_("G02: ability text of each Bureau slot "
               "(empty = none; write - for none in a list)"), rule="R22"),
    option("open_hands", True, FLAG, N_("§1.8: every seat sees every hand"), "R49"),
    option("informants_per_stack", 1, (), N_("R47: Informants per season stack (easier: 2)"), "R47"),
    option("syndicate_in_academy", 6, (0, 1, 2, 3, 4, 5, 6), N_("R47: Syndicate Agents in the Academy"), "R11"),
    option("starting_beliefs", 0, (0, 1, 2), N_("R47: Beliefs in each starting deck"), "R47"),
    option("bureau_revealed_before_syndicate", False, _B, N_("R47: easier Bureau set-up"), "R47"),
    option("no_death", False, _B, N_("R47: before The End a player is saved once per defeat by damage"), "R47"),
    option("series_game", 0, (0, 1, 2, 3), N_("R48: 0 = standalone; 1-3 a series game"), "R48"),
    option("series_keep_scars", False, _B, N_("R48: scars carry over"), "R48"),
    option("series_this_time_card", False, _B, N_("R48: add This Time They May Have Won"), "R48"),
    option("series_points", 0, (), N_("R48: the series score before this game (carried by referee new --continue-from)"), "R48"),
    option("series_previous", "", ("", "won", "lost"), N_("R48: the previous game's result (carried)"), "R48"),
    OptionSpec(name="series_climax_dealt", default=(), help=N_("R48: climax cards dealt after earlier games (carried)"),
               rule="R48"),
    OptionSpec(name="series_scars", default={}, of="int", help=N_("R48: scars each avatar keeps (carried with "
               "series_keep_scars)"), rule="R48"),
    option("sector_entry_side", "left", ("left", "right"), N_("B01: where a card enters the Sector"), "R15"),
    option("auto_pay_order", "none,intelligence,leadership,science,tech,will", (), N_("B02: buckets a payment takes from"), "R43"),
    option("end_game_moves_on_entry", False, _B, "B03", "R36"),
    option("board_checks_after_draw", True, FLAG, "B04", "R35"),
    option("elude_triggers_on_defeat", False, _B, "B05", "R43"),
    option("cancel_keeps_on_strike", True, FLAG, "B06", "R34"),
    option("range_after_sector", True, FLAG, "B07", "R43"),
    option("hidden_keywords_active", False, _B, "B08", "R41"),
    option("defeated_player_strikes_to", "strike_discard", ("strike_discard", "box"), "B09", "R32"),
    option("swift_failure_refund", False, _B, "B10", "R43"),
    option("season_cards_kept", "random", ("random", "chosen"), N_("B11: chosen = the cards named by kept_season_cards"), "R10"),
    OptionSpec(name="kept_season_cards", default=(), help=N_("B11 with season_cards_kept=chosen: the season cards kept "
               "in the stacks, k = 6 + players per stack (a stack's by their seasons), an id per copy"), rule="R10"),
    option("first_game_roster", "first_n", ("first_n",), "B12", "R06"),
    option("evidence_order", "priority_ascending", ("priority_ascending", "chosen"), N_("B13: chosen = discover_evidence "
           "names the slot (evidence=evidence.P)"), "R30"),
    option("exposed_counts_as_discovered", False, _B, "B14", "R48"),
    option("evidence_phase", "action", ("action", "any"), "B15", "R30"),
    option("coordinate_window", "any_phase", ("any_phase", "action_only"), "B16", "R42"),
    option("virtual_defeat_hits_owner", True, FLAG, "B17", "R44"),
    option("clone_must_be_defeated", True, FLAG, "B18", "R45"),
    option("ravage_multi_strike", False, _B, "B19", "R43"),
    option("maul_without_strikes", "loss", ("loss", "skip"), "B20", "R44"),
    option("climax_deal", "own_avatar", ("own_avatar", "mixed"), "B21", "R48"),
    option("sacrifice_from_hand", False, _B, "B22", "R42"),
    option("class_combo_timing", "before_use", ("before_use", "before_play"), "B23", "R18"),
    option("end_game_fights_per_turn", 0, (), N_("B24: 0 = unlimited"), "R39"),
    option("defeated_current_player", "end_turn", ("end_turn",), "B25", "R32"),
    option("strike_reshuffle_timing", "on_draw", ("on_draw", "on_empty"), "B26", "R44"),
    option("avoid_limit", "per_source", ("per_source", "per_player"), "B27", "R44"),
    option("mulder_solo_forbids", "play", ("play", "play_and_coordinate"), "B28", "R46"),
    option("on_reveal_repeats", True, FLAG, "B29", "R41"),
    option("ambush_in_bureau", False, _B, "B31", "R43"),
    option("require_effect_resolution", True, FLAG, "B33", "R41"),
)


#: options added after the first rules version: kept out of a match's state unless given, so a match
#: that does not use them keeps the state (and the state hashes) it always had
LATE = frozenset({"kept_season_cards", "series_points", "series_previous", "series_climax_dealt", "series_scars"})


def option_specs() -> Mapping[str, OptionSpec]:
    return {o.name: o for o in OPTIONS}


def resolved(given: Mapping[str, Any]) -> dict[str, Any]:
    """Every option's value (the given ones, the defaults for the rest), as plain JSON values."""
    out: dict[str, Any] = {}
    for o in OPTIONS:
        if o.name in LATE and o.name not in given:
            continue
        value = given.get(o.name, o.default)
        out[o.name] = list(value) if isinstance(value, tuple) else dict(value) if isinstance(value, dict) else value
    return out


def pay_order(options: Mapping[str, Any]) -> list[str]:
    order = [b for b in str(options.get("auto_pay_order", "")).split(",") if b in BUCKETS]
    return order + [b for b in BUCKETS if b not in order]
