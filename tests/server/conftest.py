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


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A PostgreSQL database: $SKITGUBBE_TEST_PG (.ci/run starts Debian's cluster and sets it), else a
    throwaway cluster made with the installed server binaries; skipped only when there are none."""
    url = os.environ.get("SKITGUBBE_TEST_PG")
    if url:
        yield url
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
