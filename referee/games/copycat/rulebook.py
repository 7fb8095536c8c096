"""The rulebook's passages this game cites, in English and as the rulebook prints them (Russian): one
table, as data (:class:`referee.engine.rulebook.Rulebook`). Copycat's citations quote a heading or the
sentence that states the rule; a refusal records the Russian, an English sentence shows the English."""

from __future__ import annotations

from referee.engine.rulebook import Rulebook

RULEBOOK = Rulebook((
    # (section, English, Russian as printed)
    ("§2", "Preparing the game", "Подготовка к игре"),
    ("§3.1", "“at most twice a round”", "максимум дважды за раунд"),
    ("§3.2", "“to decide the order of turns”", "Чтобы определить порядок хода"),
    ("§4.1", "“each player takes 5 cards into their hand”", "Каждый игрок берет в руку 5 карт"),
    ("§4.3", "2. Actions", "2. Действия"),
    ("§4.4", "Card types by colour", "Типы карт по цветам"),
    ("§4.5", "Offices", "Офисы"),
    ("§4.8", "“lays out every card still in their hand”", "выкладывает все оставшиеся у него на руках карты"),
    ("§4.10", "Purchases and profit", "Приобретения и прибыль"),
    ("§4.11", "4. Covering your tracks", "4. Заметание следов"),
))
