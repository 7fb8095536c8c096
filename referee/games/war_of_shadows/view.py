"""What each role may see, the ids a seat must not see, and starting positions.

* ``view(state, None)`` is the referee's full view: the state paths of spec §1.7 plus the derived
  values (``control``, ``cities``, ``conquered``, ``controller``, ``deck_size``, ``hand_size``,
  ``next_player``, ``turn_order``). A seat sees its own hand, its own face-down tokens and its own
  dealt fanatic empire; of the others only counts and face-up tokens. Any other name (``spectator``)
  gets the public view.
* ``hidden_ids`` lists the ids a seat does not know now: other hands' card ids, privately discarded
  cards, other seats' face-down tokens (``loyalty:<seat>:<empire>``) and dealt empires
  (``fanatic:<seat>:<empire>``). The leak tests search every answer for them; redaction itself goes by
  the Structs' declarations (``model.py``), never by these values.
* ``apply_position`` applies a scenario's dotted-path overrides to the state after setup and
  completes what they leave out as spec §1.12 says, then checks the invariants of §1.2.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from referee.engine.position import Placed, PositionShape
from referee.engine.protocol import ConfigError
from referee.engine.speech import N_

from .data import ALL_CARDS, BANNERS_PER_EMPIRE, CARDS_PER_EMPIRE, EMPIRES, POSITIONS, SLOTS, SOCIETIES, card_empire
from .fold import fanatic_id, token_id
from .model import Player, State
from .queries import Queries
from .codes import Code

PHASES = ("SETUP", "AGENT_COLLECT", "AGENT_PLACE", "EMPIRE_PHASE", "DISCARD", "REVEAL", "CI_SWAP", "CI_REVEAL",
          "FINAL_SCORING", "GAME_OVER")
STAGES = ("pending", "combat_pending", "done")

#: the spec's standard loyalty arrangements L-std (§1.10), by society
L_STD: dict[str, tuple[str, ...]] = {
    "pale_raven": ("lion", "elephant", "bear", "eagle", "horse"),
    "humble_spider": ("bear", "horse", "eagle", "elephant", "lion"),
    "rat_cult": ("eagle", "lion", "horse", "bear", "elephant"),
    "endless_serpent": ("horse", "bear", "elephant", "lion", "eagle"),
}
ANIMAL = {"raven": "pale_raven", "spider": "humble_spider", "rat": "rat_cult", "serpent": "endless_serpent"}
DERIVED = ("control", "cities", "conquered", "controller", "deck_size", "next_player", "turn_order", "options", "board",
           "outcome")


def _sees(viewer: str | None, owner: str) -> bool:
    return viewer is None or viewer == owner


def view(rules: Queries, state: State, seat: str | None) -> dict[str, Any]:
    c = state.cursor
    cursor: dict[str, Any] | None = None
    if c is not None:
        combat = None
        if c.combat is not None:
            cb = c.combat
            row = state.banners[cb.region]
            combat = {
                "region": cb.region, "attacker": cb.attacker, "defender": cb.defender,
                "attacking": row[cb.attacker], "defending": row[cb.defender] if cb.defender else 0,
                "a_in": cb.a_in, "a_after_fort": cb.a_after_fort, "d": cb.d, "fort": cb.fort,
                "annihilation": cb.annihilation,
            }
        cursor = {
            "empire": c.empire, "position": c.position, "sub_position": c.sub_position, "sub_by": c.sub_by,
            "stage": c.stage, "acting_player": c.acting_player, "resolving_card": c.resolving_card,
            "resolving_kind": c.resolving_kind, "combat": combat,
        }
    players: dict[str, Any] = {}
    for p in state.seats or rules.players:
        pl = state.players[p]
        mine = _sees(seat, p)
        loyalty = {}
        for slot in SLOTS:
            if slot not in pl.loyalty:
                continue
            t = pl.loyalty[slot]
            loyalty[slot] = {"empire": t.empire if (mine or t.revealed) else None, "revealed": t.revealed}
        players[p] = {
            "society": pl.society,
            "agent_reserve": pl.agent_reserve,
            "hand": list(pl.hand) if mine else None,
            "hand_size": len(pl.hand),
            "loyalty": loyalty,
            "swaps_made": pl.swaps_made,
            "ci_bonus": pl.ci_bonus,
            "bonus": pl.bonus,
            "fanatic_dealt": pl.fanatic_dealt if mine else None,
            "score": msgspec.to_builtins(pl.score) if pl.score is not None else None,
            "unrevealed_at_end": pl.unrevealed_at_end,
            "final_revealed": pl.final_revealed,
        }
    regions = rules.board.region_ids
    control = {r: rules.control(state, r) for r in regions}
    out: dict[str, Any] = {
        "board": rules.board.board_id,
        "round": state.round,
        "phase": state.phase,
        "cursor": cursor,
        "round_markers_placed": state.round_markers_placed,
        "first_player": state.first_player,
        "seats": list(state.seats or rules.players),
        "turn_order": list(rules.turn_order(state)),
        "next_player": rules.next_player(state),
        "agent_phase": {
            "collected": list(state.agent_phase.collected),
            "placements_made": state.agent_phase.placements_made,
            "quota": rules.quota,
            "collected_from": dict(state.agent_phase.collected_from),
        },
        "discard_phase": {"discarded": list(state.discard_phase.discarded)},
        "reveal_phase": {
            "decided": list(state.reveal_phase.decided),
            "named": list(state.reveal_phase.named),
            "pending_naming": msgspec.to_builtins(state.reveal_phase.pending_naming),
        },
        "banners": {r: {e: state.banners[r][e] for e in EMPIRES} for r in regions},
        "banner_supply": {e: state.banner_supply[e] for e in EMPIRES},
        "deck": {e: list(state.deck[e]) if seat is None else None for e in EMPIRES},
        "deck_size": {e: len(state.deck[e]) for e in EMPIRES},
        "council": {e: {p: state.council[e][p] for p in POSITIONS} for e in EMPIRES},
        "controller": {e: {p: rules.controller(state, e, p) for p in POSITIONS} for e in EMPIRES},
        "region_agents": {r: list(state.region_agents[r]) for r in regions},
        "control": control,
        "conquered": {r: control[r] is not None and control[r] != rules.home(r) for r in regions},
        "cities": rules.cities(state),
        "players": players,
        "audit_flags": [msgspec.to_builtins(f) for f in state.audit_flags],
        "outcome": msgspec.to_builtins(state.outcome),
        "options": dict(rules.options),
    }
    # (no id is scrubbed by value: a card named by a public fact, e.g. the audit flag of a card played
    # earlier, stays named wherever that card is now, so what a seat sees never tells where it is)
    return out


def hidden_ids(rules: Queries, state: State, seat: str | None) -> frozenset[str]:
    if seat is None:
        return frozenset()
    out: set[str] = set()
    for p, pl in state.players.items():
        if p == seat:
            continue
        if not rules.counted:
            out.update(c for c in pl.hand if c in ALL_CARDS)
        for t in pl.loyalty.values():
            if not t.revealed and t.empire is not None:
                out.add(token_id(p, t.empire))
        if pl.fanatic_dealt is not None:
            out.add(fanatic_id(p, pl.fanatic_dealt))
    for card, who in state.secret_discards.items():
        if who != seat:
            out.add(card)
    return frozenset(out)


# -- positions (§1.12) ----------------------------------------------------------------------------------------


#: what a position path may name (§1.12): the full view's fields but the derived ones; seats under
#: ``players``; new keys where records are being built (the cursor, a pending naming, loyalty rows)
POSITION_SHAPE = PositionShape(
    derived=DERIVED,
    seat_maps=("players",),
    open_maps=("cursor.**", "reveal_phase.pending_naming.**", "agent_phase.collected_from.**",
               "players.*.loyalty.**", "players.*.score.**"),
    merge_records=True,
)


def _bad(template: str, /, **values: Any) -> ConfigError:
    """A position refused: ``template`` (marked ``N_``) said with ``values``."""
    return ConfigError.said(Code.INVALID_POSITION, template, **values)


def position_base(rules: Queries, state: State, overrides: Mapping[str, Any]) -> State:
    """A started position (any phase but SETUP) begins with the parts of setup §1.12 fills in."""
    if overrides.get("phase", state.phase) == "SETUP":
        return state
    data = msgspec.to_builtins(state)
    _prefill(rules, data, overrides)
    return msgspec.convert(data, State)


def position_value(path: str, value: Any) -> Any:
    """``banners.<region>`` takes a table of counts; the empires it leaves out have none."""
    parts = path.split(".")
    if parts[0] != "banners" or len(parts) != 2:
        return value
    if not isinstance(value, dict):
        raise _bad(N_("{path} takes a table of banner counts, e.g. {{ bear = 2 }}"), path=path)
    row = {e: 0 for e in EMPIRES}
    for e, n in value.items():
        if e not in EMPIRES:
            raise _bad(N_("{path}.{empire}: {empire!r} is not an empire"), path=path, empire=e)
        row[e] = n
    return row


def _prefill(rules: Queries, data: dict[str, Any], overrides: Mapping[str, Any]) -> None:
    """§1.12 [F]: societies by the seat's animal (else the first free), the first seat as first
    player, and L-std loyalty (face down) — before the overrides, which may change any of it."""
    seats = overrides.get("seats", data["seats"]) or list(rules.players)
    chosen = {p: overrides.get(f"players.{p}.society", (overrides.get(f"players.{p}") or {}).get("society"))
              for p in rules.players}
    taken = [x for x in chosen.values() if x]
    for p in seats:
        pl = data["players"][p]
        society = chosen.get(p) or pl["society"]
        if society is None:
            want = ANIMAL.get(p)
            society = want if want and want not in taken else next(x for x in SOCIETIES if x not in taken)
            taken.append(society)
        pl["society"] = society
        if not pl["loyalty"]:
            row = L_STD.get(society, L_STD["pale_raven"])
            pl["loyalty"] = {slot: {"empire": None if rules.unrecorded else e, "revealed": False}
                             for slot, e in zip(SLOTS, row)}
    if data["first_player"] is None:
        data["first_player"] = seats[0]


def complete_position(rules: Queries, s: State, placed: Placed) -> State:
    """Every supply the position does not list recomputed from what it places, then the invariants:
    the phase, the agents, the banners, the cards, the loyalty tokens and the cursor, in that order
    (the first wrong thing is the one reported)."""
    is_set = placed.__contains__
    seats = tuple(s.seats)
    _check_phase(rules, s, seats)
    players = dict(s.players)
    started = s.phase != "SETUP"
    if started:
        for p in seats:
            pl = players[p]
            if rules.modules["to_each_their_own"] and pl.fanatic_dealt is None and not is_set(f"players.{p}.fanatic_dealt"):
                players[p] = msgspec.structs.replace(pl, fanatic_dealt=pl.loyalty["fanaticism"].empire)
        s = msgspec.structs.replace(s, fanatic_deal_recorded=rules.modules["to_each_their_own"])
    _complete_agents(rules, s, seats, players, is_set)
    supply = _complete_banners(rules, s, is_set)
    deck = _complete_cards(rules, s, seats, players, is_set)
    _check_loyalty(rules, seats, players, started)
    if s.first_player is not None and s.first_player not in seats:
        raise _bad(N_("first_player {seat!r} is not a seat"), seat=s.first_player)
    s = msgspec.structs.replace(s, players=players, banner_supply=supply, deck=deck)
    return _complete_cursor(rules, s, seats)


def _check_phase(rules: Queries, s: State, seats: tuple[str, ...]) -> None:
    if sorted(seats) != sorted(rules.players):
        raise _bad(N_("seats must list the players {players} in clockwise order, got {seats}"),
                   players=", ".join(rules.players), seats=list(seats))
    if s.phase not in PHASES:
        raise _bad(N_("phase {phase!r} is not one of {phases}"), phase=s.phase, phases=", ".join(PHASES))
    if s.phase == "GAME_OVER":
        raise _bad(N_("a position cannot start at GAME_OVER (end the game with its last intent)"))
    if s.phase == "FINAL_SCORING" and not rules.unrecorded:
        raise _bad(N_("FINAL_SCORING is a resting phase only with loyalty_secret_mode=unrecorded"))
    if s.phase in ("CI_SWAP", "CI_REVEAL") and not rules.modules["counter_intelligence"]:
        raise _bad(N_("{phase} needs the module counter_intelligence"), phase=s.phase)
    if not 1 <= s.round <= 4:
        raise _bad(N_("round must be 1 to 4, got {round}"), round=s.round)


def _complete_agents(rules: Queries, s: State, seats: tuple[str, ...], players: dict[str, Player],
                     is_set: Callable[[str], bool]) -> None:
    """The agents on the council and in regions checked; each seat's reserve (in ``players``) is what
    is left of its 9 unless the position gives it."""
    council_agents: Counter[str] = Counter()
    for e in EMPIRES:
        for p in POSITIONS:
            if e not in s.council or p not in s.council[e]:
                raise _bad(N_("council.{empire}.{position} is missing"), empire=e, position=p)
            who = s.council[e][p]
            if who is not None:
                if who not in seats:
                    raise _bad(N_("council.{empire}.{position}: {seat!r} is not a seat"), empire=e, position=p, seat=who)
                council_agents[who] += 1
    for r in rules.board.region_ids:
        for who in s.region_agents.get(r, ()):
            if who not in seats:
                raise _bad(N_("region_agents.{region}: {seat!r} is not a seat"), region=r, seat=who)
            if not rules.modules["region_agents"]:
                raise _bad(N_("region_agents.{region}: agents stand in regions only with the module region_agents"), region=r)
            council_agents[who] += 1
        if len(set(s.region_agents.get(r, ()))) != len(s.region_agents.get(r, ())):
            raise _bad(N_("region_agents.{region}: a player has at most one agent in a region"), region=r)
    for p in seats:
        pl = players[p]
        if not is_set(f"players.{p}.agent_reserve"):
            players[p] = pl = msgspec.structs.replace(pl, agent_reserve=9 - council_agents[p])
        if pl.agent_reserve < 0 or pl.agent_reserve + council_agents[p] != 9:
            raise _bad(N_("{seat} has {placed} agent(s) on the board and {reserve} in reserve; the two must add up to 9"),
                       seat=p, placed=council_agents[p], reserve=pl.agent_reserve)


def _complete_banners(rules: Queries, s: State, is_set: Callable[[str], bool]) -> dict[str, int]:
    """The banners on the map checked; the supply: what is left of each empire's banners unless given."""
    supply = dict(s.banner_supply)
    colours_bad = []
    combat_region = s.cursor.combat.region if s.cursor is not None and s.cursor.combat is not None else None
    for r in rules.board.region_ids:
        row = s.banners.get(r)
        if row is None:
            raise _bad(N_("banners.{region} is missing"), region=r)
        for e in EMPIRES:
            if row.get(e, 0) < 0:
                raise _bad(N_("banners.{region}.{empire} is negative"), region=r, empire=e)
        cols = [e for e in EMPIRES if row.get(e, 0) > 0]
        if len(cols) > 1 and r != combat_region:
            colours_bad.append(f"{r} ({', '.join(cols)})")
    if colours_bad:
        raise _bad(N_("a region holds at most one colour at rest: {regions}"), regions="; ".join(colours_bad))
    for e in EMPIRES:
        on_map = sum(s.banners[r][e] for r in rules.board.region_ids)
        if not is_set(f"banner_supply.{e}"):
            supply[e] = BANNERS_PER_EMPIRE - on_map
        if supply[e] < 0 or supply[e] + on_map != BANNERS_PER_EMPIRE:
            raise _bad(N_("the {empire} has {on_map} banner(s) on the map and {supply} in supply; they must add up to "
                          "{total}"), empire=e, on_map=on_map, supply=supply[e], total=BANNERS_PER_EMPIRE)
    return supply


