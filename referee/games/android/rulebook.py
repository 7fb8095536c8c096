"""The rulebook's sections this game cites, in English and as the rulebook prints them (Russian, some
headings kept in English by the Russian edition itself): one table, as data
(:class:`referee.engine.rulebook.Rulebook`). A refusal records its citation with the Russian heading; an
English sentence shows the English one."""

from __future__ import annotations

from referee.engine.rulebook import Rulebook

RULEBOOK = Rulebook((
    # (section, English, Russian as printed)
    ("§2", "Setup", "УСТАНОВКА"),
    ("§3.2", "Day phase", "ДНЕВНАЯ ФАЗА"),
    ("§4.10", "Movement", "ДВИЖЕНИЕ"),
    ("§4.10", "Moving to a new location", "ПЕРЕХОД В НОВУЮ ЛОКАЦИЮ"),
    ("§4.10", "Restricted locations", "ЗАПРЕЩЕННЫЕ ЛОКАЦИИ"),
    ("§4.11", "The Beanstalk, Earth and the Moon", "BEANSTALK, ЗЕМЛЯ И ЛУНА"),
    ("§4.12", "Using dropship passes", "ИСПОЛЬЗОВАНИЕ DROPSHIP PASSES"),
    ("§4.13", "Entering seedy and luxury locations", "ВХОД НА ЗАХУДАЛЫЕ И РОСКОШНЫЕ ЛОКАЦИИ"),
    ("§4.14", "Gaining leads", "ПОЛУЧЕНИЕ УЛИК"),
    ("§4.15", "Moving leads", "ПЕРЕМЕЩЕНИЕ УЛИК"),
    ("§4.16–4.17", "Placing evidence", "РАЗМЕЩЕНИЕ СВИДЕТЕЛЬСТВА"),
    ("§4.18", "Revealing information", "РАСКРЫТИЕ ИНФОРМАЦИИ"),
    ("§4.19", "Digging deeper", "Рытье Глубже"),
    ("§4.20", "Revealing information", "РАСКРЫТИЕ ИНФОРМАЦИИ"),
    ("§4.21", "Uncovering the conspiracy", "РАСКРЫТИЕ ЗАГОВОРА"),
    ("§4.22–4.23", "Draw or discard a Twilight card", "ВЗЯТЬ ИЛИ СБРОСИТЬ Twilight Card"),
    ("§4.24", "Play a light card", "ИГРАТЬ СВЕТЛУЮ КАРТУ"),
    ("§4.25", "Important conditions", "ВАЖНЫЕ УСЛОВИЯ"),
    ("§4.26", "Get a jump on the case", "GET A JUMP ON THE CASE"),
    ("§4.27", "Using the locations' abilities", "ИСПОЛЬЗОВАНИЕ ВОЗМОЖНОСТЕЙ ЛОКАЦИЙ"),
    ("§4.28", "Event-based actions", "EVENT BASED ACTIONS"),
    ("§4.31–4.33", "End-of-day phase", "ФАЗА КОНЦА ДНЯ"),
    ("§6", "Climax", "CLIMAX"),
    # sections the rules spec numbers where the rulebook prints a heading for them
    ("§1.2", "Components", "КОМПОНЕНТЫ"),
    ("§1.8", "Placing evidence", "РАЗМЕЩЕНИЕ СВИДЕТЕЛЬСТВА"),
    ("§3.4", "End-of-day phase", "ФАЗА КОНЦА ДНЯ"),
    ("§4.16", "Placing evidence", "РАЗМЕЩЕНИЕ СВИДЕТЕЛЬСТВА"),
    ("§4.22", "Draw or discard a Twilight card", "ВЗЯТЬ ИЛИ СБРОСИТЬ Twilight Card"),
    ("§4.29", "Day phase", "ДНЕВНАЯ ФАЗА"),
    ("§4.31", "End-of-day phase", "ФАЗА КОНЦА ДНЯ"),
    ("§4.35–4.36", "Climax", "CLIMAX"),
    ("§6.1", "Climax", "CLIMAX"),
    ("§6.2", "Strong and weak evidence", "СИЛЬНОЕ И СЛАБОЕ СВИДЕТЕЛЬСТВО"),
    ("§6.3", "Climax", "CLIMAX"),
    # the spec's own sections, which the rulebook has no heading for: the Russian heading is ours
    ("§1.3", "Detectives", "Детективы"),
    ("§1.5", "The map", "Карта города"),
    ("§1.10", "Favors, baggage, trauma and other tokens", "Услуги, багаж, травмы и другие жетоны"),
    ("§1.11", "Hidden information and chance", "Скрытая информация и случайность"),
    ("§4.0", "Checks before every move", "Проверки перед каждым ходом"),
    ("§4.30", "Declared effects", "Заявленные эффекты"),
))
