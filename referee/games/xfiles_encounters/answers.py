"""Answers to pending inputs (spec §4.19–§4.25): the cards drawn, the card revealed, the Strike card
taken or the strike avoided, a resolved effect — and declared effects (``manual_effect``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .codes import Code
from .data import Card
from . import flow, named, procedure, series
from . import model as m
from .ops import apply_ops, declare
from .txn import Tx, drew, reshuffled

R_REVEAL = "§2.4, R21, R24, R15, R30, R37, R22"


# -- draw (§4.22) ------------------------------------------------------------------------------------------------


def draw(tx: Tx, intent: m.Draw) -> None:
    item = tx.pending()[0]
    seat, n = item["seat"], int(item["count"])
    p = tx.player(seat)
    deck, discard = Counter(p["deck"]), Counter(p["discard"])
    want = n if len(p["deck"]) >= n else len(p["deck"]) + min(n - len(p["deck"]), len(p["discard"]))
    cards = list(intent.cards or ())
    if intent.cards is None:
        tx.fail(Code.DRAW_INCONSISTENT, f"name the {want} card(s) drawn (draw cards=a,b,...)", "R35")
    if len(cards) != want:
        tx.fail(Code.DRAW_INCONSISTENT, f"{seat} draws {want} card(s) (deck {len(p['deck'])}, discard "
                f"{len(p['discard'])}), not {len(cards)}", "R35")
    got = Counter(cards)
    if len(p["deck"]) >= n:
        if got - deck:
            tx.fail(Code.DRAW_INCONSISTENT, f"{', '.join(sorted((got - deck).elements()))} cannot come from {seat}'s deck", "R35")
        top = p.get("known_top", [])
        if top and any(c not in cards for c in top[:n]):
            tx.fail(Code.DRAW_INCONSISTENT, f"the known top card(s) {', '.join(top[:n])} must be drawn first", "R44")
    else:
        rest = got - deck
        if deck - got:
            tx.fail(Code.DRAW_INCONSISTENT, f"the whole deck ({len(p['deck'])} cards) is drawn first", "R35")
        if rest - discard:
            tx.fail(Code.DRAW_INCONSISTENT, f"{', '.join(sorted((rest - discard).elements()))} cannot come from "
                    f"{seat}'s deck or reshuffled discard", "R35")
    do_draw(tx, seat, cards)


def do_draw(tx: Tx, seat: str, cards: list[str]) -> None:
    """SEAT draws CARDS for the draw pending first (§4.22)."""
    p = tx.player(seat)
    need, deck = Counter(cards), Counter(p["deck"])
    pile = f"players.{seat}.deck"
    shuffled = not (len(p["deck"]) >= len(cards) and not (need - deck))
    if not shuffled:
        p["deck"] = sorted((deck - need).elements())
        drew(tx.d, pile, len(cards))
    else:  # the whole deck is drawn; the discard becomes the deck, the rest comes from it (R35)
        rest = need - deck
        p["deck"] = sorted((Counter(p["discard"]) - rest).elements())
        p["discard"] = []
        reshuffled(tx.d, pile)
        drew(tx.d, pile, sum(rest.values()))
        tx.say(m.DeckReshuffled, seat=seat, cards=tuple(sorted(rest.elements())))
    p["hand"] = sorted([*p["hand"], *cards])
    p["known_top"] = p.get("known_top", [])[len(cards):]
    tx.d["pending"].pop(0)
    effects = []
    for c in cards:
        effects += flow.triggered(tx, c, ("on_draw",), f"players.{seat}.hand")
    if effects:
        group = flow.next_group(tx)
        tx.push_front(*({**e, "group": group} for e in effects))
    doubt = seat == tx.current and tx.turn["phase"] == "action" and "doubt" in cards and procedure.doubt_check(tx)
    tx.say(m.CardsDrawn, seat=seat, n=len(cards), cards=tuple(cards), reshuffled=shuffled, doubt=doubt,
           triggers=tuple(m.Triggered(source=e["source"], trigger=e["trigger"], location=e["location"], seat=e["seat"])
                          for e in effects))


# -- reveal (§4.23) ----------------------------------------------------------------------------------------------


def categories(tx: Tx, item: dict[str, Any]) -> tuple[str, dict[str, Any] | None]:
    """What the hidden card of a pending reveal may be: ('segment', seg) | ('academy', None) | ..."""
    loc = item["location"]
    if loc in ("special_agents", "avatar_box"):
        return loc, None
    if loc.startswith("climax."):
        return "climax", None
    zone = loc.split(".")[0]
    if zone in ("evidence", "clone_evidence"):
        return zone, None
    if zone == "bureau":
        return "academy", None
    origin = item["origin"]
    seg = next((g for g in tx.d["conspiracy_deck"]["segments"] if g["label"] == origin), None)
    return "segment", seg


def category_of(tx: Tx, card: str, seg: dict[str, Any]) -> str:
    return _category(tx.card(card), card, seg)


def _category(c: Card, card: str, seg: dict[str, Any]) -> str:
    """The quota of ``seg`` that card ``c`` (id ``card``) counts against, or "" (none: it cannot be there)."""
    if seg["label"] == "end_game":
        return "end_game" if c.type == "end_game" and card != "clone" else ""
    if c.type in ("informant", "leader"):
        return c.type
    if c.type in ("enemy", "event", "ally") and c.season in seg.get("seasons", []):
        if "season" in seg["quota"] or not seg["quota"]:
            return "season"
        return card if card in seg["quota"] else ""  # B11 chosen: the stack's kept cards are known
    return ""


def reveal_target(tx: Tx, item: dict[str, Any]) -> tuple[str, str]:
    """(location, known identity) of the front reveal."""
    loc = item["location"]
    if loc == "sector":
        i = flow.sector_index_of_pending(tx)
        return f"sector.{i + 1}", item["source"]
    zone, _, n = loc.partition(".")
    if zone in ("shadows", "bureau"):
        return loc, tx.d[zone][n]["card"]
    if zone == "evidence":
        return loc, tx.d["evidence"][n]["card"]
    if zone == "clone_evidence":
        return loc, tx.d["clone_evidence"][int(n)]["card"]
    return loc, ""


def candidates(tx: Tx, item: dict[str, Any]) -> list[tuple[str, int]]:
    """Every card the hidden card could be, with a weight (seeded matches draw from it)."""
    kind, seg = categories(tx, item)
    loc, known = reveal_target(tx, item)
    if known:
        return [(known, 1)]
    left = {cid: tx.rules.cards.copies[cid] - n for cid, n in tx.known().items()}

    def copies(cid: str) -> int:
        return left.get(cid, tx.rules.cards.copies[cid])

    if kind == "special_agents":
        return [(c, n) for c, n in Counter(tx.d["special_agents"]["cards"]).items()]
    if kind == "avatar_box":
        return [(c, 1) for c in named.box_avatars(tx)]
    if kind == "climax":
        return [(c, 1) for c in series.climax_pool(tx, loc.split(".", 1)[1])]
    if kind in ("evidence", "clone_evidence"):
        p = int(loc.split(".")[1]) if kind == "evidence" else int(tx.d["clone_evidence"][int(loc.split(".")[1])]["priority"])
        return [(c.id, copies(c.id)) for c in tx.rules.cards.of_type("evidence") if c.priority == p and copies(c.id) > 0]
    if kind == "academy":
        chars = set(tx.d["academy_deck"]["characters"])
        syn_left = int(tx.opt["syndicate_in_academy"]) - int(tx.d["academy_deck"]["syndicate_seen"])
        out = [(c.id, copies(c.id) * 6) for c in tx.rules.cards.of_type("academy_character")
               if c.character in chars and copies(c.id) > 0]
        syn = [c for c in tx.rules.cards.of_type("syndicate_agent") if copies(c.id) > 0]
        if syn_left > 0 and syn and item["origin"] != "academy_characters":  # R47: laid out before they join
            total = sum(copies(c.id) for c in syn)
            out += [(c.id, max(1, syn_left * copies(c.id) * 62 // max(1, total))) for c in syn]
        return out
    if seg is None:
        return []
    out = []
    for c in tx.rules.cards.dealt:  # no other type has a category
        cat = _category(c, c.id, seg)
        if not cat or copies(c.id) <= 0:
            continue
        room = int(seg["quota"].get(cat, 0)) - int(seg["seen"].get(cat, 0))
        if room > 0:
            out.append((c.id, copies(c.id) * room))
    return out


def reveal_pool(tx: Tx, item: dict[str, Any]) -> str:
    """The pool the hidden card of a pending reveal comes from, as ``state.draws`` counts it: a
    conspiracy segment, the Academy deck, an evidence priority, the Special Agents, the avatar box or a
    seat's climax cards."""
    kind, seg = categories(tx, item)
    loc = item["location"]
    if kind == "segment":
        return f"segment.{seg['label'] if seg is not None else item['origin']}"
    if kind == "evidence":
        return f"evidence.p{int(loc.split('.')[1])}"
    if kind == "clone_evidence":
        return f"evidence.p{int(tx.d['clone_evidence'][int(loc.split('.')[1])]['priority'])}"
    if kind == "climax":
        return str(loc)
    return kind


