"""The decision being built (:class:`Tx`), the rules bound to a match as the modules below ``rules.py``
see them (:class:`BoundRules`), and the rule citations. A failed check raises a refusal
(``android/<spec code>``; the framework's ``turn/not_your_turn`` and ``match/over`` stay as they are),
which ``decide`` returns as a Rejected value. Every check of this game is a ``require``: no
ruling has ever waived one here (its arbiter corrects a table with ``manual_effect`` instead)."""

from __future__ import annotations

from typing import Any, Protocol

from referee.engine.codes import MatchCode, TurnCode
from referee.engine.decision import Decision
from referee.engine.protocol import Rules

from .codes import Code
from .data import DataSet, Location, MapData
from .model import AuditFlagged, State, Step

FRAMEWORK = (TurnCode.NOT_YOUR_TURN, MatchCode.OVER)

R_COMMON = "§4.0 (G1–G5)"
R_SETUP = "§2 «УСТАНОВКА»"
R_MOVE = "§4.10 «ДВИЖЕНИЕ», «ПЕРЕХОД В НОВУЮ ЛОКАЦИЮ»"
R_RESTRICTED = "«ЗАПРЕЩЕННЫЕ ЛОКАЦИИ»"
R_BEANSTALK = "§4.11 «BEANSTALK, ЗЕМЛЯ И ЛУНА»"
R_DROPSHIP = "§4.12 «ИСПОЛЬЗОВАНИЕ DROPSHIP PASSES»"
R_FREE = "§4.13 «ВХОД НА ЗАХУДАЛЫЕ И РОСКОШНЫЕ ЛОКАЦИИ»"
R_FOLLOW = "§4.14 «ПОЛУЧЕНИЕ УЛИК»"
R_MOVE_LEAD = "§4.15 «ПЕРЕМЕЩЕНИЕ УЛИК»"
R_EVIDENCE = "§4.16–4.17 «РАЗМЕЩЕНИЕ СВИДЕТЕЛЬСТВА»"
R_REVEAL = "§4.18 «РАСКРЫТИЕ ИНФОРМАЦИИ»"
R_DIG = "§4.19 «Рытье Глубже» (default ruling)"
R_BENEFIT = "§4.20 «РАСКРЫТИЕ ИНФОРМАЦИИ»"
R_PLACE = "§4.21 «РАСКРЫТИЕ ЗАГОВОРА», rules 1–3"
R_DRAW = "§4.22–4.23 «ВЗЯТЬ ИЛИ СБРОСИТЬ Twilight Card»"
R_LIGHT = "§4.24 «ИГРАТЬ СВЕТЛУЮ КАРТУ»"
R_DARK = "§4.25 «ВАЖНЫЕ УСЛОВИЯ» (Light Shift)"
R_JUMP = "§4.26 «GET A JUMP ON THE CASE»"
R_ABILITY = "§4.27 «ИСПОЛЬЗОВАНИЕ ВОЗМОЖНОСТЕЙ ЛОКАЦИЙ»"
R_EVENT = "§4.28 «EVENT BASED ACTIONS»"
R_TURN = "§4.29, §3.2 «ДНЕВНАЯ ФАЗА»"
R_MANUAL = "§4.30 (declared effects)"
R_END_OF_DAY = "§3.4, §4.31–4.33 «ФАЗА КОНЦА ДНЯ»"
R_CLOSING = "§6 «CLIMAX», §4.35–4.36"
R_TIME = "§3.2 «ДНЕВНАЯ ФАЗА» (TIME)"


class BoundRules(Rules[State, Any, Any], Protocol):
    """The rules bound to one match as every module below :mod:`.rules` reads them (``AndroidRules`` is
    one): the engine's rules protocol (the seats, clockwise; the fold, the verdict), and the options, the
    data set and the questions about the table."""

    #: every option's value (given or default)
    options: dict[str, Any]
    #: a digital match: the referee draws
    digital: bool
    data: DataSet
    #: the match's map, and its beanstalk's interior locations
    map: MapData
    interior: frozenset[str]

    def reach_list(self, lid: str, detective: str) -> tuple[str, ...] | None: ...

    def loc(self, lid: str) -> Location: ...

    def rotation(self, first: str) -> tuple[str, ...]: ...

    def left(self, seat: str) -> str: ...

    def right(self, seat: str) -> str: ...

    def track(self, detective: str) -> tuple[int, int]: ...

    def hand_limit(self, detective: str) -> int: ...

    def base_time(self, state: State, seat: str) -> int: ...

    def climax(self, state: State) -> bool: ...

    def card_zone(self, state: State, card: str) -> str | None: ...

    def remove_card(self, state: State, card: str) -> State: ...

    def need_face_down(self, tx: Tx, card: str) -> None: ...


class Tx(Decision):
    """One decision on a state: events applied as emitted (so later checks see them)."""

    __slots__ = ("rules", "seat", "undo", "base")

    def __init__(self, rules: BoundRules, state: State, seat: str, waive: frozenset[str]) -> None:
        super().__init__("android/", state, rules.evolve, waive=waive)
        self.rules = rules
        self.seat = seat
        #: while an action «Отмена» may cancel is decided: the inverse of each effect, in the order applied
        self.undo: list[Any] | None = None
        #: the state the intent's own decider began on (after its family's checks), which its note reads
        self.base: State = state

    def code(self, reason: str) -> str:
        return reason if reason in FRAMEWORK or reason.startswith("android/") else "android/" + reason

    def flag(self, kind: str, note: str = "") -> None:
        self.emit(AuditFlagged(kind=kind, note=note))

    @property
    def s(self) -> State:
        st: State = self.state
        return st

    def bank_has(self, bank: str, n: int = 1) -> bool:
        """Whether ``n`` tokens can come out of ``bank`` (always, with ``bank_limits=unlimited``: AMB-41)."""
        return self.rules.options["bank_limits"] == "unlimited" or self.s.banks.get(bank, 0) >= n

    def time(self, cost: int, rule: str = R_TIME) -> None:
        have = self.s.time_left
        self.require(have >= cost, Code.TIME_INSUFFICIENT, f"needs {cost} TIME, {self.seat} has {have}", rule)


def substep(tx: Tx, names: tuple[str, ...], none_code: str, none_msg: str, rule: str,
            move_pending: bool = False) -> Step:
    """The actor's pending entry of one of ``names``; the precise code if there is none or it is not on top."""
    mine = [i for i, st in enumerate(tx.s.pending) if st.step in names and st.seat == tx.seat]
    tx.require(bool(mine), none_code, none_msg, rule)
    top = tx.s.pending[0]
    if mine[0] != 0:
        if move_pending and top.step == "lead_move":
            tx.fail(Code.LEAD_LEAD_MOVE_PENDING, f"{top.seat} must move {top.lead} first", rule)
        tx.fail(Code.TURN_STEP_PENDING, f"{top.seat} must finish {top.step} first", rule)
    return tx.s.pending[0]


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def ids(items: Any) -> str:
    return ", ".join(str(i) for i in items) or "none"
