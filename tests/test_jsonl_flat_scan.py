"""The flat-row scan of JSONL reading (``jsonl._flat_object``) against the general decoder."""

from __future__ import annotations

import io
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from assay.errors import InputFileError
from assay.io import jsonl

_KEYS = st.sampled_from(["question_id", "prediction", "status", "id", "", "é", "a\\u0000"])
_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**20), 10**20),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=5),
)  # fmt: skip
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=2), st.dictionaries(st.text(max_size=2), inner, max_size=2)
    ),
    max_leaves=4,
)
_ODD = st.sampled_from([
    "", "\n", "\r\n", " \n", "\t", " x", "\u00a0\n", ",", "}", "\f\n", "\r",
])  # fmt: skip


@st.composite
def _lines(draw: st.DrawFn) -> str:
    pairs = draw(st.lists(st.tuples(_KEYS, _VALUES), max_size=4))
    body = ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in pairs)
    if draw(st.booleans()):
        body = body.replace("1", draw(st.sampled_from(["NaN", "1e999", "Infinity", "1"])), 1)
    lead = draw(st.sampled_from(["", " ", "\t", "["]))
    return lead + "{" + body + "}" + draw(_ODD)


def _general(line: str) -> object:
    try:
        return ("ok", repr(jsonl._DECODER.decode(line)))
    except Exception as exc:  # noqa: BLE001  (any failure: the fast scan must not accept it)
        return ("error", type(exc).__name__)


@settings(max_examples=1500, deadline=None)
@given(_lines())
def test_flat_object_is_the_general_decoding_or_declines(line: str) -> None:
    """Accepted lines decode exactly as ``_DECODER.decode`` (values and their types)."""
    fast = jsonl._flat_object(line)
    if fast is not None:
        assert _general(line) == ("ok", repr(fast))


def _read(text: str) -> list[object]:
    try:
        return list(jsonl.iter_jsonl_stream(io.BytesIO(text.encode("utf-8")), "f.jsonl"))
    except (InputFileError, ValueError) as exc:  # as the general path lets either out
        return [f"{type(exc).__name__}: {exc}"]


def _read_general(text: str) -> list[object]:
    """Every non-blank line through ``parse_json_object``, as before the flat scan."""
    rows: list[object] = []
    for number, line in enumerate(io.BytesIO(text.encode("utf-8")), start=1):
        decoded = line.decode("utf-8")
        if not decoded.strip(" \t\n\r\f\v\x1c\x1d\x1e\x1f\x85\u00a0") or decoded.isspace():
            continue
        try:
            rows.append((number, jsonl.parse_json_object(decoded, "f.jsonl", number)))
        except (InputFileError, ValueError) as exc:
            return [f"{type(exc).__name__}: {exc}"]
    return rows


@settings(max_examples=400, deadline=None)
@given(st.lists(_lines(), min_size=1, max_size=5))
def test_stream_reads_as_the_general_path(lines: list[str]) -> None:
    """Rows and the first error of a stream are those of reading each line the general way."""
    text = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
    got, expected = _read(text), _read_general(text)
    if expected and isinstance(expected[-1], str):  # an error: the same message, first
        assert got == [expected[-1]]
    else:
        assert [(n, repr(v)) for n, v in got] == [(n, repr(v)) for n, v in expected]  # type: ignore[misc]


def test_usual_rows_take_the_flat_scan_and_nested_or_repeated_ones_do_not() -> None:
    """The usual prediction row is read by the flat scan; nesting and repeats are left."""
    row = '{"question_id": "q1", "prediction": "Paris", "score": 0.5, "n": 3}\n'
    assert jsonl._flat_object(row) == {"question_id": "q1", "prediction": "Paris",
                                       "score": 0.5, "n": 3}  # fmt: skip
    assert jsonl._flat_object('{"a": {"b": 1}}\n') is None
    assert jsonl._flat_object('{"a": [1, 2]}\n') is None
    assert jsonl._flat_object('{"a": 1, "a": 2}\n') is None
    assert jsonl._flat_object('{"a": 1} x\n') is None
    assert jsonl._flat_object('{"a": NaN}\n') is None
