"""Matches and their configuration: the games a service knows, card data, building and checking a
match's configuration, and binding a stored match to its rules (:class:`Loaded`).

One :class:`Configuration` object per service (:class:`referee.service.Referee` holds it), owning its
cache of bound matches.
"""

from __future__ import annotations

import os
import sys
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec

from schemas import (
    ARBITER,
    CARDS_TEXT_MAX,
    NAME_MAX,
    SEED_MAX,
    SPECTATOR,
    TEXT_MAX,
    TITLE_MAX,
    MatchConfig,
    MatchInfo,
)
from schemas.http import GameInfo, IntentUsage, OptionInfo, ParamUsage

from . import binding
from .engine import core, notation
from .engine.codes import CardsCode, GameCode, MatchCode
from .engine.entries import BodyDecoder
from .engine.protocol import ConfigError, Game, Rules
from .errors import BadInput, NotFound
from .i18n import N_
from .inputs import check_depth, check_text, read_file
from .store import MatchLog, StoredMatch


_now: tuple[int, str] = (-1, "")


def utc_now() -> str:
    """The time now, to the second, in UTC (``2026-11-28T11:55:00Z``): written once per second."""
    global _now
    second, kept = int(time.time()), _now
    if second != kept[0]:
        kept = _now = (second, datetime.fromtimestamp(second, UTC).isoformat(timespec="seconds").replace("+00:00", "Z"))
    return kept[1]


def _bundled_text(module: Any, package: str, name: str) -> str:
    """The text of the file ``name`` of a game's package: read beside the module's file where the package
    is a folder (an installed or checked-out package), else through :mod:`importlib.resources` (a zipped
    one), whose import costs every command that binds a match more than the read."""
    where = getattr(module, "__file__", None)
    if where:
        path = os.path.join(os.path.dirname(where), *name.split("/"))
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as fh:
                return fh.read()
    from importlib import resources

    return resources.files(package).joinpath(name).read_text("utf-8")


def new_match_id() -> str:
    import secrets  # (the modules a command imports only when it makes something)

    return secrets.token_hex(6)


def null_to_none(value: Any) -> Any:
    """TOML has no null: the string "null" stands for JSON null (recursively)."""
    if value == "null":
        return None
    if isinstance(value, dict):
        return {k: null_to_none(v) for k, v in value.items()}
    if isinstance(value, list):
        return [null_to_none(v) for v in value]
    return value


class Loaded(msgspec.Struct):
    """A match bound to its rules, with its starting position cached (a Struct, not a dataclass: made once
    per process, a dataclass costs every command's start-up the compiling of its methods)."""

    match: StoredMatch
    config: MatchConfig
    game: Game
    rules: Rules[Any, Any, Any]
    initial: Any
    decoder: BodyDecoder
    state_decoder: msgspec.json.Decoder[Any]
    #: the id of the match it was created as (itself, or for a fork the root of its fork tree): what
    #: its genesis hash and its seed commitment name
    root: str = ""


