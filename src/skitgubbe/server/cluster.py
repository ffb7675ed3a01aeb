"""Several workers behind one address, as plain processes: HAProxy's configuration (the same text as
``deploy/haproxy.cfg``, which :func:`haproxy_config` writes for the compose file's workers) and
:func:`run_cluster`, behind ``skitgubbe cluster`` (docs/server.md, "Several workers behind HAProxy").

The proxy routes every request that names a room (``/ws?room=CODE``, ``/api/rooms/CODE...``) by a
consistent hash of the code, so the clients of one table reach the same worker while that worker is
up; requests naming no room go round-robin.  Limits that must hold across workers (connections per
client address, rooms made per client address) are kept by the proxy in stick tables."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ProxyLimits", "haproxy_config", "run_cluster", "Cluster", "ROOM_HEADER"]

ROOM_HEADER = "X-Skitgubbe-Room"
"""The request header the proxy sets to the room code a request names, and balances on (a client's own
header of that name is removed first)."""


@dataclass(frozen=True)
class ProxyLimits:
    """The limits the proxy keeps for all workers together, per client address (0: no limit).

    ``connections``: TCP connections one address may hold open at once (websockets and HTTP keep-alive
    both count), beyond which a request is answered 429; ``rooms``: rooms one address may make
    (``POST /api/rooms``) in any ``rooms_window`` seconds, beyond which 429."""

    connections: int = 64
    rooms: int = 20
    rooms_window: int = 600


_RATE_LIMITED = ('{"error": "rate-limited", "message": "Too many requests from your address: wait a '
                 'moment and try again."}')


def haproxy_config(workers: Sequence[tuple[str, str]], *, bind: str = ":8000",
                   limits: ProxyLimits = ProxyLimits(), errors_dir: str = "/etc/haproxy/skitgubbe",
                   maxconn: int = 8000, tls_comment: bool = True, served_by: bool = False,
                   tls: tuple[str, str] | None = None) -> str:
    """HAProxy 2.6 configuration text for ``workers`` (pairs of a name, ``w1``, and an address,
    ``127.0.0.1:8001`` or ``worker1:8000``), listening on ``bind`` (``:8000``, ``127.0.0.1:8000``).

    ``errors_dir`` is where the 429 answer's body file ``429.http`` is (:func:`rate_limited_file`
    writes it); ``maxconn`` bounds the proxy's connections in all; ``tls_comment`` adds the commented
    TLS block; ``served_by`` names the worker that answered in a response header
    ``X-Skitgubbe-Worker`` (for tests and the load benchmark, not for a public site).  Raises
    ValueError when ``workers`` is empty or a name is not a plain word.

    ``tls``: ``(address, pem)`` turns the TLS block on: HTTPS on ``address`` (``:443``) with the
    certificate and key in the file ``pem``, plain HTTP on ``bind`` redirected to it (301), and HSTS
    on every answer over TLS."""
    if not workers:
        raise ValueError("haproxy_config: at least one worker is needed")
    for name, _ in workers:
        if not name.replace("-", "").replace("_", "").isalnum():
            raise ValueError(f"haproxy_config: worker name {name!r} must be letters, digits, - or _")
    conn_rule = (f"    http-request deny deny_status 429 if {{ sc0_conn_cur gt {limits.connections} }}\n"
                 if limits.connections else "")
    rooms_rule = (f"    http-request track-sc1 src table per_client_rooms if post rooms_path\n"
                  f"    http-request deny deny_status 429 if post rooms_path "
                  f"{{ sc1_http_req_rate(per_client_rooms) gt {limits.rooms} }}\n" if limits.rooms else "")
    if tls is not None:
        tls_lines = (f"    bind {tls[0]} ssl crt {tls[1]} alpn h2,http/1.1\n"
                     "    http-request redirect scheme https code 301 unless { ssl_fc }\n"
                     "    http-response set-header Strict-Transport-Security \"max-age=31536000\" "
                     "if { ssl_fc }\n")
    elif tls_comment:
        tls_lines = ("    # TLS (docs/server.md, \"TLS behind the proxy\"): put the certificate and its key "
                     "in\n"
                     "    # one"
                     " PEM file, uncomment these lines (bind :80 above instead of :8000), and give the\n"
                     "    # workers --public-url https://YOUR.NAME\n"
                     "    #   bind :443 ssl crt /usr/local/etc/haproxy/certs/site.pem alpn h2,http/1.1\n"
                     "    #   http-request redirect scheme https code 301 unless { ssl_fc }\n"
                     "    #   http-response set-header Strict-Transport-Security \"max-age=31536000\" "
                     "if { ssl_fc }\n")
    else:
        tls_lines = ""
    served = "    http-response set-header X-Skitgubbe-Worker %[srv_name]\n" if served_by else ""
    servers = "".join(f"    server {name} {address}\n" for name, address in workers)
    return f"""# HAProxy 2.6 in front of skitgubbe workers (docs/server.md, "Several workers behind HAProxy").
