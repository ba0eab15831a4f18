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


def _column_values(driver: Any, index: int, numeric: bool) -> list[Any]:
    read = "getAttribute('data-value')" if numeric else "textContent"
    script = (
        "return Array.from(document.querySelectorAll('#items tbody tr'))"
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
