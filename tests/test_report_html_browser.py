"""The demo's HTML report in a real headless Chromium (selenium + chromedriver).

The per-item tables are drawn a page at a time from embedded data: the tests page
through them to check that sorting and filtering act on every row and that every
row can be reached.

Not skipped when the browser is missing: CI installs it (.ci/run).
"""

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from assay.cli.demo_cmd import sample_dir
from assay.cli.main import main
from assay.report.result.html import render_html

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
EXPECTED_PLOTS = {
    "plot-systems-accuracy", "plot-systems-token_f1", "plot-systems-anls", "plot-matrix",
    "plot-slice-domain", "plot-slice-difficulty", "plot-slice-reasoning_type",
    "plot-slice-answer_format", "plot-slice-evidence_source", "plot-dist-accuracy",
    "plot-dist-token_f1", "plot-dist-anls", "plot-reasons", "plot-crosstab",
}  # fmt: skip


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo")
    try:
        main(["demo", "--out", str(out)])
    except SystemExit as done:
        assert not done.code
    return out


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Any:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", "--window-size=1280,2000",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}",
    ):  # fmt: skip
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    yield driver
    driver.quit()


def _ready(driver: Any, table: str) -> None:
    """Wait until the page's script has drawn ``table`` from the embedded data."""
    WebDriverWait(driver, 20).until(
        lambda d: (
            d.execute_script(
                f"return document.getElementById('{table}').getAttribute('data-ready');"
            )
            == "true"
        )
    )


def _page_rows(driver: Any, table: str) -> list[list[str]]:
    """The drawn page: per row its data index, then each cell's text."""
    script = (
        f"return Array.from(document.querySelectorAll('#{table} tbody tr'))"
        ".map(r => [r.getAttribute('data-row')].concat(Array.from(r.cells, c => c.textContent)));"
    )
    rows: list[list[str]] = driver.execute_script(script)
    return rows


def _every_row(driver: Any, table: str) -> list[list[str]]:
    """Every row of the current view, page by page with the 'next' button."""
    driver.find_element(By.ID, f"{table}-first").click()
    rows = _page_rows(driver, table)
    nxt = driver.find_element(By.ID, f"{table}-next")
    while nxt.is_enabled():
        nxt.click()
        rows += _page_rows(driver, table)
    return rows


def _column_values(driver: Any, index: int, numeric: bool, table: str = "items") -> list[Any]:
    """One column over every page of the current view."""
    values = [row[index + 1] for row in _every_row(driver, table)]
    return [float(v) for v in values] if numeric else values


@pytest.fixture(scope="module")
def deflated(demo: Path) -> Path:
    """The demo's report with its per-item data deflated (as large reports embed it)."""
    document = json.loads((demo / "assay-result.json").read_text("utf-8"))
    path = demo / "report-deflated.html"
    path.write_text(render_html(document, compress_over=0), "utf-8")
    return path


