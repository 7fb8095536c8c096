"""Android's rules bound to one match: the configuration checked, and the protocol's methods.

:class:`AndroidRules` reads the match's seats (clockwise), data set and options, and answers the
engine: ``setup`` (the empty table before step 1), ``decide`` (:mod:`.decide`), ``evolve``
(:mod:`.fold`), ``view`` / ``hidden_ids`` / positions (:mod:`.view`), legal intents (:mod:`.legal`),
events in words (:mod:`.words`), the board (:mod:`.present`) and digital chance (:mod:`.chance`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.engine.chance import Chance
from referee.engine.position import Placed
from referee.engine.protocol import ConfigError, Rejected, RulesBase
from referee.engine.speech import N_
from schemas import MatchConfig, Outcome
from schemas.board import Board
from schemas.listing import Listed

from .codes import Code
from . import chance as chance_mod
from . import manual
from . import legal as legal_mod
from . import present
from . import view as view_mod
from . import words
from .data import DataSet, Location, parse_data
from .decide import DECIDERS
from .fold import evolve
from .model import Event, Intent, Player, State
from .options import resolved
from .txn import Tx


class AndroidRules(RulesBase[State, Intent, Event]):
    deciders = DECIDERS

    def __init__(self, config: MatchConfig) -> None:
        self.config = config
        self.players = tuple(config.players)
        n = len(self.players)
        if not 3 <= n <= 5:
            raise ConfigError.said(Code.SETUP_INVALID_PLAYER_COUNT, N_("Android takes 3 to 5 players, got {n}: {seats}"),
                                   n=n, seats=", ".join(self.players))
        if len(set(self.players)) != n or any(not p for p in self.players):
            raise ConfigError.said(Code.SETUP_INVALID_SEATING, N_("seats must be distinct ids, got {seats}"),
                                   seats=", ".join(self.players))
        if config.decks:
            raise ConfigError.said(Code.SETUP_INVALID_DATA, N_("Android's decks come from its data set: --deck is not used"))
        self.options = resolved(config.options)
        self.digital = config.chance == "digital"
        if "mode" in config.options and (config.options["mode"] == "digital") != self.digital:
            raise ConfigError.said(Code.SETUP_INVALID_DATA, N_(
                "option mode={mode} but the match's chance is {chance}: a digital match needs a seed, a physical "
                "one none"), mode=config.options["mode"], chance=config.chance)
        if not config.cards_text:
            raise ConfigError.said(Code.SETUP_INVALID_DATA, N_("no data set: name one with a map (cards = \"FX-1\" or \"demo\")"))
        self.data: DataSet = parse_data(config.cards_text, config.cards or "")
        wanted = str(self.options["map"] or "")
        if wanted and wanted not in self.data.maps:
            raise ConfigError.said(Code.SETUP_INVALID_DATA, N_("map {wanted!r} is not in data set {name!r} ({maps})"),
                                   wanted=wanted, name=self.data.name, maps=", ".join(self.data.map_order))
        self.map = self.data.maps[wanted or self.data.map_order[0]]
        self.interior = frozenset(self.map.beanstalk[1:4])
        self._check_options()

    def _check_options(self) -> None:
        """Option values that depend on the data set, or whose items the option's type cannot restrict."""
        unknown = sorted(set(self.options["token_vp"]) - {"haas", "jinteki", "conspiracy"})
        if unknown:
            raise ConfigError.said(Code.SETUP_INVALID_DATA, N_(
                "option token_vp: {unknown} is not a token (token_vp takes haas, jinteki and conspiracy, e.g. "
                "haas:1,jinteki:1,conspiracy:2)"), unknown=", ".join(unknown))
        self.options["token_vp"] = {**{"haas": 1, "jinteki": 1, "conspiracy": 1}, **self.options["token_vp"]}
        if self.options["reach_check"] == "explicit":
            for lid in self.map.order:
                if lid in self.interior:
                    continue
                for det in sorted(self.data.detectives):
                    if self.reach_list(lid, det) is None:
                        cls = self.data.detectives[det].ruler_class
                        raise ConfigError.said(Code.SETUP_INVALID_DATA, N_(
                            "option reach_check=explicit: location {location} of map {map} has no reach list for "
                            "{detective}'s ruler (class {cls}); give reach = [...] on every location, or use "
                            "reach_check=geometry or trust") if cls else N_(
                            "option reach_check=explicit: location {location} of map {map} has no reach list for "
                            "{detective}'s ruler; give reach = [...] on every location, or use reach_check=geometry "
                            "or trust"), location=lid, map=self.map.map_id, detective=det, cls=cls)

    def reach_list(self, lid: str, detective: str) -> tuple[str, ...] | None:
        """Where ``detective``'s ruler reaches from ``lid`` by the map's explicit lists (None: not listed)."""
        reach = self.loc(lid).reach
        d = self.data.detectives.get(detective)
        return reach.get(d.ruler_class if d else "", reach.get("*"))

    # -- questions about the table ------------------------------------------------------------------------

    def loc(self, lid: str) -> Location:
        return self.map.locations[lid]

    def rotation(self, first: str) -> tuple[str, ...]:
        i = self.players.index(first)
        return self.players[i:] + self.players[:i]

    def left(self, seat: str) -> str:
        return self.players[(self.players.index(seat) + 1) % len(self.players)]

    def right(self, seat: str) -> str:
        return self.players[(self.players.index(seat) - 1) % len(self.players)]

    def track(self, detective: str) -> tuple[int, int]:
        d = self.data.detectives.get(detective)
        return (-d.track_light, d.track_dark) if d else (-5, 5)

    def hand_limit(self, detective: str) -> int:
        d = self.data.detectives.get(detective)
        return d.hand_limit if d else 6

    def base_time(self, state: State, seat: str) -> int:
        p: Player = state.players[seat]
        d = self.data.detectives[p.detective or ""]
        held = set(p.in_play) | set(p.special.directives or ())
        return d.base_time + sum(n for card, n in d.time_bonus.items() if card in held) + p.time_modifier

    def climax(self, state: State) -> bool:
        return state.day >= self.data.last_day - 1

    def card_zone(self, state: State, card: str) -> str | None:
        for seat, p in state.players.items():
            if card in p.hand:
                return f"{seat}.hand"
            if card in p.in_play:
                return f"{seat}.in_play"
        c = self.data.cards.get(card)
        if c is not None and c.detective in state.decks:
            d = state.decks[c.detective][c.deck]
            if card in d.face_down:
                return "face_down"
            if card in d.bottom:
                return "bottom"
        return "box" if card in state.box else None

    def remove_card(self, state: State, card: str) -> State:
        from msgspec.structs import replace

        from .edits import with_player, without

        where = self.card_zone(state, card)
        if where is None:
            return state
        if where.endswith(".hand") or where.endswith(".in_play"):
            seat, _, zone = where.partition(".")
            p = state.players[seat]
            return with_player(state, seat, **{zone: without(getattr(p, zone), card)})
        if where == "box":
            return replace(state, box=without(state.box, card))
        c = self.data.cards[card]
        decks = {k: dict(v) for k, v in state.decks.items()}
        d = decks[c.detective][c.deck]
        decks[c.detective][c.deck] = replace(d, face_down=without(d.face_down, card), bottom=without(d.bottom, card))
        return replace(state, decks=decks)

    def need_face_down(self, tx: Tx, card: str) -> None:
        c = self.data.cards.get(card)
        ok = c is not None and c.detective in tx.s.decks and card in tx.s.decks[c.detective][c.deck].face_down
        tx.require(ok, Code.DECK_CARD_NOT_IN_DECK, f"{card} is not face down in its deck", "§2")

    # -- the protocol ---------------------------------------------------------------------------------------

    def setup(self, chance: Chance | None) -> State:
        return State(players={p: Player() for p in self.players})

    def actors(self, state: State, intent: Intent) -> frozenset[str]:
        # whose turn it is is checked by decide, where the spec's check order puts turn/not_your_turn
        return frozenset((*self.players, "arbiter"))

    def decision(self, state: State, seat: str, chance: Chance | None, waive: frozenset[str]) -> Tx:
        return Tx(self, state, seat, waive)

    def evolve(self, state: State, event: Event) -> State:
        return evolve(self, state, event)

    def outcome(self, state: State) -> Outcome | None:
        r = state.result
        if r is None:
            return None
        order = sorted(set(r.scores.values()), reverse=True)
        ranking = tuple(tuple(s for s in self.players if r.scores.get(s) == v) for v in order)
        return Outcome(winners=r.winners, reason="case_closed", kind="ranking", ranking=ranking, scores=dict(r.scores))

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return view_mod.view(self, state, seat)

    def boards(self, view: dict[str, Any]) -> tuple[Board, ...]:
        return present.boards(self, view)

    def sections(self, view: dict[str, Any], drawn: tuple[Board, ...] | None = None) -> tuple[Board, ...]:
        return present.sections(self.boards(view) if drawn is None else drawn, view)

    def name_of(self, id: str) -> str | None:
        return present.name_of(self, id)

    def headline(self, view: dict[str, Any]) -> str:
        """Where the match stands: the setup step, or the day and who acts (or what waits on whom) with each
        detective's TIME, or the end-of-day item, or the killer once the game has ended; and the VP."""
        phase = view.get("phase")
        if phase == "setup":
            return f"setup step {view.get('setup_step')}"
        day = f"day {view.get('day')} of {self.data.last_day}" + (" (climax)" if view.get("climax") else "")
        if phase == "day":
            pending = view.get("pending") or []
            if pending:
                top = pending[0]
                return f"{day} · {top.get('seat')} to {str(top.get('step')).replace('_', ' ')}{self._standing(view)}"
            return f"{day} · {view.get('active_seat')} to act{self._standing(view)}"
        if phase == "end_of_day":
            queue = view.get("end_of_day_queue") or []
            return f"{day} · end of day: {str(queue[0]).replace('_', ' ') if queue else 'nothing left'}{self._standing(view)}"
        killer = (view.get("case") or {}).get("killer", "none")
        killer = ", ".join(killer) if isinstance(killer, list) else killer
        return f"the case is {'closed' if phase == 'over' else 'closing'} · killer: {killer}{self._standing(view)}"

    def _standing(self, view: dict[str, Any]) -> str:
        """Each detective's TIME in the day phase, in turn order (the active one's left; none for those
        done, as unspent TIME is lost; the base TIME for those still to act, from the cards in play the view
        shows), and each detective's VP."""
        players: dict[str, Any] = view["players"] if isinstance(view.get("players"), dict) else {}
        order = [s for s in view.get("turn_order") or sorted(players) if isinstance(players.get(s), dict)]
        time = []
        for seat in order:
            p = players[seat]
            if seat == view.get("active_seat"):
                left = view.get("time_left")
            elif seat in (view.get("turns_done") or []):
                left = 0
            else:
                d = self.data.detectives.get(p.get("detective") or "")
                held = set(p.get("in_play") or ()) | set((p.get("special") or {}).get("directives") or ())
                left = None if d is None else d.base_time + sum(n for c, n in d.time_bonus.items() if c in held) \
                    + int(p.get("time_modifier") or 0)
            time.append(f"{seat} {'?' if left is None else left}")
        if view.get("phase") != "day":
            time = []
        vp = [f"{seat} {players[seat]['vp']}" for seat in order if "vp" in players[seat]]
        return (" · TIME " + ", ".join(time) if time else "") + (" · VP " + ", ".join(vp) if vp else "")

    def hidden_ids(self, state: State, seat: str | None) -> frozenset[str]:
        return view_mod.hidden_ids(self, state, seat)

    position_shape = view_mod.POSITION_SHAPE
    position_refusal = Code.SETUP_INVALID_POSITION

    def position_base(self, state: State, overrides: Mapping[str, Any]) -> State:
        return view_mod.position_base(self, state, overrides)

    def position_value(self, path: str, value: Any, data: dict[str, Any]) -> Any:
        return view_mod.position_value(self, path, value, data)

    def complete_position(self, state: State, placed: Placed) -> State:
        return view_mod.complete_position(self, state, placed)

    def in_opening(self, state: State) -> bool:
        return state.phase == "setup"  # the arbiter's and the seats' set-up steps (rulebook steps 1-14)

    def legal_intents(self, state: State, seat: str) -> Sequence[Intent]:
        return legal_mod.legal_intents(self, state, seat)

    def describe_event(self, event: Event) -> str | None:
        return words.describe(self, event)

    def chance_fields(self, intent: Intent) -> tuple[str, ...]:
        return chance_mod.chance_fields(self, intent)

    def filled_intent(self, state: State, seat: str, intent: Intent, chance: Chance | None) -> Intent | Rejected:
        return chance_mod.fill(self, state, seat, intent, chance)

    def redact(self, item: Intent | Event, actor: str | None, seat: str | None) -> Intent | Event:
        return manual.redact(item, actor, seat)

    def listing(self) -> tuple[Listed, ...]:
        """The data set's public names for ``referee cards android`` (:mod:`.listing`), on the match's map."""
        from .listing import listing

        return listing(self.data, self.map)

    def confirmer(self, state: State, seat: str, intent: Intent) -> str | None:
        """A declared effect that changes another seat's hidden hand waits for that seat (or the
        arbiter, when two are concerned) to confirm it (:func:`.manual.confirmer`)."""
        return manual.confirmer(self, state, seat, intent)

    def check_input(self, intent: Intent) -> str | None:
        # unknown ids are adjudicated (android/ref/unknown_*) and recorded: nothing is refused before
        return None


