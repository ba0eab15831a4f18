"""Scale-out on a real Dask ``LocalCluster``: the same bytes as the in-process run.

One cluster (two single-threaded worker processes) serves the module; tests reach it
through the library (a ``Client``), through the CLI (``--dask tcp://…``, its
scheduler address) and, once, through ``--dask local:2`` (a cluster assay starts
and closes itself). Each test compares against the in-process run of the same
inputs, which is the independent reference here: identical files, numbers and errors.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import assay.api
import assay.io.blocks
import assay.structured.api as structured_api
from assay import score_corpus
from assay.errors import AssayError, InputFileError, InvalidOptionError
from assay.evaluation.compare import CompareOptions, result_document
from assay.evaluation.runs import SystemInput, evaluate
from assay.io.bundled import data_path
from assay.parallel import NOT_SHARED, parse_executor, seen_from_client
from assay.structured.api import score_structured
from cli_helpers import run_captured as cli
from dask_helpers import two_worker_client

distributed = pytest.importorskip("dask.distributed")

SAMPLE = data_path("xlsample")
GOLD = [SAMPLE / "qa_single_doc.jsonl", SAMPLE / "qa_cross_doc.jsonl"]


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """The shared two-worker LocalCluster (tests/dask_helpers.py)."""
    yield from two_worker_client()


def write_systems(folder: Path, count: int, seed: int = 7, extra: int = 0) -> list[SystemInput]:
    """``count`` seeded prediction files over the bundled gold ids (and ``extra`` other ids)."""
    ids = [json.loads(line)["question_id"] for g in GOLD for line in g.open(encoding="utf-8")]
    answers = [json.loads(line)["answer"]["value"] for g in GOLD for line in g.open("r")]
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    systems = []
    for n in range(count):
        rows = [
            {"question_id": q, "prediction": a if rng.random() < 0.3 + n / (2 * count) else "x"}
            for q, a in zip(ids, answers, strict=True)
        ] + [{"question_id": f"extra-{n}-{i}", "prediction": "x"} for i in range(extra)]
        path = folder / f"sys{n:02d}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        systems.append(SystemInput(path.stem, (str(path),)))
    return systems


def test_executor_names_are_checked() -> None:
    """Bad executor names fail with one line saying what to give."""
    assert parse_executor(None).kind == "local"
    assert parse_executor("local:3").workers == 3
    assert parse_executor("tcp://10.0.0.1:8786").address == "tcp://10.0.0.1:8786"
    for bad in ("local:0", "local:x", "cluster", "http://host:8786"):
        with pytest.raises(InvalidOptionError, match="local:N|worker count"):
            parse_executor(bad)


@pytest.mark.parametrize("profile", ["assay", "xldocbench"])
def test_evaluate_result_document_identical(client: Any, tmp_path: Path, profile: str) -> None:
    """evaluate(executor=client) gives the local result and the same result document."""
    systems = write_systems(tmp_path, 6)
    local = evaluate(GOLD, systems, profile=profile)
    seen: list[tuple[int, int]] = []
    remote = evaluate(
        GOLD, systems, profile=profile, executor=client,
        partition_progress=lambda done, total: seen.append((done, total)),
    )  # fmt: skip
    assert remote == local
    options = CompareOptions(n_resamples=500)
    assert json.dumps(result_document(remote, options)) == json.dumps(
        result_document(local, options)
    )
    assert seen == [(i, 6) for i in range(1, 7)]


def _eval_args(folder: Path, predictions: Path) -> list[str]:
    return ["eval", "--data-dir", str(SAMPLE), "--predictions", str(predictions),
            "--output", str(folder / "r.json"), "--per-question-csv", str(folder / "pq.csv"),
            "--result-json", str(folder / "res.json"), "--html", str(folder / "r.html"),
            "--markdown", str(folder / "r.md"), "--results-dir", str(folder),
            "--trials", "200"]  # fmt: skip


OUTPUTS = ("r.json", "pq.csv", "res.json", "r.html", "r.md", "results/scores.jsonl")


@pytest.mark.parametrize("profile", ["assay", "xldocbench"])
def test_cli_eval_on_a_scheduler_address_writes_the_same_files(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, profile: str
) -> None:
    """``assay eval --dask tcp://…`` writes byte-identical files and reports progress."""
    write_systems(tmp_path / "preds", 5)
    here, there = tmp_path / "local", tmp_path / "dask"
    chosen = ("--profile", profile)
    code, out_local, _ = cli(*_eval_args(here, tmp_path / "preds"), *chosen)
    assert code == 0
    address = client.scheduler.address
    monkeypatch.setattr(assay.io.blocks, "BLOCK_BYTES", 900)  # the cluster reads blocks
    code, out_dask, err = cli(*_eval_args(there, tmp_path / "preds"), *chosen, "--dask", address)
    assert code == 0, err
    for name in OUTPUTS:
        assert (here / name).read_bytes() == (there / name).read_bytes(), name
    assert out_local.replace(str(here), "X") == out_dask.replace(str(there), "X")
    assert "partitions done" in err and "/5 partitions" not in err  # more partitions than systems


