"""The round clock: the organiser starts it for the round being played (``clock_started``: the round,
its minutes, the server's time as data of the record), stops it and resumes it (``clock_stopped``,
``clock_resumed``). The fold (:mod:`.fold`) reads those times as values; what is left, and which tables
are past time, is computed here from a *given* time now (:func:`shown`, :func:`past_time`), so the same
records and the same "now" always say the same thing.
"""

from __future__ import annotations

from datetime import UTC, datetime

from schemas.tournament import HallClock

from ..errors import BadInput
from ..i18n import N_
from . import events as ev
from .codes import TournamentCode
from .fold import Clock, Tournament, seconds
from .service import Tournaments

MINUTES_MAX = 1440


def start(service: Tournaments, tournament_id: str, minutes: int, *, by: str = "organiser",
          why: str = "") -> Tournament:
    """Start the clock of the round being played (again: it starts over, the earlier start stays recorded)."""
    state = service.load(tournament_id)
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= MINUTES_MAX:
        raise BadInput.said(TournamentCode.BAD_CLOCK, N_("a round's time is 1 to {minutes_max} whole minutes, not {minutes!r}"),
                            minutes_max=MINUTES_MAX, minutes=minutes)
    if not state.rounds or state.rounds[-1].closed:
        raise BadInput.said(TournamentCode.NOTHING_OPEN, N_("no round is being played: pair the next round, then start its clock (`referee tournament pair`)"))
    at = service.clock()
    return service.append(state, [ev.ClockStarted(round=state.current, minutes=minutes, at=at)], by, why)


def stop(service: Tournaments, tournament_id: str, *, by: str = "organiser", why: str = "") -> Tournament:
    state = service.load(tournament_id)
    clock = current(state)
    if clock is None or clock.stopped is not None:
        raise _not(state, stopping=True)
    return service.append(state, [ev.ClockStopped(at=service.clock())], by, why)


def resume(service: Tournaments, tournament_id: str, *, by: str = "organiser", why: str = "") -> Tournament:
    state = service.load(tournament_id)
    clock = current(state)
    if clock is None or clock.stopped is None:
        raise _not(state, stopping=False)
    return service.append(state, [ev.ClockResumed(at=service.clock())], by, why)


def _not(state: Tournament, *, stopping: bool) -> BadInput:
    """Why the clock cannot be stopped (``stopping``) or resumed now."""
    clock = current(state)
    if clock is not None:
        template = (N_("round {round}'s clock is not running (it is stopped)") if stopping else
                    N_("round {round}'s clock is not stopped (it is running)"))
    elif state.current:
        template = (N_("round {round}'s clock was never started: nothing to stop "
                       "(`referee tournament clock {id} start --minutes 50`)") if stopping else
                    N_("round {round}'s clock was never started: nothing to resume "
                       "(`referee tournament clock {id} start --minutes 50`)"))
    else:
        template = (N_("no round is paired yet: there is no clock to stop") if stopping else
                    N_("no round is paired yet: there is no clock to resume"))
    return BadInput.said(TournamentCode.BAD_CLOCK, template, round=clock.round if clock else state.current,
                         id=state.id[:8])


def current(state: Tournament) -> Clock | None:
    """The clock of the round last paired (None if that round's clock was never started)."""
    clock = state.clock
    return clock if clock is not None and clock.round == state.current else None


def remaining(clock: Clock, now: str) -> int:
    """Seconds left at ``now`` (negative: past time by that much); a stopped clock's stand still."""
    until = seconds(clock.stopped) if clock.stopped is not None else seconds(now)
    return clock.minutes * 60 + clock.paused - (until - seconds(clock.started))


def past_time(clock: Clock | None, now: str) -> bool:
    """Whether the round's time was up at ``now``."""
    return clock is not None and remaining(clock, now) <= 0


def shown(state: Tournament, now: str) -> HallClock | None:
    """The clock of the round being played as pages show it at ``now`` (None if not started)."""
    clock = current(state)
    if clock is None:
        return None
    left = remaining(clock, now)
    ends = None
    if clock.stopped is None:
        end = seconds(clock.started) + clock.minutes * 60 + clock.paused
        ends = datetime.fromtimestamp(end, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    return HallClock(round=clock.round, minutes=clock.minutes, started_at=clock.started, paused=clock.paused,
                     running=clock.stopped is None, ends_at=ends, stopped_at=clock.stopped,
                     remaining=left if clock.stopped is not None else None, over=left <= 0)


def left_at(clock: HallClock, now: str) -> int:
    """Seconds left at ``now`` of a clock as shown (negative: past time)."""
    if clock.remaining is not None or clock.ends_at is None:
        return clock.remaining or 0
    return seconds(clock.ends_at) - seconds(now)


def words(clock: HallClock | None, now: str) -> str:
    """The clock in one line at ``now``, for the CLI."""
    if clock is None:
        return "no clock started for the round being played"
    left = left_at(clock, now)
    mmss = f"{abs(left) // 60}:{abs(left) % 60:02d}"
    state = "running" if clock.running else f"stopped at {clock.stopped_at}"
    told = f"{mmss} past time" if left < 0 else f"{mmss} left"
    return (f"round {clock.round}: {clock.minutes} min from {clock.started_at}"
            + (f" (+{clock.paused} s stopped)" if clock.paused else "") + f", {state}; {told}"
            + (f", ends {clock.ends_at}" if clock.ends_at else ""))
