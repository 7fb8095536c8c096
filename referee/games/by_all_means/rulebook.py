"""The rulebook's sections this game cites, in English and as the rulebook prints them (Russian): one
table, as data (:class:`referee.engine.rulebook.Rulebook`). A refusal cites a section by its rule id
(``R-DIGITS``); an English sentence adds the English heading, the answer's ``sections`` both."""

from __future__ import annotations

from referee.engine.rulebook import Rulebook

RULEBOOK = Rulebook((
    # (rule id, English, Russian as printed)
    ("R-SETUP", "Preparing the game", "Подготовка к игре"),
    ("R-ACTIONS", "Actions", "Действия"),
    ("R-EXTRA", "Extra action", "Дополнительное действие"),
    ("R-DISCARD", "Discarding a card", "Сброс карты"),
    ("R-OPP-TURN", "Actions on the opponent's turn", "Действия в ход соперника"),
    ("R-UTILIZE", "Recycling", "Утилизация"),
    ("R-DIGITS", "Digit combination", "Цифровая комбинация"),
    ("R-SYMBOLS", "Symbol combination", "Комбинация символов"),
    ("R-NEUTRAL-COMBO", "Neutral combination", "Нейтральная комбинация"),
    ("R-NEUTRAL-ZONE", "Neutral zone", "Нейтральная зона"),
    ("R-BUFFER", "The buffer and buffering", "Буфер и буферизация"),
    ("R-HAND", "Hand", "Рука"),
    ("R-ARCHIVES", "Archives", "Архивы"),
    ("R-FIELD", "The playing field", "Игровое поле"),
    ("R-ICONS", "Symbols on the cards", "Условные обозначения на картах"),
    ("R-UTILITY", "Scrap", "Утиль"),
    ("R-TERRITORY", "Territories", "Территории"),
    ("R-IMPACT", "A territory's impact", "Воздействие территории"),
    ("R-OVERPOP", "Overpopulation", "Перенаселение"),
    ("R-TERRITORY-ORDER", "Order of effects when a territory comes into play",
     "Порядок срабатывания эффектов при выходе территории на поле"),
    ("R-AGENTS", "Agents", "Агенты"),
    ("R-SHADOW", "An agent's shadow", "Тень Агента"),
    ("R-DOUBLE", "Double agents", "Двойные Агенты"),
    ("R-AGENT-DEFAULTS", "An agent's default abilities", "Способности Агента по умолчанию"),
    ("R-GRAFFIGENTS", "Graffiti agents", "Агенты-Граффигенты"),
    ("R-GRAFFITI", "Graffiti", "Граффити"),
    ("R-PLOTS", "Plots", "Сюжеты"),
    ("R-RECKLESS", "Recklessness and efficiency", "Безбашенность-Оперативность"),
    ("R-ILLEGAL-ZONES", "Cards in illegal zones", "Карты в нелегальных зонах"),
    ("R-OBJECTS", "Objects", "Объекты"),
    ("R-COUNTERS", "The counter", "Счетчик"),
    ("R-VICTORY", "Winning or losing", "Победа или проигрыш"),
    ("R-EFFECT-ORDER", "Order of effects", "Порядок срабатывания эффектов"),
    ("R-COMBO-LEGALITY", "Legal and illegal symbol combinations",
     "Комбинации символов (легальность или нелегальность комбинаций символов)"),
    ("R-COMBO-TABLE", "Table of combinations", "Таблица комбинаций"),
    ("R-MANUAL", "Declared effects (not in the rulebook)", ""),
))
