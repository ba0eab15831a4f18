import json
from pathlib import Path

import pytest

from assay.errors import AccountingError, InputFileError, InvalidOptionError
from assay.evaluation.align import check_accounting
from assay.evaluation.runs import SystemInput, evaluate


def write(path: Path, rows: list) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    return path


@pytest.fixture()
def gold(tmp_path: Path) -> Path:
    return write(
        tmp_path / "gold.jsonl",
        [
            {
                "id": "a",
                "task_type": "single_doc",
                "answer": {"value": "Paris", "format": "Str"},
                "metadata": {"evidence_sources": ["text", "table"]},
            },
            {
                "id": "b",
                "task_type": "single_doc",
                "answer": {"value": "Not answerable", "format": "None"},
                "metadata": {"evidence_sources": "chart"},
            },
            {"id": "c", "task_type": "cross_doc", "answer": {"value": "12", "format": "Int"}},
            {"id": "d", "task_type": "cross_doc", "answer": {"value": "Oslo", "format": "Str"}},
        ],
    )


def one(gold: Path, preds: Path, **options: object):  # type: ignore[no-untyped-def]
    return evaluate([gold], [SystemInput("s", (str(preds),))], **options).systems[0]  # type: ignore[arg-type]


def test_status_substitution_and_buckets(gold: Path, tmp_path: Path) -> None:
    preds = write(
        tmp_path / "p.jsonl",
        [
            {"id": "a", "prediction": "Paris", "status": "vision_unsupported"},
            {"id": "b", "prediction": "Paris", "status": "context_overflow"},
            {"id": "c", "prediction": "  ", "status": "success"},
            {
                "id": "d",
                "prediction": "Oslo",
                "status": "Context_Overflow",
            },  # case-sensitive: not substituted
        ],
    )
    result = one(gold, preds, profile="xldocbench")
    texts = [(q.prediction, q.status, q.bucket) for q in result.questions]
    assert texts == [
        ("CONTEXT_OVERFLOW", "vision_unsupported", "status_substituted"),
        ("CONTEXT_OVERFLOW", "context_overflow", "status_substituted"),
        ("  ", "success", "empty"),
        ("Oslo", "Context_Overflow", "scored"),
    ]
    assert [q.accuracy for q in result.questions] == [0.0, 1.0, 0.0, 1.0]
    assert dict(result.accounting) == {
        "scored": 1,
        "empty": 1,
        "status_substituted": 2,
        "missing": 0,
    }
    assert result.questions[0].raw_prediction == "Paris"  # raw kept beside the scored text


def test_missing_and_extra_without_ignore(gold: Path, tmp_path: Path) -> None:
    preds = write(
        tmp_path / "p.jsonl",
        [
            {"id": "a", "prediction": "Paris"},
            {"id": "x", "prediction": "?"},
            {"id": "y", "prediction": "?"},
        ],
    )
    result = one(gold, preds, profile="xldocbench")
    assert (result.gold_count, result.prediction_count, result.evaluated_count) == (4, 3, 4)
    assert (result.missing_prediction_count, result.extra_prediction_count) == (3, 2)
    assert [q.status for q in result.questions] == ["success", "missing", "missing", "missing"]
    # a = 1, the three missing score "" → 0: accuracy 1/4
    assert result.overall.accuracy == 0.25 and result.overall.count == 4


def test_missing_with_ignore_missing(gold: Path, tmp_path: Path) -> None:
    preds = write(
        tmp_path / "p.jsonl", [{"id": "a", "prediction": "Paris"}, {"id": "c", "prediction": "13"}]
    )
    result = one(gold, preds, profile="xldocbench", ignore_missing=True)
    assert (result.evaluated_count, result.missing_prediction_count) == (2, 2)
    # a = 1; c: |13 − 12| / 12 = 0.083 > 0.05 → 0 → accuracy 1/2 over the 2 evaluated
    assert result.overall.accuracy == 0.5 and result.overall.count == 2
    assert dict(result.accounting)["missing"] == 2  # still counted


def test_breakdown_multivalued_evidence(gold: Path, tmp_path: Path) -> None:
    preds = write(tmp_path / "p.jsonl", [{"id": k, "prediction": "Paris"} for k in "abcd"])
    result = one(gold, preds, profile="xldocbench")
    evidence = dict(dict(result.breakdowns)["evidence_source"])
    assert list(evidence) == ["chart", "table", "text", "unknown"]
    assert evidence["text"].count == 1 and evidence["table"].count == 1  # question a in both
    assert evidence["unknown"].count == 2  # c and d have none
    split = dict(dict(result.breakdowns)["split"])
    assert (split["cross_doc"].count, split["single_doc"].count) == (2, 2)