#: the rules, the state and the candidates of its front reveal last asked for by :func:`front_candidates`
#: (by identity: neither ever changes, and holding them keeps either from being another's)
_front: list[Any] = [None, None, []]


def front_candidates(tx: Tx) -> list[tuple[str, int]]:
    """:func:`candidates` of the front pending reveal, for a decision whose working copy is still the
    state it began on (a digital match's fill, then the reveal's own decision, ask of the same state in
    turn: the second is answered from the first)."""
    start = tx.d.start
    if _front[0] is tx.rules and _front[1] is start:
        found: list[tuple[str, int]] = _front[2]
        return found
    found = candidates(tx, tx.pending()[0])
    _front[:] = [tx.rules, start, found]
    return found


def reveal(tx: Tx, intent: m.Reveal) -> None:
    item = tx.pending()[0]
    card = intent.card
    if card is None:
        tx.fail(Code.REVEAL_INCONSISTENT, "name the card revealed (reveal card=ID)", R_REVEAL)
    allowed = dict(front_candidates(tx))  # nothing is changed before this
    loc, known = reveal_target(tx, item)
    if card not in allowed:
        why = f"it is {known}" if known else "it does not fit what that place can hold or no copy is left"
        tx.fail(Code.REVEAL_INCONSISTENT, f"{card} cannot be the hidden card at {loc} ({why})", R_REVEAL)
    pool = "" if known else reveal_pool(tx, item)
    if pool:  # one more card shown from its pool: the next reveal from it draws with the next key
        drew(tx.d, pool)
    tx.d["pending"].pop(0)
    kind, seg = categories(tx, item)
    category = ""
    if kind == "segment" and seg is not None and not known:
        category = category_of(tx, card, seg)
        if category:
            seg["seen"][category] = int(seg["seen"].get(category, 0)) + 1
    counted = {"pool": pool, "category": category}
    zone, _, n = loc.partition(".")
    if kind == "avatar_box":
        named.swap_with_box(tx, item["seat"] or tx.current, card, **counted)
        return
    if kind == "climax":
        series.deal(tx, loc.split(".", 1)[1], card, **counted)
        return
    if kind == "special_agents":
        tx.d["special_agents"]["cards"].remove(card)
        tx.player(tx.current)["discard"] = sorted([*tx.player(tx.current)["discard"], card])
        tx.say(m.CardRevealed, seat=tx.current, card=card, where="special_agents", **counted)
        return
    if kind == "clone_evidence":
        tx.d["clone_evidence"][int(n)]["card"] = card
        tx.say(m.CardRevealed, card=card, where=loc, **counted)
        return
    if kind == "evidence":
        ev = tx.d["evidence"][n]
        ev["card"] = card
        ev["state"] = "exposed" if item["origin"] == "the_end" else "discovered"
        if item["origin"] == "discover":
            ev["leader"] = item["source"]
        tx.say(m.CardRevealed, card=card, where=loc, **counted)
        return
    syndicate = False
    if zone == "sector":
        i = int(n) - 1
        tx.d["sector"][i] = card
        first = card not in tx.d["revealed_before"]
        if first:
            tx.d["revealed_before"].append(card)
    else:
        slot = tx.d[zone][n]
        first = not slot["revealed_before"]
        slot.update({"state": "revealed", "card": card, "revealed_before": True})
        syndicate = zone == "bureau" and tx.card(card).type == "syndicate_agent" and not known
        if syndicate:
            tx.d["academy_deck"]["syndicate_seen"] += 1
    waits = flow.reveal_waits(tx, card, loc, flow.reveal_texts(tx, card, loc, first))
    tx.say(m.CardRevealed, seat=tx.current, card=card, where=loc, syndicate=syndicate, **counted, **waits)
    flow.revealed(tx, card, loc)


