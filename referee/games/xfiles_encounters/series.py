"""A series of three games (R48, spec §6.4), linked by ``referee new --continue-from`` (the engine's
``carry_over`` hook): what a finished game hands the next, the climax deal at the next game's setup, and
the series score.

The next game's configuration carries, as options: ``series_game`` (g + 1), the same ``avatars`` and
``academy_characters``, the previous game's other options, ``series_points`` (the series score so far),
``series_previous`` (``won`` or ``lost``), ``series_climax_dealt`` (the climax cards dealt after earlier
games) and, with ``series_keep_scars``, ``series_scars`` (scars per avatar). At its setup each player is
dealt a climax card before the opening draws: a ``reveal`` of ``climax.<seat>`` (typed in a recorded match,
drawn in a seeded one) from Got Too Close cards after a win, Unexpected Help after a loss (with
``series_this_time_card``, This Time They May Have Won too: the game is then lost, ``declared_loss``, and
the series with it), of the player's own avatar (``climax_deal = own_avatar``, B21) or of every avatar in
play (``mixed``), never one dealt after an earlier game. Kept scars come back face down, unseen.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from referee.engine.protocol import ConfigError
from referee.engine.speech import N_

from . import model as m
from .codes import Code

if TYPE_CHECKING:
    from .txn import BoundRules, Tx

THIS_TIME = "this_time_they_may_have_won"
#: options a continuation sets itself (never copied from the previous game as given)
CARRIED = ("series_game", "avatars", "academy_characters", "series_points", "series_previous",
           "series_climax_dealt", "series_scars")
NOT_COPIED = (*CARRIED, "seasons", "season_cards_kept", "kept_season_cards")
#: points per discovered evidence, and the End Game's, by game (R48)
END_GAME_POINTS = (7, 14, 25)


def game_points(state: m.State, g: int) -> int:
    """One game's score for the team (R48, §6.4): each discovered evidence 1/2/3 points, each collected
    one 2/4/6 more, a defeated End Game 7/14/25 (games 1/2/3); evidence exposed by The End counts only
    with ``exposed_counts_as_discovered``."""
    found = ("discovered", "collected", "exposed") if state.options.get("exposed_counts_as_discovered") else \
        ("discovered", "collected")
    points = sum(g for e in state.evidence.values() if e.state in found)
    points += sum(2 * g for e in state.evidence.values() if e.state == "collected")
    if state.status == "won":
        points += END_GAME_POINTS[g - 1]
    return points


def total_points(state: m.State) -> int:
    """The series score after this game: the earlier games' (carried) and this one's."""
    return _int(state.options.get("series_points", 0)) + game_points(state, _int(state.options["series_game"]))


def _int(value: Any) -> int:
    return int(value)


def _list(value: Any) -> list[str]:
    return [str(v) for v in value]


def rating(points: int) -> str:
    """The rulebook's words for a series score (R48, §6.4): every band has its words, 0-49 too (G08)."""
    if points >= 100:
        return "Trust no one"
    if points >= 75:
        return "The truth is out there"
    if points >= 50:
        return "I want to believe"
    return "Skinner wants to see you"


def lost_by_card(state: m.State) -> bool:
    return THIS_TIME in state.climax_dealt


def carry_over(rules: BoundRules, state: m.State) -> Mapping[str, Any]:
    g = _int(state.options["series_game"])
    if not g:
        raise ConfigError.said(Code.NO_SERIES, N_("it is not a game of a series (series_game=0): create the first game "
                                                  "with --option series_game=1"))
    if g == 3:
        raise ConfigError.said(Code.SERIES_OVER, N_("it was game 3, the last of its series (R48)"))
    if lost_by_card(state):
        raise ConfigError.said(Code.SERIES_OVER, N_("{card} was dealt: the series is lost (R48)"),
                               card="This Time They May Have Won")
    out: dict[str, Any] = {k: v for k, v in rules.config.options.items() if k not in NOT_COPIED}
    out.update(
        series_game=g + 1,
        avatars={seat: p.avatar for seat, p in state.players.items()},
        academy_characters=list(state.academy_deck.characters),
        series_points=total_points(state),
        series_previous=state.status,
        series_climax_dealt=[*_list(state.options.get("series_climax_dealt", [])), *state.climax_dealt],
    )
    if state.options.get("series_keep_scars"):
        out["series_scars"] = {p.avatar: len(p.scars) for p in state.players.values() if p.scars and not p.defeated}
    return out


