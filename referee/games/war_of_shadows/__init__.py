"""War of Shadows («Война теней»): 2–4 secret societies steer five empires through their councils.

Spec: ``shared/rules/war-of-shadows.md`` (identifiers, checks, rejection codes and options are its).

Package layout (the one By All Means has, where the job is the same):

* ``model.py``   intents, events and the state (msgspec Structs); ``fold.py`` applying events;
* ``data.py``    boards and card catalogues (TOML), validated; ``data/`` the bundled sets;
* ``options.py`` every ambiguity's default ruling, the modules and the hidden-information modes;
* ``rules.py``   the rules bound to a match (the configuration checked, the protocol's methods) on
  ``queries.py`` (what a state means: control, turn order, whose move it is);
* ``decide.py``  how an intent is judged (G1–G3, implicit closure) on ``txn.py`` (the decision, the
  refusal, the rule citations), with one module per part of the game: ``setup.py``, ``agents.py``,
  ``council.py`` (activations and actions), ``combat.py``, ``effects.py`` (cards), ``manual.py``
  (declared effects), ``reveal.py`` (discard and reveal phases), ``rounds.py`` (system steps) and
  ``scoring.py``; ``checkin.py`` the ids an intent names, ``chance.py`` digital chance;
* ``view.py``    views, hidden ids and positions; ``legal.py`` legal intents; ``words.py`` events in
  words; ``listing.py`` the board's places and the cards as a scorekeeper types them.

Board and cards are data (the rulebook prints neither the map nor the card texts). A match's data
set is ``MatchConfig.cards`` — a bundled set or a TOML file — whose whole text is stored with the
match (``cards_text``). A data set holds one or more ``[[board]]`` tables and, optionally, a
``[[card]]`` catalogue (schema: :mod:`.data`). The match option ``board`` picks the board by its id
(default: the data set's first board). Bundled data sets:

* ``TM-1`` — the spec's fixture board and its card catalogue (§1.10): what the spec's scenarios use
  (``cards = "TM-1"``, ``[options] board = "TM-1"``);
* ``demo`` — an invented board, *The Ember Coast*, with an invented 40-card catalogue;
* ``boards`` (the default when a match names no card set) — every bundled board without a
  catalogue: each card ability is then a declared one (``declared_cost``, flagged for audit),
  as the spec says for a match without a catalogue (``board = "TM-1"`` picks the fixture board).

Chance: a physical match types outcomes in (cards drawn, tokens laid); a digital one (a seed) lets
the referee draw them and records the result in the intent. Hidden information (hands, face-down
loyalty tokens, dealt fanatic empires, private discards) lives in the referee's state and reaches a
seat only through ``view``/``hidden_ids``.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine.protocol import Capabilities, GameBase, OptionSpec
from referee.engine.speech import N_

from .data import CARD_TABLES
from .messages import MESSAGES
from .model import Event, Intent, State
from .options import option_specs
from .rules import WarOfShadowsRules
from .rulebook import RULEBOOK


class WarOfShadowsGame(GameBase):
    id = "war_of_shadows"
    name = "War of Shadows"
    aliases = ("wos", "voina_tenei")
    rules_version = "2"  # 2: digital draws derived from the seed and each deck's history, not the entry number
    min_players = 2
    max_players = 4
    intent_type = Intent
    event_type = Event
    messages = MESSAGES
    state_type = State
    rules_type = WarOfShadowsRules
    card_sets: Mapping[str, str] = {"TM-1": "data/tm1.toml", "demo": "data/demo.toml", "boards": "data/boards.toml"}
    card_tables: Mapping[str, str] = CARD_TABLES
    default_card_set = "boards"
    capabilities = Capabilities(confirmations=True, listing=True, opening=True)
    rulebook = RULEBOOK
    summary = N_("2-4 secret societies place agents on five empires' councils; empires add banners, attack, "
               "draw cards; score cities x your hidden loyalty")

    def options(self) -> Mapping[str, OptionSpec]:
        return option_specs()


GAME = WarOfShadowsGame()

__all__ = ["GAME", "WarOfShadowsGame"]
