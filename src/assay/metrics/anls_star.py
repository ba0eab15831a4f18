"""ANLS* (Peer et al. 2024, arXiv:2402.03848): ANLS for structured answers.

:func:`anls_star` compares a ground truth and a prediction built from strings (and
numbers/booleans, compared as ``str``), ``None``, lists, dicts and — in the ground
truth only — tuples of alternatives, as the reference package ``anls_star`` defines:

* **leaf** vs leaf: ``1 − lev(a, b) / max(|a|, |b|)`` on ``" ".join(str(x).strip().lower()
  .split())`` of each, set to 0 below the threshold 0.5 (1 when both are empty);
  a leaf against anything else scores 0;
* **None** in the ground truth scores 1 against a "none-like" prediction (``None``,
  ``""``, ``[]``, ``{}``), else 0;
* **tuple** (alternatives): the alternative with the best average NLS (ties: the one
  equal to the prediction, then the first);
* **list** vs list: Hungarian matching of the elements on their average NLS (an exact
  match is favoured by one ulp, as the package does); unmatched elements on either
  side count with their length and score 0;
* **dict** vs dict: keys of both sides; a missing key is compared as ``None``; a key
  only the prediction has is ignored when its value is none-like.

The score is ``Σ NLS / pairwise length`` (1 when the length is 0), where the length of a
pair is the larger of the two sides' leaf counts, recursively (tuples: the chosen
alternative's; lists: matched pairs plus unmatched elements). A list of strings as the
ground truth with a string as the prediction is read as a tuple of alternatives
(classic VQA), as the package does.

The registered metric ``anls_star`` reads each prediction and target as JSON when it
parses (``null`` → ``None``, arrays → lists, objects → dicts; any other text stays a
string); several targets are the alternatives of a tuple.

List matching uses the ``munkres`` package (``pip install 'assay[anls]'``), as the
reference package does: among equally good matchings the one it picks decides the
pairwise length, so another solver would change some scores.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from assay.errors import InvalidInputError, InvalidOptionError
from assay.metrics.base import MetricSpec, Settings
from assay.metrics.edit import thresholded_similarity

THRESHOLD = 0.5


@dataclass(frozen=True, slots=True)
class Result:
    """NLS values, pairwise length, and the closest ground truth (the package's ``closest_gt``)."""

    values: list[float]
    length: int
    closest: Any

    @property
    def average(self) -> float:
        """``Σ values / length`` (1 when the length is 0)."""
        return sum(self.values) / self.length if self.length > 0 else 1.0


def _none_like(value: Any) -> bool:
    return value is None or (isinstance(value, (str, list, dict)) and not value)


def size(obj: Any) -> int:
    """The number of leaves (``None`` counts 1; a tuple: its largest alternative)."""
    if isinstance(obj, tuple):
        return max(size(x) for x in obj)
    if isinstance(obj, list):
        return sum(size(x) for x in obj)
    if isinstance(obj, dict):
        return sum(size(x) for x in obj.values())
    return 1


def _leaf_text(value: Any) -> str:
    return " ".join(str(value).strip().lower().split())


def _leaf(gt: Any, pred: Any) -> float:
    return thresholded_similarity(_leaf_text(gt), _leaf_text(pred), THRESHOLD)


def compare(gt: Any, pred: Any) -> Result:
    """NLS values, pairwise length and closest ground truth of ``pred`` against ``gt``."""
    if isinstance(gt, tuple):
        return _alternatives(gt, pred)
    if isinstance(gt, list):
        if not isinstance(pred, list):
            return Result([0.0], max(size(gt), size(pred)), gt)
        return _lists(gt, pred)
    if isinstance(gt, dict):
        if not isinstance(pred, dict):
            return Result([0.0], max(size(gt), size(pred)), gt)
        return _dicts(gt, pred)
    length = max(1, size(pred))
    if gt is None:
        none = _none_like(pred)
        return Result([1.0 if none else 0.0], length, pred if none else None)
    if isinstance(pred, (str, int, float, bool)):
        return Result([_leaf(gt, pred)], length, gt)
    return Result([0.0], length, gt)


def _alternatives(gt: tuple[Any, ...], pred: Any) -> Result:
    best: tuple[float, int] | None = None
    chosen = Result([], 0, None)
    for option in gt:  # the package keeps the first of equally good alternatives
        result = compare(option, pred)
        key = (result.average, 1 if result.closest == pred else 0)
        if best is None or key > best:
            best, chosen = key, result
    return chosen


def _lists(gt: list[Any], pred: list[Any]) -> Result:
    if not gt or not pred:
        return Result([], sum(size(x) for x in gt) + sum(size(x) for x in pred), list(gt))
    cells = [[compare(g, p) for p in pred] for g in gt]
    gain = [
        [math.nextafter(c.average, math.inf) if c.closest == p else c.average
         for c, p in zip(row, pred, strict=True)]
        for row in cells
    ]  # fmt: skip  (an exact match is favoured by one ulp, as the package does)
    pairs = sorted(assignment(gain), key=lambda ij: ij[1])
    values = [v for i, j in pairs for v in cells[i][j].values]
    length = sum(cells[i][j].length for i, j in pairs)
    used_g, used_p = {i for i, _ in pairs}, {j for _, j in pairs}
    length += sum(size(g) for i, g in enumerate(gt) if i not in used_g)
    length += sum(size(p) for j, p in enumerate(pred) if j not in used_p)
    closest = [cells[i][j].closest for i, j in pairs]
    closest += [g for i, g in enumerate(gt) if i not in used_g]
    return Result(values, length, closest)


def _dicts(gt: dict[Any, Any], pred: dict[Any, Any]) -> Result:
    values: list[float] = []
    length = 0
    closest: dict[Any, Any] = {}
    for key in [*gt, *(k for k in pred if k not in gt)]:
        g, p = gt.get(key), pred.get(key)
        result = compare(g, p)
        if key not in gt and _none_like(p):
            length += result.length  # a hallucinated none-like key: no value, but its length
            continue
        values += result.values
        length += result.length
        if not (_none_like(result.closest) and key not in pred):
            closest[key] = result.closest
    return Result(values, length, closest)


def assignment(gain: Sequence[Sequence[float]]) -> list[tuple[int, int]]:
    """Rows matched to columns maximising the total ``gain`` (``munkres``, as the package).

    The ``munkres`` package's Hungarian method on ``max − gain``, called as the
    reference package calls it, so that ties between matchings are broken the same way.

    Raises:
        InvalidOptionError: ``munkres`` is not installed (``pip install 'assay[anls]'``).
    """
    try:
        from munkres import Munkres, make_cost_matrix
    except ImportError:
        raise InvalidOptionError(
            "metric 'anls_star' needs the munkres package to match list elements; "
            "install it with: pip install 'assay[anls]'"
        ) from None
    cost = make_cost_matrix([list(row) for row in gain])
    return [(int(i), int(j)) for i, j in Munkres().compute(cost)]


def anls_star(gt: Any, pred: Any) -> float:
    """ANLS* of ``pred`` against ``gt`` (Python objects; see the module doc).

    Raises:
        InvalidInputError: a tuple in the prediction, an empty tuple, or a type that is
            not a string, number, boolean, None, list, tuple or dict.
    """
    _check(gt, "ground truth", allow_tuple=True)
    _check(pred, "prediction", allow_tuple=False)
    if isinstance(gt, list) and isinstance(pred, str) and all(isinstance(x, str) for x in gt):
        gt = tuple(gt)  # classic VQA: a list of answers is a set of alternatives
    return compare(gt, pred).average


def _check(obj: Any, side: str, allow_tuple: bool) -> None:
    if isinstance(obj, tuple):
        if not allow_tuple:
            raise InvalidInputError(
                f"anls_star: a tuple in the {side}; tuples are the ground truth's alternatives, "
                "use a list in a prediction."
            )
        if not obj:
            raise InvalidInputError("anls_star: an empty tuple of alternatives (ground truth).")
    if isinstance(obj, (tuple, list)):
        for x in obj:
            _check(x, side, allow_tuple)
    elif isinstance(obj, dict):
        for x in obj.values():
            _check(x, side, allow_tuple)
    elif obj is not None and not isinstance(obj, (str, int, float, bool)):
        raise InvalidInputError(f"anls_star: unsupported {type(obj).__name__} in the {side}.")


# Every JSON value ``json.loads`` accepts starts, after JSON whitespace, with one of
# these (a string, object, array, literal, number, NaN, Infinity or -Infinity).
_JSON_STARTS = frozenset('"{[ntfNI-0123456789')
_JSON_SPACE = " \t\n\r"


def parse(text: str) -> Any:
    """A text as ANLS* reads it: JSON when it parses, else the text itself.

    A text whose first character after JSON whitespace cannot start a JSON value is
    returned at once (``json.loads`` would fail on it; raising costs more than scoring).
    """
    first = text[:1]
    if first in _JSON_SPACE:  # also the empty text
        first = text.lstrip(_JSON_SPACE)[:1]
    if first not in _JSON_STARTS:
        return text
    try:
        return json.loads(text)
    except ValueError:
        return text


def _score(prediction: str, targets: Sequence[str], s: Settings) -> float:
    options = [parse(t) for t in targets]
    gt = options[0] if len(options) == 1 else tuple(options)
    return anls_star(gt, parse(prediction))


_SCALARS = (str, int, float, bool)  # the leaf types ``parse`` gives (``json.loads``'s exactly)


def _score_batch(
    predictions: Sequence[str], targets_list: Sequence[Sequence[str]], s: Settings
) -> list[float]:
    """:func:`_score` for a corpus; an item of leaves only is scored without the tree walk.

    When the prediction and every target parse to a leaf (a string, number or boolean),
    :func:`compare` of leaves is :func:`_leaf` with pairwise length 1, and a tuple of
    alternatives gives the best of them: the value is the best :func:`_leaf`, with the
    prediction's text made once.
    """
    out: list[float] = []
    for prediction, targets in zip(predictions, targets_list, strict=True):
        pred = parse(prediction)
        if len(targets) == 1:
            gt = parse(targets[0])
            if type(pred) in _SCALARS and type(gt) in _SCALARS:
                out.append(thresholded_similarity(_leaf_text(gt), _leaf_text(pred), THRESHOLD))
            else:
                out.append(anls_star(gt, pred))
            continue
        options = [parse(t) for t in targets]
        if type(pred) not in _SCALARS or any(type(o) not in _SCALARS for o in options):
            out.append(anls_star(tuple(options), pred))
            continue
        text = _leaf_text(pred)
        out.append(max(thresholded_similarity(_leaf_text(o), text, THRESHOLD) for o in options))
    return out


METRICS = (
    MetricSpec(
        name="anls_star",
        fn=_score,
        description="ANLS* for structured answers (JSON objects, arrays, null); targets: choices",
        citation="Peer et al. 2024, ANLS* (arXiv:2402.03848); the anls_star package",
        family="edit",
        multi="native",
        batch_fn=_score_batch,
        edge_cases={
            "empty prediction": "0 unless the target is empty, null, [] or {}",
            "empty target": "1 for an empty prediction, else 0",
            "both empty": "1",
            "whitespace-only": "same as empty after stripping",
            "punctuation-only": "compared as characters",
            "no shared tokens": "character similarity, usually below the threshold",
            "exact match": "1",
            "repeated tokens": "list elements matched one to one (Hungarian)",
        },
    ),
)