def test_duplicates_last_wins_under_xldocbench(gold: Path, tmp_path: Path) -> None:
    preds = write(
        tmp_path / "p.jsonl",
        [{"id": "a", "prediction": "London"}, {"id": "a", "prediction": "Paris"}],
    )
    result = one(gold, preds, profile="xldocbench")
    assert result.questions[0].prediction == "Paris"
    assert [d.id for d in result.duplicates] == ["a"]
    assert result.duplicates[0].locations == (f"{preds}:1", f"{preds}:2")


def test_duplicates_reported_under_assay_and_rejected_on_request(
    gold: Path, tmp_path: Path
) -> None:
    preds = write(
        tmp_path / "p.jsonl",
        [{"id": "a", "prediction": "London"}, {"id": "a", "prediction": "Paris"}],
    )
    kept = one(gold, preds)  # default policy last-wins: the later row, reported with both places
    assert kept.questions[0].prediction == "Paris"
    assert [(d.id, d.locations) for d in kept.duplicates] == [("a", (f"{preds}:1", f"{preds}:2"))]
    with pytest.raises(InputFileError, match="duplicate prediction id 'a'") as info:
        one(gold, preds, duplicate_policy="reject")
    assert info.value.line == 2


def test_provenance_recorded(gold: Path, tmp_path: Path) -> None:
    preds = write(tmp_path / "p.jsonl", [{"id": "a", "prediction": "Paris"}])
    result = evaluate([gold], [SystemInput("s", (str(preds),))])
    provenance = result.provenance()
    assert provenance["profile"] == "assay" and len(provenance["evaluator_sha256"]) == 64
    assert provenance["options"]["duplicate_policy"] == "last-wins"
    assert provenance["metric_signatures"]["token_f1"] == (
        "token_f1.set|tok:whitespace|norm:xldocbench|multi:max|v:0.1.0"
    )
    assert provenance["metric_signatures"]["anls"] == (
        "anls|tok:none|norm:strip-lower|thr:0.5|multi:max|v:0.1.0"
    )


def test_several_systems_leaderboard(gold: Path, tmp_path: Path) -> None:
    good = write(
        tmp_path / "good.jsonl",
        [
            {"id": k, "prediction": v}
            for k, v in [("a", "Paris"), ("b", "unanswerable"), ("c", "12"), ("d", "Oslo")]
        ],
    )
    bad = write(tmp_path / "bad.jsonl", [{"id": "a", "prediction": "Rome"}])
    result = evaluate([gold], [SystemInput("bad", (str(bad),)), SystemInput("good", (str(good),))])
    assert [s.system for s in result.leaderboard()] == ["good", "bad"]
    assert result.system("good").overall.accuracy == 1.0
    with pytest.raises(InvalidOptionError):
        evaluate([gold], [SystemInput("x", (str(bad),)), SystemInput("x", (str(good),))])


def test_accounting_identity_enforced() -> None:
    check_accounting({"scored": 2, "missing": 1}, 3)
    with pytest.raises(AccountingError):
        check_accounting({"scored": 2, "missing": 0}, 3)


def test_profiles_agree_on_f1_and_anls(gold: Path, tmp_path: Path) -> None:
    preds = write(
        tmp_path / "p.jsonl", [{"id": k, "prediction": "the answer is Paris"} for k in "abcd"]
    )
    xl = one(gold, preds, profile="xldocbench")
    ours = one(gold, preds, profile="assay")
    assert [q.token_f1 for q in xl.questions] == [q.token_f1 for q in ours.questions]
    assert [q.anls for q in xl.questions] == [q.anls for q in ours.questions]


def test_metric_functions_match_registry() -> None:
    import assay
    from assay.evaluation.profiles import anls
    from assay.metrics.overlap import set_f1
    from assay.text.normalize import normalize_xldocbench

    for p, g in [("The Answer is Paris.", "paris"), ("new  york", "New York"), ("1 250", "1,250")]:
        assert anls(p.strip().lower(), g.strip().lower()) == assay.score(
            "anls", p, g, normalizer="strip-lower"
        )
        assert set_f1(normalize_xldocbench(p).split(), normalize_xldocbench(g).split()) == (
            assay.score("token_f1.set", p, g)
        )
