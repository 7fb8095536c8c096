"""For a scorekeeper about to write a transcript: what to type for a card set's cards and places
(``referee cards``), and a transcript skeleton — the header and the opening moves — that imports as it
is (``referee template``). Both come from the game's hooks (:meth:`Rules.listing`,
:meth:`Rules.in_opening`, the legal intents), so every game gets them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from schemas import Seat
from schemas.listing import Listed

from .config import Configuration
from .engine import core, notation
from .engine.chance import typed_chance
from .engine.protocol import Accepted, Game, Rules
from .errors import BadInput
from .i18n import N_

#: the seats a skeleton names when none are given
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")
#: the most opening moves a skeleton writes (a game whose opening never ends stops here)
OPENING_MAX = 60


def bound(referee: Configuration, game_name: str, *, cards: str | None = None, players: Sequence[str] = (),
          options: Mapping[str, str] | None = None, cards_text: str | None = None,
          ) -> tuple[Game, Rules[Any, Any, Any], tuple[Seat, ...]]:
    """The game's rules bound to a physical match of ``players`` (default: as few as it takes, named
    alice, bob...) with card set ``cards`` (default: the game's; with ``cards_text``, a card file's text
    going by that name, as a tournament keeps it)."""
    game = referee.game(game_name)
    seats = tuple(players) or NAMES[:max(game.min_players, 1)]
    _, config = referee.build_config(game.id, seats, cards=cards, cards_text=cards_text, options=dict(options or {}),
                                     chance="physical")
    rules, _ = referee._bind(game, config)  # a configuration error here is the same as a new match's
    return game, rules, config.players


def listing(referee: Configuration, game_name: str, cards: str | None = None,
            options: Mapping[str, str] | None = None) -> tuple[Game, str, tuple[Listed, ...]]:
    """The game, the card set's name and every card and place of it, as a scorekeeper types them."""
    game, rules, _ = bound(referee, game_name, cards=cards, options=options)
    return game, rules.config.cards or "(inline)", rules.listing() if game.capabilities.listing else ()


def template(referee: Configuration, game_name: str, *, cards: str | None = None, players: Sequence[str] = (),
             options: Mapping[str, str] | None = None, cards_text: str | None = None) -> str:
    """A transcript skeleton: the header, then the opening moves as the referee would accept them from
    the set-up (each the first legal intent of the first actor that has one: the game's other actors,
    Copycat's table or Android's arbiter, before the seats), the cards drawn marked for
    replacing. It imports as it is; a scorekeeper overwrites the moves with what was played."""
    game, rules, seats = bound(referee, game_name, cards=cards, players=players, options=options, cards_text=cards_text)
    set_name = rules.config.cards
    out = [
        f"# {game.name} — a transcript to fill in (from `referee template {game.id}`)",
        "# A move is 'seat: intent'; `referee games " + game.id + "` lists the intents, "
        + (f"`referee cards {game.id} {set_name}` what to type for each card." if set_name else "."),
        f"game: {game.id}",
        f"players: {', '.join(seats)}   # in seating order: the names of the people who played",
    ]
    if set_name:
        out.append(f"cards: {set_name}")
    for name, value in sorted((options or {}).items()):
        out.append(f"option: {name}={value}")
    for name, spec in game.options().items():  # a choice per seat left to the table (X-Files' avatars)
        if isinstance(spec.default, dict) and not spec.default and spec.choices and name not in (options or {}):
            pairs = ",".join(f"{seat}:{choice}" for seat, choice in zip(seats, spec.choices))
            out.append(f"# option: {name}={pairs}   # {spec.help}")
    out += [
        "chance: physical   # the cards drawn and dice shown are typed into the moves",
        "# title: the match's name, as you want to find it again",
        "# event: the club night or tournament",
        "# date: YYYY-MM-DD",
        "# round: / table:",
        "",
    ]
    state = rules.setup(core.chance_for(rules.config, "setup"))
    written = 0
    while game.capabilities.opening and rules.in_opening(state) and written < OPENING_MAX:
        move = _first_legal(rules, state, (*game.capabilities.other_actors, *seats))
        if move is None:
            break
        seat, intent = move
        _, verdict = core.adjudicate(rules, state, seat, intent, None)
        if not isinstance(verdict, Accepted):  # pragma: no cover - a legal intent is accepted
            raise BadInput.said("template/opening", N_("{game}: the opening move {move} was not accepted: {verdict}"),
                                game=game.id, move=repr(notation.format_intent(intent)), verdict=verdict)
        drawn = typed_chance(rules.chance_fields(intent), intent)
        note = f"   # {', '.join(drawn)}: type what came up at the table" if drawn else ""
        out.append(f"{seat}: {notation.format_intent(intent)}{note}")
        state = core.apply(rules, state, verdict)
        written += 1
    out += ["", "# ... and the rest of the game, a line per move (`referee legal MATCH SEAT` shows what may follow)"]
    return "\n".join(out) + "\n"


def _first_legal(rules: Rules[Any, Any, Any], state: Any, actors: Sequence[Seat]) -> tuple[Seat, Any] | None:
    """The first legal intent of the first of ``actors`` that has one; a move about a seat (``seat=bob``)
    that holds what the other seats may not see, and that the seat may type itself, is written as that
    seat's (its hidden cards are its own to type, as at the table)."""
    for actor in actors:
        for intent in rules.legal_intents(state, actor):
            named = getattr(intent, "seat", None)
            if named in rules.players and named != actor and _hidden(rules, intent, named) \
                    and intent in rules.legal_intents(state, named):
                return named, intent
            return actor, intent
    return None


def _hidden(rules: Rules[Any, Any, Any], intent: Any, seat: Seat) -> bool:
    """Whether another seat sees less of ``intent``, typed by ``seat``, than ``seat`` does."""
    return any(rules.redact(intent, seat, other) != intent for other in rules.players if other != seat)
