"""Copycat («Подражатель»): 2–4 politicians build decks and send campaign workers into offices.

Spec: ``shared/rules/copycat.md`` (identifiers, checks, rejection codes and options are its).

Package layout (the one By All Means and War of Shadows have, where the job is the same):

* ``model.py``   intents, events and the state (msgspec Structs); ``fold.py`` applying events;
* ``data.py``    the card catalogue and the board's offices (TOML), validated; ``data/`` the bundled
  sets: ``spec_fixture`` (the spec's §5.6 fixture, what its scenarios use) and ``demo`` (invented names
  and prices, the same structure);
* ``options.py`` every ambiguity of §7 as an option with its default ruling;
* ``rules.py``   the rules bound to a match and the protocol's methods;
* ``decide.py``  setup, planning, placement, turn ends, end of round and clean-up on ``txn.py`` (the
  decision, rule citations, chance facts checked or drawn); ``effects.py`` cards and offices at work
  (§4.4-§4.10, §4.13); ``manual.py`` declared effects (§4.12);
* ``upcast.py``  the counters and flags of logs stored before they were events of their own, read as today's;
* ``view.py``    views, hidden ids and positions; ``legal.py`` legal intents; ``words.py`` events in
  words; ``present.py`` the street, the headquarters and the tableaux drawn.

A match starts in phase ``setup``: the intent ``setup`` (actor ``table`` or any seat) types the chance
facts of the layout (street, doctorates, first office, bus), or leaves them to the seeded generator in a
digital match. ``cleanup`` (the table's, after every round) types the office card drawn and the street
refill. Hidden information (hands, decks, kept cards, order cards, the supply, the office deck) lives
in the referee's state and reaches a seat only through ``view``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.protocol import Capabilities, GameBase, OptionSpec
from referee.engine.speech import N_

from .data import CARD_TABLES
from .messages import MESSAGES
from .model import Event, Intent, State
from .options import option_specs
from .rules import CopycatRules
from .rulebook import RULEBOOK
from .upcast import Retired, upcast


class CopycatGame(GameBase):
    id = "copycat"
    name = "Copycat"
    aliases = ("podrazhatel", "fremde_federn")
    rules_version = "3"  # 2: a digital match keeps ordered decks, bands and departments; 3: the options' state
    min_players = 2
    max_players = 4
    intent_type = Intent
    messages = MESSAGES
    event_type = Event
    state_type = State
    rules_type = CopycatRules
    #: the adjusted / flag_set events of logs stored before 2026-11-28, read as today's (upcast.py)
    retired_event_type = Retired
    card_sets: Mapping[str, str] = {"spec_fixture": "data/spec_fixture.toml", "demo": "data/demo.toml"}
    card_tables: Mapping[str, str] = CARD_TABLES
    default_card_set = "demo"
    capabilities = Capabilities(listing=True, opening=True, other_actors=("table",))
    rulebook = RULEBOOK
    summary = N_("2-4 politicians build decks of cards and send workers into offices, buying cards from the street; "
               "most VP after the round someone reaches 95, the last doctorate goes or round 11 ends")

    def options(self) -> Mapping[str, OptionSpec]:
        return option_specs()

    def upcast_events(self, events: tuple[Any, ...]) -> tuple[Any, ...]:
        return upcast(events)


GAME = CopycatGame()

__all__ = ["GAME", "CopycatGame"]
