"""Attacks and combat (§4.10–4.11): the seven attack checks in the spec's order, whether a fort
strikes the attacker, and the fight itself (attrition one for one, or everything destroyed after a
mutual annihilation). Used by the attack action, by the cards that move banners and by declared
effects that leave two empires in one region.
"""

from __future__ import annotations


from .codes import Code
from .model import CombatResolved, State
from .queries import Queries
from .txn import Tx, plural


ATTACK_CHECKS = (Code.SOURCE_NOT_CONTROLLED, Code.TARGET_NOT_ENEMY, Code.SEA_BORDER, Code.NOT_ADJACENT,
                 Code.NO_BANNERS_MOVED, Code.INSUFFICIENT_BANNERS, Code.CANNOT_ABANDON_CONQUERED)
#: the attack checks no ruling waives (the banners must be there to move)
BANNER_CHECKS = frozenset((Code.NO_BANNERS_MOVED, Code.INSUFFICIENT_BANNERS))


def attack_check(rules: Queries, state: State, empire: str, src: str, dst: str, count: int,
                 code: str) -> str | None:
    """One of the §4.10 checks: the message if it fails, else None."""
    have = state.banners[src][empire]
    if code == Code.SOURCE_NOT_CONTROLLED:
        owner = rules.control(state, src)
        return None if owner == empire else f"{src} is controlled by {owner}, not the {empire}"
    if code == Code.TARGET_NOT_ENEMY:
        if rules.control(state, dst) == empire:
            return f"{dst} is already controlled by the {empire}: attacks target other empires' regions"
        return None
    if code == Code.SEA_BORDER:
        return f"{src} and {dst} face each other across water: no attacks over the sea" if rules.board.across_sea(src, dst) else None
    if code == Code.NOT_ADJACENT:
        return None if rules.board.adjacent(src, dst) else f"{src} and {dst} share no land border"
    if code == Code.NO_BANNERS_MOVED:
        return None if count >= 1 else f"an attack moves at least 1 banner, not {count}"
    if code == Code.INSUFFICIENT_BANNERS:
        return None if count <= have else f"{src} holds {plural(have, empire + ' banner')}, not {count}"
    if rules.home(src) != empire and count > have - 1:
        return f"{src} is a conquered region: at least 1 of its {have} {empire} banners must stay"
    return None


def attack_problem(rules: Queries, state: State, empire: str, src: str, dst: str,
                   count: int) -> tuple[str, str] | None:
    """§4.10 checks 1–7 in order: (reason, message) of the first that fails, or None."""
    for code in ATTACK_CHECKS:
        msg = attack_check(rules, state, empire, src, dst, count, code)
        if msg is not None:
            return code, msg
    return None


def fort_strikes(rules: Queries, region: str, attacker: str) -> bool:
    r = rules.board.region(region)
    return r.fort and (bool(rules.options["fort_owner_neutral"]) or r.home != attacker)


def fight(tx: Tx, region: str, attacker: str, defender: str | None, a_in: int, a_after: int, fort: bool,
          *, annihilation: bool, pending: bool) -> None:
    """§4.11: attrition 1 for 1 (or, after mutual annihilation, everything is destroyed)."""
    row = tx.state.banners[region]
    a = row[attacker]
    d = row[defender] if defender is not None else 0
    if annihilation:
        a_left = d_left = 0
    else:
        k = min(a, d)
        a_left, d_left = a - k, d - k
    result = "attacker_won" if a_left > 0 else "defender_won" if d_left > 0 else "no_winner"
    tx.emit(CombatResolved(
        region=region, attacker=attacker, defender=defender, fort=fort, a_in=a_in, a_after_fort=a_after,
        attacking=a, defending=d, attacker_left=a_left, defender_left=d_left,
        losses=(a - a_left) + (d - d_left), result=result, annihilation=annihilation, pending=pending,
    ))
