"""Every game package keeps the one layout (README "Adding a game"): the canonical files by their
canonical names, no second name for any of them, its bundled sets under ``data/``."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from referee import games

GAMES_DIR = Path(games.__file__).parent

#: the files every game has, and what each holds
REQUIRED = {
    "__init__.py": "the Game (its attributes) and the package's layout in its docstring",
    "rules.py": "the rules bound to a match: the configuration checked, the protocol's methods",
    "model.py": "intents, events and the state (msgspec Structs)",
    "codes.py": "the rejection codes (a StrEnum of the spec's codes)",
    "options.py": "the options and every ambiguity's default ruling",
    "data.py": "the game's data (cards, boards, constants), validated",
    "decide.py": "how an intent is judged: the table of deciders",
    "txn.py": "the decision being built",
    "fold.py": "the fold: evolve, one event applied",
    "legal.py": "legal intents",
    "view.py": "views, hidden ids, positions",
}

#: names a canonical file must not go by (the name it should have)
ALIASES = {
    "evolve.py": "fold.py", "apply.py": "fold.py", "reducer.py": "fold.py",
    "tx.py": "txn.py", "transaction.py": "txn.py", "decision.py": "txn.py",
    "intents.py": "decide.py", "decider.py": "decide.py", "deciders.py": "decide.py", "judge.py": "decide.py",
    "models.py": "model.py", "structs.py": "model.py", "types.py": "model.py",
    "errors.py": "codes.py", "rejections.py": "codes.py",
    "config.py": "options.py", "rulings.py": "options.py",
    "catalogue.py": "data.py",
    "board.py": "present.py", "boards.py": "present.py", "draw.py": "present.py",
    "text.py": "words.py", "describe.py": "words.py", "sentences.py": "words.py",
    "legal_intents.py": "legal.py", "hints.py": "legal.py",
    "redact.py": "view.py", "views.py": "view.py",
    "cards": "data", "sets": "data", "resources": "data",
}

REGISTERED = [package for _gid, _aliases, package in games.ENTRIES]
PACKAGES = [*REGISTERED, "_template"]


def test_every_game_package_is_registered_or_the_template():
    on_disk = sorted(p.name for p in GAMES_DIR.iterdir() if p.is_dir() and (p / "__init__.py").exists())
    assert on_disk == sorted(PACKAGES)
    assert "_template" not in games.ids()


@pytest.mark.parametrize("package", PACKAGES)
def test_the_canonical_files_are_there(package):
    missing = [name for name in REQUIRED if not (GAMES_DIR / package / name).is_file()]
    assert missing == [], f"{package} lacks {missing}: " + "; ".join(f"{n}: {REQUIRED[n]}" for n in missing)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_canonical_file_goes_by_another_name(package):
    found = sorted(f"{p.name} (call it {ALIASES[p.name]})" for p in (GAMES_DIR / package).iterdir() if p.name in ALIASES)
    assert found == [], f"{package}: {found}"


@pytest.mark.parametrize("package", PACKAGES)
def test_bundled_sets_live_under_data(package):
    game = importlib.import_module(f"referee.games.{package}").GAME
    for name, path in game.card_sets.items():
        assert path.startswith("data/"), f"{package}'s card set {name!r} is at {path!r}, not under data/"
        assert (GAMES_DIR / package / path).is_file(), f"{package}'s card set {name!r}: {path} is missing"
    if (GAMES_DIR / package / "data").exists():
        assert game.card_sets, f"{package} has a data/ folder but bundles no set"


def test_the_aliases_check_would_catch_the_old_names():
    """The check is not vacuous: the names the games used before the layout was fixed are aliases."""
    assert {"evolve.py", "tx.py", "intents.py", "cards"} <= set(ALIASES)
    assert not set(ALIASES) & set(REQUIRED)


@pytest.mark.parametrize("package", PACKAGES)
def test_every_game_builds_on_the_game_base(package):
    from referee.engine.protocol import GameBase, RulesBase

    game = importlib.import_module(f"referee.games.{package}").GAME
    assert isinstance(game, GameBase) and issubclass(game.rules_type, RulesBase)
    assert all(spec.name == name for name, spec in game.options().items())
