"""Positions: a scenario's ``[position]`` dotted paths written into the state after setup.

Every game builds a position in the same three stages (the rules specs' "position loading"):

1. *base* — :meth:`RulesBase.position_base` turns the state after ``setup`` into the position's
   starting point (War of Shadows fills societies and loyalty; a game with baselines per player
   count picks one). Default: the setup itself.
2. *overrides* — :func:`write_paths` writes each path into the state's builtins. What a path may
   name is the game's :class:`PositionShape`: derived fields are refused, maps keyed by seat take
   only seats, open maps take new keys (and an empty record there may be built field by field;
   elsewhere an empty record is given whole), and a ``value`` hook may expand a shorthand (a card
   given by its id). An unknown path is refused with the path named.
3. *completion and checks* — :meth:`RulesBase.complete_position` receives the converted state and
   the :class:`Placed` paths, recomputes every supply the position did not list from what it
   placed (a deck from the cards in hands, a reserve from the pieces on the board), and checks the
   game's invariants.

Any refusal is a :class:`ConfigError` with the game's ``position_refusal`` code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from .messages import fitting
from .speech import N_

#: a shorthand expander: (path, value, the whole state's builtins) -> the value to write
ValueHook = Callable[[str, Any, dict[str, Any]], Any]


class PositionError(ValueError):
    """A position path or value is refused; the message names the path."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        #: the catalog template the message was said through and its values (:meth:`said`), if it was: the
        #: refusal that wraps this one reads it in the reader's language (``RefereeError.text``)
        self.template: tuple[str, dict[str, Any]] | None = None

    @classmethod
    def said(cls, template: str, /, **values: Any) -> PositionError:
        """The error, its English message ``template`` (marked ``N_``) filled with ``values``."""
        err = cls(template.format(**values))
        err.template = (template, values)
        return err


def matches(pattern: str, parts: Sequence[str]) -> bool:
    """Whether a dotted ``pattern`` names exactly ``parts``: ``*`` stands for any one key and ``**``
    for any number of keys, none included (``cursor.**``: the cursor and everything in it)."""
    return _match(pattern.split("."), tuple(parts))


def _match(want: Sequence[str], parts: Sequence[str]) -> bool:
    if not want:
        return not parts
    if want[0] == "**":
        return any(_match(want[1:], parts[i:]) for i in range(len(parts) + 1))
    return bool(parts) and want[0] in ("*", parts[0]) and _match(want[1:], parts[1:])


class PositionShape(msgspec.Struct, frozen=True, kw_only=True):
    """What a game's position paths may name, as dotted patterns (``*`` = any one key)."""

    #: fields computed from the rest of the state: a path into any of them is refused (``control``
    #: at the top; ``**.hand_count`` at any depth)
    derived: tuple[str, ...] = ()
    #: maps whose keys are the seats: another key is refused naming the seats
    seat_maps: tuple[str, ...] = ()
    #: maps that take new keys (a record keyed by slot, a cursor being built)
    open_maps: tuple[str, ...] = ()
    #: a table given for a record merges into it (True) or replaces it, unlisted fields at their
    #: defaults (False)
    merge_records: bool = False

    def is_derived(self, parts: Sequence[str]) -> bool:
        return any(matches(p, parts[: i + 1]) for p in self.derived for i in range(len(parts)))

    def is_open(self, parent: Sequence[str]) -> bool:
        return any(matches(p, parent) for p in self.open_maps)

    def seat_map(self, parent: Sequence[str]) -> bool:
        return any(matches(p, parent) for p in self.seat_maps)


class Placed:
    """The paths a position listed (every leaf of a table counts as listed)."""

    def __init__(self, paths: Sequence[str]) -> None:
        self.paths = tuple(paths)

    def __contains__(self, path: object) -> bool:
        """Whether ``path``, a field inside it or a record holding it was listed."""
        if not isinstance(path, str):
            return False
        return any(p == path or p.startswith(path + ".") or path.startswith(p + ".") for p in self.paths)

    def under(self, prefix: str) -> tuple[str, ...]:
        """The listed paths inside ``prefix`` (``players.alice``: ``players.alice.hand``...)."""
        return tuple(p for p in self.paths if p == prefix or p.startswith(prefix + "."))

    def __repr__(self) -> str:
        return f"Placed({', '.join(self.paths)})"


def _leaves(prefix: str, value: Any) -> list[str]:
    if isinstance(value, dict) and value:
        return [leaf for k, v in value.items() for leaf in _leaves(f"{prefix}.{k}", v)]
    return [prefix]


def _merge(base: dict[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in extra.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def write_paths(data: dict[str, Any], overrides: Mapping[str, Any], shape: PositionShape,
                seats: Sequence[str], value: ValueHook | None = None) -> Placed:
    """Write every ``path = value`` of ``overrides`` into ``data`` (a state's builtins), in order."""
    listed: list[str] = []
    for path, raw in overrides.items():
        path = str(path)
        parts = path.split(".")
        if not all(parts):
            raise PositionError.said(N_("position path {path} has an empty part"), path=repr(path))
        if shape.is_derived(parts):
            raise PositionError.said(N_("position path {path} is derived from the rest of the state (read-only); set "
                                        "what it is derived from instead"), path=repr(path))
        node: Any = data
        created = False
        for i, part in enumerate(parts):
            parent, where = parts[:i], ".".join(parts[: i + 1])
            if not isinstance(node, dict):
                raise PositionError.said(N_("unknown position path {path} ({parent} holds no fields)"),
                                         path=repr(path), parent=repr(".".join(parent)))
            if shape.seat_map(parent) and part not in seats:
                raise PositionError.said(N_("position path {path}: {part} is not a seat ({seats})"), path=repr(path),
                                         part=repr(part), seats=", ".join(seats))
            if part not in node and not (created or shape.is_open(parent)):
                raise PositionError.said(N_("unknown position path {path} (no {where} in the state; see `referee show "
                                            "--json` for the paths)"), path=repr(path), where=repr(where))
            if i == len(parts) - 1:
                break
            if node.get(part) is None:
                if not (created or shape.is_open(parent) or shape.is_open(parts[: i + 1])):
                    raise PositionError.said(N_("position path {path}: {where} is empty; give the whole record, e.g. "
                                                "\"{where}\" = {{ ... }}"), path=repr(path), where=where)
                node[part] = {}
                created = True
            node = node[part]
        last = parts[-1]
        new = value(path, raw, data) if value is not None else raw
        if shape.merge_records and isinstance(new, dict) and isinstance(node.get(last), dict):
            new = _merge(node[last], new)
        node[last] = new
        listed.extend(_leaves(path, raw))
    return Placed(listed)


def convert(data: dict[str, Any], state_type: type[Any]) -> Any:
    """The state from its written builtins; a value of the wrong type is refused naming its path."""
    try:
        return msgspec.convert(data, state_type)
    except msgspec.ValidationError as exc:
        # msgspec says what does not fit in its own (English) words
        raise PositionError.said(N_("the position does not fit the state: {problem}"), problem=fitting(str(exc))) from None
