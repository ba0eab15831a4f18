"""Spearman's rho, and the metric-against-metric scatter in compare/report HTML."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

import assay
from assay.errors import InvalidInputError
from assay.stats.rank import average_ranks, spearman

DATA = Path(__file__).resolve().parents[1] / "src" / "assay" / "data" / "xlsample"


def test_spearman_textbook_values() -> None:
    # no ties: 1 - 6 Σd² / (n (n² - 1)) with d = (-1, 1, -1, 1, 0): 1 - 24/120
    assert spearman([1, 2, 3, 4, 5], [2, 1, 4, 3, 5]).rho == pytest.approx(0.8, abs=1e-12)
    # ties share the mean rank: ranks y = (1, 2.5, 2.5, 4); Pearson of ranks = 4.5/sqrt(22.5)
    assert average_ranks([1, 2, 2, 3]) == [1.0, 2.5, 2.5, 4.0]
    assert spearman([1, 2, 3, 4], [1, 2, 2, 3]).rho == pytest.approx(4.5 / math.sqrt(22.5))
    assert spearman([1, 2, 3], [3, 2, 1]).rho == pytest.approx(-1.0)


def test_spearman_agrees_with_nltk_on_untied_ranks() -> None:
    from nltk.metrics.spearman import spearman_correlation

    x = [0.3, 0.9, 0.1, 0.5, 0.7, 0.2]
    y = [0.4, 0.8, 0.3, 0.1, 0.9, 0.0]
    rx = {i: r for r, i in enumerate(sorted(range(6), key=lambda i: x[i]))}
    ry = {i: r for r, i in enumerate(sorted(range(6), key=lambda i: y[i]))}
    assert spearman(x, y).rho == pytest.approx(spearman_correlation(rx, ry), abs=1e-12)


def test_spearman_undefined_cases_are_not_available_never_nan() -> None:
    assert spearman([0.5], [0.5]).to_dict() == {
        "method": "spearman (average ranks for ties)", "n": 1, "rho": None,
        "status": "not_available",
    }  # fmt: skip
    assert spearman([1, 1, 1], [1, 2, 3]).rho is None
    with pytest.raises(InvalidInputError):
        spearman([1, 2], [1])


def _assay(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "assay", *args], capture_output=True, text=True, timeout=300
    )


def _rho_by_counting(x: list[float], y: list[float]) -> float:
    """Spearman by its definition: rank = 1 + #smaller + (#equal - 1)/2, then Pearson."""

    def ranks(v: list[float]) -> list[float]:
        return [1 + sum(o < a for o in v) + (sum(o == a for o in v) - 1) / 2 for a in v]

    rx, ry = ranks(x), ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    num = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    den = math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))
    return num / den


@pytest.fixture(scope="module")
def compared(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("scatter")
    done = _assay(
        "compare", "--data-dir", str(DATA), "--predictions", str(DATA / "predictions"),
        "--trials", "200", "--scatter", "greedy_match:rouge_l",
        "--result-json", str(out / "r.json"), "--html", str(out / "r.html"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return out


def test_compare_scatter_in_document_and_html(compared: Path) -> None:
    document = json.loads((compared / "r.json").read_text("utf-8"))
    (entry,) = document["scatters"]
    assert (entry["x"], entry["y"]) == ("greedy_match", "rouge_l")
    assert entry["x_signature"] == assay.signature("greedy_match")
    assert entry["y_signature"] == assay.signature("rouge_l")
    rows = [(i, s, r) for i in document["items"] for s, r in i["results"].items()]
    scored = [(i, s, r) for i, s, r in rows if r["bucket"] == "scored"]
    assert entry["n"] == len(scored) == len(entry["points"])
    assert entry["n"] + sum(entry["excluded"].values()) == len(rows)
    by_key = {(p["question_id"], p["system"]): p for p in entry["points"]}
    for item, system, result in scored[:20]:
        point = by_key[(item["question_id"], system)]
        from rouge_score import rouge_scorer  # the peer computes the y values independently

        peer = rouge_scorer.RougeScorer(["rougeL"]).score(item["gold_answer"], result["prediction"])
        assert point["y"] == pytest.approx(peer["rougeL"].fmeasure, abs=1e-9)
    xs, ys = [p["x"] for p in entry["points"]], [p["y"] for p in entry["points"]]
    rho = entry["rank_correlation"]["rho"]
    assert rho == pytest.approx(_rho_by_counting(xs, ys), abs=1e-12)
    assert entry["rank_correlation"]["n"] == entry["n"]
    html = (compared / "r.html").read_text("utf-8")
    assert 'id="plot-scatter-greedy_match-rouge_l"' in html
    assert f"ρ = {rho:.3f} (n = {entry['n']})" in html
    figure = html.split('id="plot-scatter-greedy_match-rouge_l"', 1)[1].split("</figure>", 1)[0]
    assert figure.count("<circle ") == entry["n"]


def test_report_rerenders_saved_scatter_byte_identically(compared: Path, tmp_path: Path) -> None:
    done = _assay("report", str(compared / "r.json"), "--format", "html",
                  "--output", str(tmp_path / "again.html"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "again.html").read_bytes() == (compared / "r.html").read_bytes()


def test_report_adds_a_scatter_of_saved_metrics(compared: Path, tmp_path: Path) -> None:
    done = _assay("report", str(compared / "r.json"), "--format", "html",
                  "--output", str(tmp_path / "b.html"), "--scatter", "token_f1,anls")  # fmt: skip
    assert done.returncode == 0, done.stderr
    html = (tmp_path / "b.html").read_text("utf-8")
    assert 'id="plot-scatter-token_f1-anls"' in html
    assert 'id="plot-scatter-greedy_match-rouge_l"' not in html  # --scatter replaces the list


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("greedy_match", "--scatter 'greedy_match': expected two metric names as X:Y"),
        ("greedy_mach:rouge_l", "unknown metric 'greedy_mach'. Did you mean 'greedy_match'"),
    ],
)
def test_bad_scatter_is_one_line(compared: Path, tmp_path: Path, value: str, message: str) -> None:
    done = _assay("report", str(compared / "r.json"), "--format", "html",
                  "--output", str(tmp_path / "c.html"), "--scatter", value)  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: {message}") and done.stderr.count("\n") == 1
    assert not (tmp_path / "c.html").exists()


def test_hand_edited_saved_scatter_is_one_line(compared: Path, tmp_path: Path) -> None:
    document = json.loads((compared / "r.json").read_text("utf-8"))
    document["scatters"][0]["points"][0]["x"] = "high"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(document), encoding="utf-8")
    done = _assay("report", str(broken), "--format", "html", "--output", str(tmp_path / "x.html"))
    assert done.returncode == 3, done.stderr
    assert done.stderr.startswith(f"error: {broken}: field 'scatters[0].points':")
    assert done.stderr.count("\n") == 1


def test_score_judge_points_at_assay_judge() -> None:
    done = _assay("score", "judge", "-p", "a", "-t", "b")
    assert done.returncode == 2
    assert "run it with `assay judge --items FILE" in done.stderr
