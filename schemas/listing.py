"""What a scorekeeper types for a match's cards and places (``referee cards GAME [SET]``).

A game lists, from its card data, every card (and every place of its board a transcript names) as a
:class:`Listed`: the token the notation takes (``T09``, ``bear_c8``, ``bear.sheriff``), the printed
name beside it, what kind of thing it is, where it is found and a short reminder. Nothing of a match's
hidden state is in it: only the printed data of the set."""

from __future__ import annotations

import msgspec


class Listed(msgspec.Struct, frozen=True, kw_only=True):
    """One card or place, as a scorekeeper finds it and types it."""

    #: what a transcript line names it by (``card=T09``)
    typed: str
    #: its printed name ("" where it has none)
    name: str = ""
    #: what it is: a card type, ``region``, ``position``...
    kind: str = ""
    #: where it is found: the decks holding it (with copies), its empire, its board
    where: str = ""
    #: a short reminder of its printed data (prices, costs, cities)
    note: str = ""