# Written by skitgubbe.server.cluster.haproxy_config: edit that function, not only this file.
global
    maxconn {maxconn}

defaults
    mode http
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    # a websocket is a tunnel once upgraded: the workers ping every 20 s; an hour without a byte is dead
    timeout tunnel 1h
    timeout client-fin 5s
    timeout http-request 10s
    timeout http-keep-alive 10s
    errorfile 429 {errors_dir}/429.http

backend per_client_rooms
    stick-table type ipv6 size 200k expire {limits.rooms_window}s store http_req_rate({limits.rooms_window}s)

frontend web
    bind {bind}
{tls_lines}    # connections per client address, counted over all workers
    stick-table type ipv6 size 200k expire 10m store conn_cur
    tcp-request connection track-sc0 src
{conn_rule}    acl post method POST
    acl rooms_path path /api/rooms /api/rooms/
{rooms_rule}    # the client's address for the workers (they trust it with --trust-proxy)
    option forwardfor
    # the room a request names: /ws?room=CODE or /api/rooms/CODE...
    http-request del-header {ROOM_HEADER}
    http-request set-var(txn.room) url_param(room),upper if {{ path /ws }}
    http-request set-var(txn.room) path,field(4,/),upper if {{ path_beg /api/rooms/ }}
    # the ladder's queue (/ws?queue=ladder) on one worker, as if it were a room (no room code has an L)
    http-request set-var(txn.room) str(LADDER) if {{ path /ws }} {{ url_param(queue) -m str ladder }}
    acl named_room var(txn.room) -m len gt 0
    http-request set-header {ROOM_HEADER} %[var(txn.room)] if named_room
{served}    default_backend workers

backend workers
    # one room, one worker while it is up (consistent: a worker going down moves only its rooms);
    # a request without the header (naming no room) goes round-robin
    balance hdr({ROOM_HEADER})
    hash-type consistent
    option httpchk
    http-check send meth GET uri /healthz ver HTTP/1.1 hdr Host localhost
    http-check expect status 200
    # a dead worker is out after two failed checks 1 s apart (a killed one refuses at once); a check
    # may take 3 s (the worker's own database check waits 2 s), so a busy worker is not taken out;
    # init-addr: start even if a name does not resolve yet (compose starts the proxy with its workers)
    timeout check 3s
    default-server check inter 1s fall 2 rise 2 init-addr last,libc,none
    # a connection refused by a dead worker not yet marked down is tried again on another
    retries 2
    option redispatch 1
{servers}"""


def rate_limited_file() -> str:
    """The raw HTTP answer HAProxy sends for 429 (``errorfile 429``): a JSON body in the server's own
    form, ``{"error": "rate-limited", "message": ...}``, whose code the page translates."""
    body = _RATE_LIMITED + "\n"
    return ("HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nCache-Control: no-cache\r\n"
            f"Connection: close\r\nContent-Length: {len(body.encode())}\r\n\r\n{body}")


@dataclass
class Cluster:
    """A running topology: the workers' and the proxy's processes and the proxy's configuration file.

    ``workers``: name → process; ``ports``: name → the worker's port on 127.0.0.1."""

    workers: dict[str, subprocess.Popen[bytes]]
    ports: dict[str, int]
    proxy: subprocess.Popen[bytes]
    config: Path
    workdir: Path

    def stop(self, grace: float = 15.0) -> None:
        """SIGTERM to the proxy and every worker, waiting ``grace`` seconds in all before SIGKILL of
        any still running; the configuration folder is removed.  Never raises for a process already
        gone."""
        procs = [self.proxy, *self.workers.values()]
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + grace
        for p in procs:
            try:
                p.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        shutil.rmtree(self.workdir, ignore_errors=True)


