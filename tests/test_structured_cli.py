"""``assay structured``: files written, byte-identical reruns, one-line errors."""

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
from rich.console import Console

from assay.cli.main import main
from assay.cli.structured_cmd import run_structured_demo
from assay.structured.example import bundled_example_paths


@pytest.fixture()
def example(tmp_path: Path) -> Path:
    with bundled_example_paths() as paths:
        for source in (paths.items, paths.schema, paths.references):
            shutil.copy(source, tmp_path / source.name)
    return tmp_path


def run_cli(folder: Path, *extra: str) -> list[str]:
    return [
        "structured",
        "--items",
        str(folder / "responses.jsonl"),
        "--schema",
        str(folder / "product.schema.json"),
        "--references",
        str(folder / "references.jsonl"),
        *extra,
    ]


def test_cli_writes_report_per_item_and_terminal(
    example: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = example / "out"
    out.mkdir()
    main(run_cli(example, "--output", str(out / "r.json"), "--per-item", str(out / "items.jsonl")))
    printed = capsys.readouterr().out
    assert "total = empty + format_fail + format_pass: 30 = " in printed
    assert "fact score on the format-pass subset" in printed
    assert "format pass" in printed and "all supported" in printed
    report = json.loads((out / "r.json").read_text())
    lines = (out / "items.jsonl").read_text().splitlines()
    assert len(lines) == report["identity"]["total"] == 30
    first = json.loads(lines[0])
    assert first == report["items"][0]
    raw = [
        json.loads(line)["response"]
        for line in (example / "responses.jsonl").read_text().splitlines()
    ]
    assert [json.loads(line)["response"] for line in lines] == raw  # verbatim


def test_cli_csv_per_item(example: Path) -> None:
    main(
        run_cli(example, "--output", str(example / "r.json"), "--per-item", str(example / "i.csv"))
    )
    rows = list(csv.DictReader(io.StringIO((example / "i.csv").read_text())))
    report = json.loads((example / "r.json").read_text())
    assert [r["id"] for r in rows] == [i["id"] for i in report["items"]]
    assert [r["response"] for r in rows] == [i["response"] for i in report["items"]]
    assert sum(r["bucket"] == "empty" for r in rows) == report["identity"]["empty"]


def test_cli_outputs_are_byte_identical(
    example: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    other = tmp_path_factory.mktemp("again")
    for name in ("responses.jsonl", "product.schema.json", "references.jsonl"):
        shutil.copy(example / name, other / name)
    outputs = []
    for folder in (example, other):
        main(
            run_cli(
                folder, "--output", str(folder / "r.json"), "--per-item", str(folder / "p.jsonl")
            )
        )
        outputs.append(((folder / "r.json").read_bytes(), (folder / "p.jsonl").read_bytes()))
    assert outputs[0] == outputs[1]


def test_cli_fallback_flag(example: Path) -> None:
    main(run_cli(example, "--read-facts-from-wrapped", "--output", str(example / "r.json")))
    report = json.loads((example / "r.json").read_text())
    assert report["options"]["read_facts_from_wrapped"] is True
    assert report["fact"]["sources"]["unwrapped"] >= 1


def expect_one_line_error(
    argv: list[str], capsys: pytest.CaptureFixture[str], *needles: str
) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err
    for needle in needles:
        assert needle in err, (needle, err)


def test_bad_contract(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (example / "product.schema.json").write_text('{"type": "object", "required": "sku"}')
    expect_one_line_error(
        run_cli(example, "--output", str(example / "r.json")),
        capsys,
        "product.schema.json",
        "field '/required'",
        "invalid JSON Schema",
    )
    assert not (example / "r.json").exists()


def test_bad_jsonl_line(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = example / "responses.jsonl"
    lines = path.read_text().splitlines()
    lines[3] = '{"id": "p04", "response": '
    path.write_text("\n".join(lines) + "\n")
    expect_one_line_error(
        run_cli(example, "--output", str(example / "r.json")),
        capsys,
        "responses.jsonl:4:",
        "invalid JSON",
    )


def test_bad_item_field(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = example / "responses.jsonl"
    path.write_text('{"id": "a", "response": "{}"}\n{"id": "b"}\n')
    (example / "references.jsonl").write_text("")
    expect_one_line_error(
        run_cli(example, "--output", str(example / "r.json")),
        capsys,
        "responses.jsonl:2:",
        "field 'response'",
    )


def test_unknown_comparison_rule(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = example / "references.jsonl"
    lines = path.read_text().splitlines()
    row = json.loads(lines[1])
    row["reference"]["fields"]["price_eur"]["rule"] = "roughly"
    lines[1] = json.dumps(row)
    path.write_text("\n".join(lines) + "\n")
    expect_one_line_error(
        run_cli(example, "--output", str(example / "r.json")),
        capsys,
        "references.jsonl:2:",
        "field 'reference.fields.price_eur.rule'",
        "'roughly'",
        "one_of",
    )


@pytest.mark.parametrize(
    ("row", "needle"),
    [
        ('{"id": "zz", "reference": {"a": 1}}', "not in the items file"),
        ('{"reference": {}}', "field 'id'"),
    ],
)
def test_bad_references_rows(
    example: Path, capsys: pytest.CaptureFixture[str], row: str, needle: str
) -> None:
    (example / "references.jsonl").write_text(row + "\n")
    expect_one_line_error(
        run_cli(example, "--output", str(example / "r.json")), capsys, "references.jsonl:1:", needle
    )


def test_demo_function_renders_bundled_example() -> None:
    console = Console(record=True, width=120, color_system=None, force_terminal=False)
    report = run_structured_demo(console)
    text = console.export_text()
    assert report["identity"]["total"] == 30
    assert "Accounting identity ✓ holds" in text and "Format × fact" in text


def test_lone_surrogate_and_markup_survive_the_round_trip(tmp_path: Path) -> None:
    items = tmp_path / "items.jsonl"
    items.write_text('{"id": "[bold]x", "response": "{\\"sku\\": \\"\\ud800\\"}"}\n')
    schema = tmp_path / "s.json"
    schema.write_text('{"type": "object", "properties": {"sku": {"type": "integer"}}}')
    main(
        [
            "structured",
            "--items",
            str(items),
            "--schema",
            str(schema),
            "--output",
            str(tmp_path / "r.json"),
            "--per-item",
            str(tmp_path / "p.csv"),
        ]
    )
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert report["items"][0]["response"] == '{"sku": "\ud800"}'
    assert report["format"]["field_errors"][0]["field"] == "/sku"


def test_report_csv_is_the_per_item_csv(example: Path) -> None:
    # `assay report REPORT.json --format csv` re-renders the per-item CSV from the
    # saved report alone; it must be the same bytes as `--per-item FILE.csv`.
    report, per_item = example / "r.json", example / "items.csv"
    cmd = run_cli(example, "--output", str(report), "--per-item", str(per_item))
    assert main(cmd) in (0, None)
    rendered = example / "again.csv"
    try:
        main(["report", str(report), "--format", "csv", "--output", str(rendered)])
    except SystemExit as done:
        assert not done.code
    assert rendered.read_bytes() == per_item.read_bytes()
    header = next(csv.reader(io.StringIO(rendered.read_text("utf-8"))))
    assert header[:4] == ["id", "line", "bucket", "format_verdict"]


def test_structured_command_module_loads_no_evaluation_stack() -> None:
    """``assay structured`` starts without eval's option groups (evaluation, metrics, numpy)."""
    import subprocess
    import sys

    probe = (
        "import sys, assay.cli.structured_cmd; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'numpy' "
        "or m.startswith(('assay.evaluation', 'assay.metrics', 'assay.cli.options'))))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
