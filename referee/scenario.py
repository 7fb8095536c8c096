"""Scenario files: conformance tests anyone can write (format in DESIGN.md and the README).

A scenario is run through the same service layer as ``referee play``, on an in-memory store, so a
passing scenario says something about the product, not about a test harness.
"""

from __future__ import annotations

import os
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import msgspec

from schemas import SCENARIO_MAX

from . import tomlw
from .engine.datafile import load_toml
from .engine.protocol import Rejected
from .engine.speech import Said, again
from .errors import RefereeError, read
from .i18n import N_, Quoted
from .inputs import parse_toml, read_file
from .config import null_to_none
from .service import Referee
from .store.memory import MemoryStore

_TOP_KEYS = {
    "game", "title", "players", "seed", "chance", "cards", "decks", "options", "position", "steps",
    "outcome", "description", "notes",
}
#: besides these, a file may hold inline card data: the top-level tables of its game's card file
#: (``Game.card_tables``: By All Means' ``[[card]]``, War of Shadows' ``[[board]]``...)
_STEP_KEYS = {"actor", "intent", "expect", "state", "contains", "view", "note", "comment"}


@dataclass
class Failure:
    step: int | None  # 1-based; None for the file itself or the outcome
    what: str
    #: the template and values ``what`` was said through, if it was (read in the reader's language by :meth:`text`)
    said: tuple[str, dict[str, Any]] | None = None

    def render(self, path: str) -> str:
        where = f"step {self.step}" if self.step is not None else "file"
        return f"{path}: {where}: {self.what}"

    def text(self, path: str, gettext: Any) -> str:
        """:meth:`render` in the reader's language, through ``gettext`` (:func:`referee.i18n.gettext`): what
        was said through the catalog reads in it, the rest (a state check's finding) as :attr:`what`."""
        what = self.what if self.said is None else read(self.said, gettext)
        if self.step is None:
            return str(gettext(N_("{path}: file: {what}"), path=path, what=what))
        return str(gettext(N_("{path}: step {step}: {what}"), path=path, step=self.step, what=what))

    @classmethod
    def of(cls, step: int | None, template: str, /, **values: Any) -> Failure:
        """A failure whose ``what`` is said through ``template`` (marked ``N_``) filled with ``values``."""
        return cls(step, template.format(**values), (template, values))


@dataclass
class ScenarioResult:
    path: str
    title: str
    steps: int
    failures: list[Failure] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


class ScenarioError(ValueError):
    """A scenario file refused for its shape: the message names the file and what is wrong in it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        #: the catalog template the message was said through and its values (:meth:`said`), if it was
        self.template: tuple[str, dict[str, Any]] | None = None

    @classmethod
    def said(cls, template: str, /, **values: Any) -> ScenarioError:
        """The error, its English message ``template`` (marked ``N_``) filled with ``values``."""
        err = cls(template.format(**values))
        err.template = (template, values)
        return err


_MISSING = object()


def resolve_path(data: Any, path: str) -> Any:
    """Follow a dotted path into view data; numbers index lists (from 0) or name keys."""
    node = data
    for part in path.split("."):
        if isinstance(node, dict):
            if part in node:
                node = node[part]
                continue
            return _MISSING
        if isinstance(node, list) and part.lstrip("-").isdigit():
            i = int(part)
            if -len(node) <= i < len(node):
                node = node[i]
                continue
        return _MISSING
    return node


def _same(expected: Any, actual: Any) -> bool:
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and _same(v, actual[k]) for k, v in expected.items()
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(expected) == len(actual)
            and all(_same(e, a) for e, a in zip(expected, actual))
        )
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    return bool(expected == actual)


def _show(value: Any) -> str:
    if value is _MISSING:
        return Said(N_("(no such path)"))
    return msgspec.json.encode(value).decode()


def _phrase(failure: Failure) -> str:
    """A failure's finding as a phrase of another (:class:`~referee.engine.speech.Said` when it was said)."""
    return failure.what if failure.said is None else Said(failure.said[0], **failure.said[1])


def _hashable(value: Any) -> Any:
    return msgspec.json.encode(value, order="sorted")


def _check_state(view: dict[str, Any], table: dict[str, Any], step: int | None) -> list[Failure]:
    out = []
    for path, raw in table.items():
        expected = null_to_none(raw)
        actual = resolve_path(view, path)
        if actual is _MISSING or not _same(expected, actual):
            out.append(Failure.of(step, N_("{path}: expected {expected}, got {actual}"), path=path,
                                  expected=_show(expected), actual=_show(actual)))
    return out


