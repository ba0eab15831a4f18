"""``score --file --dask`` in byte-range blocks on a real ``LocalCluster``; assay's own cluster.

The reference is the in-process run of the same file (read and scored 4,096 pairs at
a time on one machine): the same printed document, per-item bytes and first error.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import assay.api
import assay.cli.score_file
import assay.io.blocks
from assay.parallel import executor_for
from cli_helpers import run_captured as cli
from dask_helpers import two_worker_client

distributed = pytest.importorskip("dask.distributed")
WORDS = "the cat sat on a mat with its hat and bat near that flat".split()


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """The shared two-worker LocalCluster (tests/dask_helpers.py)."""
    yield from two_worker_client()


def rows(count: int, seed: int = 5, chances: bool = False) -> list[dict[str, Any]]:
    """``count`` seeded pairs rows of varied lengths (some with empty answers)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        row: dict[str, Any] = {
            "id": f"q{i}",
            "prediction": " ".join(rng.choices(WORDS, k=rng.randint(0, 12))),
            "targets": [" ".join(rng.choices(WORDS, k=rng.randint(0, 12)))],
        }
        if chances:
            row["no_answer_probability"] = round(rng.random(), 3)
        out.append(row)
    return out


def write(path: Path, items: list[dict[str, Any]], ends: tuple[str, ...] = ("\n",)) -> Path:
    """The rows as JSONL, each line ended by one of ``ends`` (seeded), a blank line or two."""
    rng = random.Random(9)
    text = "".join(json.dumps(r) + rng.choice(ends) for r in items)
    path.write_bytes(text.encode("utf-8"))
    return path


def both(args: list[str], address: str, folder: Path) -> tuple[Any, Any]:
    """Run ``assay ARGS`` in process and on the cluster; per-item rows to ``folder``."""
    outputs = []
    for name, extra in (("local", []), ("dask", ["--dask", address])):
        items = folder / f"{name}.jsonl"
        code, out, err = cli(*args, "--per-item", str(items), *extra)
        per_item = items.read_bytes() if items.exists() else None
        errors = [line for line in err.splitlines() if line.startswith("error:")]
        outputs.append((code, out.replace(str(items), "X"), per_item, errors, err))
    return outputs[0], outputs[1]


@pytest.mark.parametrize("metrics", ["f1,rouge_l", "corpus_bleu,chrf"])
def test_blocks_give_the_same_bytes(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, metrics: str
) -> None:
    """Sentence and corpus metrics, intervals and per-item rows: identical, over many blocks.

    The client never reads the pairs: its own pairs reader and block reader are
    replaced by ones that fail, so the pairs can only have been read on the workers.
    """
    pairs = write(tmp_path / "pairs.jsonl", rows(900), ("\n", "\r\n", "\n\n"))
    args = ["score", "-m", metrics, "--file", str(pairs), "--json", "--confidence", "0.9",
            "--resamples", "200"]  # fmt: skip
    local, _ = both(args, client.scheduler.address, tmp_path)
    monkeypatch.setattr(assay.io.blocks, "BLOCK_BYTES", 2_000)

    def refused(*_: Any, **__: Any) -> Any:
        raise AssertionError("the client read the pairs")

    monkeypatch.setattr(assay.cli.score_file, "read_pairs", refused)
    monkeypatch.setattr(assay.io.blocks, "read_block_pairs", refused)
    code, out, per_item, _, err = cli_run(args, client, tmp_path / "dask.jsonl")
    assert local[0] == code == 0, err
    assert json.loads(local[1])["metrics"][0]["n"] == 900
    assert (out, per_item) == (local[1], local[2])
    blocks = pairs.stat().st_size // 2_000 + 1
    assert f"{blocks}/{blocks} partitions done" in err


def cli_run(args: list[str], client: Any, items: Path) -> tuple[int, str, bytes, str, str]:
    """One run on the cluster: code, stdout (item path masked), per-item bytes, stderr."""
    code, out, err = cli(*args, "--per-item", str(items), "--dask", client.scheduler.address)
    return code, out.replace(str(items), "X"), items.read_bytes(), "", err


