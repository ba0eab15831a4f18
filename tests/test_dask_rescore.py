"""``rescore --dask`` on a real ``LocalCluster``: the same bytes as the run in process.

The logs are the ones the real tools wrote (the ``harness_logs`` fixture of
tests/test_rescore.py). Partitions are made small so each metric's items are cut
into several; the workers must really score them: the client's own scoring of a
corpus is replaced by one that fails.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import assay.api
from cli_helpers import run_captured as cli
from dask_helpers import two_worker_client
from test_rescore import harness_logs  # noqa: F401 - the module-scoped fixture

distributed = pytest.importorskip("dask.distributed")


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """The shared two-worker LocalCluster (tests/dask_helpers.py)."""
    yield from two_worker_client()


def run(args: list[str], folder: Path, name: str, *extra: str) -> tuple[int, str, bytes, bytes]:
    """``assay ARGS``: exit code, stderr, and the --output and --per-item bytes."""
    out, items = folder / f"{name}.json", folder / f"{name}.jsonl"
    code, _, err = cli(*args, "--output", str(out), "--per-item", str(items), *extra)
    return code, err, out.read_bytes(), items.read_bytes()


def test_rescore_on_a_cluster_writes_the_local_bytes(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    harness_logs: dict[str, Path],  # noqa: F811
) -> None:  # fmt: skip
    args = ["rescore", str(harness_logs["eval"]), str(harness_logs["samples"]),
            "-m", "f1,corpus_bleu,rouge_l", "--profile", "assay", "--confidence", "0.9",
            "--resamples", "200"]  # fmt: skip
    code, err, output, items = run(args, tmp_path, "local")
    assert code == 0, err
    monkeypatch.setattr(assay.api, "CHUNK_ITEMS", 3)  # each metric's items: several partitions

    def refused(*_: Any, **__: Any) -> Any:
        raise AssertionError("a corpus was scored in this process")

    monkeypatch.setattr(assay.api, "score_corpus_bound", refused)
    code, err, dask_output, dask_items = run(args, tmp_path, "dask", "--dask",
                                             client.scheduler.address)  # fmt: skip
    assert code == 0, err
    assert (dask_output, dask_items) == (output, items)
    sizes = [log["metrics"][0]["n"] for log in json.loads(output)["logs"]]
    assert sizes[0] == 8 and len(sizes) == 3  # the inspect log, then two lm-eval filters
    for n in sizes:
        assert f"{-(-n // 3)}/{-(-n // 3)} partitions done" in err
    assert b"assay.token_f1" in output


def test_a_local_n_cluster_started_for_the_run(
    tmp_path: Path, harness_logs: dict[str, Path]  # noqa: F811
) -> None:
    args = ["rescore", str(harness_logs["json"]), "-m", "f1,chrf"]
    local = run(args, tmp_path, "local")
    started = run(args, tmp_path, "started", "--dask", "local:2")
    assert local[0] == started[0] == 0, started[1]
    assert started[2:] == local[2:]
