"""`skitgubbe serve`: its options, and a clear message when the server extra is missing."""

from __future__ import annotations

import builtins
from typing import Any

import pytest

from skitgubbe.play import cli


def test_serve_options_and_defaults() -> None:
    args = cli.build_parser().parse_args(["serve"])
    defaults = (args.db, args.host, args.port, args.bot_workers, args.bot_delay)
    assert defaults == (None, "127.0.0.1", 8000, 2, 0.6)
    args = cli.build_parser().parse_args(["serve", "--db", "postgresql+psycopg://u@h/d", "--host", "0.0.0.0",
                                          "--port", "9000"])
    assert (args.db, args.host, args.port) == ("postgresql+psycopg://u@h/d", "0.0.0.0", 9000)


def test_serve_without_the_server_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    real_import = builtins.__import__

    def no_server(name: str, *a: Any, **k: Any) -> Any:
        if "server" in name and (name.startswith("skitgubbe") or (a[2] if len(a) > 2 else None)):
            raise ImportError("No module named 'fastapi'")
        return real_import(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_server)
    assert cli.main(["serve"]) == 2
    assert "pip install 'skitgubbe[server]'" in capsys.readouterr().out


def test_serve_runs_the_server(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    seen: dict[str, Any] = {}

    def fake_serve(db: str, **kw: Any) -> int:
        seen.update(db=db, **kw)
        return 0

    import skitgubbe.server.app as app
    from skitgubbe.server.hub import Limits

    monkeypatch.setattr(app, "serve", fake_serve)
    assert cli.main(["serve", "--port", "8123", "--bot-delay", "0"]) == 0
    assert seen == {"db": "sqlite:///skitgubbe-server.db", "host": "127.0.0.1", "port": 8123,
                    "bot_workers": 2, "bot_delay": 0.0, "limits": Limits(), "allowed_origins": [],
                    "public_urls": [], "trust_proxy": [], "log_level": "info", "worker": None}
    seen.clear()
    assert cli.main(["serve", "--worker", "w1", "--renew-every", "0.5", "--lease-expiry", "4"]) == 0
    assert seen["worker"] == "w1" and seen["limits"] == Limits(renew_every=0.5, lease_expiry=4.0)
    assert cli.main(["serve", "--renew-every", "5", "--lease-expiry", "4"]) == 2
    out = capsys.readouterr().out
    assert "--renew-every must be more than 0 and less than --lease-expiry" in out
    assert "http://127.0.0.1:8123/" in out


def test_serve_passes_the_abuse_limits_and_allowed_origins(monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """The options of docs/server.md "Security"; their defaults are those of Limits."""
    seen: dict[str, Any] = {}

    def fake_serve(db: str, **kw: Any) -> int:
        seen.update(kw)
        return 0

    import skitgubbe.server.app as app
    from skitgubbe.server.hub import Limits

    monkeypatch.setattr(app, "serve", fake_serve)
    assert cli.main(["serve", "--allow-origin", "https://cards.example", "--allow-origin", "https://b.example",
                     "--rooms-per-client", "5", "--connections-per-client", "0", "--max-rooms", "100",
                     "--idle-after", "600", "--finished-after", "60"]) == 0
    assert seen["allowed_origins"] == ["https://cards.example", "https://b.example"]
    assert seen["limits"] == Limits(rooms_per_client=5, connections_per_client=0, max_rooms=100,
                                    idle_after=600.0, finished_after=60.0)
    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    help_text = capsys.readouterr().out
    defaults = Limits()
    for words in (f"default {defaults.rooms_per_client}", f"default {defaults.connections_per_client}",
                  f"default {defaults.max_rooms}", f"default {defaults.idle_after:g}",
                  f"default {defaults.finished_after:g}", f"any {defaults.rooms_window / 60:g} minutes"):
        assert words in " ".join(help_text.split()), words
    assert cli.main(["serve", "--rooms-per-client", "-1"]) == 2
    assert "--rooms-per-client must be 0 or more" in capsys.readouterr().out


def test_serve_quiets_the_garbage_collector_before_serving(monkeypatch: pytest.MonkeyPatch) -> None:
    """The collector is tuned before uvicorn starts (docs/server.md, "Load")."""
    import gc

    import uvicorn

    import skitgubbe.server.app as app

    seen: dict[str, Any] = {}

    def fake_run(asgi: Any, **kw: Any) -> None:
        seen.update(threshold=gc.get_threshold(), frozen=gc.get_freeze_count(), **kw)

    before = gc.get_threshold()
    monkeypatch.setattr(uvicorn, "run", fake_run)
    monkeypatch.setattr(app, "create_app", lambda *a, **k: object())
    try:
        assert app.serve("sqlite://", port=8124) == 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
    assert seen["threshold"] == app.GC_THRESHOLDS != before
    assert seen["frozen"] > 0
    assert (seen["host"], seen["port"]) == ("127.0.0.1", 8124)
