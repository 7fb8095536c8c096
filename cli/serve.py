"""``referee serve``: the HTTP service (Litestar on uvicorn) over the CLI's database (a SQLite file or a
PostgreSQL URL).

Imported only by the ``serve`` command, so that ``referee play`` never loads Litestar or uvicorn.
"""

from __future__ import annotations

import os
import sys
from typing import Any
from referee.engine.codes import StoreCode
from referee.i18n import N_, gettext, ngettext


def app() -> Any:
    """The app over the database named by ``REFEREE_SERVE_DB`` (what each worker process builds)."""
    import threading

    from referee.http import create_app
    from referee.service import Referee
    from referee.store import Store, open_store
    from referee.store.postgres import PostgresStore, is_url

    db = os.environ["REFEREE_SERVE_DB"]
    every = os.environ.get("REFEREE_SNAPSHOT_EVERY", "")
    snapshot_every = int(every) if every.isdigit() else None
    shared: list[Store] = []
    lock = threading.Lock()

    def store() -> Store:
        if not is_url(db):
            return open_store(db)  # one SQLite connection per worker thread
        with lock:  # PostgreSQL: one pool of connections for the process, shared by its threads
            if not shared:
                shared.append(PostgresStore(db, pool=int(os.environ.get("REFEREE_PG_POOL", "") or 16)))
            return shared[0]

    def referee() -> Referee:
        # one Referee per worker thread
        return Referee(store()) if snapshot_every is None else Referee(store(), snapshot_every=snapshot_every)

    return create_app(referee, admin_token=os.environ.get("REFEREE_ADMIN_TOKEN") or None,
                      keepalive=_seconds("REFEREE_STREAM_KEEPALIVE", 15.0),
                      listen_poll=_seconds("REFEREE_LISTEN_POLL", 10.0))


def _seconds(name: str, default: float) -> float:
    """A live-stream interval from the environment, in seconds (unset or empty: ``default``); anything but
    a positive number stops ``serve`` naming the variable."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0 < value <= 86400:
        from referee.engine.codes import InputCode
        from referee.errors import BadInput

        raise BadInput.said(InputCode.BAD_ARGUMENT, N_("{name} must be a number of seconds (0 < seconds <= 86400), not "
                                                       "{raw!r}; unset it for the default, {default:g} s"),
                            name=name, raw=raw[:40], default=default)
    return value


def serve(host: str, port: int, db: str, *, workers: int = 1, log_level: str = "info",
          durability: str | None = None) -> None:
    """Serve the referee on ``host:port`` over ``db`` (a SQLite file or a PostgreSQL URL) until interrupted.

    ``workers`` > 1 runs that many processes on one socket (more throughput on more cores; a live
    stream is woken by another process's appends over SQLite within 50 ms, each process watching the
    file, and over PostgreSQL at once, by LISTEN/NOTIFY). ``REFEREE_ADMIN_TOKEN``, if set, guards the list of all
    matches."""
    import uvicorn

    from referee.errors import StorageError
    from referee.store import StoreError
    from referee.store import open_store
    from referee.store.postgres import PostgresStore, is_url, shown
    from referee.store.sqlite import DURABILITY_ENV, durability_level

    level = durability_level(durability)  # a bad value is refused before anything starts
    _seconds("REFEREE_STREAM_KEEPALIVE", 15.0), _seconds("REFEREE_LISTEN_POLL", 10.0)  # likewise
    try:
        store = open_store(db, durability=level)  # create and migrate the database before the first request
        power = store.may_alter() if isinstance(store, PostgresStore) else None
        store.close()
    except StoreError as exc:
        raise StorageError(StoreCode.UNAVAILABLE, str(exc)) from None
    if power is not None:
        print(gettext("referee: warning: {power}, so this server could switch the log's append-only triggers off; run "
                      "it as a role that owns nothing (see the README's \"PostgreSQL roles\")", power=power),
              file=sys.stderr, flush=True)
    os.environ["REFEREE_SERVE_DB"] = db if is_url(db) else os.path.abspath(db)
    os.environ[DURABILITY_ENV] = level  # what each worker's stores commit at
    print(gettext("referee: serving {database} on http://{host}:{port} at durability {level} (API: "
                  "http://{host}:{port}/schema); Ctrl-C stops", database=shown(db), host=host, port=port, level=level),
          flush=True)
    # proxy headers are not read: the service uses no client address or scheme
    uvicorn.run("cli.serve:app", factory=True, host=host, port=port, workers=workers, log_level=log_level,
                access_log=False, proxy_headers=False, server_header=False, timeout_graceful_shutdown=3)
