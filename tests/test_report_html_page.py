"""The page written in Python is templates/report.html.j2 rendered by Jinja, byte for byte.

``render_html`` no longer imports Jinja (0.1-0.2 s a run); ``html_page.render_page``
writes the same text. Jinja renders the template with the same context here, on the
demo (result + structured), a nine-system comparison (pair list), one system, cut
predictions, a timestamp, scatter plots and text full of HTML metacharacters. If the
template changes, this test fails until ``html_page`` says the same.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from jinja2 import Environment
from markupsafe import Markup

from assay.cli.demo_cmd import sample_dir
from assay.cli.main import main
from assay.report.result.html import page_context, render_html
from assay.report.result.html_page import render_page, template_source
from assay.structured.example import score_bundled_example

HOSTILE = "<b>&amp;</b> \"q\" 'a' </script> « é"


def _jinja(context: dict[str, Any]) -> str:
    env = Environment(
        autoescape=True, keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True
    )
    env.filters["svg"] = Markup
    return env.from_string(template_source()).render(**context)


def _run(*args: str) -> None:
    try:
        main(list(args))
    except SystemExit as done:
        assert not done.code


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("demo")
    _run("demo", "--out", str(out))
    return dict(json.loads((out / "assay-result.json").read_text("utf-8")))


def _compared(tmp: Path, *extra: str, copies: int = 1) -> dict[str, Any]:
    source = sample_dir()
    files = sorted((source / "predictions").glob("*.jsonl"))
    systems = [f"--system=s{k}-{f.stem}={f}" for k in range(copies) for f in files]
    _run("compare", "--data-dir", str(source), *systems, "--trials", "1000",
         "--result-json", str(tmp / "r.json"), *extra)  # fmt: skip
    return dict(json.loads((tmp / "r.json").read_text("utf-8")))


def _same(document: dict[str, Any], **options: Any) -> None:
    context = page_context(document, **options)
    expected = _jinja(context)
    assert render_page(context) == expected
    assert render_html(document, **options) == expected


@pytest.mark.parametrize("compress_over", [0, 10**9])
def test_demo_page(demo: dict[str, Any], compress_over: int) -> None:
    _same(demo, compress_over=compress_over)
    _same(demo, compress_over=compress_over, timestamp="2026-01-02T03:04:05Z <&>")


def test_cut_predictions_page(demo: dict[str, Any]) -> None:
    import random

    rng = random.Random(3)
    verbose = json.loads(json.dumps(demo))
    for item in verbose["items"]:
        for result in item["results"].values():
            result["prediction"] = " ".join(rng.choice(HOSTILE.split()) for _ in range(90))
    _same(verbose, compress_over=0, budget=12_000)
    assert 'id="items-cut"' in render_html(verbose, compress_over=0, budget=12_000)


def test_structured_report_page() -> None:
    report = score_bundled_example().to_dict()
    _same(report)
    report["signature"] = HOSTILE
    report["headlines"][0]["rate"] = None
    report["headlines"][0]["ci95"] = None
    _same(report)


def test_many_systems_one_system_and_scatter(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "c").mkdir()
    nine = _compared(tmp_path / "a", copies=3)
    assert len(nine["systems"]) == 9
    _same(nine)
    scatter = _compared(tmp_path / "b", "--scatter", "token_f1:anls")
    assert scatter.get("scatters")
    _same(scatter)
    source = sample_dir()
    one = sorted((source / "predictions").glob("*.jsonl"))[0]
    _run("compare", "--data-dir", str(source), f"--system=solo={one}",
         "--result-json", str(tmp_path / "c" / "r.json"))  # fmt: skip
    _same(json.loads((tmp_path / "c" / "r.json").read_text("utf-8")))


def test_hostile_text_everywhere(demo: dict[str, Any]) -> None:
    text = json.dumps(demo, ensure_ascii=False)
    for name in {s["system"] for s in demo["systems"]}:
        text = text.replace(json.dumps(name), json.dumps(name + HOSTILE))
    document = json.loads(text)
    document["profile"] = document["assay_version"] = HOSTILE
    document["statistics"]["mean_interval"] = HOSTILE
    document["comparison"]["method"] = HOSTILE
    document["comparison"]["tie_groups"]["unresolved"] = [[HOSTILE, "b"]]
    _same(document)


def test_no_template_engine_is_imported(demo: dict[str, Any], tmp_path: Path) -> None:
    """A fresh process writing the HTML report imports neither jinja2 nor its compiler."""
    import subprocess

    path = tmp_path / "doc.json"
    path.write_text(json.dumps(demo), "utf-8")
    code = (
        "import json, sys; from assay.report.result.html import render_html; "
        f"render_html(json.load(open({str(path)!r}))); "
        "print(sorted(m for m in sys.modules if m.startswith('jinja2')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
