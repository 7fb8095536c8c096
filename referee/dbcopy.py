"""``referee db copy``: every match and tournament of one store into another, verbatim and resumable
(issue 18).

Nothing is recomputed: each entry is appended as it was recorded (its body, hashes and clock reading),
with its snapshot and its idempotency key in the same transaction (and, with the match's last entry,
its summary as the source keeps it), then the annotations (their chain as it is) and the token hashes; then the digests of the transcripts matches were imported from; then each
tournament: its row, its append-only events as recorded (chained like entries), its token hashes. A copy
that stops part-way (killed, a dropped connection) is resumed by running it again: a match already in
the target continues from the target's head, after checking that the target's last entry is the source's
entry of that seq, and a tournament from the target's last event, after checking that the target's
events are the source's first ones; a match or tournament that differs (another configuration or name,
an entry or event that is not the source's, a token of another role) is refused, naming it, and nothing
more is written. ``audit --all`` on the target then prints the same heads as on the source, and
``tournament audit`` the same findings.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from referee.i18n import N_
from referee.store import MatchSummary, Store, StoreError, TournamentRecords


class CopyReport(msgspec.Struct, frozen=True, kw_only=True):
    #: matches in the source
    matches: int
    #: matches the target did not have
    created: int
    #: entries, annotations and tokens written to the target
    entries: int
    annotations: int
    tokens: int
    #: matches the target already held in full
    up_to_date: int
    #: transcript digests recorded in the target (which transcript each imported match came from)
    transcripts: int = 0
    #: match summaries written to the target (the source's, as they are)
    summaries: int = 0
    #: tournaments in the source, those the target did not have, and what was written of them
    tournaments: int = 0
    tournaments_created: int = 0
    tournament_events: int = 0
    tournament_tokens: int = 0


def copy_matches(source: Store, target: Store, progress: Callable[[str, int, int], None] | None = None) -> CopyReport:
    """Copy every match of ``source`` that ``target`` lacks, or the part of it that it lacks.
    ``progress(match_id, done, total)`` is told after each match."""
    matches = source.list_matches()
    created = entries = notes = tokens = current = sums = 0
    kept = {s.match_id: s for s in source.summaries()}
    written = {s.match_id: s for s in target.summaries()}
    late: list[MatchSummary] = []
    for done, match in enumerate(matches, 1):
        have = target.get_match(match.id)
        source_head = source.head(match.id)
        # the source's summary, if it is of the source's head (else the target builds its own when listed)
        summary = kept.get(match.id)
        if summary is not None and summary.head != source_head:
            summary = None
        if have is None:
            bare = source_head == (match.fork_seq or 0)  # no entry of its own: its summary comes with it
            target.create_match(match, summary=summary if bare else None)
            if bare and summary is not None:
                written[match.id] = summary
                sums += 1
            created += 1
        elif have != match:
            raise StoreError.said(N_("match {match} is in the target with another configuration; not copied"),
                                  match=match.id)
        head, start = target.head(match.id), (match.fork_seq or 0)
        if head > source_head:
            raise StoreError.said(N_("match {match} has {head} entries in the target and {source_head} in the source"),
                                  match=match.id, head=head, source_head=source_head)
        if head > start:
            mine = target.last_entry(match.id)
            theirs = next(iter(source.entries(match.id, head, head)), None)
            if mine != theirs:
                raise StoreError.said(N_("match {match}: entry {seq} in the target is not the source's; not copied"),
                                      match=match.id, seq=head)
        wrote = 0
        if source_head > head:
            snapshots = {s.seq: s for s in source.snapshots(match.id) if s.seq > head}
            requests = {r.seq: r for r in source.requests(match.id) if r.seq > head}
            for entry in source.entries(match.id, head + 1):
                last = summary if entry.seq == source_head else None  # in the head entry's own transaction
                target.append(entry, entry.seq - 1, snapshot=snapshots.get(entry.seq), request=requests.get(entry.seq),
                              summary=last)
                if last is not None:
                    written[match.id] = last
                    sums += 1
                wrote += 1
        if summary is not None and written.get(match.id) != summary:
            late.append(summary)  # a match copied before summaries were, or whose head entry came without it
        theirs_notes = source.annotations(match.id)
        mine_notes = target.annotations(match.id)
        if theirs_notes[: len(mine_notes)] != mine_notes:
            raise StoreError.said(N_("match {match}: the target's annotations are not the source's; not copied"),
                                  match=match.id)
        for note in theirs_notes[len(mine_notes):]:
            target.add_annotation(note)
            notes += 1
        missing = []
        for token in source.tokens(match.id):
            found = target.find_token(token.token_hash)
            if found is None:
                missing.append(token)
            elif found != token:
                raise StoreError.said(N_("match {match}: a token of the target is another match's or role's"),
                                      match=match.id)
        if missing:
            target.add_tokens(missing)
            tokens += len(missing)
        entries += wrote
        if not wrote and have is not None and not missing and len(theirs_notes) == len(mine_notes) \
                and (summary is None or written.get(match.id) == summary):
            current += 1
        if progress is not None:
            progress(match.id, done, len(matches))
    for at in range(0, len(late), 500):
        target.put_summaries(late[at:at + 500])
    sums += len(late)
    have_digests = set(target.transcripts())
    digests = [pair for pair in source.transcripts() if pair not in have_digests]
    for digest, mid in digests:
        target.add_transcript(digest, mid)
    cups = copy_tournaments(source, target)
    return CopyReport(matches=len(matches), created=created, entries=entries, annotations=notes, tokens=tokens,
                      up_to_date=current, transcripts=len(digests), summaries=sums, tournaments=cups[0], tournaments_created=cups[1],
                      tournament_events=cups[2], tournament_tokens=cups[3])


def copy_tournaments(source: TournamentRecords, target: TournamentRecords) -> tuple[int, int, int, int]:
    """Copy every tournament of ``source`` that ``target`` lacks, or the events and tokens it lacks:
    (tournaments, created, events written, tokens written)."""
    tournaments = source.list_tournaments()
    created = events = tokens = 0
    for cup in tournaments:
        theirs = source.tournament_events(cup.id)
        have = target.get_tournament(cup.id)
        if have is None:
            target.create_tournament(cup, theirs)  # the row and every event, in one transaction
            created += 1
            events += len(theirs)
        elif have != cup:
            raise StoreError.said(N_("tournament {tournament} is in the target with another name or date; not copied"),
                                  tournament=cup.id)
        else:
            mine = target.tournament_events(cup.id)
            if theirs[: len(mine)] != mine:
                raise StoreError.said(N_("tournament {tournament}: the target's events are not the source's; not "
                                         "copied"), tournament=cup.id)
            if len(theirs) > len(mine):
                target.append_tournament_events(cup.id, theirs[len(mine):], len(mine))
                events += len(theirs) - len(mine)
        missing = []
        for token in source.tournament_tokens(cup.id):
            found = target.find_tournament_token(token.token_hash)
            if found is None:
                missing.append(token)
            elif found != token:
                raise StoreError.said(N_("tournament {tournament}: a token of the target is another tournament's or "
                                         "role's"), tournament=cup.id)
        if missing:
            target.add_tournament_tokens(missing)
            tokens += len(missing)
    return len(tournaments), created, events, tokens
