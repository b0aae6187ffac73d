"""Running independent jobs: a local process pool (default) or Ray (optional).

Self-play data generation and the arena hand their jobs (deals, batches of games)
to :func:`map_jobs`. ``backend="process"`` forks a local pool; ``backend="ray"``
sends each job to Ray as a task, so that a user with a cluster runs the same
command after pointing Ray at it (``RAY_ADDRESS``, or ``ray.init(address=...)``
before the call). Ray is optional: it is imported only when asked for.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

__all__ = ["BACKENDS", "map_jobs"]

J = TypeVar("J")
R = TypeVar("R")

BACKENDS = ("process", "ray")


def map_jobs(
    fn: Callable[[J], R], jobs: Sequence[J], *, backend: str = "process", workers: int = 1
) -> Iterator[R]:
    """``fn(job)`` for every job, results in job order.

    ``fn`` must be a module-level function (it is pickled). With the process
    backend ``workers`` processes run (at most the CPUs and the jobs; 1 runs in
    this process); with Ray, the cluster's CPUs do, and ``workers`` is the number
    of CPUs a local Ray started here may use.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}: choose from {', '.join(BACKENDS)}")
    if backend == "ray":
        yield from _ray_map(fn, jobs, workers)
        return
    workers = min(workers, os.cpu_count() or 1, len(jobs))
    if workers <= 1:
        for j in jobs:
            yield fn(j)
        return
    import multiprocessing as mp

    # fork where the platform has it: no re-import of the caller's main module.
    method = "fork" if "fork" in mp.get_all_start_methods() else "spawn"
    with mp.get_context(method).Pool(workers) as pool:
        yield from pool.imap(fn, jobs, chunksize=1)


def _ray_map(fn: Callable[[J], R], jobs: Sequence[J], workers: int) -> Iterator[R]:
    try:
        import ray
    except ImportError:
        raise ValueError(
            "--backend ray needs Ray: pip install 'paohuzi[ray]' (or use --backend process)"
        ) from None
    if not ray.is_initialized():
        # RAY_ADDRESS, when set, connects to a running cluster instead.
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if "RAY_ADDRESS" not in os.environ:
            kwargs["num_cpus"] = max(1, workers)
        ray.init(**kwargs)
    remote = ray.remote(fn)
    refs = [remote.remote(j) for j in jobs]
    for ref in refs:
        yield ray.get(ref)
