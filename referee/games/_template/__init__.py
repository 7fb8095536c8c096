"""The template of a game package: copy this folder to ``referee/games/<id>/`` to add a game.

It is a whole game, the smallest one (players take 1 to 3 stones in turn; whoever takes the last one
wins), grown from the engine tests' Pile, laid out as every game is (``tests/test_game_layout.py``
holds them to it). It is registered nowhere; ``tests/test_game_template.py`` plays it so it cannot rot.

Package layout (one job per file; a bigger game adds one module per part of the game beside these —
``setup.py``, ``chance.py``, ``manual.py``, ``present.py`` for its boards, ``words.py`` for its events
in words):

* ``__init__.py`` the Game: the attributes the registry and the front ends read, and ``bind``;
* ``model.py``   intents, events and the state (msgspec Structs, named as the game's rules spec names them);
* ``codes.py``   the rejection codes, a ``StrEnum`` of the spec's codes (``<id>/<reason>``);
* ``options.py`` match options, each ambiguity of the rules with its default ruling;
* ``data.py``    the game's fixed data: constants here, card sets parsed and validated from ``data/*.toml``
  (named in the Game's ``card_sets``);
* ``rules.py``   the rules bound to one match: the configuration checked, setup, whose move it is, and
  the protocol's methods, each handing on to the module that does the work;
* ``decide.py``  how an intent is judged: one decider per intent (checks, then events), ``DECIDERS``;
* ``txn.py``     the decision being built (a :class:`~referee.engine.decision.Decision` in this game's code
  scope, folding each event as it is emitted so later checks see it);
* ``fold.py``    ``evolve``: one event applied to the state; no checks, no choices;
* ``legal.py``   the intents a seat could submit now;
* ``view.py``    what a seat may see of the state;
* ``words.py``   its words for the catalog (the reason its outcome gives).

To register a game, add its row to ``ENTRIES`` in ``referee/games/__init__.py`` and its rules spec to
``shared/rules/<id>.md``; its scenario files go under ``tests/scenarios/<id>/``.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine.protocol import GameBase, OptionSpec
from referee.engine.speech import N_

from .model import Event, Intent, State
from .options import option_specs
from .rules import TemplateRules


class TemplateGame(GameBase):
    """What the registry and the front ends read; ``GameBase`` gives the rest its default (no aliases, no
    card sets, no capabilities beyond the decider: ``Capabilities()``, so no continuation, confirmations,
    card listing, opening moves or actors besides the seats) and ``bind`` (a ``rules_type`` per match). A
    game that overrides one of those hooks declares it here: ``capabilities = Capabilities(opening=True)``."""

    id = "template"
    name = "Template"
    rules_version = "1"
    min_players = 2
    max_players = 4
    intent_type = Intent
    event_type = Event
    state_type = State
    rules_type = TemplateRules
    summary = N_("Take 1-3 stones in turn; whoever takes the last one wins (the template of a game package).")

    def options(self) -> Mapping[str, OptionSpec]:
        return option_specs()


GAME = TemplateGame()

__all__ = ["GAME", "TemplateGame"]
