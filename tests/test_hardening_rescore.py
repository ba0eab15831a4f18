"""Issue 31: `assay rescore` loses nothing and reads what the README promises.

The logs are the ones the real tools wrote (the ``harness_logs`` fixture of
tests/test_rescore.py: lm-eval's CLI with ``--log_samples``, inspect_ai's ``eval()``);
each case changes one thing in them and runs a real ``assay`` process:

- an output onto a file the command reads without naming it (a samples file inside
  the folder given, the results file beside the samples file) is refused, the file
  unchanged;
- a sample epoch (inspect_ai) or a document under one filter (lm-eval) logged twice
  is one error line, not two rows of one score;
- ``.eval`` archives holding what inspect_ai never writes (an encrypted member,
  method 99, flag bit 5, a name that is not UTF-8 with the UTF-8 flag) and harness
  JSON with a 5,000-digit integer are one error line each; a Zstandard member that
  expands to 128 MiB is refused while streaming, the peak memory staying near a
  normal run's;
- a pipe (``<(cat log)``) or a FIFO is read once, as standard input is.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

import pytest

from input_helpers import SRC, error_line
from input_helpers import assay as run
from test_rescore import harness_logs  # noqa: F401 - the module-scoped fixture


def digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def copied_run(samples: Path, tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    """The lm-eval run folder of ``samples`` copied: the folder, its samples file, digests."""
    run_dir = tmp_path / "run"
    shutil.copytree(samples.parent, run_dir)
    return run_dir, run_dir / samples.name, digest(run_dir)


# -- outputs onto files read but not named ---------------------------------------------------


def test_an_output_onto_a_samples_file_inside_the_folder_is_refused(
    harness_logs: dict[str, Path], tmp_path: Path  # noqa: F811
) -> None:
    run_dir, samples, before = copied_run(harness_logs["choices"], tmp_path)
    message = error_line(run("rescore", f"{run_dir}/", "-m", "f1", "--per-item", samples))
    assert message.startswith(f"error: {samples}: field '--per-item': is also an input file")
    assert digest(run_dir) == before


def test_an_output_onto_the_results_file_beside_the_samples_is_refused(
    harness_logs: dict[str, Path], tmp_path: Path  # noqa: F811
) -> None:
    run_dir, samples, before = copied_run(harness_logs["samples"], tmp_path)
    results = run_dir / harness_logs["results"].name
    message = error_line(run("rescore", samples, "-m", "f1", "--output", results))
    assert message.startswith(f"error: {results}: field '--output': is also an input file")
    assert digest(run_dir) == before
    link = tmp_path / "results-link.json"  # another name for it: the same file
    link.symlink_to(results)
    message = error_line(run("rescore", samples, "-m", "f1", "--per-item", link))
    assert "is also an input file" in message and digest(run_dir) == before
    fine = run("rescore", samples, "-m", "f1", "--output", tmp_path / "out.json")
    assert fine.returncode == 0, fine.stderr  # a file it does not read is written


# -- duplicate samples -----------------------------------------------------------------------


def test_an_inspect_sample_epoch_logged_twice_is_one_error_line(
    harness_logs: dict[str, Path], tmp_path: Path  # noqa: F811
) -> None:
    document = json.loads(harness_logs["json"].read_text(encoding="utf-8"))
    first = next(s for s in document["samples"] if s["id"] == "q1" and s["epoch"] == 1)
    failed = {**first, "error": {"message": "boom", "traceback": "", "traceback_ansi": ""}}
    document["samples"].append(failed)
    bad = tmp_path / "twice.json"
    bad.write_text(json.dumps(document), encoding="utf-8")
    where = len(document["samples"]) - 1
    message = error_line(run("rescore", bad, "-m", "f1", "--per-item", tmp_path / "rows.jsonl"))
    assert message.startswith(f"error: {bad} (samples[{where}]): field 'id': sample 'q1' epoch 1")
    assert f"is also samples[{document['samples'].index(first)}];" in message
    assert not (tmp_path / "rows.jsonl").exists()


def test_an_eval_archive_with_a_sample_epoch_twice_is_one_error_line(
    harness_logs: dict[str, Path], tmp_path: Path  # noqa: F811
) -> None:
    members = read_members(harness_logs["eval"])
    members["samples/q1_epoch_1_again.json"] = members["samples/q1_epoch_1.json"]
    bad = tmp_path / "twice.eval"
    write_archive(bad, members)
    message = error_line(run("rescore", bad, "-m", "f1"))
    assert "sample 'q1' epoch 1 is also samples/q1_epoch_1.json" in message


def test_an_lm_eval_document_twice_under_one_filter_is_one_error_line(
    harness_logs: dict[str, Path], tmp_path: Path  # noqa: F811
) -> None:
    lines = harness_logs["samples"].read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    again = {**first, "filtered_resps": ["something else entirely"]}
    bad = tmp_path / harness_logs["samples"].name
    bad.write_text("\n".join([*lines, json.dumps(again)]) + "\n", encoding="utf-8")
    message = error_line(run("rescore", bad, "-m", "f1", "--per-item", tmp_path / "rows.jsonl"))
    assert message.startswith(f"error: {bad}:{len(lines) + 1}: field 'doc_id': doc_id "
                              f"{first['doc_id']} under filter {first['filter']!r} is also on "
                              "line 1")  # fmt: skip


# -- archives inspect_ai never writes --------------------------------------------------------


def read_members(path: Path) -> dict[str, bytes]:
    """The archive's members, read by Python's zipfile taught method 93 (zipfile-zstd)."""
    import zipfile_zstd  # noqa: F401 - registers the Zstandard method with zipfile

    with zipfile.ZipFile(path) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


def write_archive(path: Path, members: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED):
    with zipfile.ZipFile(path, "w", method) as archive:
        for name, data in members.items():
            archive.writestr(name, data)


LOCAL, CENTRAL = b"PK\x03\x04", b"PK\x01\x02"


def patch(data: bytes, member: bytes, **fields: int | bytes) -> bytes:
    """Change one member's header fields, in its local header and its directory entry.

    ``flags`` (or-ed in), ``method``, ``size`` (uncompressed), ``name`` (same length).
    """
    out = bytearray(data)
    name = member
    spots = [at for at in range(len(out)) if out.startswith(name, at)]
    for at in spots:
        if out[at - 30 : at - 26] == LOCAL:
            base, offsets = at - 30, {"flags": 6, "method": 8, "size": 22}
        elif out[at - 46 : at - 42] == CENTRAL:
            base, offsets = at - 46, {"flags": 8, "method": 10, "size": 24}
        else:
            continue
        for key, value in fields.items():
            if key == "name":
                assert isinstance(value, bytes) and len(value) == len(name)
                out[at : at + len(name)] = value
                continue
            assert isinstance(value, int)
            width = "<L" if key == "size" else "<H"
            spot = base + offsets[key]
            old = struct.unpack_from(width, out, spot)[0]
            struct.pack_into(width, out, spot, old | value if key == "flags" else value)
    return bytes(out)


MEMBER = b"samples/q1_epoch_1.json"


@pytest.fixture(scope="module")
def deflated(harness_logs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> bytes:  # noqa: F811
    path = tmp_path_factory.mktemp("deflated") / "log.eval"
    write_archive(path, read_members(harness_logs["eval"]))
    return path.read_bytes()


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"flags": 1 << 0}, "member 'samples/q1_epoch_1.json' is encrypted"),
        ({"method": 99}, "member 'samples/q1_epoch_1.json' uses compression method 99 (WinZip "
                         "AES encryption)"),
        ({"flags": 1 << 5}, "member 'samples/q1_epoch_1.json' holds compressed patched data"),
        ({"flags": 1 << 11, "name": b"samples/\xff1_epoch_1.json"},
         "a member name is not UTF-8 although the archive says it is"),
    ],
)  # fmt: skip
def test_what_an_eval_archive_never_holds_is_one_error_line(
    deflated: bytes, tmp_path: Path, fields: dict[str, int | bytes], expected: str
) -> None:
    bad = tmp_path / "odd.eval"
    bad.write_bytes(patch(deflated, MEMBER, **fields))
    message = error_line(run("rescore", bad, "-m", "f1"))
    assert message.startswith(f"error: {bad}") and expected in message, message


BOMB = 128 << 20


def peak_rss_kib(*args: str | Path) -> tuple[int, subprocess.CompletedProcess[bytes]]:
    """Peak resident memory of ``python -m assay ARGS`` (a wrapper's only child)."""
    wrapper = (
        "import resource, subprocess, sys\n"
        "done = subprocess.run([sys.executable, '-m', 'assay', *sys.argv[1:]],"
        " capture_output=True)\n"
        "sys.stdout.buffer.write(done.stderr)\n"
        "sys.stderr.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))\n"
        "sys.exit(done.returncode)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run([sys.executable, "-c", wrapper, *map(str, args)], env=env,
                          capture_output=True, timeout=300, check=False)  # fmt: skip
    shown = subprocess.CompletedProcess(done.args, done.returncode, b"", done.stdout)
    return int(done.stderr), shown


def test_a_zstd_member_expanding_past_its_size_is_refused_while_streaming(
    harness_logs: dict[str, Path], tmp_path: Path  # noqa: F811
) -> None:
    import zstandard

    members = read_members(harness_logs["eval"])
    compressor = zstandard.ZstdCompressor().compressobj()
    block = b" " * (1 << 20)
    frame = b"".join(compressor.compress(block) for _ in range(BOMB // len(block)))
    frame += compressor.flush()
    assert len(frame) < 1 << 20  # a small member that expands to 128 MiB
    members[MEMBER.decode()] = frame
    stored = tmp_path / "stored.eval"
    write_archive(stored, members, zipfile.ZIP_STORED)
    bomb = tmp_path / "bomb.eval"
    size = len(read_members(harness_logs["eval"])[MEMBER.decode()])  # what it says it holds
    bomb.write_bytes(patch(stored.read_bytes(), MEMBER, method=93, size=size))
    peak, done = peak_rss_kib("rescore", bomb, "-m", "f1")
    message = error_line(done)
    assert f"member 'samples/q1_epoch_1.json' is corrupt (it expands past the {size:,} bytes" in (
        message
    )
    normal, fine = peak_rss_kib("rescore", harness_logs["eval"], "-m", "f1")
    assert fine.returncode == 0
    print(f"peak RSS: normal log {normal} KiB, 128 MiB member {peak} KiB")
    assert peak < normal + (32 << 10), (normal, peak)  # far below the 128 MiB it expands to


def test_harness_json_with_an_integer_past_the_digit_limit_is_one_error_line(
    harness_logs: dict[str, Path], tmp_path: Path  # noqa: F811
) -> None:
    text = harness_logs["json"].read_text(encoding="utf-8")
    document = json.loads(text)
    document["samples"][0]["epoch"] = "@@"
    bad = tmp_path / "huge.json"
    bad.write_text(json.dumps(document).replace('"@@"', "9" * 5000), encoding="utf-8")
    message = error_line(run("rescore", bad, "-m", "f1"))
    assert message.startswith(f"error: {bad}:1: field 'samples[0].epoch': the integer ")
    assert "has 5,000 digits" in message
    lines = harness_logs["samples"].read_text(encoding="utf-8").splitlines()
    row = json.loads(lines[1])
    row["doc_id"] = "@@"
    samples = tmp_path / harness_logs["samples"].name
    body = [lines[0], json.dumps(row).replace('"@@"', "1" * 4301)]
    samples.write_text("\n".join(body) + "\n", encoding="utf-8")
    message = error_line(run("rescore", samples, "-m", "f1"))
    assert message.startswith(f"error: {samples}:2: field 'doc_id': the integer ")


# -- pipes and FIFOs are read once -----------------------------------------------------------


def test_a_pipe_or_fifo_log_is_read_once(harness_logs: dict[str, Path], tmp_path: Path) -> None:  # noqa: F811
    by_name = run("rescore", harness_logs["json"], "-m", "f1", "--json")
    assert by_name.returncode == 0, by_name.stderr
    expected = json.loads(by_name.stdout)["logs"][0]["metrics"]
    for kind in ("json", "eval"):
        fifo = tmp_path / f"log-{kind}"
        os.mkfifo(fifo)
        data = harness_logs[kind].read_bytes()
        writer = threading.Thread(target=fifo.write_bytes, args=(data,), daemon=True)
        writer.start()
        done = run("rescore", fifo, "-m", "f1", "--json")
        writer.join(10)
        assert done.returncode == 0, done.stderr
        log = json.loads(done.stdout)["logs"][0]
        assert log["metrics"] == expected and log["source"]["path"] == str(fifo)
    shell = subprocess.run(
        ["bash", "-c", f'"{sys.executable}" -m assay rescore <(cat "{harness_logs["eval"]}") '
         "-m f1 --json"],
        capture_output=True, env={**os.environ, "PYTHONPATH": str(SRC)}, timeout=300,
        check=False,
    )  # fmt: skip
    assert shell.returncode == 0, shell.stderr
    assert json.loads(shell.stdout)["logs"][0]["metrics"] == expected