def _check_contains(view: dict[str, Any], table: dict[str, Any], step: int | None) -> list[Failure]:
    out = []
    for path, items in table.items():
        actual = resolve_path(view, path)
        if not isinstance(actual, list):
            out.append(Failure.of(step, N_("{path}: expected a list containing {items}, got {actual}"), path=path,
                                  items=_show(items), actual=_show(actual)))
            continue
        want = Counter(_hashable(null_to_none(i)) for i in (items if isinstance(items, list) else [items]))
        have = Counter(_hashable(a) for a in actual)
        missing = want - have
        if missing:
            out.append(Failure.of(step, N_("{path}: expected to contain {items}, got {actual}"), path=path,
                                  items=_show(items), actual=_show(actual)))
    return out


def load(path: str, referee: Referee) -> dict[str, Any]:
    """A scenario file's tables, checked for shape (the game named in it must be registered)."""
    try:
        data = parse_toml(read_file(path, "scenario file", SCENARIO_MAX), path, one_line=False)
    except RefereeError as exc:
        refused = ScenarioError(exc.message)
        refused.template = exc.kept()
        raise refused from None
    for key in ("game", "players"):
        if key not in data:
            raise ScenarioError.said(N_("{path}: missing required key {key}"), path=path, key=repr(key))
    try:
        game = referee.game(str(data["game"]))
    except RefereeError as exc:
        raise ScenarioError.said(N_("{path}: {problem}"), path=path, problem=again(exc.message, exc.kept())) from None
    allowed = _TOP_KEYS | set(game.card_tables)
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ScenarioError.said(N_("{path}: unknown key(s) {keys}; expected: {allowed}"), path=path,
                                 keys=", ".join(unknown), allowed=", ".join(sorted(allowed)))
    if not isinstance(data["players"], list) or not all(isinstance(p, str) for p in data["players"]):
        raise ScenarioError.said(N_("{path}: players must be a list of names, e.g. players = [\"alice\", \"bob\"]"),
                                 path=path)
    for i, step in enumerate(data.get("steps", []), start=1):
        if not isinstance(step, dict):
            raise ScenarioError.said(N_("{path}: step {step} must be a table ([[steps]])"), path=path, step=i)
        missing = [k for k in ("actor", "intent") if k not in step]
        if missing:
            raise ScenarioError.said(N_("{path}: step {step} is missing {keys}"), path=path, step=i,
                                     keys=", ".join(missing))
        bad = sorted(set(step) - _STEP_KEYS)
        if bad:
            raise ScenarioError.said(N_("{path}: step {step} has unknown key(s) {keys}"), path=path, step=i,
                                     keys=", ".join(bad))
    return data


def _cards_text(referee: Referee, data: dict[str, Any], base_dir: str) -> tuple[str | None, str | None]:
    """The card set named by ``cards`` with the file's inline card tables merged over it, table by
    table as the game's card schema says (``Game.card_tables``): an entry of a keyed array replaces
    the entry with the same key and the others are kept; an unkeyed array replaces the whole table;
    a table's fields override the set's. The game then checks the result as it checks any card file."""
    game = referee.game(data["game"])
    inline = {k: data[k] for k in game.card_tables if k in data}
    if not inline:
        return data.get("cards"), None
    base: dict[str, Any] = {}
    if data.get("cards") is not None or game.default_card_set is not None:
        _name, text = referee.read_card_set(game, data.get("cards"), base_dir)
        base = load_toml(text) if text else {}
    merged = dict(base)
    for table, value in inline.items():
        key, old = game.card_tables[table], base.get(table)
        if isinstance(value, dict) and isinstance(old, dict):
            merged[table] = {**old, **value}
        elif key and isinstance(value, list) and isinstance(old, list):
            given = {entry.get(key) for entry in value if isinstance(entry, dict)}
            merged[table] = [e for e in old if not (isinstance(e, dict) and e.get(key) in given)] + value
        else:
            merged[table] = value
    return data.get("cards") or "inline", tomlw.dumps(merged)


