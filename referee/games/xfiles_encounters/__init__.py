"""Legendary Encounters: X-Files — a co-operative deck-building game for 1 to 5 players.

Spec: ``shared/rules/xfiles-encounters.md`` (identifiers, checks, rejection codes and options are its).

Package layout:

* ``model.py``   intents, declared-change ops, events and the state (msgspec Structs);
* ``data.py``    the card schema (§5.1), validated; ``data/`` the bundled sets (``spec_fixture``: the
  spec's fixture set §5.7; ``demo``: an invented set);
* ``options.py`` match options and every ambiguity's default ruling (§2.1, §7);
* ``rules.py``   the rules bound to a match: configuration, setup, decide, digital chance;
* ``fold.py``    the fold: one handler per kind of fact (the turn's; ``board.py`` the board's: the Shadows
  row, reveals, strikes, defeats; ``shapes.py`` the shapes they share and the handler table), and
  ``upcast.py`` the fold of events recorded as state paths (vocabulary 1, and declared effects, whose
  path vocabulary ``manual.py`` lists);
* ``txn.py``     the decision's working copy and how its changes become events;
* ``decide.py``  how an intent is judged: the shared checks (§4.0.3), each intent's checks and effects,
  the table of deciders; ``answers.py`` the answers to pending inputs; ``ops.py`` declared changes (§4.26);
* ``flow.py``    the procedures the rules run by themselves (§3): pushing, the Sector, reveals, The End,
  strikes, defeat; ``procedure.py`` the turn's procedure that runs them (settle, the next striker,
  cleanup, the passing of the turn);
* ``view.py``    views, hidden ids, positions; ``legal.py`` legal intents; ``words.py`` events in words;
  ``present.py`` the table drawn as boards.

Chance: a recorded match (no seed) types every chance outcome in (``draw cards=…``, ``reveal card=…``,
``take_strike card=…``) and the referee checks it against what can be there (§2.4). A seeded match
leaves those fields out and the referee draws them; hidden identities are drawn when they are revealed,
from what the place can hold, so the state never holds a hidden card's identity.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine.protocol import Capabilities, GameBase, OptionSpec
from referee.engine.speech import N_

from .messages import MESSAGES
from .model import Event, Intent, State
from .options import option_specs
from .rules import XFilesRules
from .rulebook import RULEBOOK


class XFilesGame(GameBase):
    id = "xfiles_encounters"
    name = "Legendary Encounters: X-Files"
    aliases = ("xfiles", "x_files", "legendary_xfiles")
    rules_version = "3"  # 2 (2026-11-25): Extinction, Body Swap, Infection, Susanne Modeski and X's Leader are checked (1 took them as declared)
    # 3 (2026-11-28): the state counts each deck's reshuffles and each pool's reveals; a digital match draws from
    # the seed and those counts (2 from the entry number)
    min_players = 1
    max_players = 5
    intent_type = Intent
    messages = MESSAGES
    event_type = Event
    state_type = State
    rules_type = XFilesRules
    card_sets: Mapping[str, str] = {"spec_fixture": "data/spec_fixture.toml", "demo": "data/demo.toml"}
    card_tables: Mapping[str, str] = {"card": "id"}
    default_card_set = "demo"
    capabilities = Capabilities(continuation=True, listing=True, opening=True)
    rulebook = RULEBOOK
    summary = N_("co-operative deck-building, 1-5 agents: recruit, fight the conspiracy's enemies, find evidence "
               "and defeat the End Game together")

    def options(self) -> Mapping[str, OptionSpec]:
        return option_specs()


GAME = XFilesGame()

__all__ = ["GAME", "XFilesGame"]