class Configuration:
    """The games, card data, match configurations and bound matches of a service, over the match log."""

    def __init__(self, store: MatchLog, games: Sequence[Game] | None = None) -> None:
        self.store = store
        #: the games this service knows; None = the registry's, each imported when first asked for
        self.given_games: tuple[Game, ...] | None = None if games is None else tuple(games)
        self._loaded: OrderedDict[str, Loaded] = OrderedDict()

    def with_store(self, store: MatchLog) -> Configuration:
        """The same games over another connection to the store (an audit's forked process), nothing kept."""
        return Configuration(store, self.given_games)

    @property
    def games(self) -> tuple[Game, ...]:
        """Every game this service knows (imports every registered game's package)."""
        if self.given_games is not None:
            return self.given_games
        from .games import all_games

        return all_games()

    def game(self, name: str) -> Game:
        if self.given_games is None:
            from .games import find, ids

            found = find(name)
            if found is not None:
                return found
            known = ", ".join(ids())
        else:
            key = name.strip().lower().replace("-", "_")
            for game in self.given_games:
                if key == game.id or key in game.aliases:
                    return game
            known = ", ".join(g.id for g in self.given_games)
        raise NotFound.said(GameCode.UNKNOWN, N_("unknown game {name!r}; known games: {known}"), name=name, known=known)

    def describe_game(self, name: str) -> GameInfo:
        """A game's notation (every verb with its arguments) and its options."""
        game = self.game(name)
        return GameInfo(
            id=game.id,
            name=game.name,
            aliases=list(game.aliases),
            rules_version=game.rules_version,
            players=(game.min_players, game.max_players),
            summary=game.summary,
            card_sets=sorted(game.card_sets),
            default_card_set=game.default_card_set,
            intents=[
                IntentUsage(
                    verb=v.verb, usage=v.signature(), doc=v.doc,
                    params=[ParamUsage(key=p.key, required=p.required, expected=p.expected()) for p in v.params],
                )
                for v in notation.describe(game.intent_type).values()
            ],
            options=[
                # a list option's default is a tuple in the game: the answer's is a list, as in JSON
                OptionInfo(name=o.name, default=list(o.default) if isinstance(o.default, tuple) else o.default,
                           choices=list(o.choices), help=o.help)
                for o in game.options().values()
            ],
        )

    def read_card_set(self, game: Game, cards: str | None, base_dir: str | None = None) -> tuple[str, str]:
        """(name, text) of a bundled card set or a card file (path relative to ``base_dir``)."""
        name = cards if cards is not None else game.default_card_set
        if name is None:
            return "", ""
        if name in game.card_sets:
            module = sys.modules[type(game).__module__]
            # the game's package: the module itself when the Game class lives in its __init__
            package = module.__name__ if hasattr(module, "__path__") else module.__name__.rpartition(".")[0]
            try:
                text = _bundled_text(module, package, game.card_sets[name])
            except (OSError, ModuleNotFoundError) as exc:
                raise BadInput.said(CardsCode.UNREADABLE, N_("bundled card set {name!r} cannot be read: {problem}"), name=name,
                                    problem=str(exc)) from None
            return name, text
        path = name if base_dir is None or os.path.isabs(name) else os.path.join(base_dir, name)
        if not os.path.exists(path):
            known = ", ".join(sorted(game.card_sets)) or "none"
            raise BadInput.said(CardsCode.NOT_FOUND, N_("card set {name!r} is neither a bundled set ({known}) nor a file at "
                                                        "{path}"), name=name, known=known, path=path)
        try:
            return name, read_file(path, "card file", CARDS_TEXT_MAX)
        except BadInput as exc:
            raise BadInput(CardsCode.UNREADABLE, exc.message) from None

    def build_config(
        self,
        game_name: str,
        players: Sequence[str],
        *,
        options: Mapping[str, Any] | None = None,
        cards: str | None = None,
        cards_text: str | None = None,
        decks: Mapping[str, str] | None = None,
        seed: int | None = None,
        chance: str | None = None,
        position: Mapping[str, Any] | None = None,
        meta: Mapping[str, str] | None = None,
        base_dir: str | None = None,
        undo: str = "any",
    ) -> tuple[Game, MatchConfig]:
        game = self.game(game_name)
        players = tuple(check_text(p, "a player name", NAME_MAX).strip() for p in players)
        for reserved in (ARBITER, SPECTATOR, *game.capabilities.other_actors):
            if reserved in players:
                raise BadInput.said(MatchCode.BAD_PLAYERS, N_("{reserved!r} is a reserved role name; name the seat otherwise"),
                                    reserved=reserved)
        if undo not in ("any", "own_last", "arbiter"):
            raise BadInput.said(MatchCode.BAD_UNDO_POLICY, N_("undo policy must be any, own_last or arbiter, not {undo!r}"),
                                undo=undo)
        for p in players:
            if not p or not all(c.isalnum() or c in "_-" for c in p):
                raise BadInput.said(MatchCode.BAD_PLAYERS, N_("player name {name!r} is not usable: use letters, digits, '_' or "
                                                              "'-' (e.g. --players alice,bob)"), name=p)
        if len(set(players)) != len(players):
            raise BadInput.said(MatchCode.BAD_PLAYERS, N_("player names must differ: {players}"), players=', '.join(players))
        if not game.min_players <= len(players) <= game.max_players:
            if game.min_players == game.max_players:
                raise BadInput.said(MatchCode.BAD_PLAYERS, N_("{game} takes {want} players, got {got}: {players}"),
                                    game=game.name, want=game.min_players, got=len(players), players=', '.join(players))
            raise BadInput.said(MatchCode.BAD_PLAYERS, N_("{game} takes {least} to {most} players, got {got}: {players}"),
                                game=game.name, least=game.min_players, most=game.max_players, got=len(players),
                                players=', '.join(players))
        specs = game.options()
        parsed: dict[str, Any] = {}
        check_depth(dict(options or {}), "the options")
        for key, raw in (options or {}).items():
            spec = specs.get(key)
            if spec is None:
                import difflib

                close = difflib.get_close_matches(key, list(specs), n=2)
                if close:
                    raise BadInput.said(MatchCode.BAD_OPTION, N_("{game} has no option {key!r} (did you mean {close}?); see "
                                                                 "`referee games {game}` for the list"),
                                        game=game.id, key=key, close=', '.join(close))
                raise BadInput.said(MatchCode.BAD_OPTION, N_("{game} has no option {key!r}; see `referee games {game}` for "
                                                             "the list"), game=game.id, key=key)
            try:
                parsed[key] = spec.parse(raw)
            except ValueError as exc:
                raise BadInput(MatchCode.BAD_OPTION, str(exc)) from None
            _check_option_text(key, parsed[key])
        if cards_text is None:
            cards, cards_text = self.read_card_set(game, cards, base_dir)
        elif len(cards_text.encode("utf-8", "surrogatepass")) > CARDS_TEXT_MAX:
            raise BadInput.said(CardsCode.TOO_LARGE, N_("the card text is more than {limit} bytes; the limit is {limit}"),
                                limit=f"{CARDS_TEXT_MAX:,}")
        if cards is not None:
            check_text(cards, "the card set's name", TEXT_MAX)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX):
            raise BadInput.said(MatchCode.BAD_SEED, N_("a seed is a whole number from 0 to {most}, not {seed!r}"),
                                most=f"{SEED_MAX:,}", seed=seed)
        if chance is None:
            chance = "digital" if seed is not None else "physical"
        if chance not in ("physical", "digital"):
            raise BadInput.said(MatchCode.BAD_CHANCE, N_("chance must be physical or digital, not {chance!r}"), chance=chance)
        if chance == "digital" and seed is None:
            # a secret seed: the arbiter's alone until the match ends (every role gets its commitment)
            import secrets

            seed = secrets.randbelow(SEED_MAX + 1)
        for key, value in (meta or {}).items():
            check_text(key, "a metadata key", NAME_MAX)
            check_text(value, f"the {key}", TITLE_MAX)
        for seat_, deck_ in (decks or {}).items():
            check_text(deck_, f"{seat_}'s deck", NAME_MAX)
        check_depth(dict(position or {}), "the position")
        config = MatchConfig(
            game=game.id,
            players=players,
            options=dict(sorted(parsed.items())),
            cards=cards or None,
            cards_text=cards_text or None,
            decks=dict(decks or {}),
            seed=seed,
            chance=chance,  # type: ignore[arg-type]
            position=null_to_none(dict(position or {})),
            meta=dict(meta or {}),
            undo=undo,  # type: ignore[arg-type]
        )
        # the deck choices are the game's to check: a deck may be a seat's, or a zone no seat owns (a
        # shared deck, a market, a street)
        for name in config.decks:
            check_text(name, "a deck's place", NAME_MAX)
        return game, config

    def _bind(self, game: Game, config: MatchConfig) -> tuple[Rules[Any, Any, Any], Any]:
        """The rules and the position after setup, kept per process by configuration (:mod:`.binding`)."""
        try:
            return binding.bind(game, config)
        except ConfigError as exc:
            raise BadInput(exc.code, exc.message) from None

    def info(self, m: StoredMatch) -> MatchInfo:
        config = msgspec.json.decode(m.config, type=MatchConfig)
        commitment = ""
        if config.chance == "digital" and config.seed is not None:
            root = m
            while root.parent is not None:
                parent = self.store.get_match(root.parent)
                if parent is None:
                    break
                root = parent
            commitment = core.seed_commitment(root.id, config.seed)
        return MatchInfo(
            id=m.id,
            game=m.game,
            rules_version=m.rules_version,
            players=config.players,
            created_at=m.created_at,
            head=self.store.head(m.id),
            parent=m.parent,
            fork_seq=m.fork_seq,
            title=m.title,
            event=config.meta.get("event", ""),
            round=config.meta.get("round", ""),
            table=config.meta.get("table", ""),
            seed_commitment=commitment,
        )

    def resolve(self, match_id: str) -> StoredMatch:
        # typed by people: refused like free text before any store sees it (PostgreSQL cannot hold a NUL)
        check_text(match_id, "a match id", TITLE_MAX)
        m = self.store.get_match(match_id)
        if m is not None:
            return m
        found = self.store.find_matches(match_id) if len(match_id) >= 4 else []
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise BadInput.said(MatchCode.AMBIGUOUS, N_("{id!r} matches {n} matches; type more of the id"), id=match_id,
                                n=len(found))
        raise NotFound.said(MatchCode.UNKNOWN, N_("no match {id!r} in this database; `referee matches` lists them"),
                            id=match_id)

    def load(self, match_id: str) -> Loaded:
        # a match's row never changes once written: a match bound here by its whole id is not read again
        cached = self._loaded.get(match_id)
        if cached is not None:
            return cached
        m = self.resolve(match_id)
        cached = self._loaded.get(m.id)
        if cached is not None:
            return cached
        config = msgspec.json.decode(m.config, type=MatchConfig)
        game = self.game(m.game)
        rules, initial = self._bind(game, config)
        root = m
        while root.parent is not None:
            parent = self.store.get_match(root.parent)
            if parent is None:
                break
            root = parent
        loaded = Loaded(
            match=m,
            config=config,
            game=game,
            rules=rules,
            initial=initial,
            decoder=BodyDecoder.for_game(game),
            state_decoder=msgspec.json.Decoder(game.state_type),
            root=root.id,
        )
        self._loaded[m.id] = loaded
        while len(self._loaded) > 64:
            self._loaded.popitem(last=False)
        return loaded


def _check_option_text(name: str, value: Any) -> None:
    """Every word in an option's value (a list's items, a map's keys and values) is one line of printable
    text, as all typed text is: a NUL or a line break in an option is refused, naming the option."""
    words: list[Any] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            words.append(item)
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
    for word in words:
        check_text(word, f"option {name}", TEXT_MAX)
