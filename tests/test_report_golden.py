"""Golden report: the xldocbench profile's JSON and CSV, byte for byte.

Every number in tests/golden/xldocbench_report.json was checked by hand; the
per-question arithmetic is spelled out below and re-derived here independently.
"""

import json
from pathlib import Path

from assay.cli.main import main
from cli_helpers import xldocbench_eval_args
from scoring_helpers import levenshtein

GOLDEN = Path(__file__).parent / "golden"


def run_eval(tmp_path: Path, *extra: str) -> None:
    main([*xldocbench_eval_args(), *extra])


def test_golden_report_and_csv_byte_for_byte(tmp_path: Path) -> None:
    out, csv = tmp_path / "report.json", tmp_path / "pq.csv"
    run_eval(tmp_path, "--output", str(out), "--per-question-csv", str(csv))
    assert out.read_bytes() == (GOLDEN / "xldocbench_report.json").read_bytes()
    assert csv.read_bytes() == (GOLDEN / "xldocbench_per_question.csv").read_bytes()


def test_golden_values_by_hand() -> None:
    report = json.loads((GOLDEN / "xldocbench_report.json").read_text("utf-8"))
    rows = {r["question_id"]: r for r in report["per_question"]}
    # g1: duplicate id, the later row "The answer is Paris." wins; P = "paris." ⊃ "paris" → 1;
    # tokens {"paris."} vs {"paris"} → F1 0; ANLS: lev 15 over 20 chars → 0.25 < 0.5 → 0
    assert levenshtein("the answer is paris.", "paris") == 15
    assert (rows["g1"]["accuracy"], rows["g1"]["token_f1"], rows["g1"]["anls"]) == (1.0, 0.0, 0.0)
    # g2: "1 250" → "1250" = 1250 → 1; {1, 250} vs {1250} → 0; lev("1 250", "1,250") = 1 → 0.8
    assert (rows["g2"]["accuracy"], rows["g2"]["token_f1"], rows["g2"]["anls"]) == (1.0, 0.0, 0.8)
    # g3: status context_overflow → "CONTEXT_OVERFLOW" → contains "context_overflow" → 1
    lev = levenshtein("context_overflow", "not answerable")
    assert 1 - lev / 16 < 0.5 and rows["g3"]["anls"] == 0.0
    assert rows["g3"]["prediction"] == "CONTEXT_OVERFLOW" and rows["g3"]["accuracy"] == 1.0
    # g4: missing → "" with status missing: undecided boolean → 0, empty → F1 0, ANLS 0
    assert rows["g4"]["status"] == "missing" and rows["g4"]["accuracy"] == 0.0
    # g5: letter C = C → 1; {option, c} ∩ {c}: P = 1/2, R = 1 → F1 = 2/3; ANLS 1 − 7/8 → 0
    assert rows["g5"]["token_f1"] == round(2 / 3, 6) and rows["g5"]["accuracy"] == 1.0
    # g6: 0.429 vs 42.9 → 0; string rule: sim("0.429", "42.9%") = 1 − lev/5 < 0.8 → 0
    assert 1 - levenshtein("0.429", "42.9%") / 5 < 0.5 and rows["g6"]["anls"] == 0.0
    # overall: accuracy 4/6, token F1 (2/3)/6, ANLS 0.8/6
    assert report["overall"] == {
        "count": 6,
        "accuracy": round(4 / 6, 6),
        "token_f1": round(2 / 3 / 6, 6),
        "anls": round(0.8 / 6, 6),
    }
    # counts: unique prediction ids g1 g2 g3 g5 g6 zz = 6; zz is extra; g4 missing
    assert [
        report[k]
        for k in (
            "gold_count",
            "prediction_count",
            "evaluated_count",
            "missing_prediction_count",
            "extra_prediction_count",
        )
    ] == [6, 6, 6, 1, 1]
    # evidence sources: g1 counts in text and table; g6 in table and chart; [] → unknown
    ev = report["breakdowns"]["evidence_source"]
    assert list(ev) == ["chart", "table", "text", "unknown"]
    assert (ev["table"]["count"], ev["table"]["accuracy"]) == (3, round(2 / 3, 6))
    assert list(report["breakdowns"]["domain"]) == ["Café", "finance", "geo"]  # plain order


def test_released_key_order() -> None:
    report = json.loads((GOLDEN / "xldocbench_report.json").read_text("utf-8"))
    assert list(report) == [
        "gold_count",
        "prediction_count",
        "evaluated_count",
        "missing_prediction_count",
        "extra_prediction_count",
        "overall",
        "breakdowns",
        "per_question",
    ]
    assert list(report["breakdowns"]) == [
        "split",
        "domain",
        "reasoning_type",
        "answer_format",
        "difficulty",
        "doc_type",
        "evidence_source",
    ]
    assert list(report["per_question"][0]) == [
        "question_id",
        "prediction",
        "gold_answer",
        "answer_format",
        "status",
        "accuracy",
        "token_f1",
        "anls",
        "split",
        "domain",
        "reasoning_type",
    ]
    text = (GOLDEN / "xldocbench_report.json").read_text("utf-8")
    assert '\n  "gold_count": 6,' in text and "Café" in text  # 2-space indent, non-ASCII kept


def test_ignore_missing_and_no_per_question_json(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    run_eval(tmp_path, "--ignore-missing", "--no-per-question-json", "--output", str(out))
    report = json.loads(out.read_text("utf-8"))
    assert "per_question" not in report
    # g4 skipped but still counted missing: accuracy 4/5, ANLS 0.8/5
    assert (report["evaluated_count"], report["missing_prediction_count"]) == (5, 1)
    assert report["overall"]["accuracy"] == 0.8 and report["overall"]["anls"] == 0.16
