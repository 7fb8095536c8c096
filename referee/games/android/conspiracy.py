"""Uncovering the conspiracy (§4.18–4.21): revealing a piece, the hero markers by the piles, the piece
benefits, and placing or discarding the piece under placement rules 1–3."""

from __future__ import annotations

from referee.engine.suggest import did_you_mean

from .codes import Code
from .data import FAVOR_TYPES, PILES, PORTS, cell, parse_cell
from .manual import apply_deltas
from .model import (
    BaggagePlaced, BenefitTaken, DeclineBenefit, DigDeeper, DiscardPiece, FavorGained, HeroMarkersMoved,
    PlacePiece, Popped, Pushed, PuzzlePieceDiscarded, PuzzlePieceDrawn, PuzzlePiecePlaced, RevealConspiracy, Step,
    TakeBaggageBenefit, TakeFavorBenefit, TakeShiftBenefit, TwilightShifted,
)
from .txn import R_BENEFIT, R_DIG, R_PLACE, R_REVEAL, Tx, ids, substep


def _nonempty(piles: dict[str, tuple[str, ...]]) -> list[str]:
    return [p for p in PILES if piles.get(p)]


def _closed(tx: Tx) -> None:
    marker = tx.s.puzzle.markers.get(tx.seat, "box")
    tx.require(marker != "box" and bool(_nonempty(tx.s.puzzle.piles)), Code.CONSPIRACY_CLOSED,
               "the conspiracy is closed: nobody may reveal information any more", R_REVEAL)


def reveal_conspiracy(tx: Tx, it: RevealConspiracy) -> None:
    rules = tx.rules
    substep(tx, ("lead_use",), Code.LEAD_NO_LEAD_TO_USE, f"{tx.seat} has no lead to use", R_REVEAL, move_pending=True)
    _closed(tx)
    pile = tx.s.puzzle.markers[tx.seat]
    tx.require(it.piece is not None and it.piece in tx.s.puzzle.piles.get(pile, ()), Code.CONSPIRACY_PIECE_NOT_IN_PILE,
               f"{it.piece} is not in the {pile} pile next to {tx.seat}'s hero marker", R_REVEAL)
    assert it.piece is not None
    tx.emit(Popped(step="lead_use"), PuzzlePieceDrawn(seat=tx.seat, piece=it.piece, pile=pile))
    piles = tx.s.puzzle.piles
    left = _nonempty(piles)
    markers = dict(tx.s.puzzle.markers)
    if not left:
        moved = {s: "box" for s in markers}
    else:
        moved = {}
        least = left[0] if rules.options["least_valuable_nonempty"] else "shift"
        moved[tx.seat] = least
        if not piles.get(pile):
            for s, at in markers.items():
                if s != tx.seat and at == pile:
                    more = [p for p in PILES[PILES.index(pile) + 1:] if piles.get(p)]
                    if more:
                        moved[s] = more[0]
                    else:
                        moved[s] = left[0] if rules.options["marker_advance_fallback"] == "least_valuable_nonempty" else "box"
    changed = {s: v for s, v in moved.items() if markers.get(s) != v}
    if changed:
        tx.emit(HeroMarkersMoved(markers=dict(sorted(changed.items()))))
    piece = rules.data.puzzle.pieces[it.piece]
    tx.emit(Pushed(step=Step(step="piece_placement", seat=tx.seat, piece=it.piece, piece_type=piece.type)))
    if piece.type == "favor" and not any(tx.bank_has(f"{t}_favor") for t in FAVOR_TYPES):
        tx.emit(BenefitTaken(seat=tx.seat, benefit="lapsed"))
        tx.flag("benefit_lapsed", "every favor bank is empty")
        return
    tx.emit(Pushed(step=Step(step="piece_benefit", seat=tx.seat, piece=it.piece, piece_type=piece.type)))


