"""The game's fixed data. This game has no cards, only constants; a game with cards parses and
validates its ``data/*.toml`` here (raising ``ConfigError`` with the game's code), and the Game's
``card_sets`` names the bundled files."""

from __future__ import annotations

#: the most stones one take may remove (R2)
MAX_TAKE = 3

#: rule citations, by the rules spec's sections
R_SETUP = "R1"
R_TAKE = "R2"
R_END = "R3"
