"""How War of Shadows' table is drawn (the ``boards`` hook): the map as its regions placed as the board
lies (:mod:`.places`), its land and sea borders between them (home empire, cities, farm and fort
beside each; banners, control and agents in it), the council as
a grid of empires by positions, then the seats' tableaux; every area's contents also as pieces to draw
(banners in their empire's colour, agents in their seat's). :func:`sections` gives the players and
the round in a player's words, internal fields (cursors, phase records, options) in the details.
Built from one role's view and the public board data only."""

from __future__ import annotations

from typing import Any

from referee.engine.present import fact_list, placed, seat_tableau
from referee.engine.speech import gettext, ngettext, per_reader, pgettext, worded
from schemas.board import Area, Board, Link, Piece

from .data import EMPIRES, POSITIONS
from .data import Board as MapData
from .places import PLACES


def boards(board: MapData, view: dict[str, Any]) -> tuple[Board, ...]:
    drawn = [b for b in (map_of(board, view), council(view), seat_tableau(view)) if b is not None]
    return tuple(drawn)


def map_of(board: MapData, view: dict[str, Any]) -> Board | None:
    banners = view.get("banners")
    if not isinstance(banners, dict):
        return None
    control, conquered = view.get("control") or {}, view.get("conquered") or {}
    agents = view.get("region_agents") or {}
    areas = []
    for region in board.regions:
        rid = region.id
        printed = [gettext("{empire} home", empire=region.home) if region.home else gettext("uncoloured")]
        printed += [ngettext("{n} city", "{n} cities", region.cities)] if region.cities else []
        printed += [word for word, shown in ((gettext("farm"), region.farm), (gettext("fort"), region.fort)) if shown]
        row = banners.get(rid) or {}
        lines = [f"{e} {row[e]}" for e in EMPIRES if row.get(e)]
        pieces = [Piece(kind="banners", name=e, owner=e, value=str(row[e])) for e in EMPIRES if row.get(e)]
        if control.get(rid):
            lines.append(gettext("held by {empire}", empire=control[rid])
                         + (", " + gettext("conquered") if conquered.get(rid) else ""))
            pieces.append(Piece(kind="held by", name=str(control[rid]), owner=str(control[rid]),
                                notes=("conquered",) if conquered.get(rid) else ()))
        if agents.get(rid):
            lines.append(gettext("agents {seats}", seats=", ".join(agents[rid])))
            pieces += [Piece(kind="agent", name=str(a), owner=str(a)) for a in agents[rid]]
        areas.append(Area(id=rid, label=", ".join(printed), lines=tuple(lines), pieces=tuple(pieces),
                          owner=str(control.get(rid) or "")))
    links = [Link(a=a, b=b, kind=kind) for kind, pairs in (("", board.land), ("sea", board.sea))
             for a, b in sorted(pairs) if a < b]
    return placed(pgettext("a board's title", "Map"), areas, PLACES.get(board.board_id, {}), links=links,
                  covers=("banners", "control", "conquered", "region_agents"), kinds={"sea": pgettext("a border", "sea")})



def council(view: dict[str, Any]) -> Board | None:
    seats = view.get("council")
    if not isinstance(seats, dict):
        return None
    controller = view.get("controller") or {}
    areas = []
    for empire in (e for e in EMPIRES if e in seats):
        for position in POSITIONS:
            who = (seats.get(empire) or {}).get(position)
            ruler = (controller.get(empire) or {}).get(position)
            lines = [gettext("agent {seat}", seat=who)] if who else []
            pieces = [Piece(kind="agent", name=str(who), owner=str(who))] if who else []
            if ruler:
                lines.append(gettext("controlled by {seat}", seat=ruler))
                if ruler != who:
                    pieces.append(Piece(kind="controlled by", name=str(ruler), owner=str(ruler)))
            areas.append(Area(id=f"{empire}.{position}", row=empire, col=_position(position), lines=tuple(lines),
                              pieces=tuple(pieces)))
    return Board(title=gettext("Council"), layout="grid", areas=tuple(areas), covers=("council", "controller"))


@worded
def _position() -> dict[str, str]:
    """A council position in the reader's words."""
    return {"sheriff": pgettext("a council position", "sheriff"), "seneschal": pgettext("a council position", "seneschal"),
            "marshal": pgettext("a council position", "marshal"),
            "chancellor": pgettext("a council position", "chancellor")}


