"""A game's rulebook sections in two languages, as data, and a refusal's citation read in English.

A refusal cites the rulebook as the game recorded it: its sections' numbers and, where the printed
rulebook has one, the heading as it prints it, in Russian (``§4.7 «ФАЗА АГЕНТОВ», Этап 2``). That text is
part of the log (its hashes cover it, an audit compares it), so it never changes. An English sentence
shows the same citation with every heading in English (``§4.7 Agent phase, step 2``), a section cited by
its number alone named too (``R35 Cleanup phase``); the machine-readable answer keeps the citation as
recorded and lists each section it names with both headings (:class:`schemas.RuleSection`).

Each game declares one table, :class:`Rulebook`: a row per section it cites — the number, the heading in
English, the heading in Russian as printed — and the few Russian words a citation uses outside its
headings (``Этап`` -> ``step``). A section may be cited under two headings (its own and one of its
paragraphs': two rows with the same number), and two sections under one heading."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from schemas import RuleSection

#: a section as a citation numbers it: the rulebook's §4.7 (or a span §4.16–4.17), a rules spec's R35 or R-AGENTS
_NUMBER = re.compile(r"§\d+(?:\.\d+)*(?:–\d+(?:\.\d+)*)?|\bR\d{2}\b|\bR-[A-Z]+(?:-[A-Z]+)*\b")
#: a heading as the rulebook prints it, in guillemets
_HEADING = re.compile(r"«([^«»]*(?:«[^«»]*»[^«»]*)*)»")


class Rulebook:
    """One game's table of the sections its refusals cite: ``rows`` of (number, English, Russian), and
    ``words``: the Russian words its citations use outside the headings, in English."""

    def __init__(self, rows: Iterable[tuple[str, str, str]] = (), words: Mapping[str, str] | None = None) -> None:
        self.rows = tuple(RuleSection(section=n, english=en, russian=ru) for n, en, ru in rows)
        self.words = dict(words or {})
        self._by_russian: dict[str, RuleSection] = {}
        self._by_number: dict[str, RuleSection] = {}
        for row in self.rows:
            if row.russian:
                self._by_russian.setdefault(row.russian, row)
            self._by_number.setdefault(row.section, row)

    def english(self, rule: str) -> str:
        """``rule`` as an English sentence cites it: each heading in English, each section cited by its
        number alone followed by its English heading, the table's words in English. What the table does
        not know is left as recorded."""
        if not rule:
            return rule
        out = _NUMBER.sub(lambda m: self._named(m, rule), rule)
        out = _HEADING.sub(lambda m: self._by_russian[m.group(1)].english if m.group(1) in self._by_russian
                           else m.group(0), out)
        for russian, english in self.words.items():
            out = out.replace(russian, english)
        return out

    def russian(self, rule: str) -> str:
        """``rule`` as a Russian sentence cites it: as recorded (its headings are the rulebook's own), each
        section cited by its number alone followed by its Russian heading where the rulebook prints one."""
        if not rule:
            return rule
        return _NUMBER.sub(lambda m: self._named(m, rule, russian=True), rule)

    def _named(self, m: re.Match[str], text: str, russian: bool = False) -> str:
        """A section's number, with its English heading after it when the citation gives none."""
        row = self._by_number.get(m.group(0))
        if row is None or text[m.end():].lstrip().startswith("«") or f"«{row.russian}»" in text:
            return m.group(0)  # unknown, or its heading follows or is given elsewhere in the citation itself
        heading = row.russian if russian else row.english
        return f"{m.group(0)} {heading}" if heading else m.group(0)

    def sections(self, rule: str) -> tuple[RuleSection, ...]:
        """Every section ``rule`` names, in the order it names them, each with both headings: a heading
        given in the citation, as the section of that number with that heading (else the first with it);
        a number given alone, as its row."""
        found: list[tuple[int, RuleSection]] = []
        for m in _HEADING.finditer(rule):
            before = [n for n in _NUMBER.finditer(rule, 0, m.start())]
            number = before[-1].group(0) if before else ""
            row = next((r for r in self.rows if r.russian == m.group(1) and r.section == number),
                       self._by_russian.get(m.group(1)))
            if row is not None:
                found.append((m.start(), row))
        for m in _NUMBER.finditer(rule):
            row = self._by_number.get(m.group(0))
            if row is not None and not any(r.section == row.section for _, r in found):
                found.append((m.start(), row))
        seen: list[RuleSection] = []
        for _, row in sorted(found, key=lambda item: item[0]):
            if row not in seen:
                seen.append(row)
        return tuple(seen)


#: a game that declares no table: citations are shown as recorded
NO_RULEBOOK = Rulebook()
