"""Where partitions run: in this process, or on a Dask cluster (``assay[dask]``).

An *executor* maps one pure function over a list of partitions and returns the
results **in partition order**, whatever order the workers finish in. Every
caller then reduces those results with the same code as a local run, so a
distributed run gives byte-identical numbers and files: partitions are cut by
the data (one per system, or a fixed number of items), never by the number of
workers.

The executor is named by the user:

- ``None``: this process (today's behaviour; no Dask needed);
- ``"local:N"``: a ``LocalCluster`` of N single-threaded worker processes,
  started for the call and closed after it;
- ``"tcp://host:8786"`` (any scheduler address): a cluster the user runs;
- a ``dask.distributed.Client``: the user's own client, used and left open.

Workers open input files themselves, by the names the user gave, from the
client's working directory (:func:`working_directory`): on a remote cluster the
files must be on storage every worker sees at the same path (a shared or network
file system). A worker that cannot see the directory or open a file fails the
run with the usual one-line error naming it; nothing is written.
"""

from __future__ import annotations

import os
import re
import uuid
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from assay.errors import InputFileError, InvalidOptionError

T = TypeVar("T")
R = TypeVar("R")

INSTALL_HINT = "the --dask option needs Dask: pip install 'assay[dask]'"
_LOCAL = re.compile(r"local:([0-9]+)")
_ADDRESS = re.compile(r"(tcp|tls|inproc|ucx|ws|wss)://\S+")


def chunked(items: Sequence[T], size: int) -> list[Sequence[T]]:
    """``items`` cut into consecutive partitions of ``size`` (the last may be shorter)."""
    return [items[i : i + size] for i in range(0, len(items), size)]


class DaskMissingError(InvalidOptionError):
    """Dask was asked for but is not installed."""


@dataclass(frozen=True, slots=True)
class ExecutorSpec:
    """A parsed executor: ``kind`` is ``local``, ``cluster``, ``address`` or ``client``."""

    kind: str
    workers: int = 0
    address: str = ""
    client: Any = None

    @property
    def label(self) -> str:
        """How the executor is shown to the user (never part of a scored body)."""
        if self.kind == "cluster":
            return f"local:{self.workers}"
        if self.kind == "address":
            return self.address
        return "this process" if self.kind == "local" else "dask client"


def parse_executor(executor: Any) -> ExecutorSpec:
    """Read ``None``, ``"local:N"``, a scheduler address or a ``Client``.

    Raises:
        InvalidOptionError: a string that is none of these.
    """
    if executor is None:
        return ExecutorSpec("local")
    if isinstance(executor, str):
        text = executor.strip()
        local = _LOCAL.fullmatch(text)
        if local is not None:
            workers = int(local.group(1))
            if not 1 <= workers <= 1024:
                raise InvalidOptionError(
                    f"--dask {executor!r}: the worker count must be 1..1024, e.g. local:4"
                )
            return ExecutorSpec("cluster", workers=workers)
        if _ADDRESS.fullmatch(text):
            return ExecutorSpec("address", address=text)
        raise InvalidOptionError(
            f"--dask {executor!r}: give local:N (a local cluster of N workers) or a "
            "scheduler address such as tcp://scheduler:8786"
        )
    if type(executor).__name__ == "Client" and hasattr(executor, "submit"):
        return ExecutorSpec("client", client=executor)
    raise InvalidOptionError(
        f"executor {executor!r}: give None, 'local:N', a scheduler address or a "
        "dask.distributed.Client"
    )


@contextmanager
def working_directory(path: str) -> Iterator[None]:
    """Run a partition in the client's working directory (a no-op when already there).

    Raises:
        InputFileError: the directory does not exist where the partition runs.
    """
    here = os.getcwd()
    if here == path:
        yield
        return
    try:
        os.chdir(path)
    except OSError:
        raise InputFileError(
            path,
            "a Dask worker cannot see this directory (the client's working directory); "
            "put the inputs on storage every worker shares, at the same path",
        ) from None
    try:
        yield
    finally:
        os.chdir(here)