def test_cli_local_cluster_started_and_closed(tmp_path: Path) -> None:
    """``--dask local:2`` starts its own cluster, gives the same files, and closes it."""
    here, there = tmp_path / "local", tmp_path / "dask"
    assert cli(*_eval_args(here, SAMPLE / "predictions"))[0] == 0
    code, _, err = cli(*_eval_args(there, SAMPLE / "predictions"), "--dask", "local:2")
    assert code == 0, err
    for name in OUTPUTS:
        assert (here / name).read_bytes() == (there / name).read_bytes(), name


@pytest.mark.parametrize("profile", ["assay", "xldocbench"])
def test_compare_with_dask(client: Any, tmp_path: Path, profile: str) -> None:
    """``assay compare --dask`` prints the same comparison and writes the same files."""
    write_systems(tmp_path / "preds", 4)

    def args(folder: Path) -> list[str]:
        return ["compare", "--data-dir", str(SAMPLE), "--predictions", str(tmp_path / "preds"),
                "--trials", "300", "--profile", profile,
                "--result-json", str(folder / "res.json"), "--html", str(folder / "r.html"),
                "--markdown", str(folder / "r.md")]  # fmt: skip

    here, there = tmp_path / "local", tmp_path / "dask"
    code, local, _ = cli(*args(here))
    assert code == 0
    code, remote, err = cli(*args(there), "--dask", client.scheduler.address)
    assert code == 0, err
    assert remote.replace(str(there), "X") == local.replace(str(here), "X")
    for name in ("res.json", "r.html", "r.md"):
        assert (here / name).read_bytes() == (there / name).read_bytes(), name
    assert "dask tcp://" in err and "4/4 partitions done" in err


@pytest.mark.parametrize("metric", ["f1", "corpus_bleu", "chrf", "rouge_l"])
def test_score_corpus_identical(client: Any, monkeypatch: pytest.MonkeyPatch, metric: str) -> None:
    """Sentence and corpus metrics: values, statistics and corpus value identical."""
    monkeypatch.setattr(assay.api, "CHUNK_ITEMS", 37)  # many partitions
    rng = random.Random(3)
    words = "the cat sat on a mat with its hat and bat near that flat".split()
    preds = [" ".join(rng.choices(words, k=rng.randint(1, 15))) for _ in range(400)]
    refs = [[" ".join(rng.choices(words, k=rng.randint(1, 15)))] for _ in range(400)]
    local = score_corpus(metric, preds, refs)
    seen: list[int] = []
    remote = score_corpus(
        metric, preds, refs, executor=client, progress=lambda d, t: seen.append(t)
    )
    assert remote == local
    assert seen and set(seen) == {11}


