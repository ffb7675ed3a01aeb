"""Fixtures of the server tests: a live server on SQLite, and the same test on PostgreSQL."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from server_helpers import LiveServer, free_port  # noqa: E402

from skitgubbe.server.store import Store  # noqa: E402


def _pg_binaries() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def worker_url(url: str, worker: str) -> str:
    """``url``'s PostgreSQL database for the pytest-xdist worker ``worker`` (``gw0``, ``gw1``...), so that
    workers running at once never empty each other's tables: the database ``<name>_<worker>`` when it
    exists (.ci/run makes them), else the schema ``<worker>`` in ``url``'s database, made if missing and
    made the connections' ``search_path``.  Raises ``sqlalchemy.exc.OperationalError`` when the
    server cannot be reached or the schema cannot be made."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    base = make_url(url)
    engine = create_engine(base)
    try:
        with engine.connect() as conn:
            own = f"{base.database}_{worker}"
            if conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :d"), {"d": own}).scalar():
                return base.set(database=own).render_as_string(hide_password=False)
            conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{worker}"'))
            conn.commit()
    finally:
        engine.dispose()
    schema = base.update_query_dict({"options": f"-csearch_path={worker}"})
    return schema.render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A PostgreSQL database: $SKITGUBBE_TEST_PG (.ci/run starts Debian's cluster and sets it; under
    pytest-xdist each worker gets its own, :func:`worker_url`), else a throwaway cluster made with the
    installed server binaries; skipped only when there are none."""
    url = os.environ.get("SKITGUBBE_TEST_PG")
    if url:
        worker = os.environ.get("PYTEST_XDIST_WORKER")
        yield worker_url(url, worker) if worker else url
        return
    bindir = _pg_binaries()
    if bindir is None:
        pytest.skip("PostgreSQL is not installed (CI installs Debian's postgresql)")
    root = Path(tempfile.mkdtemp(prefix="skitgubbe-pg-"))  # not under pytest's root-only directory
    data = root / "data"
    port = free_port()
    as_user: list[str] = []
    if os.geteuid() == 0:  # the server refuses to run as root: use the postgres account
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(data.parent, "postgres")
    subprocess.run(as_user + [str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"],
                   check=True, capture_output=True)
    subprocess.run(as_user + [str(bindir / "pg_ctl"), "-D", str(data), "-w", "-l", str(data.parent / "log"),
                              "-o", f"-p {port} -k {data.parent} -h 127.0.0.1 -F", "start"],
                   check=True, capture_output=True)
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(as_user + [str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The same test on an SQLite file and on PostgreSQL (emptied first)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/server.db"
    url = str(request.getfixturevalue("pg_url"))
    store = Store(url)
    store.drop_tables()
    store.close()
    return url


@pytest.fixture
def server(tmp_path: Any) -> Iterator[LiveServer]:
    s = LiveServer(f"sqlite:///{tmp_path}/server.db").start()
    yield s
    s.stop()
