"""Match options: the spec's ambiguities (§8) with the default ruling first, the hidden-information
modes (§1.11), the board (§1.12) and the four advanced modules (§6). ``--option name=value`` at
creation; scenario ``[options]``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.decision import FLAG, option
from referee.engine.protocol import OptionSpec
from referee.engine.speech import N_


_o = option  # the engine's option builder


_B = (False, True)
_T = FLAG

OPTIONS: tuple[OptionSpec, ...] = (
    _o("board", "", (), N_("AMB-01: the board id in the data set (TM-1, demo); empty = the data set's first board"), "§1.8"),
    _o("empire_order", "", (), N_("AMB-03: empire phase order, e.g. bear,lion,horse,elephant,eagle; empty = the board's"), "§3.1"),
    # modules (§6)
    _o("region_agents", False, _B, N_("module §6.1: agents may be assigned to regions"), "«Назначение агентов в регионы»"),
    _o("keep_secrets", False, _B, N_("module §6.2: +1 per token still face down when the game ends"), "«Храни секреты»"),
    _o("to_each_their_own", False, _B, N_("module §6.3: the fanaticism empire is dealt at setup"), "«Каждому своё»"),
    _o("counter_intelligence", False, _B, N_("module §6.4: the reveal phase becomes a swap phase and a naming phase"), "«Контрразведка»"),
    # hidden information and chance (§1.11)
    _o("mode", "physical", ("physical", "digital"),
       N_("§1.11: chance typed in, or drawn from the seed (a seed makes the match digital)"), "§1.11"),
    _o("loyalty_secret_mode", "recorded", ("recorded", "unrecorded"),
       N_("§1.11: arrangements entered as sealed facts, or never entered (declared at the end)"), "§1.11"),
    _o("card_identity_mode", "tracked", ("tracked", "counted"),
       N_("§1.11: drawn cards entered by id, or only counted per deck"), "§1.11"),
    # §8 ambiguities
    _o("first_player_pass_timing", "at_round_counter", ("at_round_counter", "end_of_round"),
       N_("AMB-06: when the first-player token passes"), "«СЧЁТЧИК РАУНДОВ»"),
    _o("allow_pass", False, _B, N_("AMB-07: a controlled position may decline its action"), "«ФАЗЫ ИМПЕРИЙ»"),
    _o("add_banners_exact", True, _T, N_("AMB-08: add exactly min(count, supply) banners (false: 1..that)"), "«Добавить знамёна»"),
    _o("move_agent_subject", "active_agent", ("active_agent", "occupant_only"),
       N_("AMB-09: the agent that moves (occupant_only: not from an empty slot)"), "«Переместить агента»"),
    _o("move_agent_chain", False, _B, N_("AMB-10: a destination (or substituted) action may itself be move_agent"), "«Переместить агента»"),
    _o("short_deck_draw", "draw_available", ("draw_available", "forbid_action"),
       N_("AMB-11: drawing from a deck with fewer cards than owed"), "«Взять карту империи»"),
    _o("during_window", "combat_only", ("combat_only", "any_action"),
       N_("AMB-12: 'during' cards only while a combat is pending"), "«Как играть карты»"),
    _o("fort_trigger", "once_per_combat", ("once_per_combat", "per_entering_group"),
       N_("AMB-13: a fort strikes once per combat, or at every group entering"), "«Бой»"),
    _o("fort_owner_neutral", True, _T, N_("AMB-14: a fort also strikes its home empire retaking it"), "«СИМВОЛЫ НА ПОЛЕ»"),
    _o("discard_exact", True, _T, N_("AMB-15: discard exactly down to 5 (false: any number keeping <= 5)"), "«ФАЗА СБРОСА»"),
    _o("discard_visibility", "private", ("private", "public"), N_("AMB-16: discarded card ids are shown to all"), "«ФАЗА СБРОСА»"),
    _o("final_tie", "shared", ("shared", "first_in_turn_order"), N_("AMB-17: a tie after both tie-breaks"), "«ФИНАЛЬНЫЙ ПОДСЧЁТ ОЧКОВ»"),
    _o("region_agent_limit_scope", "regions_only", ("regions_only", "whole_board"),
       N_("AMB-18: 'at most 2 agents' counts region agents only, or every agent on the board"), "«Назначение агентов в регионы»"),
    _o("region_agent_city_scope", "owner_only", ("owner_only", "all_players"),
       N_("AMB-19: a region agent counts as a city for its owner only, or for everyone"), "«Назначение агентов в регионы»"),
    _o("ci_target", "next_clockwise", ("next_clockwise", "previous"), N_("AMB-20: 'the player to your left'"), "«Контрразведка»"),
    _o("disband_destination", "adjacent_controlled_split", ("adjacent_controlled_split", "supply_always"),
       N_("AMB-22: where a disbanded army goes when its empire holds a neighbouring region"), "card note 2"),
    _o("draw_rounding", "floor", ("floor", "ceil"), N_("AMB-04: per-symbol draws round down (or up)"), "«Взять карту империи»"),
    _o("allow_replace_same_position", True, _T,
       N_("AMB-26: an agent may go back on the position it was collected from"), "«ФАЗА АГЕНТОВ»"),
)

MODULES = ("region_agents", "keep_secrets", "to_each_their_own", "counter_intelligence")


def option_specs() -> Mapping[str, OptionSpec]:
    return {o.name: o for o in OPTIONS}


def resolved(given: Mapping[str, Any]) -> dict[str, Any]:
    """Every option's value for a match: the given ones, the defaults for the rest."""
    return {o.name: given.get(o.name, o.default) for o in OPTIONS}