def check_options(rules: BoundRules) -> ConfigError | None:
    """The refusal of a problem with the series options, or None."""
    o = rules.options
    g = int(o["series_game"])
    if not g:
        for name, default in (("series_keep_scars", False), ("series_this_time_card", False), ("climax_deal", "own_avatar")):
            if o[name] != default:
                return ConfigError.said(Code.BAD_CONFIG, N_(
                    "option {name}={value} acts between the games of a series (R48): give series_game=1 (then referee "
                    "new --continue-from), or leave it at {default}"), name=name, value=str(o[name]).lower(),
                    default=str(default).lower())
    carried = [n for n in ("series_points", "series_previous", "series_climax_dealt", "series_scars") if o.get(n)]
    if carried and g < 2:
        return ConfigError.said(Code.BAD_CONFIG, N_(
            "option(s) {carried} are carried from the previous game of a series (referee new --continue-from); "
            "series_game={game} has none"), carried=", ".join(carried), game=g)
    if o.get("series_scars") and not o["series_keep_scars"]:
        return ConfigError.said(Code.BAD_CONFIG, N_("option series_scars is carried only with series_keep_scars=true"))
    for avatar, n in dict(o.get("series_scars") or {}).items():
        if avatar not in {str(a) for a in o["avatars"].values()} or int(n) < 0:
            return ConfigError.said(Code.BAD_CONFIG, N_(
                "option series_scars: {avatar}:{n} is not an avatar of this game with a count of scars"), avatar=avatar, n=n)
    return None


def setup_items(rules: BoundRules, avatars: Mapping[str, str], order: list[str]) -> list[dict[str, Any]]:
    """The climax deal's reveals (one per seat, in playing order), due before the opening draws."""
    if not rules.options.get("series_previous"):
        return []
    return [{"kind": "reveal", "seat": s, "location": f"climax.{s}", "origin": "climax"} for s in order]


def kept_scars(rules: BoundRules, avatar: str) -> int:
    if not rules.options["series_keep_scars"]:
        return 0
    return int(dict(rules.options.get("series_scars") or {}).get(avatar, 0))


def climax_pool(tx: Tx, seat: str) -> list[str]:
    """The climax cards ``seat`` may be dealt now (R48, B21)."""
    o = tx.opt
    kind = "got_too_close" if o.get("series_previous") == "won" else "unexpected_help"
    dealt = {*o.get("series_climax_dealt", []), *tx.d["climax_dealt"]}
    in_play = {p["avatar"] for p in tx.d["players"].values()}
    mine = tx.player(seat)["avatar"]
    pool = [c.id for c in tx.rules.cards.of_type("climax") if c.climax_kind == kind and c.id not in dealt
            and (c.avatar == mine if o["climax_deal"] == "own_avatar" else c.avatar in in_play)]
    if o.get("series_previous") == "lost" and o["series_this_time_card"]:
        pool += [c.id for c in tx.rules.cards.of_type("climax") if c.climax_kind == THIS_TIME and c.id not in dealt]
    return sorted(pool)


def deal(tx: Tx, seat: str, card: str, **counted: Any) -> None:
    from . import flow

    tx.player(seat)["climax"] = [*tx.player(seat)["climax"], card]
    tx.d["climax_dealt"] = [*tx.d["climax_dealt"], card]
    tx.say(m.CardRevealed, seat=seat, card=card, where=f"climax.{seat}", text="climax card dealt", **counted)
    if tx.card(card).climax_kind == THIS_TIME:
        flow.lose(tx, "declared_loss")  # the X-Files are shut down: the series is lost (R48)


def headline(view: dict[str, Any]) -> str:
    """One line on a series game: which game, the score so far; once it is over the series' score, and
    after game 3 (or This Time They May Have Won) the series' result and rating."""
    o = view.get("options", {})
    g = int(o.get("series_game", 0) or 0)
    if not g:
        return ""
    before = int(o.get("series_points", 0) or 0)
    status = view.get("status", "")
    if THIS_TIME in view.get("climax_dealt", []):
        return f"series game {g} of 3: This Time They May Have Won — the series is lost"
    if status not in ("won", "lost"):
        return f"series game {g} of 3, {before} series points before it"
    found = ("discovered", "collected", "exposed") if o.get("exposed_counts_as_discovered") else ("discovered", "collected")
    evidence = view.get("evidence", {}).values()
    total = before + sum(g for e in evidence if e["state"] in found) + sum(2 * g for e in evidence if e["state"] == "collected")
    total += END_GAME_POINTS[g - 1] if status == "won" else 0
    line = f"series game {g} of 3 {status}: {total} series points"
    if g == 3:
        line += "; the series is " + ("won" if status == "won" else "lost")
        line += f" ({rating(total)})"
    return line