def dig_deeper(tx: Tx, it: DigDeeper) -> None:
    substep(tx, ("lead_use",), Code.LEAD_NO_LEAD_TO_USE, f"{tx.seat} has no lead to use", R_DIG, move_pending=True)
    _closed(tx)
    at = tx.s.puzzle.markers[tx.seat]
    more = [p for p in PILES[PILES.index(at) + 1:] if tx.s.puzzle.piles.get(p)]
    if tx.rules.options["dig_deeper_rule"] == "manual":
        tx.emit(Popped(step="lead_use"))
        apply_deltas(tx, it.deltas)
        tx.flag("manual_effect", "dig deeper")
        return
    tx.require(bool(more), Code.CONSPIRACY_ALREADY_MOST_VALUABLE, f"no pile more valuable than {at} holds pieces", R_DIG)
    tx.emit(HeroMarkersMoved(markers={tx.seat: more[0]}), Popped(step="lead_use"))
    tx.flag("default_rule", "dig_deeper_rule=advance_marker")


def _benefit(tx: Tx, wanted: str) -> None:
    st = substep(tx, ("piece_benefit",), Code.BENEFIT_NONE_PENDING, f"{tx.seat} has no piece benefit to take", R_BENEFIT)
    if wanted == "decline":
        return
    tx.require(st.piece_type == wanted, Code.BENEFIT_WRONG_BENEFIT,
               f"{st.piece} is a {st.piece_type} piece: its benefit is take_{st.piece_type}_benefit", R_BENEFIT)


def take_shift_benefit(tx: Tx, it: TakeShiftBenefit) -> None:
    _benefit(tx, "shift")
    if it.target not in tx.s.players:
        tx.fail(Code.REF_UNKNOWN_SEAT, f"{it.target!r} is not a seat{did_you_mean(it.target, tx.s.players)}", R_BENEFIT)
    p = tx.s.players[it.target]
    lo, hi = tx.rules.track(p.detective or "")
    step = 1 if it.direction == "dark" else -1
    tx.require(lo <= p.twilight + step <= hi, Code.TWILIGHT_TRACK_END,
               f"{it.target}'s twilight marker is at the {it.direction} end ({p.twilight})", R_BENEFIT)
    tx.emit(TwilightShifted(seat=it.target, amount=step), BenefitTaken(seat=tx.seat, benefit="shift"), Popped(step="piece_benefit"))


def take_favor_benefit(tx: Tx, it: TakeFavorBenefit) -> None:
    _benefit(tx, "favor")
    tx.require(it.favor_type in FAVOR_TYPES, Code.REF_UNKNOWN_FAVOR,
               f"{it.favor_type!r} is not a favor type ({ids(FAVOR_TYPES)})", R_BENEFIT)
    tx.require(tx.bank_has(f"{it.favor_type}_favor"), Code.BANK_EMPTY, f"the {it.favor_type} favor bank is empty", R_BENEFIT)
    tx.emit(FavorGained(seat=tx.seat, favor_type=it.favor_type, amount=1), BenefitTaken(seat=tx.seat, benefit="favor"),
            Popped(step="piece_benefit"))


def take_baggage_benefit(tx: Tx, it: TakeBaggageBenefit) -> None:
    _benefit(tx, "baggage")
    if it.target not in tx.s.players:
        tx.fail(Code.REF_UNKNOWN_SEAT, f"{it.target!r} is not a seat{did_you_mean(it.target, tx.s.players)}", R_BENEFIT)
    tx.require(tx.s.players[it.target].plot is not None, Code.BAGGAGE_NO_PLOT, f"{it.target} has no current plot", R_BENEFIT)
    tx.require(tx.bank_has("baggage"), Code.BANK_EMPTY, "the baggage bank is empty", R_BENEFIT)
    tx.emit(BaggagePlaced(seat=it.target, side=it.side), BenefitTaken(seat=tx.seat, benefit="baggage"),
            Popped(step="piece_benefit"))


def decline_benefit(tx: Tx, it: DeclineBenefit) -> None:
    _benefit(tx, "decline")
    st = tx.s.pending[0]
    tx.require(st.piece_type != "favor", Code.BENEFIT_NOT_OPTIONAL, "a favor piece's benefit must be taken", R_BENEFIT)
    tx.emit(BenefitTaken(seat=tx.seat, benefit="declined"), Popped(step="piece_benefit"))


