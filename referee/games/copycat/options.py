"""Copycat's match options: every ambiguity of spec §7 as a named option, its default ruling first.

An option whose other readings are not built offers its default only (``choices`` of one value):
``short_draw``, ``empty_supply``, ``keep_scope`` and ``trash_before_lay_down``; a match can name it, and
asking for another reading is refused at creation (``match/bad_option``, naming the values supported).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.decision import FLAG, by_name, option
from referee.engine.protocol import ConfigError, OptionSpec
from referee.engine.speech import N_

from .codes import Code

_OPTIONS = (
    option("round1_blue_only", False, FLAG, N_("in round 1 only blue offices may receive workers"), "§7 A1"),
    option("shuffle_offices_within_department", True, FLAG,
           N_("office cards are shuffled within a department (false: catalogue order)"), "§7 A6"),
    option("office_departments", (3, 3, 2, 2, 1), of="int", help=N_("department sizes (a catalogue check only)"),
           rule="§7 A7"),
    option("doctorate_cost", 0, help=N_("printed cost of a doctorate (plus the slot surcharge)"), rule="§7 A9"),
    option("street_cleanup_slots", {"2": 3, "3": 2, "4": 1}, of="int",
           help=N_("unsold street slots removed at clean-up, by player count"), rule="§7 A10"),
    option("pass_is_final", True, FLAG, N_("a pass ends the seat's placements for the phase (false: until "
           "another worker is placed; the phase ends when every seat has passed since the last placement)"), "§7 A11"),
    option("elbows_mode", "permit", ("permit", "extra_placement"),
           N_("Sharpen your Elbows: a permit for one placement (extra_placement: and one more placement)"), "§7 A12"),
    option("elbow_scope", "turn", ("turn", "phase"), N_("an elbow permit lasts this turn (phase: unused permits "
           "carry to the seat's next turns of the actions phase)"), "§7 A12"),
    option("elbow_into_own_office", False, FLAG, N_("an elbowed office may hold your own worker"), "§7 A12"),
    option("board_full_ends_placement", False, FLAG, N_("phase 2 ends once no office is empty"), "§7 A13"),
    option("phase2_office_use_any_turn", False, FLAG,
           N_("an office placed on earlier this round may be used in a later phase-2 turn"), "§7 A14"),
    option("duplicate_coins_doublable", False, FLAG, N_("coins of copies and second office uses may be doubled"),
           "§7 A15"),
    option("donation_cards_count_in_phase3", False, FLAG, N_("money cards spent on Donations pay again in phase 3"),
           "§7 A16"),
    option("donation_payment_offices", ("gain_coins",), of="str", choices=("gain_coins", "trash_for_coins"),
           help=N_("office kinds that pay for Donations (trash_for_coins: its cards named in args.cards, +1 coin each)"),
           rule="§7 A17"),
    option("garden_party_in_phase2", False, FLAG, N_("a Garden party among the Donations pay_cards adds the payment's "
           "coins once more (at most doubling_cap of them)"), "§7 A17"),
    option("team_bonus_mode", "reuse_office", ("reuse_office", "free_placement"),
           N_("Team Bonus re-uses an office (free_placement: one more placement this turn that spends no worker)"),
           "§7 A18"),
    option("team_bonus_requires_prior_use", True, FLAG, N_("Team Bonus needs the office's first use first"), "§7 A18"),
    option("team_bonus_may_target_reuse_office", True, FLAG, N_("Team Bonus may target a re-use office"), "§7 A18"),
    option("empty_hand_order_value", 0, help=N_("turn-order number of a seat with an empty hand"), rule="§7 A19"),
    option("short_draw", "partial", ("partial",), N_("draw what there is"), "§7 A20"),
    option("empty_supply", "leave_empty", ("leave_empty",), N_("street slots stay empty"), "§7 A21"),
    option("last_doctorate_rule", "last_remaining", ("last_remaining", "all_bought"),
           N_("when buying a doctorate ends the game"), "§7 A22"),
    option("doctorate_min_spend", 0, (0, 1), N_("least coins spent on VP with a doctorate"), "§7 A23"),
    option("vp_token_value", 1, help=N_("VP per wooden token"), rule="§7 A24"),
    option("vp_token_limit", 0, (0, 25), N_("0: unlimited tokens; 25: when they run out, offices are served in "
           "board order until none remain"), "§7 A24"),
    option("final_tie", "shared", ("shared", "bus_order"), N_("a tie after the last-round comparison"), "§7 A25"),
    option("doubling_cap", 2, help=N_("doublings of coins / of tokens per seat per round"), rule="§7 A26"),
    option("explicit_third_doubling", "reject", ("reject", "no_effect"),
           N_("a copy or re-use aimed at a capped doubling"), "§7 A26"),
    option("cards_only_with_placement", True, FLAG, N_("phase-2 cards only within a placing turn (false: a turn that "
           "played cards may end without a placement, and is no pass)"), "§7 A27"),
    option("max_extra_workers", 4, help=N_("extra workers a seat may recruit per round"), rule="§7 A28"),
    option("final_round_cleanup", False, FLAG, N_("clean-up after the final round (then the game ends)"), "§7 A29"),
    option("keep_scope", "hand", ("hand",), N_("Brainstorming keeps hand cards at lay-down"), "§7 A30"),
    option("press_secretary_self_copy", False, FLAG, N_("Press Secretary may copy itself (its use limit ends the chain)"),
           "§7 A31"),
    option("reject_pointless_targets", True, FLAG, N_("copy/re-use of a card with no effect is refused"), "§7 A32"),
    option("reused_card_destination", "temp_discard", ("temp_discard", "box"),
           N_("where a card re-used by an office goes (box: it leaves the game)"), "§7 A33"),
    option("card_use_limit", 2, help=N_("uses of one card per round"), rule="§7 A34"),
    option("auto_apply_vp_offices", True, FLAG, N_("unused VP offices apply at end_turn"), "§7 A35"),
    option("special_buy_deferred", True, FLAG, N_("the special permit's purchase may come later in the turn (false: "
           "it is the seat's next move or it is lost)"), "§7 A36"),
    option("extra_placement_scope", "turn", ("turn", "phase"), N_("extra placements expire at end of turn (phase: they "
           "carry to the seat's next turns of the actions phase)"), "§7 A37"),
    option("trash_before_lay_down", True, (True,), N_("get-rid offices before lay-down"), "§7 A38"),
    option("order_choice_final", True, FLAG, N_("an order card cannot be changed (false: choosing again before "
           "the reveal takes the first card back)"), "§7 A39"),
    option("lay_down_before_buy", True, FLAG, N_("lay down before buying (false: buy with the coins so far)"), "§7 A40"),
    option("starter_layout", "money_9_15", ("money_9_15", "vp_9_11"),
           N_("which starter numbers are money (the rest VP)"), "§7 A4"),
)

OPTIONS: Mapping[str, OptionSpec] = by_name(_OPTIONS)


def option_specs() -> Mapping[str, OptionSpec]:
    return OPTIONS


def resolved(given: Mapping[str, Any]) -> dict[str, Any]:
    """Every option's value: the given ones parsed, the rest at their defaults."""
    out: dict[str, Any] = {}
    for name, spec in OPTIONS.items():
        if name in given:
            try:
                out[name] = spec.parse(given[name])
            except ValueError as exc:
                raise ConfigError(Code.INVALID_OPTION, str(exc)) from None
        else:
            out[name] = spec.parse(spec.default)
    unknown = sorted(set(given) - set(OPTIONS))
    if unknown:
        raise ConfigError.said(Code.INVALID_OPTION, N_("unknown option {name!r}; see `referee games copycat`"),
                               name=unknown[0])
    return out
