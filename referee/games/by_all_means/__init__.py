"""By All Means («Все средства хороши»): a two-player card game of reputation, influence and trust.

Rules: ``shared/rules/by-all-means.md`` (identifiers, rejection codes, options and scenarios are the
spec's). Package layout (every game package looks like this):

* ``model.py``   intents, events and the state (msgspec Structs);
* ``data.py``    the card-definition data (TOML), validated; ``cards/`` the bundled sets;
* ``options.py`` every ambiguity's default ruling and the rule parameters, as match options;
* ``rules.py``   the decider (setup, actors, checks in the spec's order, resolution) with
  ``txn.py`` (routines), ``effects.py`` (symbol effects, decisions), ``manual.py`` (declared effects),
  ``chance.py`` (digital chance), ``checkin.py`` (input checks);
* ``evolve.py``  applying events; ``view.py`` views, positions, redaction; ``legal.py`` legal intents;
  ``words.py`` events in words.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine.protocol import OptionSpec
from schemas import MatchConfig

from .data import CARD_TABLES
from .model import Event, Intent, State
from .options import OPTION_MAP
from .rules import ByAllMeansRules


class ByAllMeans:
    id = "by_all_means"
    name = "By All Means"
    aliases = ("bam", "vse_sredstva_horoshi")
    rules_version = "1"
    min_players = 2
    max_players = 2
    intent_type = Intent
    event_type = Event
    state_type = State
    card_sets: Mapping[str, str] = {"spec": "cards/spec.toml", "demo": "cards/demo.toml"}
    default_card_set = "spec"
    card_tables: Mapping[str, str] = CARD_TABLES
    other_actors: tuple[str, ...] = ()
    summary = "Two players, reputation, influence and trust: 10 influence or the opponent's trust at 0 wins."

    def options(self) -> Mapping[str, OptionSpec]:
        return OPTION_MAP

    def bind(self, config: MatchConfig) -> ByAllMeansRules:
        return ByAllMeansRules(config)


GAME = ByAllMeans()
