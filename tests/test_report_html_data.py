"""The HTML report's embedded per-item data: complete, script-safe, deterministic."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assay.cli.main import main
from assay.report.result.html import render_html
from assay.report.result.html_data import embed, item_columns, thousandths, unembed

HOSTILE = "</script><script>alert(1)</script> <!-- & &amp; \u2028 \u2029 ’"


@pytest.fixture(scope="module")
def document(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("demo")
    try:
        main(["demo", "--out", str(out)])
    except SystemExit as done:
        assert not done.code
    return dict(json.loads((out / "assay-result.json").read_text("utf-8")))


def _embedded(html: str) -> str:
    start = html.index('<script type="application/json" id="assay-data">')
    start = html.index(">", start) + 1
    return html[start : html.index("</script>", start)]


def test_thousandths_are_the_three_decimals_python_prints() -> None:
    for value, expected in ((0.0, 0), (1.0, 1000), (2 / 3, 667), (0.1234, 123), (0.9996, 1000)):
        assert thousandths(value) == expected == int(f"{value:.3f}".replace(".", ""))
    assert thousandths(float("nan")) is None


def test_every_row_once_with_its_values(document: dict[str, Any]) -> None:
    data = item_columns(document)
    rows = [
        (data["questions"]["id"][q], data["systems"][s], data["codes"]["status"][st],
         data["codes"]["bucket"][b], data["prediction"][i],
         tuple(column[i] for column in data["scores"]))
        for i, (q, s, st, b) in enumerate(
            zip(data["question"], data["system"], data["status"], data["bucket"], strict=True)
        )
    ]  # fmt: skip
    expected = [
        (item["question_id"], name, r["status"], r["bucket"], r["prediction"],
         tuple(round(r[m] * 1000) for m in document["metrics"]))
        for item in document["items"]
        for name, r in item["results"].items()
    ]  # fmt: skip
    assert rows == expected and len(rows) == 144


@pytest.mark.parametrize("compress_over", [0, 10**9])
def test_embedding_round_trips_and_cannot_break_out(
    document: dict[str, Any], compress_over: int
) -> None:
    first = next(iter(document["items"][0]["results"]))
    document["items"][0]["results"][first]["prediction"] = HOSTILE
    data = {"items": item_columns(document)}
    text = embed(data, compress_over)
    assert unembed(text) == data
    assert "<" not in text and ">" not in text and "&" not in text
    assert "\u2028" not in text and "\u2029" not in text
    html = render_html(document, compress_over=compress_over)
    assert html == render_html(document, compress_over=compress_over)  # byte-identical
    embedded = _embedded(html)
    assert unembed(embedded)["items"] == data["items"]
    assert html.count("</script>") == 2 and "alert(1)" not in html.replace(embedded, "")


def test_large_data_are_deflated_and_smaller(document: dict[str, Any], tmp_path: Path) -> None:
    plain = render_html(document, compress_over=10**9)
    packed = render_html(document, compress_over=0)
    assert '{"encoding":"json"' in plain and '{"encoding":"deflate-raw+base64"' in packed
    assert len(packed) < len(plain)
    assert unembed(_embedded(plain)) == unembed(_embedded(packed))
