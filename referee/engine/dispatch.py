"""A table of handlers keyed by the kind (the type) of what they handle: a fold's events, a game's
declared change ops. A game declares one table and registers each handler with ``@table.on(Kind, ...)``;
a kind registered twice is a mistake caught when the module loads, and a test can compare the table's
kinds with the union it serves (``tests/test_fold_tables.py``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar

H = TypeVar("H", bound=Callable[..., Any])


class Handlers(Generic[H]):
    """One handler per kind; ``name`` says whose table it is in a registration error."""

    __slots__ = ("name", "_table")

    def __init__(self, name: str) -> None:
        self.name = name
        self._table: dict[type, H] = {}

    def on(self, *kinds: type) -> Callable[[H], H]:
        """Registers the decorated function as the handler of these kinds."""
        def register(fn: H) -> H:
            for kind in kinds:
                if kind in self._table:
                    raise TypeError(f"{self.name}: {kind.__name__} has a handler already")
                self._table[kind] = fn
            return fn
        return register

    def get(self, kind: type) -> H | None:
        return self._table.get(kind)

    def __iter__(self) -> Iterator[type]:
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)