_TURN = {"N": "E", "E": "S", "S": "W", "W": "N"}
_OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
_STEP = {"N": (-1, 0), "S": (1, 0), "E": (0, 1), "W": (0, -1)}


def ports(tx: Tx, piece: str, rotation: int) -> set[str]:
    pz = tx.rules.data.puzzle
    base = pz.center_ports if piece == "center" else pz.pieces[piece].ports
    out = set()
    for p in base:
        for _ in range(rotation // 90):
            p = _TURN[p]
        out.add(p)
    return out


def place_piece(tx: Tx, it: PlacePiece) -> None:
    st = substep(tx, ("piece_placement",), Code.PUZZLE_NO_PIECE_PENDING, f"{tx.seat} has no puzzle piece to place", R_PLACE)
    pz = tx.rules.data.puzzle
    rc = parse_cell(it.at)
    tx.require(rc is not None, Code.REF_MALFORMED, f"at= is a cell r<row>c<col> (r0c0..r{pz.rows - 1}c{pz.cols - 1}), not {it.at!r}", R_PLACE)
    assert rc is not None
    r, c = rc
    tx.require(0 <= r < pz.rows and 0 <= c < pz.cols, Code.PUZZLE_OUTSIDE_AREA,
               f"{it.at} is outside the puzzle area (r0c0..r{pz.rows - 1}c{pz.cols - 1})", R_PLACE)
    placed = tx.s.puzzle.placed
    tx.require(it.at not in placed, Code.PUZZLE_CELL_OCCUPIED, f"{it.at} already holds {placed.get(it.at, None) and placed[it.at].piece}", R_PLACE)
    rotate = bool(tx.rules.options["puzzle_rotation"]) and pz.rotation_allowed
    tx.require(it.rotation in (0, 90, 180, 270) and (rotate or it.rotation == 0), Code.PUZZLE_ROTATION_NOT_ALLOWED,
               f"rotation is 0, 90, 180 or 270{'' if rotate else ' (only 0 in this match)'}, not {it.rotation}", R_PLACE)
    neighbours = {d: cell(r + dr, c + dc) for d, (dr, dc) in _STEP.items() if cell(r + dr, c + dc) in placed}
    tx.require(bool(neighbours), Code.PUZZLE_NOT_CONNECTED, f"{it.at} touches no placed piece", R_PLACE)
    mine = ports(tx, st.piece or "", it.rotation)
    meets = [d for d, nc in neighbours.items()
             if d in mine and _OPPOSITE[d] in ports(tx, placed[nc].piece, placed[nc].rotation)]
    tx.require(bool(meets), Code.PUZZLE_NO_LINE_EXTENDED, f"{st.piece} at {it.at} (rotation {it.rotation}) extends no line of a "
               "neighbouring piece", R_PLACE)
    tx.emit(PuzzlePiecePlaced(seat=tx.seat, piece=st.piece or "", cell=it.at, rotation=it.rotation), Popped(step="piece_placement"))
    _bonus(tx, st.piece or "")


def discard_piece(tx: Tx, it: DiscardPiece) -> None:
    st = substep(tx, ("piece_placement",), Code.PUZZLE_NO_PIECE_PENDING, f"{tx.seat} has no puzzle piece to discard", R_PLACE)
    tx.emit(PuzzlePieceDiscarded(seat=tx.seat, piece=st.piece or ""), Popped(step="piece_placement"))
    if tx.rules.options["bonus_on_discard"]:
        _bonus(tx, st.piece or "")


def _bonus(tx: Tx, piece: str) -> None:
    bonuses = tx.rules.data.puzzle.pieces[piece].bonuses if piece in tx.rules.data.puzzle.pieces else ()
    if bonuses:
        tx.emit(Pushed(step=Step(step="piece_bonus", seat=tx.seat, piece=piece, bonuses=tuple(bonuses),
                                 source=f"piece_bonus:{piece}")))


_ = PORTS
