"""The rules bound to one match: the configuration checked (§2.1), setup (§2.2), the decider (the
shared checks of §4.0.3, each intent's own, then the phase procedure resumed), the fold, and digital
chance (a seeded match draws what a recorded one types in).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from referee.engine import speech
from referee.engine.chance import Chance
from referee.engine.protocol import ConfigError, Rejected, RulesBase
from referee.engine.speech import N_
from referee.engine.suggest import did_you_mean
from schemas import MatchConfig, Outcome
from schemas.board import Board
from schemas.listing import Listed

from . import draws, flow, series
from . import model as m
from .data import ACADEMY, AVATARS, CardSet, parse_cards
from .options import resolved
from .fold import evolve, same_verdict
from .decide import DECIDERS
from .txn import Tx
from .legal import legal, random_intent
from .present import boards, sections
from .view import PositionMixin, hidden_ids, view
from .words import describe
from .codes import Code

FIRST_GAME_AVATARS = ("mulder", "scully", "skinner", "doggett", "reyes")
FIRST_GAME_ACADEMY = ("burks", "follmer", "pendrell", "lone_gunmen")
CYCLES = ((1, 2, 3), (4, 5, 6), (7, 8, 9))



def _config_error(template: str, /, **values: Any) -> ConfigError:
    """A configuration refused: ``template`` (marked ``N_``) said with ``values``."""
    return ConfigError.said(Code.BAD_CONFIG, template, **values)


class XFilesRules(PositionMixin, RulesBase[m.State, m.Intent, m.Event]):
    deciders = DECIDERS

    def __init__(self, config: MatchConfig) -> None:
        self.config = config
        self.players = tuple(config.players)
        if not 1 <= len(self.players) <= 5:
            raise _config_error(N_("Legendary Encounters: X-Files is for 1 to 5 players, not {n}"), n=len(self.players))
        self.cards: CardSet = parse_cards(config.cards_text or "")
        self.options = resolved(config.options)
        self._check_options()

    def _check_options(self) -> None:
        o = self.options
        avatars = o["avatars"]
        unknown = sorted(set(avatars) - set(self.players))
        if unknown:
            raise _config_error(N_("option avatars names {names}, who are not seats ({seats})"), names=", ".join(unknown),
                                seats=", ".join(self.players))
        if avatars and set(avatars) != set(self.players):
            raise _config_error(N_("option avatars gives an avatar to every seat; missing: {seats}"),
                                seats=", ".join(s for s in self.players if s not in avatars))
        if len(set(avatars.values())) != len(avatars):
            raise _config_error(N_("option avatars: each player has a different avatar (R07)"))
        for a in avatars.values():
            if a not in self.cards or self.cards[a].type != "avatar":
                raise _config_error(N_("option avatars: the card set has no avatar {avatar!r}"), avatar=a)
        academy = o["academy_characters"]
        if academy and (len(academy) != 4 or len(set(academy)) != 4):
            raise _config_error(N_("option academy_characters names four different characters (R11), not {given}"),
                                given=academy)
        seasons = tuple(o["seasons"])
        if o["conspiracy_method"] == "standard" and seasons not in CYCLES:
            raise _config_error(N_("option seasons: the standard method takes 1,2,3 or 4,5,6 or 7,8,9, not {seasons}"),
                                seasons=seasons)
        if o["conspiracy_method"] == "random" and (len(seasons) != 3 or [(s - 1) % 3 for s in seasons] != [0, 1, 2]):
            raise _config_error(N_("option seasons: the random method takes an A, a B and a C season in that order "
                                   "(A: 1,4,7; B: 2,5,8; C: 3,6,9), not {seasons}"), seasons=seasons)
        for name in ("bureau_scan_costs", "shadows_scan_costs"):
            if len(o[name]) != 5 or any(v < 0 for v in o[name]):
                raise _config_error(N_("option {name} takes five whole numbers >= 0 (slots 1-5), not {given}"), name=name,
                                    given=o[name])
        if len(o["bureau_slot_texts"]) not in (0, 5):
            raise _config_error(N_("option bureau_slot_texts takes five texts (write - for a slot without one)"))
        if not o["bureau_slot_texts"]:
            o["bureau_slot_texts"] = ["", "", "", "", ""]
        if not 1 <= int(o["informants_per_stack"]) <= 2:
            raise _config_error(N_("option informants_per_stack is 1 or 2 (R47)"))
        if o["swift_failure_refund"]:
            raise _config_error(N_("option swift_failure_refund: only false is supported (B10): a Swift strike that "
                                   "defeats the fighter ends their turn at once (B25; no_death, R47), so refunded "
                                   "points could never be spent"))
        g = int(o["series_game"])
        if g and o["conspiracy_method"] == "standard":
            if "seasons" not in self.config.options:
                o["seasons"] = list(CYCLES[g - 1])
            elif tuple(o["seasons"]) != CYCLES[g - 1]:
                raise _config_error(N_("option seasons: game {game} of a series uses seasons {seasons} (R48), not "
                                       "{given}"), game=g, seasons=",".join(map(str, CYCLES[g - 1])),
                                    given=",".join(map(str, o["seasons"])))
        self._check_kept_cards()
        problem = series.check_options(self)
        if problem is not None:
            raise problem

    def stack_seasons(self) -> list[list[int]]:
        """The seasons each stack (A, B, C) draws from (R10, §2.4)."""
        o = self.options
        if o["conspiracy_method"] == "all_seasons":
            return [[i + 1, i + 4, i + 7] for i in range(3)]
        return [[int(s)] for s in o["seasons"]]

    def _check_kept_cards(self) -> None:
        """B11 ``chosen``: the k season cards kept in each stack are named (``kept_season_cards``)."""
        o = self.options
        kept = list(o.get("kept_season_cards", []))
        if o["season_cards_kept"] != "chosen":
            if kept:
                raise _config_error(N_("option kept_season_cards names the kept cards of season_cards_kept=chosen; "
                                       "this match has season_cards_kept={kept}"), kept=o["season_cards_kept"])
            return
        k = 6 + len(self.players)
        if not kept:
            raise _config_error(N_("option season_cards_kept=chosen needs kept_season_cards: the {k} season cards "
                                   "kept in each of stacks A, B and C ({ids} ids, an id per copy; R10, B11)"),
                                k=k, ids=3 * k)
        for cid in kept:
            if cid not in self.cards or self.cards[cid].type not in ("enemy", "event", "ally") or not self.cards[cid].season:
                raise _config_error(N_("option kept_season_cards: {card!r} is not a season card (an enemy, event or "
                                       "ally of seasons 1-9) of this card set"), card=cid)
        for cid, n in sorted(Counter(kept).items()):
            if n > self.cards.copies[cid]:
                raise _config_error(N_("option kept_season_cards names {card} {n} times; the card set has {copies} "
                                       "copies"), card=cid, n=n, copies=self.cards.copies[cid])
        for label, seasons in zip("ABC", self.stack_seasons()):
            mine = [c for c in kept if self.cards[c].season in seasons]
            if len(mine) != k:
                raise _config_error(N_("option kept_season_cards: stack {stack} (season {seasons}) keeps {k} cards "
                                       "with {players} players (R10), {named} are named"), stack=label,
                                    seasons=",".join(map(str, seasons)), k=k, players=len(self.players), named=len(mine))
        stray = [c for c in kept if not any(self.cards[c].season in ss for ss in self.stack_seasons())]
        if stray:
            raise _config_error(N_("option kept_season_cards: {cards} belong to no stack of this match's seasons"),
                                cards=", ".join(sorted(set(stray))))

    # -- setup (§2.2) ------------------------------------------------------------------------------------------

    def setup(self, chance: Chance | None) -> m.State:
        o = dict(self.options)
        n = len(self.players)
        avatars = dict(o["avatars"])
        if not avatars:
            pool = list(FIRST_GAME_AVATARS[:n]) if chance is None else chance.derive("avatars").shuffled(AVATARS)[:n]
            avatars = dict(zip(self.players, pool))
        academy = list(o["academy_characters"])
        if not academy:
            academy = list(FIRST_GAME_ACADEMY) if chance is None else sorted(chance.derive("academy").shuffled(ACADEMY)[:4])
        o["avatars"], o["academy_characters"] = avatars, academy
        k = 6 + n
        ips = int(o["informants_per_stack"])
        kept = list(o.get("kept_season_cards", []))
        segments: list[dict[str, Any]] = []
        for label, pool_seasons in zip("ABC", self.stack_seasons()):
            # B11: random kept cards are a quota of k season cards; chosen ones a quota per card
            mine = Counter(c for c in kept if self.cards[c].season in pool_seasons)
            quota = {**(dict(sorted(mine.items())) if mine else {"season": k}), "informant": ips, "leader": 1}
            segments.append({"label": label, "seasons": pool_seasons, "remaining": k + ips + 1,
                             "quota": quota, "seen": {key: 0 for key in quota}, "cards": []})
        segments.append({"label": "end_game", "seasons": [], "remaining": 1, "quota": {"end_game": 1},
                         "seen": {"end_game": 0}, "cards": []})
        beliefs = int(o["starting_beliefs"])
        players = {}
        for seat in self.players:
            deck = ["field_agent"] * 7 + ["strike_team"] * 5 + ["belief"] * beliefs
            players[seat] = new_player(avatars[seat], sorted(deck))
            players[seat]["scars"] = [""] * series.kept_scars(self, avatars[seat])  # R48: face down, unseen
        first = min(self.players, key=lambda s: (self.cards[avatars[s]].rank, self.players.index(s)))
        i = self.players.index(first)
        order = list(self.players[i:] + self.players[:i])
        academy_total = sum(c.copies for c in self.cards.of_type("academy_character") if c.character in academy)
        strike_cards = sorted(Counter({c.id: c.copies for c in self.cards.of_type("strike")}).elements())
        return msgspec.convert(dict(
            academy_deck={"count": academy_total + int(o["syndicate_in_academy"]) - 5, "characters": academy,
                          "syndicate_seen": 0},
            audit={"declared": 0},
            belief_stack=self.cards.copies.get("belief", 0) - beliefs * n,
            bureau={s: {**flow.empty_slot(), "state": "hidden", "origin": "academy"} for s in flow.SLOTS},
            clone_evidence=[],
            conspiracy_deck={"segments": segments},
            defeated_characters=[], defeated_conspiracy=[],
            doubt_stack=self.cards.copies.get("doubt", 0),
            end_game_damage={}, end_game_strikes={},
            evidence={p: new_evidence() for p in ("1", "2", "3")},
            options=o,
            outcome={"result": "", "reason": "", "winners": []},
            pending=[*({**_item("reveal", seat=first, location=f"bureau.{b}", origin="academy_characters")}
                       for b in (flow.SLOTS if o["bureau_revealed_before_syndicate"] else ())),
                     *(_item(**i) for i in series.setup_items(self, avatars, order)),
                     *({**_item("draw", seat=s, count=6)} for s in order)],
            players=players, revealed_before=[], season="", seats=list(self.players), sector=[],
            shadows={s: flow.empty_slot() for s in flow.SLOTS},
            special_agents={"cards": sorted(c.id for c in self.cards.of_type("special_agent") for _ in range(c.copies))},
            status="setup",
            strike_deck={"cards": strike_cards, "blind": sum(series.kept_scars(self, a) for a in avatars.values())},
            strike_discard=[], the_end=False,
            turn=flow.fresh_turn(list(self.players), first, 1, "setup"),
        ), m.State)

    # -- deciding ----------------------------------------------------------------------------------------------

    def actors(self, state: m.State, intent: m.Intent) -> frozenset[str]:
        if isinstance(intent, m.ANYONE):
            return frozenset(self.players)
        return frozenset([state.turn.seat])

    def decision(self, state: m.State, seat: str, chance: Chance | None, waive: frozenset[str]) -> Tx:
        return Tx(self, state, seat, waive)

    def evolve(self, state: m.State, event: m.Event) -> m.State:
        return evolve(state, event)

    def same_verdict(self, state: m.State, recorded: Any, derived: Any) -> bool:
        return same_verdict(state, recorded, derived)

    def outcome(self, state: m.State) -> Outcome | None:
        if state.status not in ("won", "lost"):
            return None
        g = int(self.options["series_game"])
        scores = {seat: series.total_points(state) for seat in state.seats} if g else None
        if state.status == "won":
            return Outcome(winners=tuple(state.seats), reason="end_game_defeated", kind="team_win", scores=scores)
        return Outcome(winners=(), reason=state.outcome.reason, kind="team_loss", scores=scores)

    # -- chance ------------------------------------------------------------------------------------------------

    def chance_fields(self, intent: m.Intent) -> tuple[str, ...]:
        if isinstance(intent, m.Draw):
            return ("cards",)
        if isinstance(intent, (m.Reveal, m.TakeStrike)):
            return ("card",)
        return ()

    def filled_intent(self, state: m.State, seat: str, intent: m.Intent, chance: Chance | None) -> m.Intent | Rejected:
        if chance is None or not state.pending:
            return intent
        filled: m.Intent | Rejected = draws.fill(self, state, seat, intent, chance)
        return filled

    # -- reading -----------------------------------------------------------------------------------------------

    def view(self, state: m.State, seat: str | None) -> dict[str, Any]:
        return view(self, state, seat)

    def hidden_ids(self, state: m.State, seat: str | None) -> frozenset[str]:
        return hidden_ids(self, state, seat)

    def name_of(self, id: str) -> str | None:
        card = self.cards.cards.get(id)
        return None if card is None or card.name == id and not card.name_ru else speech.name(card)

    def listing(self) -> tuple[Listed, ...]:
        from .listing import listing

        return listing(self.cards)

    def in_opening(self, state: m.State) -> bool:
        # until the first seat's opening hand is drawn
        return not any(p.hand or p.discard or p.play for p in state.players.values())

    def legal_intents(self, state: m.State, seat: str) -> Sequence[m.Intent]:
        return legal(self, state, seat)

    def random_intent(self, state: m.State, rng: Any) -> tuple[str, m.Intent] | None:
        return random_intent(self, state, rng)

    def describe_event(self, event: m.Event) -> str | None:
        return describe(self, event)

    def boards(self, view_: dict[str, Any]) -> tuple[Board, ...]:
        return boards(self.cards.cards, view_)

    def sections(self, view_: dict[str, Any], drawn: tuple[Board, ...] | None = None) -> tuple[Board, ...]:
        return sections(self.boards(view_) if drawn is None else drawn, view_)

    def check_input(self, intent: m.Intent) -> str | None:
        return check_input(self, intent)

    def headline(self, view_: dict[str, Any]) -> str:
        from .headline import headline

        return headline(view_, self.cards.copies.get("doubt", 0))

    def carry_over(self, state: m.State) -> Mapping[str, Any]:
        return series.carry_over(self, state)


def _item(kind: str, **fields: Any) -> dict[str, Any]:
    from .txn import pending_item
    return pending_item(kind, **fields)


def new_player(avatar: str, deck: list[str]) -> dict[str, Any]:
    return {"avatar": avatar, "defeated": False, "hand": [], "deck": deck, "discard": [], "play": [], "vigilant": [],
            "wounds": [], "scars": [], "coordinated_out": "", "climax": [], "symptoms": 0, "skip_next_turn": False,
            "known_top": []}


def new_evidence() -> dict[str, Any]:
    return {"state": "undiscovered", "card": "", "leader": "", "in_end_game": False, "locked": False}


def check_input(rules: XFilesRules, intent: Any) -> str | None:
    """Unknown card ids and seats are input errors (§4.0.3 F0), each naming the closest ids of the card list or
    the seats (the card list is public: ``referee cards``; a card typed by its name gets its id)."""
    cards, seats = rules.cards, rules.players
    ids = sorted(cards.cards)
    names = {cards.cards[cid].name: cid for cid in ids}

    def near(value: str) -> str:
        return did_you_mean(value, ids, names=names)

    def seat_near(value: str) -> str:
        return did_you_mean(value, seats)

    def card(value: str, what: str) -> str | None:
        if value and value not in cards:
            return f"unknown card {value!r} ({what}){near(value)}"
        return None

    def source(value: str) -> str | None:
        if value in cards:
            return None
        kind, _, rest = value.partition(".")
        if kind == "bureau_slot" and rest in flow.SLOTS:
            return None
        if kind == "avatar" and rest in seats:
            return None
        return f"unknown source {value!r}{near(value)}: a card id, bureau_slot.N or avatar.<seat>"

    for name in ("card", "discard"):
        value = getattr(intent, name, None)
        if isinstance(value, str) and (problem := card(value, name)):
            return problem
    if isinstance(intent, m.Draw):
        for c in intent.cards or ():
            if c not in cards:
                return f"unknown card {c!r} (cards){near(c)}"
    if isinstance(intent, (m.PlayVirtual, m.FightPlayer, m.GiveAlly)) and intent.seat not in seats:
        return f"unknown seat {intent.seat!r}{seat_near(intent.seat)}; seats are {', '.join(seats)}"
    if isinstance(intent, (m.ResolveEffect, m.ManualEffect, m.AvoidStrike)):
        if problem := source(intent.source):
            return problem
    if isinstance(intent, m.TakeStrike) and intent.cancel and (problem := source(intent.cancel)):
        return problem
    for op in getattr(intent, "ops", ()):
        for fname in ("card",):
            value = getattr(op, fname, None)
            if isinstance(value, str) and value not in cards:
                return f"unknown card {value!r} in op {op.__struct_config__.tag}{near(value)}"
        for fname in ("player", "with_"):
            value = getattr(op, fname, None)
            if isinstance(value, str) and value not in seats:
                return f"unknown seat {value!r} in op {op.__struct_config__.tag}{seat_near(value)}; seats are {', '.join(seats)}"
    return None
