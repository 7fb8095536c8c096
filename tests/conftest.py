import json
import os
import shutil
import sqlite3
import sys
import tempfile
import zlib

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

# the tests read English: a developer's Russian locale (LANG=ru_RU...) must not choose the CLI's language
# for them (tests/test_i18n.py sets the language it reads)
os.environ["REFEREE_LANG"] = "en"
# the tests' stores commit without waiting for the disk (REFEREE_DURABILITY=normal: SQLite's synchronous=NORMAL,
# PostgreSQL's synchronous_commit=off), they and the processes they start: at the default, FULL, every SQLite
# commit is an fsync, 1 to 15 ms on this machine's ext4 under load, thousands a run. A process killed keeps
# what it committed either way (only a crash of the machine tells them apart); tests/test_durability.py, which
# tests the default and the setting, sets or clears the variable itself. Set it to run the suite at FULL.
os.environ.setdefault("REFEREE_DURABILITY", "normal")


def pytest_configure(config):
    """Compile the project's sources once, before the workers start: where PYTHONDONTWRITEBYTECODE is set
    (as on this project's CI machine) no process writes bytecode, so every CLI subprocess a test starts
    would compile them again (about 10% of the subprocess-heavy tests' CPU). compileall writes it anyway,
    into the usual __pycache__ folders; a source changed later is compiled afresh by the import system."""
    from support import pg

    if hasattr(config, "workerinput"):
        pg.TEMPLATE = config.workerinput.get("referee_pg_template")
        return
    pg.TEMPLATE = tempfile.mkdtemp(prefix="referee-pg-template-")  # one initdb a run (support/pg.py)
    import compileall

    for top in ("referee", "cli", "schemas"):
        compileall.compile_dir(os.path.join(ROOT, top), quiet=2)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """Each xdist worker's PostgreSQL servers copy the run's one cluster (support.pg.TEMPLATE)."""
    from support import pg

    node.workerinput["referee_pg_template"] = pg.TEMPLATE


def pytest_unconfigure(config):
    from support import pg

    if not hasattr(config, "workerinput") and pg.TEMPLATE:
        shutil.rmtree(pg.TEMPLATE, ignore_errors=True)


@pytest.hookimpl(wrapper=True)
def pytest_collection(session):
    """Keep the test modules with their asserts rewritten: pytest caches a rewritten module
    (tests/**/__pycache__/*-pytest-*.pyc, git ignores them) only where bytecode may be written, so with
    PYTHONDONTWRITEBYTECODE set (as on this project's machine and CI) every worker rewrote and compiled
    every test module on every run (~8 s of CPU a worker, most of its collection). Allowed while the
    modules are collected only, so the tests run as the environment says."""
    before = sys.dont_write_bytecode
    sys.dont_write_bytecode = False
    try:
        return (yield)
    finally:
        sys.dont_write_bytecode = before


class Result:
    def __init__(self, code, out, err):
        self.code, self.out, self.err = code, out, err

    @property
    def json(self):
        return json.loads(self.out)

    @property
    def last_line(self):
        return self.out.strip().splitlines()[-1]


