"""The demo's HTML report in a real headless Chromium (selenium + chromedriver).

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

from assay.cli.main import main

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


def _column_values(driver: Any, index: int, numeric: bool, table: str = "items") -> list[Any]:
    read = "getAttribute('data-value')" if numeric else "textContent"
    script = (
        f"return Array.from(document.querySelectorAll('#{table} tbody tr'))"
        f".map(r => r.cells[{index}].{read});"
    )
    values = driver.execute_script(script)
    return [float(v) for v in values] if numeric else values


def test_report_renders_sorts_filters(demo: Path, browser: Any, tmp_path: Path) -> None:
    document = json.loads((demo / "assay-result.json").read_text("utf-8"))
    browser.get((demo / "report.html").resolve().as_uri())
    browser.save_screenshot(str(tmp_path / "report-top.png"))

    # Every plot: an inline SVG with drawn elements and a non-zero bounding box.
    figures = browser.find_elements(By.CSS_SELECTOR, "figure")
    assert {f.get_attribute("id") for f in figures} == EXPECTED_PLOTS
    for figure in figures:
        svg = figure.find_element(By.CSS_SELECTOR, "svg.plot")
        box = browser.execute_script("return arguments[0].getBBox();", svg)
        assert box["width"] > 0 and box["height"] > 0, figure.get_attribute("id")
        drawn = svg.find_elements(By.CSS_SELECTOR, "rect, circle, line")
        assert drawn, figure.get_attribute("id")
        assert figure.find_element(By.TAG_NAME, "figcaption").text.strip()

    # The table holds one row per question x system, as in the saved document.
    expected_rows = sum(len(item["results"]) for item in document["items"])
    rows = browser.find_elements(By.CSS_SELECTOR, "#items tbody tr")
    assert len(rows) == expected_rows == 3 * 48

    # Sort by accuracy (column 4): ascending, then descending on a second click.
    header = browser.find_elements(By.CSS_SELECTOR, "#items thead th")[4]
    assert header.text == "accuracy"
    header.click()
    values = _column_values(browser, 4, numeric=True)
    assert values == sorted(values) and values[0] == 0.0
    header.click()
    values = _column_values(browser, 4, numeric=True)
    assert values == sorted(values, reverse=True) and values[0] == 1.0
    # Sort by question id (column 0, text).
    browser.find_elements(By.CSS_SELECTOR, "#items thead th")[0].click()
    ids = _column_values(browser, 0, numeric=False)
    assert ids == sorted(ids)

    # Filter: only one system's rows remain; the counter follows.
    box = browser.find_element(By.ID, "items-filter")
    box.send_keys("cirrus-mini")
    visible = [
        r for r in browser.find_elements(By.CSS_SELECTOR, "#items tbody tr") if r.is_displayed()
    ]
    cirrus = sum(1 for item in document["items"] if "cirrus-mini" in item["results"])
    assert len(visible) == cirrus == 48
    assert browser.find_element(By.ID, "items-count").text == "48"
    box.clear()
    box.send_keys("s-S01")
    visible = [
        r for r in browser.find_elements(By.CSS_SELECTOR, "#items tbody tr") if r.is_displayed()
    ]
    assert len(visible) == 3  # one question, three systems

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
    rows = driver.find_elements(By.CSS_SELECTOR, f"#{table} tbody tr")
    return [r for r in rows if r.is_displayed()]


def test_structured_table_sorts_filters(demo: Path, browser: Any, tmp_path: Path) -> None:
    items = json.loads((demo / "assay-result.json").read_text("utf-8"))["structured"]["items"]
    browser.get((demo / "report.html").resolve().as_uri())
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