# -- strikes (§4.19, §4.20) ---------------------------------------------------------------------------------------


def _source_available(tx: Tx, seat: str, source: str) -> bool:
    p = tx.player(seat)
    if source == f"avatar.{seat}":
        return True
    if source in p["hand"] or source in p["vigilant"] or source in p["climax"] or any(x["card"] == source for x in p["play"]):
        return True
    return bool(flow.locate(tx, source))


def take_strike(tx: Tx, intent: m.TakeStrike) -> None:
    item = tx.pending()[0]
    card = intent.card
    if card is None:
        tx.fail(Code.STRIKE_CARD_UNAVAILABLE, "name the Strike card drawn (take_strike card=ID)", "R44")
    pool = tx.d["strike_deck"]["cards"] if flow.strike_count(tx) > 0 else tx.d["strike_discard"]
    if card not in tx.rules.cards or tx.card(card).type != "strike" or card not in pool:
        tx.fail(Code.STRIKE_CARD_UNAVAILABLE, f"{card} is not in the Strike deck", "R44")
    seat, source = item["seat"] or tx.current, item["source"]
    flow.reshuffle_strikes(tx)
    used = ""  # the grant the cancel uses up
    declared = False
    if intent.cancel:
        if item["kind"] != "strike":
            tx.fail(Code.CANCEL_NOT_AVAILABLE, "an End Game damage draw cannot be cancelled", "R39")
        if intent.cancel == card:
            ok = "self_cancel_if_belief" in tx.card(card).solo_rules and tx.solo() and tx.turn["beliefs_played"] >= 1
            if not ok:
                tx.fail(Code.CANCEL_NOT_AVAILABLE, f"{card} cannot cancel itself here (solo, after a Belief, only Fear)", "R46")
        else:
            if intent.cancel not in tx.rules.cards and not intent.cancel.startswith("avatar."):
                tx.fail(Code.SOURCE_NOT_AVAILABLE, f"{intent.cancel} is not a card", "R34")
            if not _source_available(tx, seat, intent.cancel):
                tx.fail(Code.SOURCE_NOT_AVAILABLE, f"{intent.cancel} is not in {seat}'s control or face up", "R34")
            grant = f"cancel:{seat}"
            src = tx.rules.cards.cards.get(intent.cancel)
            by_data = src is not None and any("cancel" in a.grants for a in src.abilities) or \
                (src is not None and "grants_cancel" in src.solo_rules and tx.solo())
            text_only = src is not None and any(a.text_only for a in src.abilities)
            if by_data:
                pass  # the card's own data grants it: there is no grant to use up
            elif grant in tx.turn["grants"]:
                tx.turn["grants"].remove(grant)
                used = grant
            elif text_only:
                tx.declared()
                declared = True
            else:
                tx.fail(Code.CANCEL_NOT_AVAILABLE, f"{intent.cancel} cannot cancel a Strike card", "R34")
    tx.d["pending"].pop(0)
    drawn = {"seat": seat, "card": card, "reshuffled": flow.take_from_strike_deck(tx, card)}
    s = tx.card(card)
    if item["kind"] == "end_game_strike":
        tx.d["end_game_strikes"].setdefault(source, []).append(card)
        tx.say(m.StrikeTaken, text=f"against {source}", source=source, **drawn)
        flow.end_game_damaged(tx, source, 0 if s.miss else s.damage)
        return
    src = tx.rules.cards.cards.get(source)
    ferocious = False
    texts: list[dict[str, Any]] = []
    if intent.cancel:
        tx.d["strike_discard"] = sorted([*tx.d["strike_discard"], card])
        tx.say(m.StrikeCancelled, text=intent.cancel, grant=used, declared=declared, **drawn)
    elif s.miss:
        tx.d["strike_discard"] = sorted([*tx.d["strike_discard"], card])
        tx.say(m.StrikeMissed, **drawn)
        hits_left = any(not tx.card(c).miss for c in (*tx.d["strike_deck"]["cards"], *tx.d["strike_discard"]))
        ferocious = src is not None and src.has("ferocious") and hits_left  # only misses left: the redraw stops (R40)
    else:
        tx.player(seat)["wounds"].append(card)
        tx.say(m.WoundAdded, n=s.damage, **drawn)
        if any(a.text_only for a in s.abilities):
            texts.append({"kind": "effect", "seat": tx.current, "source": card, "trigger": "strike_card"})
        if src is not None and src.has("maul") and s.damage > 0:
            if not flow.blind_scar(tx, seat) and tx.opt["maul_without_strikes"] == "loss":
                flow.lose(tx, "strikes_exhausted")
                return
        lethal = src is not None and src.has("lethal") and s.damage > 0
        flow.check_defeat(tx, seat, lethal=lethal)
        if tx.over():
            return
    if src is not None and (not intent.cancel or tx.opt["cancel_keeps_on_strike"]):
        a = src.ability("on_strike")
        if a is not None and a.text_only:
            texts.append({"kind": "effect", "seat": tx.current, "source": source, "trigger": "on_strike"})
    again = not ferocious and item["strike_no"] < item["strikes"] and not tx.player(seat)["defeated"]
    follow: list[dict[str, Any]] = []
    if ferocious:
        follow.append({"kind": "strike", "seat": seat, "source": source, "strike_no": item["strike_no"],
                       "strikes": item["strikes"], "reason": "ferocious"})
    if texts or ferocious or again:
        group = flow.next_group(tx)
        follow += [{**f, "group": group} for f in texts]
        if again:
            follow.append({"kind": "strike", "seat": seat, "source": source, "strike_no": item["strike_no"] + 1,
                           "strikes": item["strikes"], "reason": item["reason"]})
        tx.push_front(*follow)
        tx.say(m.StrikeFollowedUp, seat=seat, card=card, source=source, strike_no=item["strike_no"],
               strikes=item["strikes"], text=item["reason"], ferocious=ferocious, again=again,
               triggers=flow.as_triggered(texts))


