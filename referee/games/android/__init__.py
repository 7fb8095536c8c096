"""Android (the New Angeles murder mystery): 3–5 detectives, two weeks, a murder, a conspiracy.

Spec: ``shared/rules/android.md`` (identifiers, checks, rejection codes and options are its).

Layout (the War of Shadows one): ``model.py`` intents and events (``deltakinds.py`` the delta kinds of
declared effects, ``state.py`` the state, both re-exported); ``data.py`` the data set (map, detectives, suspects, murders, calendar, cards,
puzzle) and ``data/`` the bundled sets; ``options.py`` the §7.3 rulings; ``rules.py`` the protocol;
``decide.py`` the common checks, with ``setup.py``, ``day.py`` (moves, draws, leads, evidence, turns),
``conspiracy.py``, ``cards.py`` (twilight cards, jump, abilities), ``manual.py`` + ``deltas.py``
(declared effects, and who confirms one), ``cancel.py`` («Отмена»), ``deviation.py`` (rule deviations
flagged), ``endday.py`` (end of day, the killer, closing) on ``txn.py``; ``fold.py`` evolve (``edits.py``
the state edits it shares with ``deltas.py``); ``view.py`` views and positions, ``positioncheck.py`` a position's checks; ``chance.py`` digital chance;
``legal.py``; ``words.py``; ``present.py`` the boards; ``listing.py`` what ``referee cards`` lists.

Bundled data sets: ``FX-1`` — the spec's test fixture (§8.1; invented, not the real map) — and
``demo`` — an invented city of our own that plays whole games (the default).
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine.protocol import Capabilities, GameBase, OptionSpec
from referee.engine.speech import N_

from .data import CARD_TABLES
from .messages import MESSAGES
from .model import Event, Intent, State
from .options import option_specs
from .rules import AndroidRules
from .rulebook import RULEBOOK


class AndroidGame(GameBase):
    id = "android"
    name = "Android"
    aliases = ("new_angeles", "android_murder")
    rules_version = "3"  # 2 (2026-11-25): a plot: delta keeps its baggage (1 dropped it off the bank); printed abilities refuse a stray choice; positions checked in full
    # 3 (2026-11-28): the state keeps each pile's history of draws (draws); a digital match draws from the seed and that
    # history (2 from the entry number)
    min_players = 3
    max_players = 5
    intent_type = Intent
    messages = MESSAGES
    event_type = Event
    state_type = State
    rules_type = AndroidRules
    card_sets: Mapping[str, str] = {"FX-1": "data/fx1.toml", "demo": "data/demo.toml"}
    card_tables: Mapping[str, str] = CARD_TABLES
    default_card_set = "demo"
    capabilities = Capabilities(confirmations=True, listing=True, opening=True, other_actors=("arbiter",))
    rulebook = RULEBOOK
    summary = N_("3-5 detectives investigate a murder in New Angeles over two weeks: follow leads, place "
               "evidence on suspects, uncover the conspiracy (declared effects where the rulebook is cut off)")

    def options(self) -> Mapping[str, OptionSpec]:
        return option_specs()


GAME = AndroidGame()

__all__ = ["GAME", "AndroidGame"]
