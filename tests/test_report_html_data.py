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


# --- the size budget: long predictions cut to one common length --------------------------

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from assay.report.result.html_data import MIN_CUT, embed_within, water_level  # noqa: E402


@given(st.lists(st.integers(0, 60), max_size=30), st.integers(-5, 2000))
def test_water_level_is_the_largest_level_within_the_total(lengths: list[int], total: int) -> None:
    def used(level: int) -> int:
        return sum(min(n, level) for n in lengths)

    fitting = [level for level in range(0, 62) if used(level) <= total]
    if sum(lengths) <= total:  # everything fits: the longest length
        expected = max(lengths, default=0)
    else:
        expected = max(fitting, default=0)
    assert water_level(lengths, total) == expected


def _verbose(document: dict[str, Any]) -> dict[str, Any]:
    """The demo document with every third prediction a long, varied paragraph."""
    import copy
    import random

    rng = random.Random(7)
    words = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu".split()
    verbose = copy.deepcopy(document)
    k = 0
    for item in verbose["items"]:
        for result in item["results"].values():
            k += 1
            if k % 3 == 0:
                n = rng.randint(80, 400)
                result["prediction"] = " ".join(rng.choice(words) for _ in range(n)) + " ω"
    return verbose


def test_within_the_budget_nothing_is_cut(document: dict[str, Any]) -> None:
    data = {"items": item_columns(_verbose(document))}
    for compress_over in (0, 10**9):
        text, cut = embed_within(data, compress_over, budget=10**9)
        assert cut is None and text == embed(data, compress_over)


@pytest.mark.parametrize("budget", [12_000, 18_000])
def test_over_the_budget_long_predictions_are_cut_to_one_length(
    document: dict[str, Any], budget: int
) -> None:
    data = {"items": item_columns(_verbose(document))}
    full = data["items"]["prediction"]
    assert len(embed(data, 0)) > budget + 100  # the whole texts do not fit
    text, cut = embed_within(data, 0, budget=budget)
    assert cut is not None and len(json.loads(text)["data"]) <= budget
    back = unembed(text)["items"]
    at = back["cut"]["at"]
    assert at == cut.at and MIN_CUT < at < max(len(p) for p in full)
    rows = [i for i, p in enumerate(full) if len(p) > at]
    assert back["cut"]["rows"] == rows and cut.rows == len(rows) and cut.total == len(full)
    assert back["cut"]["lengths"] == [len(full[i]) for i in rows]
    assert back["prediction"] == [p[:at] for p in full]  # cut ones keep their first `at`
    assert {k: v for k, v in back.items() if k not in ("prediction", "cut")} == {
        k: v for k, v in data["items"].items() if k != "prediction"
    }
    assert embed_within(data, 0, budget=budget) == (text, cut)  # deterministic


def test_the_cut_never_goes_below_its_floor(document: dict[str, Any]) -> None:
    data = {"items": item_columns(_verbose(document))}
    full = data["items"]["prediction"]
    full[0] = "x" * MIN_CUT  # exactly as long as the cut: whole, not cut
    text, cut = embed_within(data, 0, budget=1)
    assert cut is not None and cut.at == MIN_CUT
    back = unembed(text)["items"]
    assert back["prediction"] == [p[:MIN_CUT] for p in full]
    assert back["cut"]["rows"] == [i for i, p in enumerate(full) if len(p) > MIN_CUT]
    assert 0 not in back["cut"]["rows"] and cut.rows == len(back["cut"]["rows"])


def test_the_page_says_what_was_cut(document: dict[str, Any]) -> None:
    verbose = _verbose(document)
    html = render_html(verbose, compress_over=0, budget=12_000)
    cut = unembed(_embedded(html))["items"]["cut"]
    note = f'{len(cut["rows"])} of 144 predictions are longer than {cut["at"]} characters'
    assert note in html and "assay-result.json" in html
    assert 'id="items-cut"' not in render_html(verbose, compress_over=0)


@given(st.lists(st.text(max_size=40), min_size=1, max_size=12), st.integers(0, 30))
def test_spliced_json_is_the_json_of_the_cut_data(texts: list[str], at: int) -> None:
    from assay.report.result.html_data import _dumps, _Spliced, _with_predictions

    data = {"items": {"question": list(range(len(texts))), "prediction": texts}, "structured": {}}
    rows = [i for i, t in enumerate(texts) if len(t) > at]
    cut = {"at": at, "rows": rows, "lengths": [len(texts[i]) for i in rows]}
    shown = [t[:at] for t in texts]
    assert _Spliced(data).text(at, rows, cut) == _dumps(_with_predictions(data, shown, cut))
    data["structured"] = {"response": ["\x00assay:predictions\x00"]}  # the marker elsewhere
    spliced = _Spliced(data)
    assert not spliced.exact
    assert spliced.text(at, rows, cut) == _dumps(_with_predictions(data, shown, cut))


def test_compact_json_is_json_dumps_text_and_refuses_nan(document: dict[str, Any]) -> None:
    """The block's JSON (orjson's text where provably the same) is json.dumps's, NaN refused."""
    from assay.report.result.html_data import _dumps

    def reference(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)

    columns = {"items": item_columns(document)}
    columns["items"]["prediction"][0] = HOSTILE + "\x00\x1f\"\\ 1e-05 \ud7ff"
    odd = [1e-5, 2.5e-300, 10**30, {"é": [None, True, -0.0, 1e300]}, ("t", 1), "\ud800"]
    for value in (columns, odd, {"x": odd[:-1]}, [0.1, 1e16, 123.456]):
        assert _dumps(value) == reference(value)
    for bad in (float("nan"), [1.0, float("inf")], {"a": -float("inf")}):
        with pytest.raises(ValueError):
            _dumps(bad)
