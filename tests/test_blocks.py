"""Byte-range blocks of a JSONL file: every line read once, line numbers exact.

The reference is the whole file read in one go: ``bytes.split`` for the lines
(and ``io.TextIOWrapper`` universal newlines for the released numbering), and
:func:`assay.io.jsonl.iter_jsonl` for the numbered rows.
"""

from __future__ import annotations

import io
import json
import pickle
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assay.io import blocks
from assay.io.jsonl import iter_jsonl
from assay.io.oddities import Oddities

PIECES = [b'{"id": "a"}', b'{"id": "bb", "x": "\\u00e9"}', b"", b"   ", b"{}", b'{"k": 1}']
ENDS = [b"\n", b"\r\n", b"\r", b"\n\n"]


def _content(draw: st.DrawFn) -> bytes:
    parts = draw(st.lists(st.tuples(st.sampled_from(PIECES), st.sampled_from(ENDS)), max_size=40))
    body = b"".join(piece + end for piece, end in parts)
    return body + draw(st.sampled_from([b"", b'{"id": "last"}']))


content = st.composite(_content)


def _blocks(path: Path, size: int) -> list[blocks.Block]:
    plan = blocks.plan_blocks(str(path), path.stat().st_size, size)
    return blocks.numbered(plan, [blocks.count_line_ends(b) for b in plan])


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=content(), size=st.integers(1, 64))
def test_every_line_is_read_by_exactly_one_block(tmp_path: Path, data: bytes, size: int) -> None:
    """Joining the blocks' lines gives the file back, whatever the block size."""
    path = tmp_path / "f.jsonl"
    path.write_bytes(data)
    lines = [line for b in _blocks(path, size) for line in blocks.iter_block_lines(b)]
    assert b"".join(lines) == data
    assert lines == data.splitlines(keepends=True) or b"\r" in data


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=content(), size=st.integers(1, 64))
def test_first_line_numbers_are_exact(tmp_path: Path, data: bytes, size: int) -> None:
    """Each block's first line number is its first line's number in the whole file."""
    path = tmp_path / "f.jsonl"
    path.write_bytes(data)
    for block in _blocks(path, size):
        with path.open("rb") as handle:
            start, end = blocks.owned_range(handle, block)
        if start == end:
            continue  # owns no line (its range lies inside a longer line)
        before = data[:start]
        assert block.first_line == before.count(b"\n") + 1
        universal = io.TextIOWrapper(io.BytesIO(before), encoding="latin-1", newline=None)
        assert block.first_universal == len(universal.readlines()) + 1


def _rows(path: Path, size: int, released: bool) -> list[tuple[int, dict[str, object]]]:
    found: list[tuple[int, dict[str, object]]] = []
    notes = Oddities() if released else None
    for block in _blocks(path, size):
        rows, error = blocks.read_block_rows(block, None, frozenset({"a", "bb"}), notes)
        assert error is None
        found += [(row.line or 0, {"id": row.id, "text": row.text}) for row in rows]
    return found


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=content(), size=st.integers(1, 64))
def test_block_rows_match_the_whole_file_read(tmp_path: Path, data: bytes, size: int) -> None:
    """Rows of gold ids keep their text; others keep id and line; lines as the whole read."""
    path = tmp_path / "f.jsonl"
    rows = [json.dumps({"id": f"q{i % 7}", "prediction": f"t{i}"}).encode() for i in range(12)]
    tail = data.replace(b"{}", b'{"id": "a"}').replace(b'{"k": 1}', b'{"id": 7}')
    path.write_bytes(b"\n".join(rows) + b"\n" + tail)
    whole = [
        (line, obj) for line, obj in iter_jsonl(path, released=Oddities()) if "id" in obj
    ]  # fmt: skip
    found = _rows(path, size, released=True)
    assert [line for line, _ in found] == [line for line, _ in whole]
    assert [r["id"] for _, r in found] == [str(obj["id"]) for _, obj in whole]


def test_an_error_in_a_late_block_names_the_whole_file_line(tmp_path: Path) -> None:
    """A bad line is reported with its line in the file, as the whole-file read does."""
    path = tmp_path / "p.jsonl"
    lines = [json.dumps({"id": f"q{i}", "prediction": "x" * (i % 9)}) for i in range(200)]
    lines[157] = '{"id": "q157", "prediction": '
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    errors = [
        error
        for block in _blocks(path, 300)
        for _, error in [blocks.read_block_rows(block, None, frozenset(), None)]
        if error is not None
    ]
    assert [e.line for e in errors] == [158]
    assert str(errors[0]).startswith(f"{path}:158: invalid JSON")


def test_only_plain_jsonl_files_are_split(tmp_path: Path) -> None:
    """Compressed, other suffixes and missing files are read whole, as before."""
    import gzip

    plain, packed, other = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.json"
    plain.write_text('{"id": 1}\n', encoding="utf-8")
    packed.write_bytes(gzip.compress(b'{"id": 1}\n'))
    other.write_text("[]", encoding="utf-8")
    assert blocks.splittable(plain)
    assert not blocks.splittable(packed)
    assert not blocks.splittable(other)
    assert not blocks.splittable(tmp_path / "missing.jsonl")


def test_block_rows_travel_compact_and_come_back_as_read(tmp_path: Path) -> None:
    """After pickling, gold-id rows are whole; others keep id, line and a field, no text."""
    path = tmp_path / "p.jsonl"
    lines = [
        '{"id": "x1", "answer": "long text not needed"}',
        "",
        '{"id": "a", "prediction": "kept", "status": "ok"}',
        '{"id": "x2"}',
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    block = blocks.plan_blocks(str(path), path.stat().st_size)[0]
    rows, error = blocks.read_block_rows(block, None, frozenset({"a"}), None)
    back = list(pickle.loads(pickle.dumps(rows)))
    assert error is None and len(rows) == 3
    expected = [("x1", 1, ""), ("a", 3, "kept"), ("x2", 4, "")]
    assert [(r.id, r.line, r.text) for r in back] == expected
    assert back[1].status == "ok"
    assert back[0].field == back[2].field == "answer"  # a field check sees some row with one
