"""The HTML report at scale: size, render time and time to interactive in headless Chromium.

Run: .venv/bin/python bench/bench_report.py [--questions 5000] [--systems 13] [--repeats 3]

1. The demo's reports (result document, HTML, Markdown, JSON): best wall time of each
   step over REPEATS runs.
2. 13 systems x 5,000 questions (bench/scale_data.py, XL-DocBench-shaped gold, style
   ``sentence``: a sentence or a few words), saved as ``assay-result.json``:
   - the saved-document check, compiled validator (what ``assay report`` runs) against
     jsonschema alone (what it ran before);
   - ``assay report --format html`` in one process: read, check, render, write;
   - the HTML file's size (target < 3 MB);
   - time to interactive in headless Chromium (target < 2 s): from navigation start
     until the per-item table is drawn, plus the time a click on a column header takes
     to re-sort it, in the page's own clock (performance marks), best of REPEATS fresh
     loads (selenium + chromedriver; the browser start is not timed). The wall time of
     the same sequence seen from selenium is printed beside it.
3. The HTML size on bench/scale_data.py's concise/medium/verbose 13 x 5,000 data
   (a third of the systems answer with a paragraph) as well, with how many predictions
   the page's 2.5 MB data budget cut and to what length (see html_data.embed_within).

Prints ``TARGET <name> | <measured> | <target> | MET`` (or ``NOT MET``) lines.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

import scale_data  # noqa: E402  (bench/ sibling module: the one data generator)

from assay.cli.demo_cmd import sample_dir  # noqa: E402
from assay.evaluation.compare import CompareOptions, result_document  # noqa: E402
from assay.evaluation.runs import SystemInput, evaluate  # noqa: E402
from assay.report.result.html import render_html  # noqa: E402
from assay.report.result.json import dumps_result  # noqa: E402
from assay.report.result.markdown import render_result_markdown  # noqa: E402
from assay.structured.example import score_bundled_example  # noqa: E402

SIZE_TARGET_MB = 3.0
TTI_TARGET_S = 2.0
TRIALS = 2000  # enough for 78 Holm-adjusted pairs to reach p <= 0.05 (78 / 2001 < 0.05)


def target(name: str, measured: float, limit: float, unit: str) -> None:
    """One ``TARGET`` line: measured beside its upper limit."""
    verdict = "MET" if measured < limit else "NOT MET"
    print(f"TARGET {name} | {measured:.2f} {unit} | < {limit:g} {unit} | {verdict}", flush=True)


def best(step: Any, repeats: int) -> float:
    """The best wall time of ``step()`` over ``repeats`` runs."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return min(times)


def demo_steps(repeats: int) -> None:
    """The demo's three systems: document, HTML, Markdown, JSON."""
    source = sample_dir()
    files = sorted((source / "predictions").glob("*.jsonl"))
    systems = [SystemInput(f.stem, (str(f),)) for f in files]
    gold = [source / "qa_single_doc.jsonl", source / "qa_cross_doc.jsonl"]
    result = evaluate(gold, systems)
    structured = score_bundled_example().to_dict()
    document = result_document(result, structured=structured)
    html = render_html(document)
    html_t = best(lambda: render_html(document), repeats)
    md_t = best(lambda: render_result_markdown(document), repeats)
    json_t = best(lambda: dumps_result(document), repeats)
    print(f"demo: HTML render {html_t * 1000:.1f} ms ({len(html) / 1000:.0f} kB)")
    print(f"demo: Markdown render {md_t * 1000:.1f} ms; JSON serialise {json_t * 1000:.1f} ms")


def write_data(root: Path, n_questions: int, n_systems: int) -> list[Path]:
    """Gold and ``n_systems`` prediction files answering in sentences (bench/scale_data.py)."""
    return scale_data.write(root, n_questions, 5000, n_systems, styles=scale_data.SENTENCE)


def saved_result(files: list[Path], out: Path) -> Path:
    """Evaluate and write ``assay-result.json`` (as ``eval --result-json`` does)."""
    result = evaluate([files[0]], [SystemInput(f.stem, (str(f),)) for f in files[1:]])
    document = result_document(result, CompareOptions(n_resamples=TRIALS))
    out.write_text(dumps_result(document), "utf-8")
    return out