def _complete_cards(rules: Queries, s: State, seats: tuple[str, ...], players: dict[str, Player],
                    is_set: Callable[[str], bool]) -> dict[str, tuple[str, ...]]:
    """The hands (sorted, in ``players``) and the decks: each card in exactly one of them (by empire
    only, when cards are counted); a deck not given holds the rest."""
    deck = dict(s.deck)
    if rules.counted:
        for e in EMPIRES:
            in_hands = sum(1 for p in seats for c in players[p].hand if (card_empire(c) or c) == e)
            if not is_set(f"deck.{e}"):
                deck[e] = tuple([e] * (CARDS_PER_EMPIRE - in_hands))
            if len(deck[e]) + in_hands != CARDS_PER_EMPIRE:
                raise _bad(N_("the {empire} deck holds {deck} and hands {hands}: 8 in all"), empire=e, deck=len(deck[e]),
                           hands=in_hands)
        for p in seats:
            players[p] = msgspec.structs.replace(players[p], hand=tuple(sorted(card_empire(c) or c for c in players[p].hand)))
        return deck
    held: Counter[str] = Counter()
    for p in seats:
        for c in players[p].hand:
            if c not in ALL_CARDS:
                raise _bad(N_("players.{seat}.hand: {card!r} is not a card id"), seat=p, card=c)
            held[c] += 1
        players[p] = msgspec.structs.replace(players[p], hand=tuple(sorted(players[p].hand)))
    for e in EMPIRES:
        if not is_set(f"deck.{e}"):
            deck[e] = tuple(c for c in ALL_CARDS if card_empire(c) == e and c not in held)
        deck[e] = tuple(sorted(deck[e]))
        for c in deck[e]:
            if card_empire(c) != e:
                raise _bad(N_("deck.{empire}: {card!r} is not a {empire} card"), empire=e, card=c)
            held[c] += 1
    twice = sorted(c for c, n in held.items() if n > 1)
    missing = sorted(c for c in ALL_CARDS if held[c] == 0)
    if twice or missing:
        if twice and missing:
            raise _bad(N_("every card is in exactly one deck or hand: twice: {twice}; nowhere: {missing}"),
                       twice=", ".join(twice), missing=", ".join(missing))
        if twice:
            raise _bad(N_("every card is in exactly one deck or hand: twice: {twice}"), twice=", ".join(twice))
        raise _bad(N_("every card is in exactly one deck or hand: nowhere: {missing}"), missing=", ".join(missing))
    return deck