def headline(view: dict[str, Any]) -> str:
    """Where the match stands: the round, the phase, who plays next, and the scores once any are known;
    until then each empire's cities (the loyalties' scores are hidden until the end, §5)."""
    parts: list[str] = []
    if view.get("round"):
        parts.append(f"round {view['round']}")
    if view.get("phase"):
        parts.append(str(view["phase"]).lower().replace("_", " "))
    if view.get("next_player") and view.get("phase") not in ("OVER", "GAME_OVER"):
        parts.append(f"{view['next_player']} next")
    players: dict[str, Any] = view["players"] if isinstance(view.get("players"), dict) else {}
    scores = []
    for seat, p in players.items():
        score = p.get("score") if isinstance(p, dict) else None
        total = score.get("total") if isinstance(score, dict) else score if isinstance(score, int) else None
        if total is not None:
            scores.append(f"{seat} {total}")
    if scores:
        parts.append("scores " + ", ".join(scores))
    elif isinstance(view.get("cities"), dict) and view["cities"]:  # what each loyalty will score: public
        parts.append("cities " + ", ".join(f"{empire} {n}" for empire, n in view["cities"].items()))
    return " · ".join(parts)


@per_reader
def _player_words() -> dict[str, str]:
    """A player's fields in the reader's words."""
    return {
        "society": pgettext("a table's label", "society"), "agent_reserve": pgettext("a table's label", "agents in reserve"),
        "hand": pgettext("a table's label", "hand"), "hand_size": pgettext("a table's label", "cards in hand"),
        "swaps_made": pgettext("a table's label", "swaps made"), "bonus": pgettext("a table's label", "bonus"),
        "ci_bonus": pgettext("a table's label", "counter-intelligence bonus"),
        "score": pgettext("a table's label", "score"), "score.total": pgettext("a table's label", "score"), "score.base": pgettext("a table's label", "score from loyalty"),
        "score.bonus": pgettext("a table's label", "score bonus"),
        "score.ci_bonus": pgettext("a table's label", "score counter-intelligence"),
        "score.keep_secrets": pgettext("a table's label", "score for secrets kept"),
        "score.region_agents": pgettext("a table's label", "score for region agents"),
        "loyalty.fanaticism.empire": pgettext("a loyalty", "fanaticism"),
        "loyalty.devotion.empire": pgettext("a loyalty", "devotion"),
        "loyalty.involvement.empire": pgettext("a loyalty", "involvement"),
        "loyalty.indifference.empire": pgettext("a loyalty", "indifference"),
        "loyalty.opposition.empire": pgettext("a loyalty", "opposition"),
    }


_PLAYER_DETAILS = ("fanatic_dealt", "unrevealed_at_end", "final_revealed") + tuple(
    f"loyalty.{slot}.revealed" for slot in ("fanaticism", "devotion", "involvement", "indifference", "opposition"))
@per_reader
def _round_words() -> dict[str, str]:
    """The round's fields (and their paths' starts) in the reader's words, as :func:`label` reads them in English."""
    return {
        "round": pgettext("a table's label", "round"), "phase": pgettext("a table's label", "phase"),
        "first_player": pgettext("a table's label", "first player"), "turn_order": pgettext("a table's label", "turn order"),
        "next_player": pgettext("a table's label", "next to act"),
        "banner_supply": pgettext("a table's label", "banner supply"), "cities": pgettext("a table's label", "cities"),
        "deck_size": pgettext("a table's label", "deck size"),
    }


_ROUND_DETAILS = ("board", "cursor", "round_markers_placed", "seats", "agent_phase", "discard_phase",
                  "reveal_phase", "deck", "audit_flags", "options", "outcome")


@per_reader
def _phases() -> dict[str, str]:
    """The round's phases as stored, in the reader's words."""
    return {"SETUP": pgettext("a phase", "SETUP"), "AGENT_COLLECT": pgettext("a phase", "AGENT_COLLECT"),
            "AGENT_PLACE": pgettext("a phase", "AGENT_PLACE"), "EMPIRE_PHASE": pgettext("a phase", "EMPIRE_PHASE"),
            "DISCARD": pgettext("a phase", "DISCARD"), "REVEAL": pgettext("a phase", "REVEAL"),
            "CI_SWAP": pgettext("a phase", "CI_SWAP"), "CI_REVEAL": pgettext("a phase", "CI_REVEAL"),
            "FINAL_SCORING": pgettext("a phase", "FINAL_SCORING"), "GAME_OVER": pgettext("a phase", "GAME_OVER")}


def sections(view: dict[str, Any]) -> tuple[Board, ...]:
    """The players and the round in a player's words, what is internal in the details."""
    players = seat_tableau(view, labels=_player_words(), details=_PLAYER_DETAILS)
    drawn = {"banners", "control", "conquered", "region_agents", "council", "controller", "players"}
    game = fact_list(view, [k for k in view if k not in drawn], pgettext("a board's title", "Round"), labels={},
                     details=_ROUND_DETAILS, words=_round_words(), values={"phase": _phases()})
    return tuple(b for b in (players, game) if b is not None)