@pytest.mark.parametrize("variant", ["plain", "deflated"])
def test_report_renders_sorts_filters(
    variant: str, demo: Path, deflated: Path, browser: Any, tmp_path: Path
) -> None:
    document = json.loads((demo / "assay-result.json").read_text("utf-8"))
    page = demo / "report.html" if variant == "plain" else deflated
    encoding = "json" if variant == "plain" else "deflate-raw+base64"
    assert f'{{"encoding":"{encoding}"' in page.read_text("utf-8")
    browser.get(page.resolve().as_uri())
    _ready(browser, "items")
    browser.save_screenshot(str(tmp_path / "report-top.png"))

    # Every plot: an inline SVG with drawn elements, a non-zero box, inside the page width.
    width = browser.execute_script("return document.querySelector('main').clientWidth;")
    figures = browser.find_elements(By.CSS_SELECTOR, "figure")
    assert {f.get_attribute("id") for f in figures} == EXPECTED_PLOTS
    for figure in figures:
        svg = figure.find_element(By.CSS_SELECTOR, "svg.plot")
        box = browser.execute_script("return arguments[0].getBBox();", svg)
        assert box["width"] > 0 and box["height"] > 0, figure.get_attribute("id")
        shown = browser.execute_script("return arguments[0].getBoundingClientRect();", svg)
        assert 0 < shown["width"] <= width + 0.5, figure.get_attribute("id")
        drawn = svg.find_elements(By.CSS_SELECTOR, "rect, circle, line")
        assert drawn, figure.get_attribute("id")
        assert figure.find_element(By.TAG_NAME, "figcaption").text.strip()

    # One page of 100 rows is drawn; the table holds one row per question x system.
    expected = {
        (item["question_id"], name, f"{result['accuracy']:.3f}", result["prediction"])
        for item in document["items"]
        for name, result in item["results"].items()
    }
    assert len(expected) == 3 * 48
    assert len(_page_rows(browser, "items")) == 100
    assert browser.find_element(By.ID, "items-count").text == "144"
    assert browser.find_element(By.ID, "items-pages").text == "2"

    # Every item is reachable by paging (25 per page: 6 pages), each exactly once.
    Select(browser.find_element(By.ID, "items-page-size")).select_by_value("25")
    assert browser.find_element(By.ID, "items-pages").text == "6"
    rows = _every_row(browser, "items")
    assert sorted(int(r[0]) for r in rows) == list(range(144))
    assert {(r[1], r[2], r[5], r[8]) for r in rows} == expected
    # Jump to a page by number.
    box = browser.find_element(By.ID, "items-page")
    box.clear()
    box.send_keys("3\n")
    assert [int(r[0]) for r in _page_rows(browser, "items")] == list(range(50, 75))

    # Sort by accuracy (column 4) over all pages: ascending, then descending.
    header = browser.find_elements(By.CSS_SELECTOR, "#items thead th")[4]
    assert header.text == "accuracy"
    header.click()
    assert header.get_attribute("aria-sort") == "ascending"
    values = _column_values(browser, 4, numeric=True)
    assert values == sorted(values) and values[0] == 0.0 and len(values) == 144
    header.click()
    values = _column_values(browser, 4, numeric=True)
    assert values == sorted(values, reverse=True) and values[0] == 1.0
    # Sort by question id (column 0, text).
    browser.find_elements(By.CSS_SELECTOR, "#items thead th")[0].click()
    ids = _column_values(browser, 0, numeric=False)
    assert ids == sorted(ids) and len(ids) == 144

    # Filter: only one system's rows remain (over all pages); the counter follows.
    box = browser.find_element(By.ID, "items-filter")
    box.send_keys("cirrus-mini")
    cirrus = sum(1 for item in document["items"] if "cirrus-mini" in item["results"])
    assert browser.find_element(By.ID, "items-count").text == str(cirrus) == "48"
    rows = _every_row(browser, "items")
    assert len(rows) == 48 and {r[2] for r in rows} == {"cirrus-mini"}
    assert [r[1] for r in rows] == sorted(r[1] for r in rows)  # the sort still holds
    box.clear()
    box.send_keys("s-S01")
    assert len(_every_row(browser, "items")) == 3  # one question, three systems
    box.clear()
    box.send_keys("no such text anywhere")
    assert browser.find_element(By.ID, "items-count").text == "0"
    assert _page_rows(browser, "items") == []
    assert browser.find_element(By.ID, "items-status").text == "no row matches"

    browser.save_screenshot(str(tmp_path / "report.png"))
    assert (tmp_path / "report.png").stat().st_size > 10_000
    severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert severe == []


STRUCTURED_HEADERS = [
    "id", "bucket", "format", "format reasons", "would pass if unwrapped", "fact status",
    "fact reason", "supported", "contradicted", "insufficient", "judge_failed",
    "end-to-end pass", "response",
]  # fmt: skip


def _visible(driver: Any, table: str) -> list[Any]:
    return _every_row(driver, table)


def test_structured_table_sorts_filters(demo: Path, browser: Any, tmp_path: Path) -> None:
    items = json.loads((demo / "assay-result.json").read_text("utf-8"))["structured"]["items"]
    browser.get((demo / "report.html").resolve().as_uri())
    _ready(browser, "structured-items")
    headers = browser.find_elements(By.CSS_SELECTOR, "#structured-items thead th")
    assert [h.text.replace("\n", " ") for h in headers] == STRUCTURED_HEADERS
    assert len(_visible(browser, "structured-items")) == len(items) == 30

    # Numeric sort on the contradicted count (column 8), both directions.
    counts = sorted(i["fact"]["counts"]["contradicted"] for i in items)
    browser.execute_script("arguments[0].scrollIntoView();", headers[8])
    headers[8].click()
    assert _column_values(browser, 8, True, "structured-items") == counts
    headers[8].click()
    assert _column_values(browser, 8, True, "structured-items") == counts[::-1]
    # Text sort on the format verdict (column 2): every fail before every pass.
    headers[2].click()
    verdicts = _column_values(browser, 2, False, "structured-items")
    assert verdicts == sorted(verdicts) and set(verdicts) == {"fail", "pass"}

    # Filter on a reason code: exactly the items carrying it remain; the counter follows.
    fenced = sum(1 for i in items if "fenced_json" in i["format"]["reasons"])
    box = browser.find_element(By.ID, "structured-items-filter")
    box.send_keys("fenced_json")
    assert len(_visible(browser, "structured-items")) == fenced == 2
    assert browser.find_element(By.ID, "structured-items-count").text == "2"
    box.clear()
    box.send_keys("no_reference")
    assert len(_visible(browser, "structured-items")) == 1

    # A long response scrolls inside its cell instead of stretching the row.
    box.clear()
    box.send_keys("p")  # every id starts with p: all rows back
    heights = browser.execute_script(
        "return Array.from(document.querySelectorAll('#structured-items tbody tr'))"
        ".map(r => r.getBoundingClientRect().height);"
    )
    longest = max(len(i.get("response", "")) for i in items)
    assert longest > 300 and max(heights) < 160
    browser.save_screenshot(str(tmp_path / "structured.png"))
    severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert severe == []