def _distributed() -> Any:
    try:
        import dask.distributed as distributed
    except ImportError:
        raise DaskMissingError(INSTALL_HINT) from None
    return distributed


@contextmanager
def _client(spec: ExecutorSpec) -> Iterator[Any]:
    if spec.kind == "client":
        yield spec.client
        return
    distributed = _distributed()
    if spec.kind == "address":
        with distributed.Client(spec.address, set_as_default=False) as client:
            yield client
        return
    with (
        distributed.LocalCluster(
            n_workers=spec.workers,
            threads_per_worker=1,
            processes=True,
            **CLUSTER_QUIET,
        ) as cluster,
        distributed.Client(cluster, set_as_default=False) as client,
    ):
        yield client


CLUSTER_QUIET: dict[str, Any] = {
    "host": "127.0.0.1",
    # Dask's scheduler starts its HTTP server even with dashboard_address=None, then on
    # 8787 (clashing with another cluster, or the user's own): an ephemeral loopback
    # port, no dashboard, for the scheduler and each worker.
    "dashboard_address": "127.0.0.1:0",
    "worker_dashboard_address": "127.0.0.1:0",
    "scheduler_kwargs": {"dashboard": False},
    "silence_logs": 50,  # a bad-input error is reported once, by the client
}
"""How assay starts a ``local:N`` cluster: loopback only, quiet."""


