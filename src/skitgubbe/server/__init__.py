"""The online table: ``skitgubbe serve`` (install the ``server`` extra).

The server depends on the core (rules, state, views, records, bots); the core never
imports it.  Modules: :mod:`.protocol` (client message validation and what a seat may
see), :mod:`.rooms` (a table, event-sourced, no I/O), :mod:`.store` (SQLAlchemy storage
of rooms and their log), :mod:`.botpool` (bots in worker processes), :mod:`.hub` (rooms
live: connections, bots, timers), :mod:`.metrics` (what the hub and the app count, for
``GET /metrics``), :mod:`.app` (FastAPI routes and the websocket).
See docs/server.md.
"""