@pytest.fixture(scope="module")
def nine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A comparison of nine systems (the demo's three answer files, three names each)."""
    out = tmp_path_factory.mktemp("nine")
    source = sample_dir()
    systems = [
        f"--system=s{k}-{f.stem}={f}"
        for k in range(3)
        for f in sorted((source / "predictions").glob("*.jsonl"))
    ]
    args = ["compare", "--data-dir", str(source), *systems, "--trials", "1000",
            "--html", str(out / "r.html")]  # fmt: skip
    try:
        main(args)
    except SystemExit as done:
        assert not done.code
    return out / "r.html"


def test_many_systems_get_a_pair_list_and_distinct_colours(nine: Path, browser: Any) -> None:
    browser.get(nine.resolve().as_uri())
    _ready(browser, "items")
    # Nine systems: no 9 x 9 matrix; the sortable pair list holds all 36 pairs.
    assert browser.find_elements(By.ID, "plot-matrix") == []
    rows = browser.find_elements(By.CSS_SELECTOR, "#pairs tbody tr")
    assert len(rows) == 9 * 8 // 2
    header = browser.find_elements(By.CSS_SELECTOR, "#pairs thead th")[2]
    assert header.text == "Holm-adjusted p"
    header.click()
    values = browser.execute_script(
        "return Array.from(document.querySelectorAll('#pairs tbody tr'))"
        ".map(r => parseFloat(r.cells[2].getAttribute('data-value')));"
    )
    assert values == sorted(values)
    # Each system's dot is drawn differently: nine distinct (fill, outline) pairs.
    marks = browser.execute_script(
        "return Array.from(document.querySelectorAll('#plot-systems-accuracy circle'))"
        ".map(c => c.getAttribute('fill') + ' ' + c.getAttribute('stroke'));"
    )
    assert len(marks) == 9 and len(set(marks)) == 9
    # And each system's bar in a slice plot (fill, opacity) differs from the others'.
    swatches = browser.execute_script(
        "return Array.from(document.querySelectorAll('#plot-slice-domain rect[width=\"10\"]'))"
        ".map(r => r.getAttribute('fill') + ' ' + r.getAttribute('fill-opacity'));"
    )
    assert len(swatches) == 9 and len(set(swatches)) == 9
    assert browser.find_element(By.ID, "items-count").text == str(9 * 48)


HOSTILE = "</script><script>document.title='owned'</script> <!-- & &amp; \u2028 ’"


@pytest.mark.parametrize("compress_over", [0, 10**9])
def test_hostile_text_is_shown_as_text(
    demo: Path, browser: Any, tmp_path: Path, compress_over: int
) -> None:
    document = json.loads((demo / "assay-result.json").read_text("utf-8"))
    first = next(iter(document["items"][0]["results"]))
    document["items"][0]["results"][first]["prediction"] = HOSTILE
    page = tmp_path / "hostile.html"
    page.write_text(render_html(document, compress_over=compress_over), "utf-8")
    browser.get(page.resolve().as_uri())
    _ready(browser, "items")
    assert browser.title == "assay report"
    assert _page_rows(browser, "items")[0][8] == HOSTILE


def test_cut_predictions_are_marked_and_filterable(
    demo: Path, browser: Any, tmp_path: Path
) -> None:
    """Over the size budget, long predictions show their first characters and a mark."""
    import random

    document = json.loads((demo / "assay-result.json").read_text("utf-8"))
    rng = random.Random(3)
    words = "alpha beta gamma delta epsilon zeta eta theta iota kappa".split()
    full = []
    for k, item in enumerate(document["items"]):
        for result in item["results"].values():
            if k % 2 == 0:
                result["prediction"] = f"answer {len(full)} " + " ".join(
                    rng.choice(words) for _ in range(rng.randint(100, 300))
                )
            full.append(result["prediction"])
    page = tmp_path / "cut.html"
    page.write_text(render_html(document, compress_over=0, budget=12_000), "utf-8")
    browser.get(page.resolve().as_uri())
    _ready(browser, "items")
    note = browser.find_element(By.ID, "items-cut").text
    at = int(note.split("longer than ")[1].split(" ")[0])
    cut = [i for i, p in enumerate(full) if len(p) > at]
    assert note.startswith(f"{len(cut)} of {len(full)} predictions") and cut
    expected = {
        i: p if len(p) <= at else f"{p[:at]}… [cut: first {at} of {len(p)} characters]"
        for i, p in enumerate(full)
    }
    shown = {int(row[0]): row[8] for row in _every_row(browser, "items")}
    assert shown == expected
    target = cut[len(cut) // 2]
    box = browser.find_element(By.ID, "items-filter")
    box.send_keys(full[target][: len(f"answer {target} ")])  # the id word is unique
    rows = _every_row(browser, "items")
    assert [int(r[0]) for r in rows] == [target] and rows[0][8] == expected[target]
