"""The real Dask cluster the distributed tests share: two worker processes on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def two_worker_client() -> Iterator[Any]:
    """Yield a client of a fresh LocalCluster of two single-thread worker processes.

    Each worker runs under a nanny, which restarts it if it is killed. No dashboard.
    """
    from dask import distributed

    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
            silence_logs=40,
        ) as cluster,
        distributed.Client(cluster, set_as_default=False) as dask_client,
    ):  # fmt: skip
        yield dask_client
