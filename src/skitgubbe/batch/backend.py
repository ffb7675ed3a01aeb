"""Where batch work runs: local processes (the default, nothing to install) or a Ray cluster.

A batch tool cuts its work into independent tasks, each fully determined by its own fields (a
seed and a range of deals), and hands them to :meth:`Backend.map`, which returns the results in
the order of the tasks whatever order they finish in.  So a run gives the same result for the
same seed on any backend and with any number of workers (``tests/test_backend.py``).

* :class:`LocalBackend` runs the tasks in this process (``jobs = 1``) or in a pool of
  ``jobs`` worker processes (:class:`concurrent.futures.ProcessPoolExecutor`).
* :class:`RayBackend` sends them to a Ray cluster (the extra ``skitgubbe[cluster]``): one
  already running at ``address`` (``ray start --head`` on one machine, ``ray start
  --address HEAD:PORT`` on the others), or, with no address, one started for this run on this
  machine.  Every node needs the package installed (docs/study.md, "On a cluster").

:func:`make_backend` builds one from the command line's ``--backend``, ``--jobs`` and
``--address``.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from typing import Any, Protocol, TypeVar

__all__ = ["BACKENDS", "Backend", "LocalBackend", "RayBackend", "make_backend", "chunks"]

T = TypeVar("T")
R = TypeVar("R")

BACKENDS = ("local", "ray")
"""The names :func:`make_backend` accepts."""

Done = Callable[[int, Any], None]
"""Called with ``(task index, result)`` as each task finishes, in the order they finish."""


class Backend(Protocol):
    """Runs independent tasks: ``map(fn, tasks, on_done)`` returns ``[fn(t) for t in tasks]`` in
    the tasks' order.  ``fn`` must be a module-level function and every task and result
    picklable.  ``close()`` releases the workers (also on leaving a ``with`` block)."""

    name: str

    def map(self, fn: Callable[[T], R], tasks: Sequence[T], on_done: Done | None = None) -> list[R]: ...

    def close(self) -> None: ...


def chunks(total: int, size: int) -> list[tuple[int, int]]:
    """``(start, count)`` pairs cutting ``range(total)`` into pieces of ``size`` (the last may be
    smaller).  The cut depends on ``total`` and ``size`` only, never on the workers.  Raises
    ``ValueError`` for ``total < 0`` or ``size < 1``."""
    if total < 0 or size < 1:
        raise ValueError(f"chunks need total >= 0 and size >= 1, not {total} and {size}")
    return [(s, min(size, total - s)) for s in range(0, total, size)]


def _ignore_interrupt() -> None:  # pragma: no cover - runs in worker processes
    """Worker initializer: Ctrl-C is the parent's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class LocalBackend:
    """Tasks in this process (``jobs = 1``) or in ``jobs`` worker processes (default: every
    core).  Raises ``ValueError`` for ``jobs < 1``."""

    name = "local"

    def __init__(self, jobs: int | None = None) -> None:
        jobs = (os.cpu_count() or 1) if jobs is None else jobs
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {jobs}")
        self.jobs = jobs

    def map(self, fn: Callable[[T], R], tasks: Sequence[T], on_done: Done | None = None) -> list[R]:
        """``[fn(t) for t in tasks]``, in order; ``on_done(i, result)`` as each finishes."""
        results: dict[int, R] = {}
        if self.jobs == 1 or len(tasks) <= 1:
            for i, task in enumerate(tasks):
                results[i] = fn(task)
                if on_done is not None:
                    on_done(i, results[i])
            return [results[i] for i in range(len(tasks))]
        pool = ProcessPoolExecutor(max_workers=min(self.jobs, len(tasks)), initializer=_ignore_interrupt)
        try:
            index: dict[Future[R], int] = {pool.submit(fn, t): i for i, t in enumerate(tasks)}
            for future in as_completed(index):
                i = index[future]
                results[i] = future.result()
                if on_done is not None:
                    on_done(i, results[i])
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        return [results[i] for i in range(len(tasks))]

    def close(self) -> None:
        """Nothing to release: each :meth:`map` has its own pool."""

    def __enter__(self) -> LocalBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class RayBackend:
    """Tasks as Ray remote functions on the cluster at ``address`` (``HOST:PORT`` of a running
    head, or ``auto`` for the one this machine belongs to); with no address, a Ray instance
    started on this machine for this run, with ``jobs`` CPUs (default every core).

    Connects on construction.  Raises ``RuntimeError`` if Ray is not installed (the extra
    ``skitgubbe[cluster]``) and ``ConnectionError`` if no head answers at ``address`` or it
    refuses the connection (the message names the address and says how to give a cluster's
    token: Ray 2.59 and later turn token authentication on by default).
    """

    name = "ray"

    def __init__(self, address: str | None = None, *, jobs: int | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise RuntimeError("--backend ray needs Ray: pip install 'skitgubbe[cluster]'") from None
        self._ray = ray
        self.address = address
        self._owned = not ray.is_initialized()
        if self._owned:
            options: dict[str, Any] = {"logging_level": "ERROR", "log_to_driver": False}
            if address:
                options["address"] = address
            else:
                options["num_cpus"] = jobs or os.cpu_count() or 1
                options["include_dashboard"] = False
            try:
                ray.init(**options)
            except ConnectionError as e:
                raise ConnectionError(
                    f"no Ray cluster answered at {address}: {e}. If it uses token authentication "
                    "(Ray 2.59 and later turn it on by default), set RAY_AUTH_MODE=token here and "
                    "give the cluster's token: RAY_AUTH_TOKEN, or the file ~/.ray/auth_token "
                    "(`ray get-auth-token` on the head prints it)") from e
        self._remote: dict[Callable[..., Any], Any] = {}

    def map(self, fn: Callable[[T], R], tasks: Sequence[T], on_done: Done | None = None) -> list[R]:
        """``[fn(t) for t in tasks]`` run on the cluster, in order; ``on_done(i, result)`` as each
        finishes."""
        ray = self._ray
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = ray.remote(fn)
        refs = [remote.remote(t) for t in tasks]
        index = {ref: i for i, ref in enumerate(refs)}
        results: dict[int, R] = {}
        pending = list(refs)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                i = index[ref]
                results[i] = ray.get(ref)
                if on_done is not None:
                    on_done(i, results[i])
        return [results[i] for i in range(len(tasks))]

    def close(self) -> None:
        """Disconnect from the cluster (and stop the Ray instance this backend started)."""
        if self._owned and self._ray.is_initialized():
            self._ray.shutdown()

    def __enter__(self) -> RayBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def make_backend(name: str = "local", *, jobs: int | None = None, address: str | None = None) -> Backend:
    """The backend called ``name`` (one of :data:`BACKENDS`).  ``jobs``: worker processes
    (local) or CPUs of a Ray instance started here; ``address``: a Ray head (``ray`` only).
    Raises ``ValueError`` for another name, ``jobs < 1`` or an address given to ``local``, and
    ``RuntimeError`` if Ray is asked for but not installed."""
    if name not in BACKENDS:
        raise ValueError(f"no backend called {name!r}; backends: {', '.join(BACKENDS)}")
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if name == "local":
        if address:
            raise ValueError("--address is for --backend ray (the local backend runs on this machine)")
        return LocalBackend(jobs)
    return RayBackend(address, jobs=jobs)