def _more_files() -> None:
    """In the proxy's process before it starts: the open-files limit raised to its hard limit (two
    descriptors per proxied connection)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def start_cluster(db: str, *, workers: int = 2, port: int = 8000, host: str = "127.0.0.1",
                  worker_options: Sequence[str] = (), limits: ProxyLimits = ProxyLimits(),
                  haproxy: str = "haproxy", python: str = sys.executable,
                  output: int | None = None,
                  served_by: bool = False) -> Cluster:
    """Start ``workers`` ``skitgubbe serve --worker wK`` processes on ``db`` at 127.0.0.1:``port``+K
    (trusting the proxy's ``X-Forwarded-For``, then ``worker_options``) and HAProxy on
    ``host``:``port`` in front of them; returns at once (the workers take a few seconds to answer:
    the proxy's checks bring each in as it does).  ``output``: where the processes' output goes
    (None: this process's).  ``served_by``: see :func:`haproxy_config`.  The database's tables are
    made first, here.  Raises FileNotFoundError when ``haproxy`` is not installed,
    ``sqlalchemy.exc.SQLAlchemyError`` when the database cannot be opened, ValueError
    for fewer than one worker or a port outside 1..65535-``workers``."""
    if workers < 1:
        raise ValueError(f"--workers must be 1 or more, not {workers}")
    if not 1 <= port <= 65535 - workers:
        raise ValueError(f"--port must leave room for the workers' ports above it (1..{65535 - workers})")
    exe = shutil.which(haproxy)
    if exe is None:
        raise FileNotFoundError(f"{haproxy} is not installed (Debian: apt-get install -y haproxy)")
    workdir = Path(tempfile.mkdtemp(prefix="skitgubbe-cluster-"))
    (workdir / "429.http").write_text(rate_limited_file())
    names = [f"w{k}" for k in range(1, workers + 1)]
    ports = {name: port + k for k, name in enumerate(names, 1)}
    config = workdir / "haproxy.cfg"
    config.write_text(haproxy_config([(n, f"127.0.0.1:{ports[n]}") for n in names],
                                     bind=f"{host}:{port}", limits=limits, errors_dir=str(workdir),
                                     tls_comment=False, served_by=served_by))
    # the database opened (its tables made) once before the workers start: a wrong URL or a
    # database that does not answer is said here, once, not by every worker
    from .store import Store

    Store(db).close()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    procs: dict[str, subprocess.Popen[bytes]] = {}
    for name in names:
        cmd = [python, "-m", "skitgubbe.play.cli", "serve", "--db", db, "--port", str(ports[name]),
               "--trust-proxy", "127.0.0.1", "--worker", name, *worker_options]
        procs[name] = subprocess.Popen(cmd, env=env, stdout=output,
                                       stderr=subprocess.STDOUT if output else None)
    proxy = subprocess.Popen([exe, "-W", "-db", "-f", str(config)], stdout=output,
                             stderr=subprocess.STDOUT if output else None, preexec_fn=_more_files)
    return Cluster(procs, ports, proxy, config, workdir)


def run_cluster(db: str, *, workers: int = 2, port: int = 8000, host: str = "127.0.0.1",
                worker_options: Sequence[str] = (), limits: ProxyLimits = ProxyLimits()) -> int:
    """``skitgubbe cluster``: :func:`start_cluster`, then wait until Ctrl-C or SIGTERM (stopping them
    all) or until the proxy or every worker has ended (stopping the rest); returns the exit status:
    0 after a signal, 1 when the processes ended by themselves.  Raises what :func:`start_cluster`
    raises."""
    cluster = start_cluster(db, workers=workers, port=port, host=host, worker_options=worker_options,
                            limits=limits)
    stopping = False

    def on_signal(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    old = signal.signal(signal.SIGTERM, on_signal)
    try:
        while not stopping:
            if cluster.proxy.poll() is not None or all(p.poll() is not None
                                                       for p in cluster.workers.values()):
                break
            time.sleep(0.2)
    except KeyboardInterrupt:
        stopping = True
    finally:
        signal.signal(signal.SIGTERM, old)
        cluster.stop()
    return 0 if stopping else 1
