"""Issue 28, point 7 (part): the secrecy declarations (``__secret__``, ``__private__``,
``__private_by_key__``, ``__owner__``) are checked against the Struct fields they name. A misspelt
name would otherwise protect nothing, so every game's Structs are walked and a misspelt declaration
is shown to be caught, by :func:`misdeclared` and by :func:`secrecy_of` at first use."""

from __future__ import annotations

import importlib
import pkgutil

import msgspec
import pytest

from referee.engine.secrecy import DECLARATIONS, misdeclared, redact, secrecy_of
from referee.games import GAMES, ENTRIES
from support.pile import PILE

TEST_GAMES = ("support.pile", "support.tally")


def _package_modules(package: str) -> list[str]:
    mod = importlib.import_module(package)
    names = [package]
    if hasattr(mod, "__path__"):
        names += [m.name for m in pkgutil.walk_packages(mod.__path__, prefix=f"{package}.")]
    for name in names:
        importlib.import_module(name)
    return names


def _structs(modules: list[str]) -> list[type]:
    """Every Struct class defined in these modules, in a fixed order."""
    found: dict[str, type] = {}
    for name in modules:
        for value in vars(importlib.import_module(name)).values():
            if isinstance(value, type) and issubclass(value, msgspec.Struct) and value.__module__ == name:
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return [found[k] for k in sorted(found)]


def _declaring(classes: list[type]) -> list[type]:
    return [c for c in classes if any(hasattr(c, d) for d in DECLARATIONS)]


@pytest.fixture(scope="module")
def every_struct() -> list[type]:
    modules = [m for _gid, _aliases, package in ENTRIES for m in _package_modules(f"referee.games.{package}")]
    modules += _package_modules("referee.engine")
    for package in TEST_GAMES:
        modules += _package_modules(package)
    classes = _structs(modules)
    # and whatever the games' intents, events and states reach that is defined elsewhere
    import msgspec.inspect as mi

    reached: list[type] = []
    for game in (*GAMES, PILE):
        for t in (game.intent_type, game.event_type, game.state_type):
            _collect(mi.type_info(t), reached, set())
    return classes + [c for c in reached if c not in classes]


def _collect(info: object, out: list[type], seen: set[int]) -> None:
    import msgspec.inspect as mi

    if id(info) in seen:
        return
    seen.add(id(info))
    if isinstance(info, mi.StructType):
        if info.cls not in out:
            out.append(info.cls)
        for f in info.fields:
            _collect(f.type, out, seen)
    for attr in ("item_type", "value_type", "key_type"):
        if hasattr(info, attr):
            _collect(getattr(info, attr), out, seen)
    for attr in ("types", "item_types"):
        for t in getattr(info, attr, ()):
            _collect(t, out, seen)


def test_every_games_declarations_name_its_fields(every_struct):
    declaring = _declaring(every_struct)
    # the walk reaches every game's declarations (it could not pass by finding none)
    games = {c.__module__.split(".")[2] for c in declaring if c.__module__.startswith("referee.games.")}
    assert games == {"by_all_means", "war_of_shadows", "xfiles_encounters", "android", "copycat"}
    assert len(declaring) > 40
    problems = [p for c in every_struct for p in misdeclared(c)]
    assert problems == []


class Hand(msgspec.Struct, frozen=True):
    seat: str | None = None
    cards: tuple[str, ...] = ()


def test_a_misspelt_private_field_is_caught():
    class Drawn(Hand, frozen=True):
        __private__ = ("card",)  # the field is ``cards``
        __owner__ = "seat"

    problems = misdeclared(Drawn)
    assert len(problems) == 1
    assert "Drawn.__private__ names 'card', which is not one of its fields (seat, cards)" in problems[0]
    with pytest.raises(TypeError, match=r"__private__ names 'card'"):
        secrecy_of(Drawn)
    with pytest.raises(TypeError, match=r"__private__ names 'card'"):
        redact(Drawn(seat="bob", cards=("K07",)), "bob", "alice")


@pytest.mark.parametrize(("decl", "value", "expected"), [
    ("__secret__", ("order",), "__secret__ names 'order', which is not one of its fields"),
    ("__owner__", "player", "__owner__ names 'player', which is not one of its fields"),
    ("__owner__", "cards", "__owner__ names 'cards', which is not a seat's name"),
    ("__private_by_key__", ("seat",), "__private_by_key__ names 'seat', which is not a mapping keyed by seat"),
    ("__private__", "cards", "__private__ is 'cards'; expected a tuple of field names"),
])
def test_each_wrong_declaration_is_named(decl, value, expected):
    cls = type("Wrong", (Hand,), {decl: value}, frozen=True)
    problems = misdeclared(cls)
    assert len(problems) == 1 and expected in problems[0], problems


def test_a_field_both_secret_and_private_is_caught():
    class Both(Hand, frozen=True):
        __secret__ = ("cards",)
        __private__ = ("cards",)

    assert misdeclared(Both) == [f"{__name__}.test_a_field_both_secret_and_private_is_caught.<locals>.Both "
                                 "declares 'cards' both __secret__ and __private__ (or twice)"]


def test_a_right_declaration_redacts_as_before():
    class Drawn(Hand, frozen=True):
        __private__ = ("cards",)
        __owner__ = "seat"

    assert misdeclared(Drawn) == []
    item = Drawn(seat="bob", cards=("K07", "K08"))
    assert redact(item, "bob", "alice").cards == ("?", "?")
    assert redact(item, "bob", "bob") is item