def avoid_strike(tx: Tx, intent: m.AvoidStrike) -> None:
    item = tx.pending()[0]
    seat = item["seat"] or tx.current
    if item["kind"] != "strike":
        tx.fail(Code.AVOID_NOT_AVAILABLE, "an End Game damage draw cannot be avoided", "R39")
    if item["reason"] == "ferocious":
        tx.fail(Code.AVOID_TOO_LATE, "a Strike card has already been drawn for this strike", "R43")
    if item["strike_no"] != 1:
        tx.check(False, Code.AVOID_ONLY_FIRST_STRIKE, f"only the first strike of {item['source']} can be avoided "
                 f"(this is strike {item['strike_no']})", "R44")
    if not _source_available(tx, seat, intent.source):
        tx.fail(Code.SOURCE_NOT_AVAILABLE, f"{intent.source} is not in {seat}'s control or face up", "R34")
    key = intent.source if tx.opt["avoid_limit"] == "per_source" else f"player:{seat}"
    if key in tx.turn["avoid_used"]:
        tx.check(False, Code.AVOID_ALREADY_USED, f"{intent.source} already avoided a strike this turn", "R44")
    src = tx.rules.cards.cards.get(intent.source)
    p = tx.player(seat)
    grant = f"avoid:{seat}"
    by_data = False
    if src is not None:
        for a in src.abilities:
            if "avoid" in a.grants and (a.trigger != "on_play" or any(x["card"] == intent.source for x in p["play"])):
                by_data = True
    text_only = src is not None and any(a.text_only for a in src.abilities)
    used, declared = "", False
    if by_data:
        pass  # the card's own data grants it: there is no grant to use up
    elif grant in tx.turn["grants"]:
        tx.turn["grants"].remove(grant)
        used = grant
    elif text_only or intent.source.startswith("avatar."):
        tx.declared()
        declared = True
    else:
        tx.fail(Code.AVOID_NOT_AVAILABLE, f"nothing lets {intent.source} avoid this strike", "R34")
    tx.d["pending"].pop(0)
    tx.turn["avoid_used"].append(key)
    if item["strikes"] > 1:
        tx.push_front({"kind": "strike", "seat": seat, "source": item["source"], "strike_no": 2,
                       "strikes": item["strikes"], "reason": item["reason"]})
    tx.say(m.StrikeAvoided, seat=seat, card=item["source"] if item["source"] in tx.rules.cards else "", text=intent.source,
           key=key, grant=used, declared=declared)