def test_squad_v2_with_no_answer_chances_in_blocks(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQuAD v2 F1 with no-answer probabilities: the companion EM, the threshold figures."""
    pairs = write(tmp_path / "pairs.jsonl", rows(500, seed=3, chances=True))
    monkeypatch.setattr(assay.io.blocks, "BLOCK_BYTES", 3_000)
    local, remote = both(["score", "squad_v2.f1", "--file", str(pairs), "--json"],
                         client.scheduler.address, tmp_path)  # fmt: skip
    assert local[0] == remote[0] == 0, remote[4]
    assert local[1:3] == remote[1:3]
    assert "best_f1_thresh" in local[1]


def test_block_errors_are_the_local_errors(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bad line late in the file, a repeated id across blocks, mixed no-answer rows.

    Each error names the whole file's line; a row that repeats an id and has a bad
    probability is refused for the repeat, as in process; nothing is written.
    """
    monkeypatch.setattr(assay.io.blocks, "BLOCK_BYTES", 1_500)
    base = rows(400, chances=True)
    bad_json = [json.dumps(r) for r in base]
    bad_json[350] = '{"id": "x", "prediction": "a", "targets": ["b"],}'
    repeat = [dict(r) for r in base]
    repeat[380] = {**repeat[2], "no_answer_probability": 7}
    mixed = [dict(r) for r in base]
    del mixed[300]["no_answer_probability"]
    files = {
        "json": _lines(tmp_path / "json.jsonl", bad_json),
        "repeat": write(tmp_path / "repeat.jsonl", repeat, ("\r\n",)),
        "mixed": write(tmp_path / "mixed.jsonl", mixed, ("\n", "\n\n")),
        "field": write(tmp_path / "field.jsonl", [*base[:390], {"id": "z", "prediction": 3,
                                                                  "targets": ["a"]}]),
    }  # fmt: skip
    seen = {}
    for name, path in files.items():
        (tmp_path / name).mkdir()
        local, remote = both(["score", "f1", "--file", str(path)], client.scheduler.address,
                             tmp_path / name)  # fmt: skip
        assert local[0] == remote[0] != 0, name
        assert remote[3] == local[3] and len(local[3]) == 1, (name, remote[4])
        assert "Traceback" not in remote[4]
        assert remote[2] is None  # no per-item file written
        seen[name] = local[3][0]
    assert f"{files['json']}:351: invalid JSON" in seen["json"]
    assert f"{files['repeat']}:381" in seen["repeat"] and "duplicate id 'q2'" in seen["repeat"]
    assert f"{files['mixed']}:" in seen["mixed"] and "no_answer_probability" in seen["mixed"]
    assert f"{files['field']}:391" in seen["field"] and "field 'prediction'" in seen["field"]


def _lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_other_inputs_stream_from_the_client_a_few_chunks_at_a_time(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A CSV file is read on the client and sent in chunks: same bytes, few chunks held."""
    table = tmp_path / "pairs.csv"
    lines = ["id,prediction,targets"] + [
        f"{r['id']},{r['prediction'] or 'b'},{r['targets'][0] or 'a'}" for r in rows(600)
    ]
    table.write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.setattr(assay.api, "CHUNK_ITEMS", 25)  # 24 chunks
    local, remote = both(["score", "-m", "chrf,f1", "--file", str(table), "--json"],
                         client.scheduler.address, tmp_path)  # fmt: skip
    assert local[0] == remote[0] == 0, remote[4]
    assert local[1:3] == remote[1:3]
    assert "24/24 partitions done" in remote[4]
    held = []
    with executor_for(client) as runner:
        pulled = [0]

        def parts() -> Iterator[int]:
            for n in range(40):
                pulled[0] += 1
                yield n

        for index, value in enumerate(runner.stream(_square, parts(), window=3)):
            held.append(pulled[0] - index)
            assert value == index * index
    assert len(held) == 40 and max(held) <= 3


def _square(n: int) -> int:
    return n * n


def test_assay_cluster_binds_no_dashboard_port() -> None:
    """``local:N``: the scheduler's and workers' HTTP servers on ephemeral loopback ports.

    Dask starts its HTTP server even with ``dashboard_address=None``, then on 8787.
    """

    def bound(dask_scheduler: Any = None, dask_worker: Any = None) -> list[Any]:
        server = (dask_scheduler or dask_worker).http_server
        return [sock.getsockname() for sock in server._sockets.values()]

    with executor_for("local:1") as runner:
        scheduler = runner.client.run_on_scheduler(bound)
        workers = list(runner.client.run(bound).values())
        address = runner.client.scheduler.address
    assert scheduler and workers
    for host, port in [*scheduler, *(w for ws in workers for w in ws)]:
        assert host == "127.0.0.1" and port != 8787
    assert address.startswith("tcp://127.0.0.1:")


@pytest.mark.parametrize("metrics", ["f1,corpus_bleu"])
def test_poisson_bootstrap_same_numbers_local_and_on_the_cluster(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, metrics: str
) -> None:
    """``--bootstrap poisson``: sums made on the workers per block, the local run's numbers.

    In process the sums come from chunks of 4,096 pairs; on the cluster from byte
    blocks: the partitions differ, the document and per-item rows do not.
    """
    pairs = write(tmp_path / "pairs.jsonl", rows(700, seed=21), ("\n", "\r\n"))
    monkeypatch.setattr(assay.io.blocks, "BLOCK_BYTES", 4_000)
    args = ["score", "-m", metrics, "--file", str(pairs), "--json", "--confidence", "0.9",
            "--resamples", "300", "--seed", "4", "--bootstrap", "poisson"]  # fmt: skip
    local, remote = both(args, client.scheduler.address, tmp_path)
    assert local[0] == remote[0] == 0, remote[4]
    assert local[1:3] == remote[1:3]
    document = json.loads(local[1])
    assert document["options"]["bootstrap"] == "poisson"
    for entry in document["metrics"]:
        interval = entry["interval"]
        assert interval["method"] == "poisson" and interval["seed"] == 4
        assert interval["lower"] < entry["value"] < interval["upper"]
    assert "partitions done" in remote[4]
    text = cli("score", "f1", "--file", str(pairs), "--confidence", "0.9", "--bootstrap",
               "poisson", "--resamples", "50")  # fmt: skip
    assert text[0] == 0 and "(Poisson bootstrap, 50 resamples, seed " in text[1]
    refused = cli("score", "f1", "--file", str(pairs), "--bootstrap", "poisson")
    assert refused[0] == 2 and "--bootstrap poisson needs --confidence" in refused[2]