def _check_loyalty(rules: Queries, seats: tuple[str, ...], players: dict[str, Player], started: bool) -> None:
    """Societies distinct; each seat's five loyalty tokens (required once the game has started)."""
    societies = [players[p].society for p in seats if players[p].society is not None]
    if len(set(societies)) != len(societies):
        raise _bad(N_("two players play the same society: {societies}"), societies=societies)
    for p in seats:
        pl = players[p]
        if pl.society is not None and pl.society not in SOCIETIES:
            raise _bad(N_("players.{seat}.society: {society!r} is not a society"), seat=p, society=pl.society)
        if pl.loyalty:
            if sorted(pl.loyalty) != sorted(SLOTS):
                raise _bad(N_("players.{seat}.loyalty must give all five slots ({slots})"), seat=p, slots=", ".join(SLOTS))
            known = [pl.loyalty[slot].empire for slot in SLOTS]
            if rules.unrecorded:
                shown = [t.empire for t in pl.loyalty.values() if t.empire is not None]
                if len(set(shown)) != len(shown) or any(e not in EMPIRES for e in shown):
                    raise _bad(N_("players.{seat}.loyalty: revealed empires must be distinct empires"), seat=p)
            elif sorted(e or "" for e in known) != sorted(EMPIRES):
                raise _bad(N_("players.{seat}.loyalty must hold the five empires once each, got {known}"), seat=p, known=known)
        elif started:
            raise _bad(N_("players.{seat}.loyalty is missing"), seat=p)


