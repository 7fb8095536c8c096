"""The rulebook's sections this game cites, in English and as the rulebook prints them (Russian): one
table, as data (:class:`referee.engine.rulebook.Rulebook`). A refusal records its citation with the
Russian heading; an English sentence shows the English one."""

from __future__ import annotations

from referee.engine.rulebook import Rulebook

RULEBOOK = Rulebook(
    (
        # (section, English, Russian as printed)
        ("§1.6", "Symbols on the board", "СИМВОЛЫ НА ПОЛЕ"),
        ("§3", "Round counter", "СЧЁТЧИК РАУНДОВ"),
        ("§3.3", "Empire phases", "ФАЗЫ ИМПЕРИЙ"),
        ("§4.1", "Game overview", "ОБЗОР ИГРЫ"),
        ("§4.2", "Player boards and tokens", "Планшеты игроков и жетоны"),
        ("§4.3", "First player", "Первый игрок"),
        ("§4.5", "Loyalty", "Верность"),
        ("§4.6", "Agents phase", "ФАЗА АГЕНТОВ"),
        ("§4.7", "Agents phase", "ФАЗА АГЕНТОВ"),
        ("§4.9", "Add banners", "Добавить знамёна"),
        ("§4.10", "The attack action", "Действие атаки"),
        ("§4.11", "Combat", "Бой"),
        ("§4.12", "Take an empire card", "Взять карту империи"),
        ("§4.13", "Move an agent", "Переместить агента"),
        ("§4.14", "Empire phases", "ФАЗЫ ИМПЕРИЙ"),
        ("§4.17", "How to play cards", "Как играть карты"),
        ("§4.18", "Empire cards", "КАРТЫ ИМПЕРИЙ"),
        ("§4.19", "Discard phase", "ФАЗА СБРОСА"),
        ("§4.19", "Hand limit", "Предел руки"),
        ("§4.20–4.21", "Reveal phase", "ФАЗА РАСКРЫТИЯ"),
        ("§5", "Final scoring", "ФИНАЛЬНЫЙ ПОДСЧЁТ ОЧКОВ"),
        ("§6.1", "Assigning agents to regions", "Назначение агентов в регионы"),
        ("§6.2", "Keep your secrets", "Храни секреты"),
        ("§6.3", "To each their own", "Каждому своё"),
        ("§6.4", "Counter-intelligence", "Контрразведка"),
        ("§7", "Notes on the cards", "ПРИМЕЧАНИЯ К КАРТАМ"),
        # sections the rules spec numbers where the rulebook prints a heading for them
        ("§3.1", "Course of the game", "ХОД ИГРЫ"),
        ("§4.22–4.23", "Counter-intelligence", "Контрразведка"),
        ("§4.24", "Loyalty tokens and scoring", "ЖЕТОНЫ ВЕРНОСТИ И ПОДСЧЁТ ОЧКОВ"),
        ("§4.4", "To each their own", "Каждому своё"),
        # the spec's own sections, which the rulebook has no heading for: the Russian heading is ours
        ("§1.8", "The board's data", "Данные поля"),
        ("§1.11", "Hidden information and chance", "Скрытая информация и случайность"),
        ("§4.0", "Checks before every move", "Проверки перед каждым ходом"),
    ),
    words={"Этап": "step"},
)