def run_file(path: str, games: Any = None) -> ScenarioResult:
    referee = Referee(MemoryStore(), games=games, clock=lambda: "")
    try:
        data = load(path, referee)
    except ScenarioError as exc:
        return ScenarioResult(path, "", 0, [Failure(None, str(exc), exc.template)])
    title = str(data.get("title", os.path.basename(path)))
    steps = data.get("steps", [])
    result = ScenarioResult(path, title, len(steps))
    base_dir = os.path.dirname(os.path.abspath(path))
    try:
        cards, cards_text = _cards_text(referee, data, base_dir)
        game, config = referee.build_config(
            data["game"],
            data["players"],
            options=data.get("options", {}),
            cards=cards,
            cards_text=cards_text,
            decks=data.get("decks", {}),
            # a scenario is reproducible: a digital one without a seed uses 0, not a secret one
            seed=data.get("seed", 0 if data.get("chance") == "digital" else None),
            chance=data.get("chance"),
            position=data.get("position", {}),
            base_dir=base_dir,
        )
        match = referee.create_match(game, config, title=title, match_id="scenario")
    except (RefereeError, tomllib.TOMLDecodeError) as exc:
        problem = again(exc.message, exc.kept()) if isinstance(exc, RefereeError) else str(exc)
        result.failures.append(Failure.of(None, N_("cannot set up the match: {problem}"), problem=problem))
        return result
    for number, step in enumerate(steps, start=1):
        expect = str(step.get("expect", "accepted"))
        try:
            res = referee.submit(match.id, str(step["actor"]), str(step["intent"]))
        except RefereeError as exc:
            result.failures.append(Failure.of(number, N_("intent {intent} was refused as input ({code}): {problem}"),
                                              intent=repr(step["intent"]), code=exc.code,
                                              problem=again(exc.message, exc.kept())))
            return result
        got = "accepted" if res.accepted else "held" if res.held else f"rejected:{res.verdict.code}"  # type: ignore[union-attr]
        ok = got == expect or (expect == "rejected" and got.startswith("rejected:"))
        if not ok:
            if isinstance(res.verdict, Rejected):  # the game's reason in the reader's language, through its templates
                why = Quoted(match.game, res.verdict.code, res.verdict.message)
                result.failures.append(Failure.of(number, N_("{intent}: expected {expect}, got {got} ({why})"),
                                                  intent=repr(step["intent"]), expect=expect, got=got, why=why))
            else:
                result.failures.append(Failure.of(number, N_("{intent}: expected {expect}, got {got}"),
                                                  intent=repr(step["intent"]), expect=expect, got=got))
            return result
        if "state" in step or "contains" in step:
            view = referee.show(match.id).state
            result.failures += _check_state(view, step.get("state", {}), number)
            result.failures += _check_contains(view, step.get("contains", {}), number)
        views = step.get("view", {})
        if not isinstance(views, dict):
            result.failures.append(Failure.of(number, N_("view must be a table of roles ([steps.view.alice])")))
            return result
        for role, paths in views.items():
            # [steps.view.<seat>]: dotted paths into what that seat (or the spectator) sees
            try:
                seen = referee.show(match.id, seat=role).state
            except RefereeError as exc:
                result.failures.append(Failure.of(number, N_("view.{role}: {problem}"), role=role,
                                                  problem=again(exc.message, exc.kept())))
                continue
            result.failures += [Failure.of(f.step, N_("view.{role}: {problem}"), role=role, problem=_phrase(f))
                                for f in _check_state(seen, paths, number)]
        if result.failures:
            return result
    if "outcome" in data:
        want = data["outcome"]
        ended = referee.show(match.id).outcome
        got_outcome = None if ended is None else msgspec.to_builtins(ended)
        if got_outcome is None:
            result.failures.append(Failure.of(None, N_("outcome: expected {want}, but the game is not over"),
                                              want=_show(want)))
        else:
            if "winners" in want and sorted(want["winners"]) != sorted(got_outcome["winners"]):
                result.failures.append(
                    Failure.of(None, N_("{path}: expected {expected}, got {actual}"), path="outcome.winners",
                               expected=_show(want["winners"]), actual=_show(got_outcome["winners"]))
                )
            if "reason" in want and want["reason"] != got_outcome["reason"]:
                result.failures.append(
                    Failure.of(None, N_("{path}: expected {expected}, got {actual}"), path="outcome.reason",
                               expected=repr(want["reason"]), actual=repr(got_outcome["reason"]))
                )
            kind = got_outcome.get("kind") or ("win" if got_outcome["winners"] else "draw")
            if "kind" in want and want["kind"] != kind:
                result.failures.append(Failure.of(None, N_("{path}: expected {expected}, got {actual}"),
                                                  path="outcome.kind", expected=repr(want["kind"]), actual=repr(kind)))
            if "ranking" in want:
                # places in order; seats tied on a place compare as a set
                wanted = [sorted(p if isinstance(p, list) else [p]) for p in want["ranking"]]
                got_ranking = [sorted(p) for p in got_outcome.get("ranking") or []]
                if wanted != got_ranking:
                    result.failures.append(Failure.of(None, N_("{path}: expected {expected}, got {actual}"),
                                                      path="outcome.ranking", expected=_show(wanted),
                                                      actual=_show(got_ranking)))
            if "scores" in want and not _same(want["scores"], got_outcome.get("scores") or {}):
                result.failures.append(
                    Failure.of(None, N_("{path}: expected {expected}, got {actual}"), path="outcome.scores",
                               expected=_show(want["scores"]), actual=_show(got_outcome.get("scores"))))
    return result


def expand(paths: list[str]) -> list[str]:
    """Files as given; a directory stands for every ``*.toml`` below it, sorted."""
    out: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            for root, _dirs, files in sorted(os.walk(p)):
                out.extend(os.path.join(root, f) for f in sorted(files) if f.endswith(".toml"))
        else:
            out.append(p)
    return out