def _complete_cursor(rules: Queries, s: State, seats: tuple[str, ...]) -> State:
    """The cursor checked (it exists in EMPIRE_PHASE only) and its acting player filled in."""
    cur = s.cursor
    if s.phase == "EMPIRE_PHASE":
        if cur is None or not cur.empire or not cur.position:
            raise _bad(N_("phase EMPIRE_PHASE needs cursor.empire, cursor.position and cursor.stage"))
        if cur.empire not in EMPIRES or cur.position not in POSITIONS:
            raise _bad(N_("cursor {empire}.{position} is not a council position"), empire=cur.empire, position=cur.position)
        if cur.stage not in STAGES:
            raise _bad(N_("cursor.stage must be one of {stages}, got {stage!r}"), stages=", ".join(STAGES), stage=cur.stage)
        if cur.sub_position is not None and not rules.is_position(cur.sub_position):
            raise _bad(N_("cursor.sub_position {position!r} is not a council position"), position=cur.sub_position)
        acting = cur.acting_player
        if acting is None:
            acting = rules.controller(s, cur.empire, cur.position)
            if acting is None:
                raise _bad(N_("nobody controls {empire}.{position}: set cursor.acting_player or an agent"),
                           empire=cur.empire, position=cur.position)
        if acting not in seats:
            raise _bad(N_("cursor.acting_player {seat!r} is not a seat"), seat=acting)
        if cur.stage == "combat_pending" and cur.combat is None:
            raise _bad(N_("cursor.stage combat_pending needs cursor.combat {fields}"), fields="{region, attacker, defender}")
        if cur.combat is not None:
            cb = cur.combat
            if not rules.is_region(cb.region) or cb.attacker not in EMPIRES:
                raise _bad(N_("cursor.combat needs a region of the board and an attacking empire"))
        if cur.resolving_card is not None and cur.resolving_kind is None:
            cur = msgspec.structs.replace(cur, resolving_kind="manual")
        s = msgspec.structs.replace(s, cursor=msgspec.structs.replace(cur, acting_player=acting))
    elif cur is not None:
        raise _bad(N_("cursor is set but the phase is {phase}: the cursor exists only in EMPIRE_PHASE"), phase=s.phase)
    return s


