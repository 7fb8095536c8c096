"""Which PostgreSQL variants a run takes (issue 28, tests/conftest.py): by default the ones marked
``both_backends``, each module's first and a fixed one in four; with ``REFEREE_PG_TESTS=all`` every one;
any other value is refused. The SQLite variants and tests of one backend always run."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import conftest


class Item:
    """As much of a collected test as the hook reads."""

    def __init__(self, nodeid: str, backend: str | None, *, both: bool = False, fixture: str = "db") -> None:
        self.nodeid = nodeid
        if backend is not None:
            self.callspec = SimpleNamespace(params={fixture: backend})
        self._both = both

    def get_closest_marker(self, name: str) -> object | None:
        return object() if name == "both_backends" and self._both else None


def run(items: list[Item]) -> tuple[list[str], list[str]]:
    deselected: list[str] = []
    config = SimpleNamespace(hook=SimpleNamespace(pytest_deselected=lambda items: deselected.extend(i.nodeid for i in items)))
    kept = list(items)
    conftest.pytest_collection_modifyitems(config, kept)  # type: ignore[arg-type]
    return [i.nodeid for i in kept], deselected


def suite() -> list[Item]:
    items: list[Item] = []
    for module in ("tests/test_a.py", "tests/http/test_b.py"):
        for n in range(40):
            for backend in ("sqlite", "postgres"):
                items.append(Item(f"{module}::test_{n}[{backend}]", backend, fixture="module_db" if n % 2 else "db"))
    items.append(Item("tests/test_a.py::test_streams[postgres]", "postgres", both=True))
    items.append(Item("tests/test_a.py::test_plain", None))
    return items


def test_a_default_run_takes_every_sqlite_variant_and_a_fixed_sample_of_postgresql(monkeypatch):
    monkeypatch.delenv(conftest.PG_TESTS_ENV, raising=False)
    kept, dropped = run(suite())
    assert dropped and all(n.endswith("[postgres]") for n in dropped)
    assert all(n in kept for n in [i.nodeid for i in suite() if "[postgres]" not in i.nodeid])
    assert "tests/test_a.py::test_streams[postgres]" in kept  # marked both_backends
    assert "tests/test_a.py::test_0[postgres]" in kept and "tests/http/test_b.py::test_0[postgres]" in kept  # firsts
    sampled = [n for n in kept if "[postgres]" in n]
    assert 0 < len(sampled) < 40 and len(kept) + len(dropped) == len(suite())
    assert run(suite()) == (kept, dropped)  # the same every run


def test_all_takes_every_postgresql_variant(monkeypatch):
    monkeypatch.setenv(conftest.PG_TESTS_ENV, "all")
    kept, dropped = run(suite())
    assert dropped == [] and kept == [i.nodeid for i in suite()]


def test_an_unknown_value_is_refused_naming_what_is_expected(monkeypatch):
    monkeypatch.setenv(conftest.PG_TESTS_ENV, "most")
    with pytest.raises(pytest.UsageError, match=r"REFEREE_PG_TESTS='most' is not understood: expected 'sample'"):
        run(suite())


def test_a_property_test_tries_a_fifth_of_its_examples_locally_and_all_of_them_in_ci(monkeypatch):
    """conftest.examples: what .ci/run (REFEREE_HYPOTHESIS=ci) and a local run give a property test."""
    monkeypatch.delenv(conftest.EXAMPLES_ENV, raising=False)
    assert (conftest.examples(500), conftest.examples(150), conftest.examples(60)) == (100, 30, 20)
    monkeypatch.setenv(conftest.EXAMPLES_ENV, "ci")
    assert (conftest.examples(500), conftest.examples(150), conftest.examples(60)) == (500, 150, 60)
    monkeypatch.setenv(conftest.EXAMPLES_ENV, "more")
    with pytest.raises(pytest.UsageError, match=r"REFEREE_HYPOTHESIS='more' is not understood: expected 'ci'"):
        conftest.examples(500)
