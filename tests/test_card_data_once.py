"""By All Means reads a card set's TOML once per process (issue 27): matches of other seats, seeds or
options, each bound on its own (:mod:`referee.binding` keys a binding by the configuration's hash), share
the card set parsed the first time (:func:`~referee.games.by_all_means.data.parse_card_set`, memoised by
the text); another card set is parsed once too."""

from __future__ import annotations

from referee import binding
from referee.games.by_all_means import data
from referee.service import Referee
from referee.store.memory import MemoryStore


def test_a_card_set_is_parsed_once_whatever_the_matches_that_bind_it(monkeypatch):
    parsed: list[int] = []
    real = data.load_toml

    def counting(text, *args, **kwargs):
        parsed.append(len(text))
        return real(text, *args, **kwargs)

    monkeypatch.setattr(data, "load_toml", counting)
    binding.forget()
    data.parse_card_set.cache_clear()
    referee = Referee(MemoryStore())
    made = [referee.new_match("by_all_means", players, seed=seed, cards="spec")
            for players, seed in ((["ann", "bob"], 1), (["ann", "bob"], 2), (["cy", "di"], 1))]
    assert len({binding.config_key(referee.load(m.id).config) for m in made}) == 3  # three bindings
    assert len(parsed) == 1
    Referee(MemoryStore()).new_match("by_all_means", ["ann", "bob"], seed=1, cards="demo")
    Referee(MemoryStore()).new_match("by_all_means", ["ann", "bob"], seed=9, cards="demo")
    assert len(parsed) == 2
