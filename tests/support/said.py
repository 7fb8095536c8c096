"""The catalog templates the project's errors are said through (``X.said(code, N_("…{field}…"), field=…)``, a
store's ``StoreError.said(N_("…"), …)``), read from the sources: the i18n tests check that each call gives
every field its templates name (a field missing would be an internal error instead of the refusal)."""

from __future__ import annotations

import ast
import os
import string
from collections.abc import Iterable, Iterator

from conftest import ROOT
from support.sources import nodes


def said_calls(paths: Iterable[str]) -> Iterator[tuple[str, int, str, set[str | None]]]:
    """(file, line, template, the fields the call gives) of each template marked ``N_`` inside the positional
    arguments of a ``.said(...)`` call of the modules at ``paths`` (relative to the project's root); a call
    choosing between templates (``N_(a) if … else N_(b)``) yields each."""
    for path in paths:
        for node in nodes(os.path.join(ROOT, path)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "said":
                given = {k.arg for k in node.keywords}
                for arg in node.args:
                    for n in ast.walk(arg):
                        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "N_":
                            yield path, node.lineno, n.args[0].value, given


def fields(template: str) -> set[str]:
    """The names of the fields ``template`` formats (``{entry}``, ``{seat!r}``: entry, seat)."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def unfilled(calls: Iterable[tuple[str, int, str, set[str | None]]]) -> list[tuple[str, int, str]]:
    """The (file, line, template) of every call that does not give a field its template names (a call passing
    ``**values`` is taken to give them all)."""
    return [(path, line, template) for path, line, template, given in calls
            if None not in given and fields(template) - given]
