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
    # sections the rules spec numbers where the rulebook prints a heading for them
    ("§3.6", "End of the game", "Конец игры"),
    ("§4.2", "1. Planning", "1. Планирование"),
    ("§4.6", "2. Actions", "2. Действия"),
    ("§4.7", "2. Actions", "2. Действия"),
    ("§4.9", "3. Purchases and profit", "3. Приобретения и прибыль"),
    ("§4.13", "General rules for playing action cards and offices",
     "Общие правила розыгрыша карт действия и офисов"),
    ("§6", "End of the game", "Конец игры"),
    # the spec's own sections, which the rulebook has no heading for: the Russian heading is ours
    ("§4.0.3", "Chance facts (cards drawn, offices turned up)", "Случайность: взятые карты и открытые офисы"),
    ("§4.12", "Declared effects", "Заявленные эффекты"),
    ("§7", "Default rulings", "Решения спорных мест"),
))