# -- effects (§4.24, §4.25) ----------------------------------------------------------------------------------------


def resolve_effect(tx: Tx, intent: m.ResolveEffect) -> None:
    pending = tx.pending()
    group = pending[0]["group"]
    front = [i for i, x in enumerate(pending) if x["kind"] == "effect" and x["group"] == group
             and all(y["kind"] == "effect" and y["group"] == group for y in pending[:i])]
    match = next((i for i in front if pending[i]["source"] == intent.source), None)
    if match is None:
        tx.fail(Code.EFFECT_SOURCE_MISMATCH, f"the pending effect is {pending[0]['source']}'s, not {intent.source}'s", "§3.2")
    item = pending.pop(match)
    tx.source = item["source"]
    card = item["source"] if item["source"] in tx.rules.cards else ""
    waiting = len(pending)
    swap = named.body_swap(tx, intent.ops) if item["source"] == named.BODY_SWAP and item["trigger"] == "event" else None
    tx.say(m.EffectResolved, seat=tx.current, card=card, text=item["trigger"], source=item["source"],
           reveal=len(tx.pending()) > waiting)
    if swap is not None:
        declare(tx, swap, item["source"], False)
    else:
        declare(tx, intent.ops, item["source"], True)
    if item["trigger"] == "event":
        where = flow.locate(tx, item["source"])
        if where:
            flow.defeat_conspiracy(tx, where, item["source"], triggers=False)
            tx.say(m.EventResolved, card=item["source"], where=where)


def manual_effect(tx: Tx, intent: m.ManualEffect) -> None:
    if tx.d.peek("status") == "setup":
        tx.fail(Code.WRONG_PHASE, "declared effects wait until setup is complete", "R40")
    if not intent.ops:
        tx.fail(Code.MANUAL_CHANGE_INVALID, "a manual effect names at least one change (ops=...)", "R40")
    tx.source = intent.source
    if intent.source == named.SUSANNE:
        named.susanne(tx, intent.ops)  # checked in full: not declared
        apply_ops(tx, intent.ops)
    else:
        apply_ops(tx, intent.ops)
        tx.declared()
    tx.say(m.ManualEffectApplied, seat=tx.seat, card=intent.source if intent.source in tx.rules.cards else "",
           text=intent.source)
