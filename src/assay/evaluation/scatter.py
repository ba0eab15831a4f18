"""Per-item scatter of one metric against another, with Spearman's ρ and its n.

``assay compare --scatter X:Y`` and ``assay report --scatter X:Y`` add a
``scatters`` list to the result document; the HTML report draws each entry. A
metric the document already holds per item (``accuracy``, ``token_f1``, ``anls``)
is read from the item; any other registered metric (``greedy_match``,
``rouge_l``, ``embedding_cosine``, …) is scored here on the item's scored
prediction against its gold answer, with the metric's default options. Points
are the (question, system) rows in the ``scored`` bucket; rows in other buckets
(``empty``, ``missing``, ``status_substituted``) are counted in ``excluded``, so
``n + Σ excluded`` is the number of rows. The spec of each entry and its numbers
live in the document; renderers only draw them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from assay.api import bind
from assay.errors import InputFileError, InvalidOptionError
from assay.stats.rank import spearman

SEPARATORS = (":", ",")


def parse_pair(text: str) -> tuple[str, str]:
    """``greedy_match:rouge_l`` (or ``greedy_match,rouge_l``) → ``("greedy_match", "rouge_l")``.

    Raises:
        InvalidOptionError: not two names joined by ``:`` or ``,``.
    """
    for sep in SEPARATORS:
        x, found, y = text.partition(sep)
        if found and x.strip() and y.strip() and sep not in y:
            return x.strip(), y.strip()
    raise InvalidOptionError(
        f"--scatter {text!r}: expected two metric names as X:Y, e.g. greedy_match:rouge_l"
    )


def _value_reader(document: dict[str, Any], name: str) -> tuple[Callable[..., float], str]:
    """A function (item, result) → value, and the metric's signature."""
    if name in document.get("metrics", ()):
        signature = dict(document.get("metric_signatures") or {}).get(name, name)
        return (lambda item, result: float(result[name])), str(signature)
    bound = bind(name)

    def score(item: dict[str, Any], result: dict[str, Any]) -> float:
        return bound.score(str(result["prediction"]), [str(item["gold_answer"])])

    return score, bound.signature


def scatter_entry(document: dict[str, Any], x: str, y: str) -> dict[str, Any]:
    """One scatter: per-item points of metric ``x`` against ``y`` over scored rows.

    Raises:
        UnknownMetricError: ``x`` or ``y`` is neither in the document nor registered.
        MissingExtraError: a metric's optional package is not installed.
    """
    read_x, sig_x = _value_reader(document, x)
    read_y, sig_y = _value_reader(document, y)
    points: list[dict[str, Any]] = []
    excluded: Counter[str] = Counter()
    for item in document["items"]:
        for system in sorted(item["results"]):
            result = item["results"][system]
            if result["bucket"] != "scored":
                excluded[result["bucket"]] += 1
                continue
            points.append(
                {"question_id": item["question_id"], "system": system,
                 "x": read_x(item, result), "y": read_y(item, result)}
            )  # fmt: skip
    rho = spearman([p["x"] for p in points], [p["y"] for p in points])
    return {
        "x": x,
        "y": y,
        "x_signature": sig_x,
        "y_signature": sig_y,
        "n": len(points),
        "excluded": dict(sorted(excluded.items())),
        "rank_correlation": rho.to_dict(),
        "points": points,
    }


def add_scatters(document: dict[str, Any], pairs: Sequence[str]) -> dict[str, Any]:
    """A copy of ``document`` with a ``scatters`` entry per ``X:Y`` pair (replacing any)."""
    if not pairs:
        return document
    if document.get("kind") != "assay.result":
        raise InvalidOptionError("--scatter needs a result document with per-item rows")
    entries = [scatter_entry(document, *parse_pair(text)) for text in pairs]
    return {**document, "scatters": entries}


def check_saved_scatters(document: dict[str, Any], path: str) -> None:
    """Check a saved ``scatters`` list before it is drawn (a hand-edited file fails here).

    Raises:
        InputFileError: an entry lacks a field the renderer reads, or has the wrong type.
    """
    entries = document.get("scatters")
    if entries is None:
        return
    if not isinstance(entries, list):
        raise InputFileError(path, "must be a list of scatter entries", field="scatters")
    for index, entry in enumerate(entries):
        where = f"scatters[{index}]"
        problem = _entry_problem(entry)
        if problem is not None:
            raise InputFileError(
                path, f"{problem}; re-create it with `assay report --scatter X:Y`",
                field=f"{where}.{problem.split(' ', 1)[0]}" if isinstance(entry, dict) else where,
            )


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _entry_problem(entry: Any) -> str | None:
    if not isinstance(entry, dict):
        return "entry is not an object"
    for name in ("x", "y", "x_signature", "y_signature"):
        if not isinstance(entry.get(name), str):
            return f"{name} must be a string"
    if not isinstance(entry.get("n"), int) or not isinstance(entry.get("excluded"), dict):
        return "n must be an integer and excluded an object"
    rho = entry.get("rank_correlation")
    if not isinstance(rho, dict) or not (rho.get("rho") is None or _is_number(rho.get("rho"))):
        return "rank_correlation must be an object with a numeric or null rho"
    points = entry.get("points")
    if not isinstance(points, list) or not all(
        isinstance(p, dict) and _is_number(p.get("x")) and _is_number(p.get("y"))
        and isinstance(p.get("question_id"), str) and isinstance(p.get("system"), str)
        for p in points
    ):
        return "points must be objects with question_id, system and numeric x, y"
    return None
