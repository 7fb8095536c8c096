"""Setup (rules spec 2, 4.3): the state a match starts from — counters, empty buffers, each deck
split into its main and extra archives (dealt in order when the archives are tracked exactly) — and
the setup intents: archives shuffled or dealt again before the opening hand, the opening hands
drawn, the lot recorded, the order chosen and the mulligans; when both mulligans are in, phase play
begins with the first player's turn.
"""

from __future__ import annotations

from referee.engine.chance import Chance

from .codes import Code
from .chance import shuffle_chance
from .model import (
    Archive,
    ArchiveOrdered,
    ArchiveShuffled,
    ArchivesReformed,
    Cell,
    ChooseOrder,
    DrawOpeningHand,
    LotRecorded,
    Mulligan,
    OrderChosen,
    PhaseChanged,
    Player,
    RecordLot,
    ReformArchives,
    SetupDone,
    ShuffleArchive,
    State,
)
from .txn import Ctx, Txn


def initial_state(ctx: Ctx, chance: Chance | None) -> State:
    """The position after the rulebook's setup (section 2), before any setup intent."""
    o = ctx.opts
    extra_n = o["extra_archive_size"]
    players = {}
    for seat in ctx.players:
        deck = ctx.decks[seat]
        main = Archive(count=len(deck) - extra_n)
        extra = Archive(count=extra_n)
        if ctx.exact and chance is not None:
            dealt = tuple(chance.derive(seat).shuffled(deck))
            extra = Archive(count=extra_n, cards=dealt[:extra_n])
            main = Archive(count=len(deck) - extra_n, cards=dealt[extra_n:])
        players[seat] = Player(
            reputation=o["start_reputation"], influence=o["start_influence"], trust=o["start_trust"],
            buffer={s: None for s in ctx.slots}, main_archive=main, extra_archive=extra,
            unseen=tuple(sorted(deck)),
        )
    return State(field={c: Cell() for c in ctx.field.cells}, players=players)


def _too_late(txn: Txn, owner: str) -> None:
    txn.require(owner in txn.ctx.players, Code.BAD_EFFECT_TARGET, f"{owner!r} is not a seat")
    txn.check(not txn.player(owner).opening_drawn, Code.TOO_LATE,
              f"{owner} has drawn the opening hand: the archives can no longer be shuffled or dealt again", "R-SETUP")


def shuffle_archive(txn: Txn, i: ShuffleArchive) -> None:
    _too_late(txn, i.owner)
    zone = f"{i.archive}_archive"
    order: tuple[str, ...] = ()
    if txn.ctx.exact and txn.chance is not None:
        order = tuple(shuffle_chance(txn.state, i.owner, zone, txn.chance).shuffled(txn.archive_cards(i.owner, zone)))
    txn.emit(ArchiveShuffled(owner=i.owner, archive=zone, order=order))


def reform_archives(txn: Txn, i: ReformArchives) -> None:
    _too_late(txn, i.owner)
    main: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    if txn.ctx.exact and txn.chance is not None:
        p = txn.player(i.owner)
        dealt = tuple(shuffle_chance(txn.state, i.owner, "archives", txn.chance).shuffled(
            (*p.main_archive.cards, *p.extra_archive.cards)))
        n = txn.opts["extra_archive_size"]
        extra, main = dealt[:n], dealt[n:]
    txn.emit(ArchivesReformed(owner=i.owner, main=main, extra=extra))


def _to_order(txn: Txn) -> None:
    s = txn.state
    if s.lot_winner is not None and all(p.opening_drawn for p in s.players.values()):
        txn.emit(PhaseChanged(phase="order"))


def draw_opening_hand(txn: Txn, i: DrawOpeningHand) -> None:
    seat = txn.seat
    txn.require(not txn.player(seat).opening_drawn, Code.ALREADY_DONE, f"{seat} has already drawn the opening hand", "R-SETUP")
    txn.check_draw(seat, "main_archive", i.cards, txn.opts["opening_hand"], "R-SETUP")
    txn.draw(seat, "main_archive", i.cards, f"{seat}.hand", "opening hand")
    txn.emit(SetupDone(seat=seat, what="opening_drawn"))
    _to_order(txn)


def record_lot(txn: Txn, i: RecordLot) -> None:
    txn.require(txn.state.lot_winner is None, Code.ALREADY_DONE, f"the lot is already recorded ({txn.state.lot_winner} won)", "R-SETUP")
    txn.require(i.winner is not None, Code.BAD_EFFECT_TARGET, "record_lot needs winner=SEAT", "R-SETUP")
    txn.emit(LotRecorded(winner=str(i.winner)))
    _to_order(txn)


def choose_order(txn: Txn, i: ChooseOrder) -> None:
    txn.emit(OrderChosen(first=i.first))
    txn.emit(PhaseChanged(phase="mulligan"))


def mulligan(txn: Txn, i: Mulligan) -> None:
    seat = txn.seat
    p = txn.player(seat)
    txn.require(not p.mulligan_done, Code.ALREADY_DONE, f"{seat} has already taken the mulligan", "R-SETUP")
    k = len(i.return_)
    txn.require(k <= txn.opts["max_mulligan"] and len(i.drawn) == k, Code.MULLIGAN_INVALID,
                f"return at most {txn.opts['max_mulligan']} cards and draw as many: returned {k}, drew {len(i.drawn)}", "R-SETUP")
    txn.require_in_hand(seat, i.return_, "R-SETUP")
    if k:
        txn.check_draw(seat, "main_archive", i.drawn, k, "R-SETUP")
    txn.draw(seat, "main_archive", i.drawn, f"{seat}.hand", "mulligan")
    for cid in i.return_:
        txn.move(cid, seat, f"{seat}.hand", f"{seat}.extra_archive", cause="mulligan")
    if k and txn.ctx.exact and txn.chance is not None:
        order = tuple(shuffle_chance(txn.state, seat, "extra_archive", txn.chance).shuffled(
            txn.archive_cards(seat, "extra_archive")))
        txn.emit(ArchiveOrdered(owner=seat, archive="extra_archive", cards=order))
    txn.emit(SetupDone(seat=seat, what="mulligan_done"))
    if all(q.mulligan_done for q in txn.state.players.values()):
        txn.emit(PhaseChanged(phase="play"))
        txn.begin_turn(str(txn.state.first_player), 1)