# -- conservation invariants (§1.2) ----------------------------------------------------------------------------


def invariant_problems(rules: Queries, state: State) -> list[str]:
    """What breaks the invariants of §1.2 in a state at rest (empty when all hold): 20 banners per
    empire, 8 cards per empire, 9 agents per player, a permutation of the empires on every board,
    one colour per region (two only where a combat is pending)."""
    out = []
    regions = rules.board.region_ids
    for e in EMPIRES:
        on_map = sum(state.banners[r][e] for r in regions)
        if state.banner_supply[e] + on_map != BANNERS_PER_EMPIRE or state.banner_supply[e] < 0:
            out.append(f"{e}: {on_map} banners on the map, {state.banner_supply[e]} in supply")
        in_hands = sum(1 for pl in state.players.values() for c in pl.hand if (card_empire(c) or c) == e)
        if len(state.deck[e]) + in_hands != CARDS_PER_EMPIRE:
            out.append(f"{e}: {len(state.deck[e])} cards in the deck and {in_hands} in hands")
    if not rules.counted:
        seen = Counter(c for e in EMPIRES for c in state.deck[e])
        seen.update(c for pl in state.players.values() for c in pl.hand)
        twice = sorted(c for c, n in seen.items() if n != 1)
        if twice or len(seen) != len(ALL_CARDS):
            out.append(f"cards not in exactly one place: {twice or sorted(set(ALL_CARDS) - set(seen))}")
    for p, pl in state.players.items():
        on_board = len(rules.agents_on_board(state, p))
        if pl.agent_reserve < 0 or pl.agent_reserve + on_board != 9:
            out.append(f"{p}: {on_board} agents on the board, {pl.agent_reserve} in reserve")
        if pl.loyalty and not rules.unrecorded:
            if sorted(t.empire or "" for t in pl.loyalty.values()) != sorted(EMPIRES):
                out.append(f"{p}: loyalty is not a permutation of the empires")
    combat = state.cursor.combat.region if state.cursor is not None and state.cursor.combat is not None else None
    for r in regions:
        cols = [e for e in EMPIRES if state.banners[r][e] > 0]
        if len(cols) > (2 if r == combat else 1):
            out.append(f"{r} holds {', '.join(cols)}")
    return out
