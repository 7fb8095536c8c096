"""Transcripts: a match as a person types it at the table, and importing one into the log.

Format (one rule set for every game)::

    # free comments anywhere
    game: by_all_means
    players: alice, bob
    cards: demo                      # a bundled set, or a path relative to the transcript
    deck: alice=demo_south, bob=demo_north
    option: reaction_window=true     # repeatable; or options: a=b, c=d
    chance: physical                 # default; "seed: N" makes it digital
    title: / event: / date: / round: / table:   (kept as metadata)

    1. alice: draw_opening_hand cards=TR1,TR2,AG1,PL2
    bob: draw_opening_hand cards=TR3,TR3,GA1,GF1   # a trailing comment is kept with the entry

The header ends at the first intent line. An intent line is ``[N.] seat: <intent notation>``. Every
intent line becomes a log entry: accepted, rejected (with code, reason and rule), or — when it cannot
even be read (syntax error, unknown seat, unknown card) — an ``unparsed`` entry that changes nothing.
Nothing stops the import but a bad header; the summary lists every problem with its line number.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

from schemas import ImportProblem, ImportSummary

from .errors import BadInput, RefereeError
from .service import Referee
from .store.memory import MemoryStore

HEADER_KEYS = ("game", "players", "cards", "deck", "decks", "option", "options", "seed", "chance",
               "title", "event", "date", "round", "table")
META_KEYS = ("title", "event", "date", "round", "table")

_HEADER = re.compile(r"^\s*([a-z_]+)\s*:\s*(.*?)\s*$")
_INTENT = re.compile(r"^\s*(?:(\d+)\s*[.)]\s*)?([A-Za-z0-9_-]+)\s*:\s*(.*?)\s*$")


def strip_comment(line: str) -> tuple[str, str]:
    """Split ``text  # comment`` outside double quotes."""
    in_quote = False
    for i, ch in enumerate(line):
        if ch == '"' and (i == 0 or line[i - 1] != "\\"):
            in_quote = not in_quote
        elif ch == "#" and not in_quote and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip(), line[i + 1 :].strip()
    return line.rstrip(), ""


@dataclass
class Header:
    values: dict[str, str] = field(default_factory=dict)
    options: dict[str, str] = field(default_factory=dict)
    decks: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)


@dataclass
class IntentLine:
    line: int
    seat: str
    text: str
    comment: str
    number: int | None
    raw: str


def _pairs(value: str, what: str, where: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in filter(None, (x.strip() for x in value.split(","))):
        key, sep, val = item.partition("=")
        if not sep or not key.strip():
            raise BadInput("transcript/bad_header", f"{where}: {what} item {item!r} is not name=value")
        out[key.strip()] = val.strip()
    return out


def parse(text: str, source: str = "<transcript>") -> tuple[Header, list[IntentLine]]:
    header = Header()
    lines: list[IntentLine] = []
    in_body = False
    for number, raw in enumerate(text.splitlines(), start=1):
        body, comment = strip_comment(raw)
        if not body.strip():
            continue
        where = f"{source}:{number}"
        m = _HEADER.match(body)
        if not in_body and m and m.group(1) in HEADER_KEYS:
            key, value = m.group(1), m.group(2)
            if key in ("option", "options"):
                header.options.update(_pairs(value, "option", where))
            elif key in ("deck", "decks"):
                header.decks.update(_pairs(value, "deck", where))
            else:
                if key in header.values:
                    raise BadInput("transcript/bad_header", f"{where}: {key} is given twice")
                header.values[key] = value
            header.lines[key] = number
            continue
        in_body = True
        m2 = _INTENT.match(body)
        if m2 is None:
            lines.append(IntentLine(number, "", body.strip(), comment, None, raw))
        else:
            lines.append(IntentLine(number, m2.group(2), m2.group(3), comment,
                                    int(m2.group(1)) if m2.group(1) else None, raw))
    for key in ("game", "players"):
        if key not in header.values:
            raise BadInput(
                "transcript/bad_header",
                f"{source}: the header must name the {key} (a line '{key}: ...' before the first move)",
            )
    return header, lines


def import_transcript(referee: Referee, text: str, source: str = "<transcript>",
                      base_dir: str | None = None) -> ImportSummary:
    """Adjudicate every line of a transcript and write the match and all its entries at once."""
    header, lines = parse(text, source)
    values = header.values
    seed: int | None = None
    if "seed" in values:
        try:
            seed = int(values["seed"])
        except ValueError:
            raise BadInput(
                "transcript/bad_header", f"{source}:{header.lines['seed']}: seed must be a whole number, not {values['seed']!r}"
            ) from None
    players = [p.strip() for p in values["players"].split(",") if p.strip()]
    meta = {k: values[k] for k in META_KEYS if k in values}
    meta["source"] = os.path.basename(source)
    try:
        game, config = referee.build_config(
            values["game"], players,
            options=header.options, cards=values.get("cards"), decks=header.decks, seed=seed,
            chance=values.get("chance"), meta=meta, base_dir=base_dir,
        )
    except RefereeError as exc:
        key = {"game/unknown": "game", "match/bad_players": "players", "match/bad_option": "option",
               "match/bad_chance": "chance"}.get(exc.code, "cards" if exc.code.startswith("cards") else "")
        line = header.lines.get(key) or header.lines.get(key + "s")
        where = f"{source}:{line}" if line else source
        raise type(exc)(exc.code, f"{where}: {exc.message}", exc.detail) from None

    # adjudicate on a scratch in-memory store (the same code path as `referee play`), then copy the
    # match and every entry to the real store in one transaction: all or nothing.
    scratch = Referee(MemoryStore(), games=referee.games, clock=referee.clock, snapshot_every=referee.snapshot_every)
    from .service import new_match_id

    match_id = new_match_id()
    scratch.create_match(game, config, title=values.get("title", ""), match_id=match_id)
    problems: list[ImportProblem] = []
    accepted = rejected = 0
    for item in lines:
        meta_e: dict[str, Any] = {"line": item.line}
        if item.comment:
            meta_e["comment"] = item.comment
        if item.number is not None:
            meta_e["number"] = item.number
        try:
            if not item.seat:
                raise BadInput("transcript/bad_line",
                               "expected '<seat>: <intent>' (e.g. 'alice: draw_main card=TR6')")
            res = scratch.submit(match_id, item.seat, item.text, meta=meta_e)
        except BadInput as exc:
            scratch.record_unparsed(match_id, item.seat or None, item.raw.strip(), exc.code, exc.message, meta_e)
            problems.append(ImportProblem(line=item.line, text=item.raw.strip(), code=exc.code, message=exc.message))
            continue
        if res.accepted:
            accepted += 1
        else:
            rejected += 1
            v = res.verdict
            problems.append(ImportProblem(line=item.line, text=item.raw.strip(), code=v.code,  # type: ignore[union-attr]
                                          message=v.message, rule=v.rule))  # type: ignore[union-attr]
    stored = scratch.store.get_match(match_id)
    assert stored is not None
    entries = list(scratch.store.entries(match_id))
    referee.store.create_match(stored, entries)
    final = scratch.state(match_id)
    from schemas import Outcome

    outcome = Outcome(**final["outcome"]) if final["outcome"] else None
    return ImportSummary(
        match_id=match_id, game=game.id, lines=len(lines), entries=len(entries), accepted=accepted,
        rejected=rejected, problems=problems, outcome=outcome, state_hash=final["state_hash"],
    )