def validation(saved: Path) -> None:
    """The saved-document check: compiled validator vs jsonschema alone."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    from assay.report.result.schema import RESULT_SCHEMA, check_saved_document

    document = json.loads(saved.read_text("utf-8"))
    check_saved_document(document, saved)  # compiles once, as one `assay report` run does
    start = time.perf_counter()
    check_saved_document(document, saved)
    compiled = time.perf_counter() - start
    start = time.perf_counter()
    assert best_match(Draft202012Validator(RESULT_SCHEMA).iter_errors(document)) is None
    reference = time.perf_counter() - start
    print(f"saved-result check ({saved.stat().st_size / 1e6:.1f} MB): compiled "
          f"{compiled:.3f} s, jsonschema alone {reference:.3f} s")  # fmt: skip


def report_html(saved: Path, out: Path) -> float:
    """``assay report SAVED --format html --output OUT`` in this process; its wall time."""
    from assay.cli.main import main

    start = time.perf_counter()
    try:
        main(["report", str(saved), "--format", "html", "--output", str(out)])
    except SystemExit as done:
        if done.code:
            raise
    return time.perf_counter() - start


def _browser(profile: Path) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for arg in (
        "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", "--window-size=1280,1000", f"--user-data-dir={profile}",
    ):  # fmt: skip
        options.add_argument(arg)
    driver = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    return webdriver.Chrome(options=options, service=Service(driver))


READY = "return document.getElementById('items').getAttribute('data-ready') === 'true';"
SORTED = (
    "var th = document.querySelectorAll('#items thead th')[4];"
    "return th.getAttribute('aria-sort') === 'ascending' && "
    "document.querySelector('#items tbody tr') !== null;"
)


# In the page's clock: navigation start → table drawn, plus the sort click's handler time.
IN_PAGE = """
var at = function (name) { return performance.getEntriesByName(name)[0].startTime; };
return [at('assay-ready-items'),
        at('assay-sort-end-items') - at('assay-sort-start-items')];
"""


def time_to_interactive(page: Path, repeats: int, profile: Path) -> tuple[float, float]:
    """Best of ``repeats`` loads: (in-page time to interactive, selenium wall time).

    In-page: from navigation start to the table drawn (the page's ``assay-ready-items``
    mark) plus the time the sort click took to answer. Wall: the same sequence timed
    from Python, including webdriver's round trips and polling.
    """
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver = _browser(profile)
    try:
        in_page, wall = [], []
        for _ in range(repeats):
            driver.get("about:blank")
            start = time.perf_counter()
            driver.get(page.resolve().as_uri())
            WebDriverWait(driver, 60, poll_frequency=0.01).until(lambda d: d.execute_script(READY))
            driver.find_elements(By.CSS_SELECTOR, "#items thead th")[4].click()
            WebDriverWait(driver, 60, poll_frequency=0.01).until(lambda d: d.execute_script(SORTED))
            wall.append(time.perf_counter() - start)
            ready_ms, sort_ms = driver.execute_script(IN_PAGE)
            in_page.append((ready_ms + sort_ms) / 1000)
        return min(in_page), min(wall)
    finally:
        driver.quit()


def at_scale(n_questions: int, n_systems: int, repeats: int) -> None:
    """Section 2 (and 3): the saved 13 x 5,000 result through `assay report` and Chromium."""
    label = f"{n_systems}x{n_questions}"
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        start = time.perf_counter()
        saved = saved_result(write_data(root / "data", n_questions, n_systems), root / "r.json")
        print(f"{label}: data + evaluation + assay-result.json ({TRIALS} trials): "
              f"{time.perf_counter() - start:.1f} s")  # fmt: skip
        validation(saved)
        page = root / "report.html"
        print(f"{label}: assay report --format html: {report_html(saved, page):.2f} s")
        target(f"html size {label}", page.stat().st_size / 1e6, SIZE_TARGET_MB, "MB")
        name = f"html interactive {label} (headless Chromium)"
        try:
            tti, wall = time_to_interactive(page, repeats, root / "profile")
        except Exception as error:  # no browser here: say so in the table
            print(f"TARGET {name} | not measured ({type(error).__name__}) | < 2 s | NOT MET")
        else:
            target(name, tti, TTI_TARGET_S, "s")
            print(f"{label}: the same measured from selenium (incl. webdriver round trips): "
                  f"{wall:.2f} s")  # fmt: skip
        verbose(root, n_questions, n_systems)


def verbose(root: Path, n_questions: int, n_systems: int) -> None:
    """Section 3: the size on scale_data's concise/medium/verbose answers."""
    files = scale_data.write(root / "verbose", n_questions, n_systems=n_systems)
    saved = saved_result(files, root / "verbose.json")
    page = root / "verbose.html"
    wall = report_html(saved, page)
    label = f"{n_systems}x{n_questions} verbose"
    print(f"{label}: assay report --format html: {wall:.2f} s")
    html = page.read_text("utf-8")
    note = re.search(r'<p class="muted" id="items-cut">(\d+ of \d+ predictions[^:]*):', html)
    print(f"{label}: " + (f"{note.group(1)}: cut to fit" if note else "no prediction cut"))
    name = f"html size {n_systems}x{n_questions} (scale_data, verbose answers)"
    target(name, page.stat().st_size / 1e6, SIZE_TARGET_MB, "MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=5000)
    parser.add_argument("--systems", type=int, default=13)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    demo_steps(args.repeats)
    at_scale(args.questions, args.systems, args.repeats)


if __name__ == "__main__":
    main()
