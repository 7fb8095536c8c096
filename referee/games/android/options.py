"""Match options: every ambiguity of spec §7.3 that has an option, with its default ruling first."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.decision import FLAG, option
from referee.engine.protocol import OptionSpec
from referee.engine.speech import N_

_o = option
_F = (False, True)

OPTIONS: tuple[OptionSpec, ...] = (
    _o("map", "", (), N_("AMB-01: the map_id in the data set (empty: its first map)"), "§1.5"),
    _o("mode", "physical", ("physical", "digital"), N_("§1.11: chance typed in, or drawn from the seed"), "§1.11"),
    _o("reach_check", "geometry", ("geometry", "explicit", "trust"),
       N_("AMB-03: ruler reach by points, by the map's reach lists, or trusted and flagged"), "«ДВИЖЕНИЕ»"),
    _o("warrant_scope", "own", ("own", "any"), N_("AMB-04: whose warrant avoids the restricted surcharge"), "«ЗАПРЕЩЕННЫЕ ЛОКАЦИИ»"),
    _o("restricted_surcharge_dropship", True, FLAG, N_("AMB-05: the surcharge applies to dropship arrivals"), "§4.12"),
    _o("restricted_surcharge_beanstalk", True, FLAG, N_("AMB-05: the surcharge applies to Beanstalk steps"), "§4.11"),
    _o("free_draw_timing", "immediately_after_entry", ("immediately_after_entry", "any_time_this_turn"),
       N_("AMB-08: when the free draw on entering may be taken"), "«ВХОД НА ЗАХУДАЛЫЕ И РОСКОШНЫЕ ЛОКАЦИИ»"),
    _o("reshuffle_before_draw", True, FLAG, N_("AMB-10: a deck of face-up discards only is reshuffled before a draw"), "§4.22"),
    _o("played_card_destination", "bottom_of_origin_deck", ("bottom_of_origin_deck", "out_of_game"),
       N_("AMB-11: where a played twilight card goes"), "§4.24"),
    _o("overpay", "reject", ("reject", "clamp"), N_("AMB-13: paying past the end of the twilight track"), "§4.24"),
    _o("dark_card_timing", "owner_turn_only", ("owner_turn_only", "any_other_turn"),
       N_("AMB-14: a dark card only in the turn of the detective whose deck it came from"), "§4.25"),
    _o("auto_end_turn", False, _F, N_("AMB-16: the turn ends by itself at 0 TIME once nothing is pending (and no free draw is open)"), "§3.2"),
    _o("jump_when_holding", "reject", ("reject", "allow"), N_("AMB-17: get a jump while your marker is on the scene"), "§4.26"),
    _o("ability_limit", "per_location", ("per_location", "one_per_round"), N_("AMB-18: location abilities per round"), "§4.27"),
    _o("lead_without_destination", "remove", ("remove", "stay"), N_("AMB-19: a lead with no legal destination"), "§4.14"),
    _o("empty_evidence_pile", "reject", ("reject",), N_("AMB-22: drawing from an empty evidence pile"), "§4.16"),
    _o("perjury_value", 0, (), N_("AMB-23: a perjury token's own value"), "§1.8"),
    _o("alibi_in_file", False, (False,), N_("AMB-24: alibis lie on the sheet, in no file"), "§1.8"),
    _o("perjury_timing", "after_discards", ("after_discards", "before_discards"), N_("AMB-25: perjury conversion order"), "§6.2"),
    _o("single_token_discard", True, FLAG, N_("AMB-26: a strong/weak file with one token loses it"), "§6.2"),
    _o("killer_tie", "no_killer", ("no_killer", "all_tied"), N_("AMB-27: a tie for the highest positive total"), "§6.2"),
    _o("dead_can_be_killer", False, _F, N_("AMB-27: killed suspects may be the killer"), "§6.2"),
    _o("dig_deeper_rule", "advance_marker", ("advance_marker", "manual"), N_("AMB-28: what digging deeper does"), "§4.19"),
    _o("least_valuable_nonempty", True, FLAG, N_("AMB-29: 'least valuable pile' skips empty piles"), "§4.18"),
    _o("marker_advance_fallback", "least_valuable_nonempty", ("least_valuable_nonempty", "box"),
       N_("AMB-30: where markers go when no more valuable pile holds pieces"), "§4.18"),
    _o("baggage_pool", "shared", ("shared",), N_("AMB-32: one pool of 45 baggage tokens"), "§1.10"),
    _o("puzzle_rotation", True, FLAG, N_("AMB-33: pieces may be rotated"), "§4.21"),
    _o("bonus_on_discard", True, FLAG, N_("AMB-34: piece bonuses also on discard"), "§4.21"),
    _o("end_of_day_actor", "first_player", ("first_player", "any"), N_("AMB-36: who resolves end-of-day items"), "§3.4"),
    _o("empty_general_deck", "skip", ("skip",), N_("AMB-37: general event deck exhausted"), "§4.31"),
    _o("week_two_relocation", "murder_sheet", ("murder_sheet", "none"), N_("AMB-38: Lily and Jimmy in week two"), "§3.4"),
    _o("floyd_start_favor", "chairman_haas", ("chairman_haas", "director_hiro"), N_("AMB-40: 'Director Haas'"), "step 13"),
    _o("bank_limits", "hard", ("hard", "unlimited"), N_("AMB-41: banks are hard limits"), "§1.2"),
    _o("alibi_supply", 12, (12, 11), N_("AMB-42: alibi tokens in the game"), "§1.2"),
    _o("spent_to_bank", True, (True,), N_("AMB-44: spent favors go back to their bank"), "§1.10"),
    _o("time_modifier_timing", "next_turn_start", ("next_turn_start",), N_("AMB-45: TIME modifiers apply from the next turn"), "§3.2"),
    _o("alibi_on_dead", "reject", ("reject", "allow"), N_("AMB-46: an alibi on a killed suspect"), "§4.28"),
    _o("memory_card_visibility", "holder", ("holder", "public"), N_("AMB-48: who sees a held memory card"), "§1.11"),
    _o("undealt_hunches", "box", ("box",), N_("AMB-49: the undealt hunches"), "step 8"),
    _o("final_tie", "shared", ("shared",), N_("AMB-53: a tie on VP"), "§6.3"),
    _o("closing_reveal", "all", ("all", "evidence_only"), N_("AMB-55: what is revealed when the game ends"), "§6.1"),
    _o("token_vp", {"haas": 1, "jinteki": 1, "conspiracy": 1}, (), N_("AMB-56: VP of each Haas, Jinteki, conspiracy token"), "§6.3",
       of="int"),
)


def option_specs() -> Mapping[str, OptionSpec]:
    return {o.name: o for o in OPTIONS}


def resolved(given: Mapping[str, Any]) -> dict[str, Any]:
    return {o.name: given.get(o.name, o.default) for o in OPTIONS}
