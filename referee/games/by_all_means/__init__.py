"""By All Means («Все средства хороши»): a two-player card game of reputation, influence and trust.

Rules: ``shared/rules/by-all-means.md`` (identifiers, rejection codes, options and scenarios are the
spec's). Package layout (the one War of Shadows has, where the job is the same):

* ``model.py``   intents, events and the state (msgspec Structs); ``fold.py`` applying events;
* ``data.py``    the card-definition data (TOML), validated; ``data/`` the bundled sets;
  ``geometry.py`` the field's cells, neighbours and arrows; ``refs.py`` the notation's references;
* ``options.py`` every ambiguity's default ruling and the rule parameters, as match options;
* ``rules.py``   the rules bound to a match (the configuration checked, the protocol's methods);
* ``decide.py``  who may act and how an intent is judged (G1-G4, one table of deciders) on ``txn.py``
  (the match's context, the decision and the rulebook's routines, the status check among them),
  with one module per part of the game: ``setup.py``, ``turn.py`` (the action economy, draw_main,
  ending and closing a turn), ``deploy.py`` (cards played for their price), ``combos.py``
  (combinations), ``effects.py`` (symbol effects, decisions), ``agents.py`` (agent actions,
  abilities, the agent limit), ``reactions.py`` (utilize, discard_for_effect) and ``manual.py``
  (declared effects); ``checkin.py`` input checks before adjudication, ``chance.py`` digital chance;
* ``view.py``    views, hidden ids, positions, redaction; ``legal.py`` legal intents; ``words.py``
  events in words; ``listing.py`` the cards as a scorekeeper types them (``referee cards``).
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine.protocol import Capabilities, GameBase, OptionSpec
from referee.engine.speech import N_

from .data import CARD_TABLES
from .model import Event, Intent, State
from .options import OPTION_MAP
from .rules import ByAllMeansRules
from .messages import MESSAGES
from .rulebook import RULEBOOK


class ByAllMeans(GameBase):
    id = "by_all_means"
    name = "By All Means"
    aliases = ("bam", "vse_sredstva_horoshi")
    rules_version = "2"  # 2: digital chance from the seed and each archive's history, not the entry number
    min_players = 2
    max_players = 2
    intent_type = Intent
    event_type = Event
    state_type = State
    rules_type = ByAllMeansRules
    card_sets: Mapping[str, str] = {"spec": "data/spec.toml", "demo": "data/demo.toml"}
    default_card_set = "spec"
    card_tables: Mapping[str, str] = CARD_TABLES
    capabilities = Capabilities(confirmations=True, listing=True, opening=True)
    rulebook = RULEBOOK
    messages = MESSAGES
    summary = N_("Two players, reputation, influence and trust: 10 influence or the opponent's trust at 0 wins.")

    def options(self) -> Mapping[str, OptionSpec]:
        return OPTION_MAP


GAME = ByAllMeans()