class _Later:
    """A call made in this process when its result is first asked for."""

    def __init__(self, function: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self._call: Callable[[], Any] | None = lambda: function(*args)
        self._value: Any = None
        self._error: BaseException | None = None

    def result(self) -> Any:
        """The call's value (computed once; its exception is raised each time asked)."""
        if self._call is not None:
            call, self._call = self._call, None
            try:
                self._value = call()
            except BaseException as error:
                self._error = error
        if self._error is not None:
            raise self._error
        return self._value


class Executor:
    """Maps functions over partitions for one run (see the module docstring)."""

    def __init__(self, spec: ExecutorSpec, client: Any = None) -> None:
        """Wrap ``spec``; ``client`` is the live Dask client (``None``: in process)."""
        self.spec = spec
        self.client = client
        self._run = uuid.uuid4().hex  # task keys only; never part of a result
        self._submitted = 0

    @property
    def distributed(self) -> bool:
        """True when partitions run on Dask workers."""
        return self.client is not None

    def share(self, value: T) -> Any:
        """Send ``value`` to every worker once; pass the handle as a ``map`` argument."""
        if self.client is None:
            return value
        # a list of one: scatter would send a tuple's or a set's items one by one
        return self.client.scatter([value], broadcast=True, hash=False)[0]

    def submit(self, function: Callable[..., R], *args: Any) -> Any:
        """Start ``function(*args)``; ``.result()`` of the handle waits for it (or raises)."""
        if self.client is None:
            return _Later(function, args)
        self._submitted += 1
        key = f"assay-{self._run}-s{self._submitted}"
        return self.client.submit(function, *args, pure=False, key=key)

    def cancel(self, handles: Sequence[Any]) -> None:
        """Drop handles from :meth:`submit` that are no longer needed."""
        if self.client is not None:
            self.client.cancel([h for h in handles if not isinstance(h, _Later)])

    def map(
        self,
        function: Callable[..., R],
        partitions: Sequence[Any],
        *shared: Any,
        progress: Callable[[int, int], None] | None = None,
    ) -> list[R]:
        """``[function(p, *shared) for p in partitions]``, in partition order.

        ``progress(done, total)`` is called after each partition finishes. The
        first partition that raises stops the run with its own exception (the
        same one-line error as in process); nothing is reduced from a partial run.
        """
        total = len(partitions)
        if self.client is None:
            results = []
            for done, part in enumerate(partitions, 1):
                results.append(function(part, *shared))
                if progress is not None:
                    progress(done, total)
            return results
        return self._map_on_cluster(function, partitions, shared, progress)

    def stream(
        self, function: Callable[..., R], partitions: Iterable[Any], *shared: Any,
        window: int = 0,
    ) -> Generator[R, None, None]:  # fmt: skip
        """``function(p, *shared)`` for each partition, yielded in partition order.

        At most ``window`` partitions (default: twice the worker threads, at least 2) are
        submitted and not yet yielded, so the client holds a few partitions and
        their results at a time, however many there are. ``partitions`` is read
        lazily: an error it raises comes after the results of the partitions
        before it (as in process). A partition's exception is raised as the client
        states it (:func:`seen_from_client`).
        """
        if self.client is None:
            for part in partitions:
                yield function(part, *shared)
            return
        limit = window or max(2, 2 * sum(self.client.nthreads().values()))
        pending: deque[Any] = deque()
        source = iter(partitions)
        try:
            while True:
                try:
                    while len(pending) < limit:
                        pending.append(self.submit(function, next(source), *shared))
                except StopIteration:
                    source = iter(())
                except Exception:  # the reader's error: after the partitions before it
                    while pending:
                        yield _result(pending.popleft())
                    raise
                if not pending:
                    return
                yield _result(pending.popleft())
        finally:
            self.cancel(list(pending))

    def _map_on_cluster(
        self,
        function: Callable[..., R],
        partitions: Sequence[Any],
        shared: tuple[Any, ...],
        progress: Callable[[int, int], None] | None,
    ) -> list[R]:
        distributed = _distributed()
        run = uuid.uuid4().hex  # task keys only; never part of a result
        futures = [
            self.client.submit(function, part, *shared, pure=False, key=f"assay-{run}-{i}")
            for i, part in enumerate(partitions)
        ]
        index = {future.key: i for i, future in enumerate(futures)}
        results: list[Any] = [None] * len(futures)
        try:
            finished = distributed.as_completed(futures, loop=self.client.loop)
            for done, future in enumerate(finished, 1):
                if future.status == "error":
                    raise self._first_error(futures, index[future.key])
                results[index[future.key]] = future.result()
                if progress is not None:
                    progress(done, len(futures))
        finally:
            self.client.cancel(futures)
        return results

    def _first_error(self, futures: list[Any], failed: int) -> BaseException:
        """The error of the first failing partition in partition order, as in process.

        Partition ``failed`` has raised; the later ones are cancelled, and the
        earlier ones are waited for: the first of them to have failed wins.
        """
        self.client.cancel(futures[failed + 1 :])
        errors = (future.exception() for future in futures[: failed + 1])  # each waits
        error: BaseException = next(e for e in errors if e is not None)  # None: succeeded
        return seen_from_client(error)


def _result(handle: Any) -> Any:
    try:
        return handle.result()
    except Exception as error:
        raise seen_from_client(error) from None


def seen_from_client(error: BaseException) -> BaseException:
    """A worker's error as the client states it.

    A file the worker could not open but this machine can is not on storage the
    workers share: the error says so. Any other error is the worker's own (the
    same one-line error as a local run).
    """
    if (
        isinstance(error, InputFileError)
        and error.problem.startswith("cannot open file")
        and os.path.exists(error.path)
    ):
        return InputFileError(error.path, NOT_SHARED)
    return error


NOT_SHARED = (
    "a Dask worker cannot open this file, which this machine can; put the inputs on "
    "storage every worker shares, at the same path (or run without --dask)"
)


@contextmanager
def executor_for(executor: Any) -> Iterator[Executor]:
    """An :class:`Executor` for the user's choice, closed (if assay opened it) on exit.

    Raises:
        InvalidOptionError: an unreadable executor.
        DaskMissingError: a cluster asked for without Dask installed (one-line hint).
    """
    spec = parse_executor(executor)
    if spec.kind == "local":
        yield Executor(spec)
        return
    with _client(spec) as client:
        yield Executor(spec, client)
