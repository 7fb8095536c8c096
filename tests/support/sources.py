"""The project's sources read and parsed once a process, for the tests that check them (tests/test_layering.py,
tests/test_decider_vocabulary.py: a few hundred modules, each walked a dozen times; a parse is ~5 ms). The
tests that use it run on one xdist worker (their xdist_group, "layering"), so a run parses each source once."""

from __future__ import annotations

import ast
import functools
import os


def source(path: str) -> tuple[str, ast.Module, tuple[ast.AST, ...]]:
    """A module's text, its tree and every node of it in ``ast.walk``'s order (read again if the file has
    changed since: a test's own scratch modules)."""
    stat = os.stat(path)
    return _parsed(path, stat.st_mtime_ns, stat.st_size)


@functools.cache
def _parsed(path: str, _mtime: int, _size: int) -> tuple[str, ast.Module, tuple[ast.AST, ...]]:
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    tree = ast.parse(text, path)
    return text, tree, tuple(ast.walk(tree))


def nodes(path: str) -> tuple[ast.AST, ...]:
    return source(path)[2]
