"""SQuAD v2.0 no-answer threshold search, as the official v2.0 evaluation script does it.

Given per-question exact-match and F1 scores (assay's ``squad_v2.em`` / ``squad_v2.f1``
item values), whether each question has an answer (a target that is not the empty
string; the script's ``bool(qa["answers"])``) and a no-answer probability per question,
:func:`squad_v2_evaluation` returns the script's numbers on its 0–100 scale:

* ``exact``, ``f1``: means over all questions after the script's default threshold of
  1.0 (a question is predicted unanswerable when its probability is *above* the
  threshold, so at 1.0 the raw scores stand);
* ``HasAns_exact``, ``HasAns_f1`` / ``NoAns_exact``, ``NoAns_f1``: the same over the
  answerable / unanswerable questions (left out when there are none, as the script);
* ``best_exact``, ``best_exact_thresh``, ``best_f1``, ``best_f1_thresh``: the script's
  ``find_best_thresh``. Questions are taken in increasing probability (ties in the
  order of the probabilities mapping, as the script's stable sort of its dict); the
  running score starts at the number of unanswerable questions and changes by the
  question's score (answerable), by −1
  (unanswerable with a non-empty prediction) or 0; the best strictly greater running
  score and the probability where it was reached are kept (threshold 0.0 if none).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from assay.errors import InvalidOptionError


def _mean(values: Sequence[float], keep: Sequence[bool]) -> float:
    chosen = [v for v, k in zip(values, keep, strict=True) if k]
    return 100.0 * sum(chosen) / len(chosen)


def best_threshold(
    scores: Sequence[float],
    probabilities: Sequence[float],
    has_answer: Sequence[bool],
    answered: Sequence[bool],
    order: Sequence[int],
) -> tuple[float, float]:
    """The script's ``find_best_thresh``: ``(100 · best score / n, threshold)``.

    ``order`` lists the item indexes in the order of the probabilities mapping.
    """
    current = best = float(sum(1 for h in has_answer if not h))
    threshold = 0.0
    for i in sorted(order, key=probabilities.__getitem__):
        if has_answer[i]:
            current += scores[i]
        elif answered[i]:
            current -= 1
        if current > best:
            best, threshold = current, probabilities[i]
    return 100.0 * best / len(scores), threshold


def squad_v2_evaluation(
    exact: Sequence[float],
    f1: Sequence[float],
    has_answer: Sequence[bool],
    answered: Sequence[bool],
    probabilities: Sequence[float],
    order: Sequence[int],
) -> dict[str, float]:
    """The official v2.0 script's output keys and values (see the module doc)."""
    everyone = [True] * len(exact)
    out = {"exact": _mean(exact, everyone), "f1": _mean(f1, everyone)}
    if any(has_answer):
        out["HasAns_exact"] = _mean(exact, has_answer)
        out["HasAns_f1"] = _mean(f1, has_answer)
    no_answer = [not h for h in has_answer]
    if any(no_answer):
        out["NoAns_exact"] = _mean(exact, no_answer)
        out["NoAns_f1"] = _mean(f1, no_answer)
    search = (probabilities, has_answer, answered, order)
    out["best_exact"], out["best_exact_thresh"] = best_threshold(exact, *search)
    out["best_f1"], out["best_f1_thresh"] = best_threshold(f1, *search)
    return out


def probabilities_for(
    ids: Sequence[str], mapping: Mapping[object, object], metric: str
) -> tuple[list[float], list[int]]:
    """Each id's probability, and the item indexes in the mapping's order.

    Raises:
        InvalidOptionError: an id without a probability, or a value outside [0, 1].
    """
    if not isinstance(mapping, Mapping):
        raise InvalidOptionError(
            f"metric {metric!r}: no_answer_probabilities must be a mapping id -> probability, "
            f"got {type(mapping).__name__}."
        )
    out = []
    for item_id in ids:
        if item_id not in mapping:
            raise InvalidOptionError(
                f"metric {metric!r}: no_answer_probabilities has no entry for id {item_id!r}; "
                "give one probability per question id."
            )
        value = mapping[item_id]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise InvalidOptionError(
                f"metric {metric!r}: no_answer_probabilities[{item_id!r}]={value!r} is not a "
                "probability between 0 and 1."
            )
        out.append(float(value))
    position = {item_id: i for i, item_id in enumerate(ids)}
    order = [position[k] for k in mapping if k in position]
    return out, order