def write_pairs(path: Path, count: int, seed: int = 5) -> Path:
    """A pairs file of ``count`` seeded rows of varied lengths."""
    rng = random.Random(seed)
    words = "the cat sat on a mat with its hat and bat near that flat".split()
    rows = [{"id": str(i), "prediction": " ".join(rng.choices(words, k=rng.randint(1, 12))),
             "targets": [" ".join(rng.choices(words, k=rng.randint(1, 12)))]}
            for i in range(count)]  # fmt: skip
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.mark.parametrize("metric", ["f1", "rouge_l", "corpus_bleu", "chrf"])
def test_score_file_cli(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, metric: str
) -> None:
    """``assay score --file --dask`` prints the same value and signature over many partitions."""
    monkeypatch.setattr(assay.api, "CHUNK_ITEMS", 41)  # 300 rows: 8 partitions
    pairs = write_pairs(tmp_path / "pairs.jsonl", 300)
    local = cli("score", metric, "--file", str(pairs))
    remote = cli("score", metric, "--file", str(pairs), "--dask", client.scheduler.address)
    assert local[0] == remote[0] == 0, remote[2]
    assert local[1] == remote[1]
    assert "8/8 partitions done" in remote[2]
    outputs = []
    for run in ((), ("--dask", client.scheduler.address)):
        folder = tmp_path / f"run{len(outputs)}"
        folder.mkdir()
        code, out, err = cli("score", "-m", f"{metric},f1", "--file", str(pairs), "--json",
                             "--confidence", "0.9", "--resamples", "200",
                             "--per-item", str(folder / "items.jsonl"), *run)  # fmt: skip
        assert code == 0, err
        outputs.append((out.replace(str(folder), "X"), (folder / "items.jsonl").read_bytes()))
    assert outputs[0] == outputs[1]  # --json document (intervals too) and --per-item rows


