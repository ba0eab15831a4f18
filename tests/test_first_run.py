"""A first run that just works: bundled data findable, the structured example public,
an empty optional gold file skipped, the LICENSE in the wheel, the browser set-up script."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import assay
from cli_helpers import run

ROOT = Path(__file__).resolve().parents[1]


def test_data_path_prints_the_bundled_folder_and_files(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("data", "path") == 0
    folder = Path(capsys.readouterr().out.strip())
    assert (folder / "xlsample" / "qa_single_doc.jsonl").is_file()
    assert run("data", "path", "qa_pairs.jsonl") == 0
    pairs = Path(capsys.readouterr().out.strip())
    assert pairs == folder / "qa_pairs.jsonl"
    assert pairs.read_text(encoding="utf-8").startswith('{"id": "q01"')
    assert assay.data_path("structured/responses.jsonl") == folder / "structured/responses.jsonl"


def test_data_list_names_every_prediction_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("data", "list") == 0
    listed = capsys.readouterr().out.splitlines()
    for name in ("atlas-7b", "borealis-70b", "cirrus-mini"):
        assert f"xlsample/predictions/{name}.jsonl" in listed
    assert "structured/product.schema.json" in listed


def test_data_path_of_an_unknown_name_is_one_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("data", "path", "nope.jsonl") == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no bundled data 'nope.jsonl'") and "xlsample" in err
    assert err.count("\n") == 1
    assert run("data", "path", "../../cli") == 2  # nothing outside the data folder


def test_demo_data_dir_prints_the_sample_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert run("demo", "--show-data-dir") == 0
    folder = Path(capsys.readouterr().out.strip())
    assert sorted(p.name for p in (folder / "predictions").iterdir()) == [
        "atlas-7b.jsonl", "borealis-70b.jsonl", "cirrus-mini.jsonl",
    ]  # fmt: skip
    assert list(tmp_path.iterdir()) == []


def test_structured_example_is_a_public_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run("structured", "--example") == 0
    out = capsys.readouterr().out
    assert "format_pass" in out and "wrote" not in out
    target = tmp_path / "r.json"
    assert run("structured", "--example", "--output", str(target)) == 0
    report = json.loads(target.read_text(encoding="utf-8"))
    assert report["identity"]["total"] == 30  # the example's 30 responses
    assert report["inputs"]["items"]["name"] == "responses.jsonl"


def test_structured_needs_items_schema_and_output_without_example(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run("structured", "--items", "x.jsonl") == 2
    assert "give --items, --schema and --output (or --example)" in capsys.readouterr().err
    assert run("structured", "--example", "--items", "x.jsonl") == 2


@pytest.mark.parametrize("content", ["", "\n  \n"])
def test_an_empty_optional_gold_file_is_skipped(
    tmp_path: Path, content: str, capsys: pytest.CaptureFixture[str]
) -> None:
    sample = assay.data_path("xlsample")
    shutil.copyfile(sample / "qa_single_doc.jsonl", tmp_path / "qa_single_doc.jsonl")
    (tmp_path / "qa_cross_doc.jsonl").write_text(content, encoding="utf-8")
    out = tmp_path / "r.json"
    code = run("eval", "--data-dir", str(tmp_path), "--predictions",
               str(sample / "predictions" / "atlas-7b.jsonl"), "--output", str(out))  # fmt: skip
    assert code == 0, capsys.readouterr().err
    single = sum(1 for line in (sample / "qa_single_doc.jsonl").open() if line.strip())
    assert json.loads(out.read_text(encoding="utf-8"))["gold_count"] == single == 36


def test_both_gold_files_empty_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("qa_single_doc.jsonl", "qa_cross_doc.jsonl"):
        (tmp_path / name).write_text("", encoding="utf-8")
    code = run("eval", "--data-dir", str(tmp_path), "--predictions", str(tmp_path / "p.jsonl"))
    assert code == 2
    assert "hold no gold questions (empty)" in capsys.readouterr().err


def test_a_named_empty_gold_file_stays_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold = tmp_path / "g.jsonl"
    gold.write_text("", encoding="utf-8")
    preds = assay.data_path("xlsample/predictions/atlas-7b.jsonl")
    assert run("eval", "--gold-files", str(gold), "--predictions", str(preds)) == 3
    assert "no gold questions" in capsys.readouterr().err


def test_the_wheel_ships_the_license_and_the_data(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp_path), str(ROOT)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (wheel,) = tmp_path.glob("assay-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    license_name = next(n for n in names if n.endswith("licenses/LICENSE"))
    text = zipfile.ZipFile(wheel).read(license_name).decode()
    assert text.startswith("MIT License") and text == (ROOT / "LICENSE").read_text()
    assert "assay/data/xlsample/predictions/atlas-7b.jsonl" in names
    assert "assay/data/qa_pairs.jsonl" in names


def test_ensure_browser_is_quiet_when_the_browser_is_there() -> None:
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        pytest.fail("make test installs chromium first (tools/ensure_browser.sh)")
    done = subprocess.run(["bash", str(ROOT / "tools" / "ensure_browser.sh")],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_ensure_browser_says_what_to_install_when_it_cannot(tmp_path: Path) -> None:
    # No chromium on PATH and no apt-get: the script cannot install, so it says what to do.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("bash", "id"):
        os.symlink(shutil.which(tool) or f"/usr/bin/{tool}", bin_dir / tool)
    script = str(ROOT / "tools" / "ensure_browser.sh")
    done = subprocess.run(
        [str(bin_dir / "bash"), script],
        env={"PATH": str(bin_dir)}, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.startswith("error: the HTML browser test needs Chromium and chromedriver")
    assert "apt-get install chromium chromium-driver" in done.stderr
    assert done.stderr.count("\n") == 1


def test_ci_runs_exactly_make_test() -> None:
    commands = [
        line for line in (ROOT / ".ci" / "run").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]  # fmt: skip
    assert commands[-1] == "make test"
    assert not any("apt-get" in line for line in commands)
