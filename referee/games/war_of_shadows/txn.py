"""The refusal and the decision being built, and what every decider cites. A decider (``setup``,
``agents``, ``council``, ``effects``, ``manual``, ``reveal``) works on a :class:`Tx`: every change is
an event applied at once with the fold's ``evolve``, so later checks see its effect, and a failed
check raises a refusal, which ``decide`` returns as a Rejected value (a ruling "stands as played" may
waive what is spelled ``check``, never a ``require`` or ``fail``). Here too: the rule citations (the
Russian heading, and the spec section).
"""

from __future__ import annotations


from referee.engine.decision import Decision

from .codes import Code
from .model import State
from .queries import Queries

# -- rule citations (the Russian heading, and the spec section) ---------------------------------------------

R_CONFIG = "§4.1 «ОБЗОР ИГРЫ»"
R_COMMON = "§4.0 (G1–G5)"
R_SOCIETY = "§4.2 «Планшеты игроков и жетоны»"
R_FIRST = "§4.3 «Первый игрок»"
R_DEAL = "§4.4, §6.3 «Каждому своё»"
R_LOYALTY = "§4.5 «Верность»"
R_COLLECT = "§4.6 «ФАЗА АГЕНТОВ», Этап 1"
R_PLACE = "§4.7 «ФАЗА АГЕНТОВ», Этап 2"
R_REGION_AGENTS = "§6.1 «Назначение агентов в регионы»"
R_ACTIVATION = "§4.0 (A1–A6), §3.3 «ФАЗЫ ИМПЕРИЙ»"
R_ADD = "§4.9 «Добавить знамёна»"
R_ATTACK = "§4.10 «Действие атаки»"
R_COMBAT = "§4.11 «Бой»"
R_TAKE = "§4.12 «Взять карту империи»"
R_MOVE = "§4.13 «Переместить агента»"
R_PASS = "§4.14 «ФАЗЫ ИМПЕРИЙ»"
R_END = "§4.15, §3.3"
R_PLAY = "§4.17 «Как играть карты»"
R_NOTES = "§7 «ПРИМЕЧАНИЯ К КАРТАМ»"
R_MANUAL = "§4.18 «КАРТЫ ИМПЕРИЙ»"
R_DISCARD = "§4.19 «ФАЗА СБРОСА», «Предел руки»"
R_REVEAL = "§4.20–4.21 «ФАЗА РАСКРЫТИЯ»"
R_CI = "§4.22–4.23, §6.4 «Контрразведка»"
R_FINAL = "§4.24, §5 «ФИНАЛЬНЫЙ ПОДСЧЁТ ОЧКОВ»"
R_CHANCE = "§1.11 (digital match)"

class Tx(Decision):
    """The state being built by one decision (see :class:`referee.engine.decision.Decision`)."""

    __slots__ = ("rules", "seat")

    def __init__(self, rules: Queries, state: State, seat: str, waive: frozenset[str]) -> None:
        super().__init__("war_of_shadows/", state, rules.evolve, waive=waive)
        self.rules = rules
        self.seat = seat

    def restart(self, state: State) -> None:
        """Begin again on ``state``: nothing emitted, nothing declared."""
        self.state = state
        self.events.clear()
        self.manual = False

    def needs_module(self, module: str, verb: str, rule: str) -> None:
        """``verb`` belongs to one of the advanced modules (§6): ``module_disabled`` unless the match uses it."""
        self.require(self.rules.modules[module], Code.MODULE_DISABLED,
                     f"{verb} belongs to the module {module}, which this match does not use", rule)


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")