def test_structured_identical(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Structured scoring: the same report when items are cut into partitions."""
    monkeypatch.setattr(structured_api, "CHUNK_ITEMS", 2)
    base = data_path("structured")
    args = (base / "responses.jsonl", base / "product.schema.json")
    refs = base / "references.jsonl"
    local = score_structured(*args, references=refs).to_dict()
    remote = score_structured(*args, references=refs, executor=client).to_dict()
    assert json.dumps(remote, sort_keys=True) == json.dumps(local, sort_keys=True)


def test_structured_cli_writes_the_same_files(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``assay structured --dask`` writes a byte-identical report and per-item files."""
    monkeypatch.setattr(structured_api, "CHUNK_ITEMS", 3)
    base = data_path("structured")

    def args(folder: Path, per_item: str) -> list[str]:
        return ["structured", "--items", str(base / "responses.jsonl"),
                "--schema", str(base / "product.schema.json"),
                "--references", str(base / "references.jsonl"),
                "--output", str(folder / "report.json"),
                "--per-item", str(folder / per_item)]  # fmt: skip

    here, there = tmp_path / "local", tmp_path / "dask"
    for per_item in ("items.jsonl", "items.csv"):
        code, out_local, _ = cli(*args(here, per_item))
        assert code == 0
        code, out_dask, err = cli(*args(there, per_item), "--dask", client.scheduler.address)
        assert code == 0, err
        assert out_dask.replace(str(there), "X") == out_local.replace(str(here), "X")
        for name in ("report.json", per_item):
            assert (here / name).read_bytes() == (there / name).read_bytes(), name
        assert "partitions done" in err


def test_bad_input_same_error_as_locally(client: Any, tmp_path: Path) -> None:
    """A partition failing on bad input fails the run with the local one-line error."""
    systems = write_systems(tmp_path / "preds", 3)
    broken = Path(systems[1].files[0])
    lines = broken.read_text(encoding="utf-8").splitlines()
    lines[4] = '{"question_id": "x", "prediction": '
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")
    base = ["eval", "--data-dir", str(SAMPLE), "--predictions", str(tmp_path / "preds"),
            "--output", str(tmp_path / "out.json")]  # fmt: skip
    code_local, _, err_local = cli(*base)
    code_dask, _, err_dask = cli(*base, "--dask", client.scheduler.address)
    errors = [line for line in err_dask.splitlines() if line.startswith("error:")]
    assert code_local != 0 and code_dask == code_local
    assert errors == [line for line in err_local.splitlines() if line.startswith("error:")]
    assert errors and f"{broken}:5" in errors[0]
    assert "Traceback" not in err_dask
    assert not (tmp_path / "out.json").exists()


def _break(path: Path, line: int, text: str) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[line - 1] = text
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_first_bad_partition_in_order_wins(client: Any, tmp_path: Path) -> None:
    """Several bad systems: the error is the first in system order, as in process.

    System 1 is broken on its last line (slow to reach); systems 2-5 on line 1 (fast
    to fail), so the cluster sees the later systems fail first.
    """
    systems = write_systems(tmp_path / "preds", 6)
    first = Path(systems[1].files[0])
    _break(first, len(first.read_text(encoding="utf-8").splitlines()), '{"question_id": 3}x')
    for entry in systems[2:]:
        _break(Path(entry.files[0]), 1, "not json")
    base = ["eval", "--data-dir", str(SAMPLE), "--predictions", str(tmp_path / "preds"),
            "--result-json", str(tmp_path / "res.json")]  # fmt: skip
    code_local, _, err_local = cli(*base)
    for _ in range(3):
        code_dask, _, err_dask = cli(*base, "--dask", client.scheduler.address)
        errors = [line for line in err_dask.splitlines() if line.startswith("error:")]
        assert code_dask == code_local != 0
        assert errors == [line for line in err_local.splitlines() if line.startswith("error:")]
        assert str(first) in errors[0]
    assert not (tmp_path / "res.json").exists()


def test_bad_pairs_and_items_same_error(client: Any, tmp_path: Path) -> None:
    """``score --file`` and ``structured`` with a bad line: the local error, nothing written."""
    pairs = write_pairs(tmp_path / "pairs.jsonl", 50)
    _break(pairs, 17, '{"id": "x", "prediction": 3, "targets": ["a"]}')
    items = tmp_path / "items.jsonl"
    good = data_path("structured").joinpath("responses.jsonl").read_text(encoding="utf-8")
    lines = len(good.splitlines())
    items.write_text(good.rstrip("\n") + '\n{"id": "zz", "response": \n', encoding="utf-8")
    schema = data_path("structured") / "product.schema.json"
    runs = (
        ["score", "chrf", "--file", str(pairs)],
        ["structured", "--items", str(items), "--schema", str(schema),
         "--output", str(tmp_path / "s.json")],
    )  # fmt: skip
    seen = []
    for args in runs:
        local = cli(*args)
        remote = cli(*args, "--dask", client.scheduler.address)
        assert remote[0] == local[0] != 0
        errors = [x for x in remote[2].splitlines() if x.startswith("error:")]
        assert errors == [x for x in local[2].splitlines() if x.startswith("error:")]
        assert "Traceback" not in remote[2]
        seen += errors
    assert f"{pairs}:17" in seen[0] and "field 'prediction'" in seen[0]
    assert f"{items}:{lines + 1}" in seen[1]
    assert not (tmp_path / "s.json").exists()


def test_killed_worker_is_survived(client: Any, tmp_path: Path) -> None:
    """SIGKILL of a worker mid-run: Dask reruns its partitions; the result is unchanged.

    A watcher thread kills the worker the moment the scheduler shows it running a
    partition of this run.
    """
    systems = write_systems(tmp_path, 10, seed=11, extra=6_000)  # partitions of ~0.1 s
    local = evaluate(GOLD, systems)
    address, victim = sorted(client.run(os.getpid).items())[0]
    killed: list[list[str]] = []
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set() and not killed:
            busy = client.processing(workers=[address]).get(address, [])
            if any(str(key).startswith("assay-") for key in busy):
                os.kill(victim, signal.SIGKILL)
                killed.append(list(busy))
            time.sleep(0.002)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        remote = evaluate(GOLD, systems, executor=client)
    finally:
        stop.set()
        watcher.join(30)
    assert remote == local
    assert len(killed) == 1 and killed[0]  # killed while running a partition
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # the nanny brings a fresh worker back
        pids = set(client.run(os.getpid).values())
        if len(pids) == 2 and victim not in pids:
            break
        time.sleep(0.5)
    assert victim not in set(client.run(os.getpid).values())


def test_without_dask_one_line_hint(tmp_path: Path) -> None:
    """Without Dask installed, ``--dask`` says how to install it in one line."""
    code = (
        "import sys; sys.modules['dask'] = None; sys.modules['dask.distributed'] = None\n"
        "from assay.cli.main import main\n"
        f"main(['eval', '--data-dir', {str(SAMPLE)!r}, '--predictions', "
        f"{str(SAMPLE / 'predictions')!r}, '--dask', 'local:2'])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode != 0
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert lines == ["error: the --dask option needs Dask: pip install 'assay[dask]'"]


def write_awkward(folder: Path, released: bool) -> list[SystemInput]:
    """Systems whose files hold what block boundaries could get wrong.

    Repeated gold ids far apart (duplicates across blocks), repeated extra ids (the
    second pass of the alignment), blank lines, CRLF line ends and (released
    reading only) lone CRs, a byte-order mark, and a second, small file.
    """
    systems = write_systems(folder, 3, seed=13, extra=40)
    rng = random.Random(17)
    for n, entry in enumerate(systems):
        path = Path(entry.files[0])
        lines = path.read_text(encoding="utf-8").splitlines()
        lines += lines[: 10 + n]  # gold ids again, near the end: duplicates across blocks
        lines += [json.dumps({"question_id": "extra-again", "prediction": "y"})] * 3
        ends = ["\n", "\r\n", "\n\n"] + (["\r"] if released else [])
        text = "".join(line + rng.choice(ends) for line in lines)
        path.write_bytes((b"\xef\xbb\xbf" if released else b"") + text.encode("utf-8"))
    small = folder / "small.jsonl"
    small.write_text(json.dumps({"question_id": "late", "prediction": "z"}) + "\n", "utf-8")
    return [SystemInput(s.name, (*s.files, str(small))) for s in systems]


@pytest.mark.parametrize("profile", ["assay", "xldocbench"])
def test_large_files_read_in_blocks_give_the_same_result(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, profile: str
) -> None:
    """Files cut into byte-range blocks: the same result, result document and warnings."""
    monkeypatch.setattr(assay.io.blocks, "BLOCK_BYTES", 700)
    systems = write_awkward(tmp_path, released=profile == "xldocbench")
    local = evaluate(GOLD, systems, profile=profile)
    seen: list[int] = []
    remote = evaluate(GOLD, systems, profile=profile, executor=client,
                      partition_progress=lambda done, total: seen.append(total))  # fmt: skip
    assert remote == local
    assert remote.warnings == local.warnings
    options = CompareOptions(n_resamples=300)
    assert json.dumps(result_document(remote, options)) == json.dumps(
        result_document(local, options)
    )
    assert local.systems[0].to_dict()["duplicates"], "the files do repeat ids"
    assert seen and seen[0] > 3 * 8  # every large file was cut into many blocks


def _error(**kwargs: Any) -> str:
    with pytest.raises(AssayError) as caught:
        evaluate(GOLD, **kwargs)
    return str(caught.value)


def test_block_errors_are_the_whole_file_errors(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rejected duplicates across blocks, a bad line late in a file, a missing field."""
    monkeypatch.setattr(assay.io.blocks, "BLOCK_BYTES", 500)
    systems = write_awkward(tmp_path / "dups", released=False)
    cases: list[dict[str, Any]] = [
        {"systems": systems, "duplicate_policy": "reject"},
        {"systems": systems, "prediction_field": "no_such_field"},
    ]
    broken = write_systems(tmp_path / "bad", 2, extra=30)
    _break(Path(broken[1].files[0]), 60, '{"question_id": "q", "prediction": 1,}')
    cases.append({"systems": broken})
    for case in cases:
        local = _error(**case)
        assert _error(**case, executor=client) == local
    assert "duplicate prediction id" in _error(**cases[0])
    assert ":60: invalid JSON" in _error(**cases[2])


def test_a_file_only_the_client_sees_is_named_as_not_shared(tmp_path: Path) -> None:
    """A worker's "cannot open" for a file this machine has says to use shared storage."""
    here = tmp_path / "preds.jsonl"
    here.write_text("{}\n", encoding="utf-8")
    problem = "cannot open file (No such file or directory); check the path"
    stated = seen_from_client(InputFileError(str(here), problem))
    assert str(stated) == f"{here}: {NOT_SHARED}"
    missing = InputFileError(str(tmp_path / "gone.jsonl"), problem)
    assert seen_from_client(missing) is missing  # missing here too: the local error
