"""A tournament's tokens issued from the organiser's own database (``referee tournament tokens`` and
``slips``), so that a tournament made locally can be served as a hall.

Only a token's sha256 is ever stored, so a token is shown once, when it is issued: for whoever holds
none yet (a tournament made locally has none; a player registered later neither), and anew for whoever
the organiser names to rotate. Each issuing is a record (:class:`.events.TokensIssued`) naming the hashes
issued and the ones it replaces; a replaced token is refused from that record on
(:func:`revoked`, read by :class:`referee.tournament.access.TournamentAccess`). The record is written
first (it names the tournament's last record, so two issuings at once cannot both pass), then the rows:
a failure in between leaves the replaced tokens refused and the new ones unusable, never two in force.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

import msgspec

from ..auth import hash_token
from ..errors import BadInput, StorageError
from ..i18n import N_
from ..store import StoredTournamentEvent, StoredTournamentToken, StoreError
from . import events as ev
from .fold import Tournament
from .service import Tournaments
from ..engine.codes import StoreCode
from .codes import TournamentCode

#: ``--rotate`` takes these, or ``player:NAME``
ROTATE_WORDS = ("organiser", "spectator", "players", "all")

Whose = tuple[str, str | None]  # (role, player)


@dataclass(frozen=True)
class Holder:
    """One role's token as ``tournament tokens`` reports it: the token when it was issued now, else None
    (issued earlier: only its hash is kept)."""

    role: str
    player: str | None
    token: str | None


def current(t: Tournaments, state: Tournament) -> dict[Whose, list[str]]:
    """The hashes in force for each role (organiser, spectator, each registered player)."""
    held: dict[Whose, list[str]] = {}
    for row in t.store.tournament_tokens(state.id):
        if row.token_hash not in state.revoked:
            held.setdefault((row.role, row.player), []).append(row.token_hash)
    return held


def everyone(state: Tournament) -> list[Whose]:
    """Every role that holds a token of the tournament, in a fixed order: organiser, spectators, the
    players as registered."""
    return [("organiser", None), ("spectator", None), *[("player", p) for p in state.players]]


def parse_rotate(state: Tournament, words: Sequence[str]) -> list[Whose]:
    """``--rotate`` values (``organiser``, ``spectator``, ``players``, ``all``, ``player:NAME``) as roles,
    or BadInput naming the one that is none of them."""
    out: list[Whose] = []
    for word in words:
        w = word.strip()
        if w == "all":
            out += everyone(state)
        elif w in ("organiser", "spectator"):
            out.append((w, None))
        elif w == "players":
            out += [("player", p) for p in state.players]
        elif w.startswith("player:") and w[7:] in state.players:
            out.append(("player", w[7:]))
        elif w.startswith("player:"):
            raise BadInput.said(TournamentCode.NO_SUCH_PLAYER, N_("--rotate {w}: {player!r} is not a player of tournament {id} (players: {players})")
                                if state.players else
                                N_("--rotate {w}: {player!r} is not a player of tournament {id} (players: none)"),
                                w=w, player=w[7:], id=state.id, players=", ".join(state.players))
        else:
            raise BadInput.said(TournamentCode.BAD_ROTATE, N_("--rotate {w!r} is not organiser, spectator, players, all or player:NAME"),
                                w=w)
    return list(dict.fromkeys(out))


def issue(t: Tournaments, tournament_id: str, rotate: Sequence[Whose] = (), *, only: Sequence[Whose] | None = None,
          by: str = "organiser", why: str = "") -> tuple[Tournament, list[Holder]]:
    """Issue a token to each of ``only`` (default: every role) that holds none, and a new one to each of
    ``rotate`` (its old ones revoked); the roles, each with its new token or None."""
    state = t.load(tournament_id)
    held = current(t, state)
    wanted = list(only) if only is not None else everyone(state)
    fresh = [w for w in wanted if w in rotate or not held.get(w)]
    fresh += [w for w in rotate if w not in fresh]
    minted = {w: secrets.token_urlsafe(24) for w in fresh}
    if minted:
        revoked = tuple(h for w in fresh for h in sorted(held.get(w, ())))
        issued = tuple(ev.IssuedToken(role=role, player=player, hash=hash_token(tok))  # type: ignore[arg-type]
                       for (role, player), tok in minted.items())
        state = t._append(state, [ev.TokensIssued(issued=issued, revoked=revoked)], by, why)
        rows = [StoredTournamentToken(token_hash=i.hash, tournament_id=state.id, role=i.role, player=i.player)
                for i in issued]
        try:
            t.store.add_tournament_tokens(rows)
        except StoreError as exc:
            raise StorageError.said(StoreCode.FAILED, N_("could not record the tournament's tokens: {exc} (the record naming them is written: issue them again with --rotate)"),
                                    exc=exc) from None
    shown = list(dict.fromkeys([*wanted, *fresh]))
    return state, [Holder(role=r, player=p, token=minted.get((r, p))) for r, p in shown]


def revoked(rows: Sequence[StoredTournamentEvent], token_hash: str) -> bool:
    """Whether one of a tournament's records revokes ``token_hash`` (a later issuing replaced it); only
    the issuing records are decoded."""
    for row in rows:
        if row.kind == "tokens_issued":
            try:
                event = ev.decode(row.body).event
            except msgspec.DecodeError:
                raise StorageError.said(TournamentCode.CORRUPT, N_("tournament {tournament_id}: record {n} cannot be read; run `referee tournament audit`"),
                                        tournament_id=row.tournament_id, n=row.n) from None
            if isinstance(event, ev.TokensIssued) and token_hash in event.revoked:
                return True
    return False
