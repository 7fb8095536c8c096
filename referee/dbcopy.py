"""``referee db copy``: every match of one store into another, verbatim and resumable (issue 18).

Nothing is recomputed: each entry is appended as it was recorded (its body, hashes and clock reading),
with its snapshot and its idempotency key in the same transaction, then the annotations (their chain as
it is) and the token hashes. A copy that stops part-way (killed, a dropped connection) is resumed by
running it again: a match already in the target continues from the target's head, after checking that
the target's last entry is the source's entry of that seq; a match that differs (another configuration,
an entry that is not the source's) is refused, naming it, and nothing of that match is written.
``audit --all`` on the target then prints the same heads as on the source.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from referee.store import Store, StoreError


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


def copy_matches(source: Store, target: Store, progress: Callable[[str, int, int], None] | None = None) -> CopyReport:
    """Copy every match of ``source`` that ``target`` lacks, or the part of it that it lacks.
    ``progress(match_id, done, total)`` is told after each match."""
    matches = source.list_matches()
    created = entries = notes = tokens = current = 0
    for done, match in enumerate(matches, 1):
        have = target.get_match(match.id)
        if have is None:
            target.create_match(match)
            created += 1
        elif have != match:
            raise StoreError(f"match {match.id} is in the target with another configuration; not copied")
        head, start = target.head(match.id), (match.fork_seq or 0)
        source_head = source.head(match.id)
        if head > source_head:
            raise StoreError(f"match {match.id} has {head} entries in the target and {source_head} in the source")
        if head > start:
            mine = target.last_entry(match.id)
            theirs = next(iter(source.entries(match.id, head, head)), None)
            if mine != theirs:
                raise StoreError(f"match {match.id}: entry {head} in the target is not the source's; not copied")
        wrote = 0
        if source_head > head:
            snapshots = {s.seq: s for s in source.snapshots(match.id) if s.seq > head}
            requests = {r.seq: r for r in source.requests(match.id) if r.seq > head}
            for entry in source.entries(match.id, head + 1):
                target.append(entry, entry.seq - 1, snapshot=snapshots.get(entry.seq), request=requests.get(entry.seq))
                wrote += 1
        theirs_notes = source.annotations(match.id)
        mine_notes = target.annotations(match.id)
        if theirs_notes[: len(mine_notes)] != mine_notes:
            raise StoreError(f"match {match.id}: the target's annotations are not the source's; not copied")
        for note in theirs_notes[len(mine_notes):]:
            target.add_annotation(note)
            notes += 1
        missing = []
        for token in source.tokens(match.id):
            found = target.find_token(token.token_hash)
            if found is None:
                missing.append(token)
            elif found != token:
                raise StoreError(f"match {match.id}: a token of the target is another match's or role's")
        if missing:
            target.add_tokens(missing)
            tokens += len(missing)
        entries += wrote
        if not wrote and have is not None and not missing and len(theirs_notes) == len(mine_notes):
            current += 1
        if progress is not None:
            progress(match.id, done, len(matches))
    return CopyReport(matches=len(matches), created=created, entries=entries, annotations=notes, tokens=tokens,
                      up_to_date=current)