@pytest.fixture
def cli(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("REFEREE_DB", str(tmp_path / "r.db"))
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.chdir(tmp_path)

    def call(*args):
        from cli.main import run

        capsys.readouterr()
        try:
            run([str(a) for a in args])
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err
        assert code != 70, err
        return Result(code, out, err)

    return call


def dump(path) -> list[str]:
    if not os.path.exists(path):
        return []
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


# -- property tests: fewer examples in a local run, every one in CI (issue 28) ----------------------------

#: ``ci`` (``.ci/run`` sets it): a property test tries the examples it names; anything else, a fifth
EXAMPLES_ENV = "REFEREE_HYPOTHESIS"


def examples(ci: int) -> int:
    """How many examples a property test that names ``ci`` tries in this run: ``ci`` under
    ``REFEREE_HYPOTHESIS=ci``, else a fifth of it (at least 20): the quick loop still draws from the
    same strategies, CI looks further."""
    mode = os.environ.get(EXAMPLES_ENV, "")
    if mode not in ("", "ci"):
        raise pytest.UsageError(f"{EXAMPLES_ENV}={mode!r} is not understood: expected 'ci' or nothing")
    return ci if mode == "ci" else max(ci // 5, 20)


# -- PostgreSQL (issue 18): one throw-away server a session, a fresh database a test -----------------


@pytest.fixture(scope="session")
def pg_server():
    from support.pg import REQUIRE_ENV, Server

    server = Server()
    why = server.why_not()
    if why is not None:
        if os.environ.get(REQUIRE_ENV):
            pytest.fail(f"PostgreSQL is required here ({REQUIRE_ENV} is set) but cannot be had: {why}")
        pytest.skip(f"PostgreSQL tests skipped: {why}")
    try:
        server.start()
    except Exception as exc:  # noqa: BLE001 - whatever stops it, say what
        server.stop()
        if os.environ.get(REQUIRE_ENV):
            pytest.fail(f"PostgreSQL is required here ({REQUIRE_ENV} is set) but did not start: {exc}")
        pytest.skip(f"PostgreSQL tests skipped: the test server did not start: {exc}")
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server):
    """The URL of a new PostgreSQL database, its referee schema created."""
    return pg_server.fresh()


# -- both backends (issue 18): the one mechanism the service, store and HTTP tests run on each with ------

#: the stores a hall can keep its log in (test ids: ``test_x[sqlite]``, ``test_x[postgres]``)
BACKENDS = ("sqlite", "postgres")

#: which PostgreSQL variants of the ``db``/``module_db``/``db_store`` tests run: ``sample`` (the default)
#: or ``all`` (CI: ``.ci/run`` sets it)
PG_TESTS_ENV = "REFEREE_PG_TESTS"
#: in a sampled run, one test in this many (by a CRC of its name) runs on PostgreSQL as well
PG_SAMPLE = 4


def _pg_variant(item: pytest.Item) -> bool:
    params = getattr(getattr(item, "callspec", None), "params", {})
    return "postgres" in (params.get("db"), params.get("module_db"))


def _sampled(item: pytest.Item, first_of_module: bool) -> bool:
    if first_of_module or item.get_closest_marker("both_backends") is not None:
        return True
    return zlib.crc32(item.nodeid.replace("postgres", "").encode()) % PG_SAMPLE == 0


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The second backend's cost (issue 28): every test that takes ``db``, ``module_db`` or ``db_store``
    runs on SQLite; on PostgreSQL run those marked ``both_backends`` (live streams over LISTEN/NOTIFY,
    several servers), the first of each module and one in :data:`PG_SAMPLE` of the others (a CRC of the
    test's name: the same ones every run, on every machine and xdist worker). The rest of the PostgreSQL
    variants are deselected (pytest counts them), unless ``REFEREE_PG_TESTS=all``. Tests that take
    ``pg_url`` or ``pg_server`` themselves (the store contract suite, the outage and kill tests) always
    run on PostgreSQL."""
    mode = os.environ.get(PG_TESTS_ENV, "sample")
    if mode not in ("sample", "all"):
        raise pytest.UsageError(f"{PG_TESTS_ENV}={mode!r} is not understood: expected 'sample' (the default) or 'all'")
    if mode == "all":
        return
    keep: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    seen: set[str] = set()
    for item in items:
        if not _pg_variant(item):
            keep.append(item)
            continue
        module = item.nodeid.split("::", 1)[0]
        (keep if _sampled(item, module not in seen) else dropped).append(item)
        seen.add(module)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep


def fresh_db(request, directory) -> str:
    """Where a test's hall keeps its log, for the backend ``request.param`` names: a SQLite file not yet
    written, or a new empty PostgreSQL database (a schema of its own on the session's throw-away server:
    ~10 ms; the store creates the referee's tables when it opens it, as it creates the SQLite file)."""
    if request.param == "postgres":
        return request.getfixturevalue("pg_server").fresh(empty=True)
    return str(directory / "r.db")


@pytest.fixture(params=BACKENDS)
def db(request, tmp_path) -> str:
    """A fresh database on each backend: a test that takes it runs once on SQLite, once on PostgreSQL."""
    return fresh_db(request, tmp_path)


@pytest.fixture(scope="module", params=BACKENDS)
def module_db(request, tmp_path_factory) -> str:
    """:func:`db` for a module's shared fixtures (a live server the module's tests share)."""
    return fresh_db(request, tmp_path_factory.mktemp("hall"))


@pytest.fixture
def db_store(db):
    """An open store on :func:`db` (closed after the test)."""
    from referee.store import open_store

    store = open_store(db)
    yield store
    store.close()


@pytest.fixture
def english(monkeypatch):
    """No language asked for (``REFEREE_LANG`` and the locale's variables unset); the process's language is
    English again afterwards. The i18n tests read the choice from this clean slate."""
    from referee import i18n

    for name in ("REFEREE_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    yield
    i18n.use("en")


@pytest.fixture(autouse=True)
def _english_between_tests():
    """Every test starts in English, whatever the one before it chose (``i18n.use`` is the process's
    language: a test that chose Russian and failed, or forgot to choose English again, must not change
    what the next test on that worker reads)."""
    yield
    import sys

    i18n = sys.modules.get("referee.i18n")
    if i18n is not None and i18n.current() != "en":
        i18n.use("en")
