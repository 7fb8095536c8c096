"""Creating a tournament (:meth:`Tournaments.create <referee.tournament.service.Tournaments.create>`): its
settings checked once (the format against the game's table sizes, the tie-breaks, the card data, the
matches' settings set up on made-up seats), then the tournament and its first players written in one
transaction."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from schemas import NAME_MAX, SEED_MAX, TEXT_MAX, TITLE_MAX

from ..config import new_match_id
from ..engine.codes import CardsCode, StoreCode
from ..errors import BadInput, StorageError
from ..i18n import N_
from ..inputs import check_text
from ..service import Referee
from ..store import StoredTournament, StoredTournamentEvent, StoreError, TournamentRecords
from . import events as ev
from . import tiebreaks as tb
from .codes import TournamentCode
from .fold import Tournament, evolve, fold

DEFAULT_TIEBREAKS: dict[str, tuple[str, ...]] = {
    "swiss": ("points", "buchholz-cut1", "buchholz", "sonneborn-berger", "progressive"),
    "round-robin": ("points", "sonneborn-berger", "head-to-head", "game-points"),
    "pods": ("points", "omw", "gw", "ogw"),
}


def tiebreaks_checked(names: Sequence[str]) -> tuple[str, ...]:
    return tb.check([n.strip() for n in names if n.strip()])


class Creating:
    """The creation of :class:`.service.Tournaments` (its service, store and clock)."""

    referee: Referee
    store: TournamentRecords
    clock: Callable[[], str]

    if TYPE_CHECKING:  # what :class:`.service.Tournaments`, which mixes these methods in, defines

        def _check_player(self, state: Tournament, player: str, *, known: bool) -> str: ...

    def create(self, name: str, game: str, *, format: str = "swiss", rounds: int | None = None,
               tiebreaks: Sequence[str] | None = None, points: ev.Points | None = None, seed: int | None = None,
               table_size: int | None = None, options: Mapping[str, str] | None = None, cards: str | None = None,
               cards_text: str | None = None, chance: str = "physical", players: Sequence[str] = (),
               by: str = "organiser", why: str = "", tournament_id: str | None = None,
               undo: str = "own_last", unplayed: str = "simple", direct_encounter: str = "partial") -> Tournament:
        """A new tournament and its first players, in one transaction. Card data is a set bundled with
        the game (``cards``) or a card file's text (``cards_text``; ``cards`` then only names it): the
        service never opens a path it is given (a client of the server must not name the server's files)."""
        check_text(name, "the tournament's name", TITLE_MAX)
        if not name.strip():
            raise BadInput.said(TournamentCode.BAD_NAME, N_('a tournament needs a name (e.g. referee tournament new "Club Cup" --game by_all_means)'))
        g = self.referee.game(game)
        if format not in ev.FORMATS:
            raise BadInput.said(TournamentCode.BAD_FORMAT, N_("format must be {items}, not {format!r}"),
                                items=', '.join(ev.FORMATS), format=format)
        if format != "pods" and g.min_players > 2:
            raise BadInput.said(TournamentCode.BAD_FORMAT, N_("{game} needs {min_players} players or more a table: use --format pods"),
                                game=g.id, min_players=g.min_players)
        size = table_size if table_size is not None else (g.max_players if format == "pods" else 2)
        if format != "pods" and size != 2:
            raise BadInput.said(TournamentCode.BAD_TABLE_SIZE, N_("--table-size is for pods; a {format} table has 2 seats"),
                                format=format)
        if format == "pods" and not g.min_players <= size <= g.max_players:
            raise BadInput.said(TournamentCode.BAD_TABLE_SIZE, N_("{game} seats {min_players} to {max_players} at a table, not {size}"),
                                game=g.name, min_players=g.min_players, max_players=g.max_players, size=size)
        if format != "pods" and g.max_players < 2:
            raise BadInput.said(TournamentCode.BAD_FORMAT, N_("{game} is not played two to a table"), game=g.id)
        if rounds is not None and not 1 <= rounds <= 100:
            raise BadInput.said(TournamentCode.BAD_ROUNDS, N_("--rounds must be from 1 to 100, not {rounds}"), rounds=rounds)
        try:
            names = tiebreaks_checked(tiebreaks or DEFAULT_TIEBREAKS[format])
        except ValueError as exc:
            raise BadInput(TournamentCode.BAD_TIEBREAK, str(exc)) from None
        if seed is not None and not 0 <= seed <= SEED_MAX:
            raise BadInput.said(TournamentCode.BAD_SEED, N_("a seed is a whole number from 0 to {seed_max:,}, not {seed}"),
                                seed_max=SEED_MAX, seed=seed)
        if chance not in ("physical", "digital"):
            raise BadInput.said(TournamentCode.BAD_CHANCE, N_("chance must be physical or digital, not {chance!r}"),
                                chance=chance)
        if cards_text is None and cards is not None and cards not in g.card_sets:
            known = ", ".join(sorted(g.card_sets)) or "none"
            raise BadInput.said(CardsCode.NOT_BUNDLED, N_("card set {cards!r} is not bundled with {game} ({known}) and no card file's text came with it: `tournament new --cards FILE` reads an existing file and sends its text (over HTTP: cards_text)"),
                                cards=cards, game=g.id, known=known)
        if cards_text is not None and cards is None:
            cards = "inline"
        if unplayed not in ev.UNPLAYED:
            raise BadInput.said(TournamentCode.BAD_UNPLAYED, N_("--unplayed is simple (a bye gives its points and no opponent) or fide (FIDE C.07: a dummy opponent with the player's own score), not {unplayed!r}"),
                                unplayed=unplayed)
        if direct_encounter not in ev.ENCOUNTERS:
            raise BadInput.said(TournamentCode.BAD_DIRECT_ENCOUNTER, N_("--direct-encounter is partial (the games some of the level players played) or fide (level unless all of them met), not {direct_encounter!r}"),
                                direct_encounter=direct_encounter)
        if undo not in ev.UNDO_POLICIES:
            raise BadInput.said(TournamentCode.BAD_UNDO_POLICY, N_("the undo policy of the matches is any, own_last or arbiter, not {undo!r}"),
                                undo=undo)
        # the match settings are checked once here (made-up seats, set up as a match would be), not at the
        # first pairing
        probe = [f"p{i}" for i in range(max(g.min_players, 2 if format != "pods" else size))]
        try:
            self.referee._bind(*self.referee.build_config(g.id, probe, options=dict(options or {}), cards=cards,
                                                          cards_text=cards_text, chance=chance))
        except (ValueError, TypeError, LookupError) as exc:  # card text the game's own code could not take
            raise BadInput.said(TournamentCode.BAD_CONFIG, N_("{game} cannot set up this tournament's matches: {exc}"),
                                game=g.id, exc=exc) from None
        for key, value in (options or {}).items():
            check_text(key, "an option's name", NAME_MAX)
            check_text(value, f"option {key}", TEXT_MAX)
        created = ev.Created(
            name=name.strip(), game=g.id, format=format,
            rounds=rounds or 0, tiebreaks=names, points=points or ev.Points(),
            seed=seed if seed is not None else secrets.randbelow(SEED_MAX + 1), table_size=size,
            options=dict(options or {}), cards=cards, chance=chance,  # type: ignore[arg-type]
            cards_text=cards_text,
            undo=undo, unplayed=unplayed, direct_encounter=direct_encounter,
            progressive="rounds",
        )
        tid = tournament_id or new_match_id()
        check_text(by, "who records it (--by)", NAME_MAX)
        check_text(why, "the reason", TEXT_MAX)
        # the tournament and its first players in one transaction: a bad name anywhere in the list
        # leaves nothing written, and n players cost n records (no fold or read per player)
        records = [ev.Record(tournament=tid, n=1, by=by, why=why, event=created)]
        state = fold(records)
        for p in players:
            record = ev.Record(tournament=tid, n=state.n + 1, by=by, why=why,
                               event=ev.PlayerAdded(player=self._check_player(state, p, known=False)))
            evolve(state, record)
            state.n = record.n
            records.append(record)
        prev, rows = ev.root_hash(tid), []
        for record in records:
            body = ev.encode(record)
            digest = ev.chain_hash(prev, body)
            rows.append(StoredTournamentEvent(tournament_id=tid, n=record.n, kind=ev.kind(record.event), by=by,
                                              body=body, prev_hash=prev, hash=digest, recorded_at=self.clock()))
            prev = digest
        try:
            self.store.create_tournament(StoredTournament(id=tid, name=created.name, created_at=self.clock()), rows)
        except StoreError as exc:
            raise StorageError(StoreCode.FAILED, str(exc)) from None
        return state
