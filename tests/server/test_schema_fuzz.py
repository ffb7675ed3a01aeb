"""Schemathesis against the server's own OpenAPI schema (``GET /openapi.json``): every route, with
requests generated from the schema (positive) and requests that break it (negative), in-process
(ASGI, no sockets).  The routes with a room code are also called with the code of a real room.

The property: never a server error (5xx), only statuses the schema documents, every answer of the
documented shape and media type.  The number of examples is bounded so that the whole file runs in
well under a minute (docs/server.md, "Security").

(Schemathesis's own pytest plugin, ``schemathesis.pytest.from_fixture``, does not work with the
pytest of this project (it reads a node attribute pytest 9 removed), so each route's strategy is
driven with Hypothesis's ``@given`` directly.)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from schemathesis import GenerationMode  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.python import asgi  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from skitgubbe.server.app import HttpLimits, create_app  # noqa: E402
from skitgubbe.server.hub import Limits  # noqa: E402

EXAMPLES = 250
"""Generated requests per route and generation mode."""

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]

ROUTES = [("GET", "/"), ("GET", "/api/options"), ("POST", "/api/rooms"), ("GET", "/api/rooms/{code}"),
          ("POST", "/api/rooms/{code}/join"), ("POST", "/api/rules/check"), ("POST", "/api/rules/read"),
          ("POST", "/api/twotables"), ("GET", "/replay/{deal}"), ("GET", "/api/deals/{deal}"),
          ("POST", "/api/records"),
          ("GET", "/api/howto"), ("GET", "/api/rooms/{code}/howto"), ("GET", "/api/glossary"),
          ("GET", "/api/catalog/{lang}"), ("GET", "/api/lessons"), ("GET", "/api/lessons/{n}"),
          ("GET", "/ladder"), ("GET", "/api/ladder")]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Any, str]]:
    """The schema as the running app serves it, the app, and the code of a room with 7 open seats."""
    db = tmp_path_factory.mktemp("schema") / "server.db"
    # limits raised so that room making is exercised past the rate limit; bots never play the maker's seat
    # and the costly routes' limits off, so that every generated request reaches its route; the test
    # client's Host is testserver, named as the site's public address
    app = create_app(f"sqlite:///{db}", bot_workers=0, bot_delay=0.0, away_after=3600.0,
                     limits=Limits(rooms_per_client=10**6, max_rooms=10**6), public_urls=["http://testserver"],
                     http_limits=HttpLimits(replays_per_minute=0, rules_per_minute=0, misses_per_minute=0),
                     replay_workers=0)
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)  # starts the app (its lifespan)
    with asgi.get_client(app) as client:
        made = client.post("/api/rooms", json={"name": "Ann", "preset": "goat", "players": 8,
                                               "seats": ["open"] * 7}).json()
    yield schema, app, made["room"]
    asgi.shutdown_lifespans()  # stops the hub, its writer thread and the database
    assert app.state.hub.errors == []


def test_the_schema_documents_every_route_and_body(served: tuple[Any, Any, str]) -> None:
    raw = served[0].raw_schema
    assert {path for _, path in ROUTES} == set(raw["paths"])
    make = raw["paths"]["/api/rooms"]["post"]
    body = make["requestBody"]["content"]["application/json"]["schema"]
    assert body["additionalProperties"] is False and body["required"] == ["name"]
    assert {"200", "400", "413", "429", "503"} <= set(make["responses"])


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=str)
@pytest.mark.parametrize("method, path", ROUTES)
def test_no_request_the_schema_allows_or_breaks_gets_a_server_error(
        served: tuple[Any, Any, str], method: str, path: str, mode: GenerationMode) -> None:
    schema, _app, room = served
    operation = schema[path][method]
    if mode is GenerationMode.NEGATIVE and method == "GET":
        pytest.skip("these GET routes take no body, and any text is a room code: nothing to break")
    strategies = [operation.as_strategy(mode)]
    if "{code}" in path:
        strategies.append(operation.as_strategy(mode, path_parameters={"code": room}))

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(case=st.one_of(strategies))
    def check(case: Any) -> None:
        case.call_and_validate(checks=CHECKS)

    check()
