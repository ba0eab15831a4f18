"""Issue 31: every file a command reads is protected; inputs read as the README promises.

- The output writer refuses a file the command has read so far, named or not
  (:mod:`assay.io.inputs_read`), before it writes and again just before its replace.
- ``structured --schema`` reads ``-`` (standard input), compressed files and pipes,
  as every other input does; ``-`` given for two inputs is one error line.
- ``assay report`` checks a saved structured report's items as the per-item
  renderers read them: ``items[0].line`` of ``"[]"`` or ``[1]`` is the same one error
  line for Markdown and Parquet (Parquet raised ``ArrowInvalid``).
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from assay.errors import OutputFileError
from assay.io.inputs_read import guarding_inputs
from assay.io.output import TWICE, open_output, stage_file, write_file
from assay.io.sources import open_source
from input_helpers import SRC, error_line
from input_helpers import assay as run

DATA = Path(str(resources.files("assay") / "data" / "structured"))


# -- the mechanism ---------------------------------------------------------------------------


def test_a_file_read_in_the_scope_is_never_replaced(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_bytes(b'{"id": 1}\n')
    link = tmp_path / "other-name.jsonl"
    link.symlink_to(source)
    with guarding_inputs():
        with open_source(link) as handle:  # read by another name
            handle.read()
        for write in (
            lambda: write_file(source, "x", option="--output"),
            lambda: stage_file(source, "x", option="--output"),
        ):
            with pytest.raises(OutputFileError, match=r"is also an input file \(.*other-name"):
                write()
        write_file(tmp_path / "out.json", "fine")  # a file not read is written
    assert source.read_bytes() == b'{"id": 1}\n'
    write_file(source, "replaced\n")  # outside the scope nothing is recorded
    assert source.read_text() == "replaced\n"


def test_a_file_read_after_the_output_opened_is_refused_at_the_replace(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_bytes(b"kept\n")
    with guarding_inputs(), pytest.raises(OutputFileError, match="is also an input file"):
        with open_output(source, option="--per-item") as sink:
            sink.write(b"new rows\n")
            with open_source(source) as handle:  # read while the output is being written
                handle.read()
    assert source.read_bytes() == b"kept\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl"]  # no temporary left


# -- structured --schema ---------------------------------------------------------------------


def structured(*args: str | Path, stdin: bytes | None = None) -> dict[str, Any]:
    done = run("structured", "--items", DATA / "responses.jsonl", *args, stdin=stdin)
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def test_the_schema_reads_from_stdin_compressed_and_pipes(tmp_path: Path) -> None:
    schema = DATA / "product.schema.json"
    by_name = structured("--schema", schema, "--output", "-")
    packed = tmp_path / "schema.json.gz"
    packed.write_bytes(gzip.compress(schema.read_bytes()))
    stdin = structured("--schema", "-", "--output", "-", stdin=schema.read_bytes())
    compressed = structured("--schema", packed, "--output", "-")
    piped = subprocess.run(
        ["bash", "-c", 'exec "$0" -m assay structured --items "$1" --schema <(cat "$2") '
         "--output -", sys.executable, DATA / "responses.jsonl", schema],
        capture_output=True, env={**os.environ, "PYTHONPATH": str(SRC)}, timeout=300,
        check=False,
    )  # fmt: skip
    assert piped.returncode == 0, piped.stderr
    for other in (stdin, compressed, json.loads(piped.stdout)):
        assert other["items"] == by_name["items"]
        assert other["contract"]["sha256"] == by_name["contract"]["sha256"]
    assert stdin["contract"]["source"] == "<stdin>"
    items = (DATA / "responses.jsonl").read_bytes()
    output = tmp_path / "s.json"
    bad = error_line(run("structured", "--items", "-", "--schema", "-", "--output", output,
                        stdin=items))  # fmt: skip
    assert bad == f"error: <stdin>: {TWICE}"


def test_stdin_for_two_inputs_is_one_error_line(tmp_path: Path) -> None:
    done = run("structured", "--items", "-", "--schema", DATA / "product.schema.json",
               "--references", "-", "--output", tmp_path / "s.json",
               stdin=(DATA / "responses.jsonl").read_bytes())  # fmt: skip
    assert error_line(done) == f"error: <stdin>: {TWICE}"


# -- a saved structured report's items -------------------------------------------------------


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("structured") / "report.json"
    done = run("structured", "--example", "--output", out)
    assert done.returncode == 0, done.stderr
    return out


@pytest.mark.parametrize("line", ["[]", [1], -1, 2**63])
def test_a_bad_item_line_is_one_error_line_in_markdown_and_parquet(
    saved: Path, tmp_path: Path, line: Any
) -> None:
    document = json.loads(saved.read_text(encoding="utf-8"))
    document["items"][0]["line"] = line
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(document), encoding="utf-8")
    messages = {
        fmt: error_line(run("report", bad, "--format", fmt, "--output", tmp_path / f"r.{fmt}"))
        for fmt in ("md", "parquet", "csv", "html")
    }
    assert len(set(messages.values())) == 1, messages
    assert messages["md"].startswith(f"error: {bad}: field 'items[0].line': ")


def test_a_saved_structured_report_renders_to_parquet(saved: Path, tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    done = run("report", saved, "--format", "parquet", "--output", tmp_path / "r.parquet")
    assert done.returncode == 0, done.stderr
    items = json.loads(saved.read_text(encoding="utf-8"))["items"]
    table = pq.read_table(tmp_path / "r.parquet")
    assert table.column("line").to_pylist() == [item["line"] for item in items]
    assert table.column("id").to_pylist() == [item["id"] for item in items]


def test_a_lone_surrogate_reaches_parquet_as_its_escape(saved: Path, tmp_path: Path) -> None:
    """As every text output writes it (write_file): pyarrow refused it (UnicodeEncodeError)."""
    import pyarrow.parquet as pq

    text = saved.read_text(encoding="utf-8")
    document = json.loads(text)
    document["items"][0]["response"] = "odd \ud800 reply"
    bad = tmp_path / "surrogate.json"
    bad.write_text(json.dumps(document), encoding="ascii")  # the surrogate as a JSON escape
    done = run("report", bad, "--format", "parquet", "--output", tmp_path / "r.parquet")
    assert done.returncode == 0, done.stderr
    table = pq.read_table(tmp_path / "r.parquet")
    assert table.column("response").to_pylist()[0] == "odd \\ud800 reply"
    markdown = run("report", bad, "--format", "csv", "--output", tmp_path / "r.csv")
    assert markdown.returncode == 0 and "odd \\ud800 reply" in (tmp_path / "r.csv").read_text()
