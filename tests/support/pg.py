"""A throw-away PostgreSQL server for the tests: the system's binaries, a temporary directory, a free
local port, started once per session and stopped after; each test gets a database of its own.

PostgreSQL refuses to run as root: as root the server runs as the ``postgres`` system user (``runuser``).
Where no PostgreSQL can be had, :func:`unavailable` says why and the tests skip saying so; with
``REFEREE_REQUIRE_POSTGRES`` set (CI sets it) they fail instead.
"""

from __future__ import annotations

import fcntl
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time

REQUIRE_ENV = "REFEREE_REQUIRE_POSTGRES"
#: a folder where the servers of one test run keep the database cluster that one ``initdb`` made, which each
#: server copies (tests/conftest.py sets it for a run, the same for every xdist worker; None: each runs initdb)
TEMPLATE: str | None = None


def _bindir() -> str | None:
    found = shutil.which("pg_ctl")
    if found:
        return os.path.dirname(found)
    dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda d: int(d.split("/")[-2]) if d.split("/")[-2].isdigit() else 0)
    return dirs[-1] if dirs else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self) -> None:
        self.bindir = _bindir()
        self.dir = ""
        self.port = 0
        #: as root, the server runs as this unprivileged user
        self.user: str | None = "postgres" if os.geteuid() == 0 else None
        self._names = itertools.count(1)
        self._opts = ""
        self.admin: object = None
        #: a connection to the database whose schemas the tests' databases are
        self._shared: object = None

    def why_not(self) -> str | None:
        try:
            import psycopg  # noqa: F401
        except ImportError:
            return "psycopg 3 is not installed (pip install '.[postgres]')"
        if self.bindir is None:
            return "no PostgreSQL binaries (pg_ctl, initdb) found: install the postgresql package"
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                return "running as root and there is no unprivileged 'postgres' user to run the server as"
            if shutil.which("runuser") is None:
                return "running as root and runuser is missing"
        return None

    def _cmd(self, *args: str) -> list[str]:
        return ["runuser", "-u", self.user, "--", *args] if self.user else list(args)

    def start(self, *, durable: bool = False) -> None:
        """Start the server: for tests without fsync (nothing here must survive a crash); ``durable``
        (benchmarks) as a production server commits, each commit flushed to disk."""
        assert self.bindir is not None
        self.dir = tempfile.mkdtemp(prefix="referee-pg-")
        data = os.path.join(self.dir, "data")
        if self.user:
            entry = pwd.getpwnam(self.user)
            os.chown(self.dir, entry.pw_uid, entry.pw_gid)
        os.chmod(self.dir, 0o700)
        if TEMPLATE is None:
            self._initdb(data)
        else:  # a copy of the run's one initdb (~0.1 s of CPU, initdb ~1 s)
            self._template(TEMPLATE)
            subprocess.run(self._cmd("cp", "-a", os.path.join(TEMPLATE, "data"), data), check=True, capture_output=True)
        for attempt in range(5):
            self.port = _free_port()
            speed = "" if durable else "-c fsync=off -c full_page_writes=off "
            opts = (f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 {speed}"
                    f"-c shared_buffers={'128MB' if durable else '16MB'} -c max_connections=300")
            started = subprocess.run(
                self._cmd(f"{self.bindir}/pg_ctl", "-D", data, "-o", opts, "-l", os.path.join(self.dir, "log"),
                          "-w", "-t", "30", "start"), capture_output=True)
            if started.returncode == 0:
                self._opts = opts
                break
        else:
            raise RuntimeError(f"PostgreSQL did not start: {started.stderr.decode(errors='replace')}")
        import psycopg

        self.admin = psycopg.connect(self.url("postgres"), autocommit=True)

    def _initdb(self, data: str) -> None:
        subprocess.run(self._cmd(f"{self.bindir}/initdb", "-D", data, "-A", "trust", "-U", "postgres", "--no-sync",
                                 "-E", "UTF8", "--locale=C"), check=True, capture_output=True)

    def _template(self, folder: str) -> None:
        """The cluster :data:`TEMPLATE` names, made by the first server of the run to need it (of any
        worker: the others wait on its lock file)."""
        os.makedirs(folder, exist_ok=True)
        if self.user:
            entry = pwd.getpwnam(self.user)
            os.chown(folder, entry.pw_uid, entry.pw_gid)
        with open(os.path.join(folder, "lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not os.path.exists(os.path.join(folder, "done")):
                shutil.rmtree(os.path.join(folder, "data"), ignore_errors=True)  # a run that stopped midway
                self._initdb(os.path.join(folder, "data"))
                open(os.path.join(folder, "done"), "w").close()

    def halt(self) -> None:
        """Stop the server as an administrator would (``pg_ctl stop -m fast``: sessions are cut, the data
        stays); :meth:`restart` starts it again on the same port. (The admin connection goes with it.)"""
        if self.admin is not None:
            self.admin.close()  # type: ignore[attr-defined]
            self.admin = None
        subprocess.run(self._cmd(f"{self.bindir}/pg_ctl", "-D", os.path.join(self.dir, "data"), "-m", "fast", "-w",
                                 "stop"), check=True, capture_output=True)

    def restart(self) -> None:
        subprocess.run(self._cmd(f"{self.bindir}/pg_ctl", "-D", os.path.join(self.dir, "data"), "-o", self._opts, "-l",
                                 os.path.join(self.dir, "log"), "-w", "-t", "30", "start"), check=True, capture_output=True)

    def url(self, db: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{db}"

    def fresh(self, *, empty: bool = False) -> str:
        """The URL of a new database of the referee's own (a schema of a shared database, which costs far
        less than a database: the URL's search_path names it): migrated, or ``empty``."""
        import psycopg

        if self._shared is None:
            self.admin.execute("CREATE DATABASE referee_tests")  # type: ignore[attr-defined]
        if self._shared is None or self._shared.closed:  # type: ignore[attr-defined]
            # (a test that terminates every backend of the database closes this one too)
            self._shared = psycopg.connect(self.url("referee_tests"), autocommit=True)
        name = f"t{os.getpid()}_{next(self._names)}"
        try:
            self._shared.execute(f"CREATE SCHEMA {name}")  # type: ignore[attr-defined]
        except psycopg.OperationalError:
            self._shared = psycopg.connect(self.url("referee_tests"), autocommit=True)
            self._shared.execute(f"CREATE SCHEMA {name}")
        url = f"{self.url('referee_tests')}?options=-csearch_path%3D{name}"
        if not empty:
            from referee.store.postgres import PostgresStore

            PostgresStore(url).close()
        return url

    def stop(self) -> None:
        if self._shared is not None:
            self._shared.close()  # type: ignore[attr-defined]
        if self.admin is not None:
            self.admin.close()  # type: ignore[attr-defined]
        if self.dir and self.bindir:
            subprocess.run(self._cmd(f"{self.bindir}/pg_ctl", "-D", os.path.join(self.dir, "data"), "-m", "immediate",
                                     "-w", "stop"), capture_output=True)
            time.sleep(0.05)
            shutil.rmtree(self.dir, ignore_errors=True)


def dump(url: str) -> list[tuple[str, list[tuple[object, ...]]]]:
    """Every row of every table of the referee's database at ``url``, in a stable order: what a test
    compares to show that nothing was written."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        tables = [r[0] for r in conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1")]
        return [(t, sorted(conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr)) for t in tables]  # type: ignore[arg-type]
