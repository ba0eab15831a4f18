"""The scoring fast paths give exactly what the plain expressions give.

Each rewritten normaliser is compared with its original regex pipeline, written out
literally here, on generated texts built from the characters that matter (articles,
marks, apostrophes, prefixes, non-ASCII word and space characters) and on arbitrary text.
"""

from __future__ import annotations

import importlib
import re
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from assay.evaluation import assay_rules
from assay.text.normalize import (
    drop_articles,
    normalize_xldocbench,
    spaced_without_articles,
    xldocbench_token_set,
    xldocbench_tokens,
)
from xl_reference import normalize as released_normalize  # the released rules, literally

PIECES = [
    "a", "an", "the", "The", "A", "AN", "answer:", "the answer is", "final answer:",
    "answer is", "can't", "won't", "cannot", "don't", "isn't", "n't", "can\u2019t",
    "not", "x", "b1", "_", "é", "日", "İ", "ß", "ﬁ", "²", " ", "  ", "\t", "\n",
    "\u00a0", "\u2028", "\x1c", ".", "-", "%", ",", ";", "'", '"', "(", ")", "!", "?",
    "\u2019", "–", "5", "5.5", "-3", "the.", ".the", "a-b", "an%", ". ", "x. ", ", ",
    "a. ", "an.", "the. ", "..", ". .", "x.\n",
]  # fmt: skip
TEXT = st.lists(st.sampled_from(PIECES), max_size=14).map("".join) | st.text(max_size=40)

ARTICLES = re.compile(r"\b(a|an|the)\b")


def _plain_normalise(text: str) -> str:
    """The ``assay`` entity normalisation as three plain regex passes."""
    text = unicodedata.normalize("NFKC", text).strip().casefold()
    for prefix in ("final answer:", "the answer is", "answer:", "answer is"):
        if text.startswith(prefix):
            text = text[len(prefix) :].strip()
    text = re.sub(r"[^\w\s.\-%]", " ", text)
    text = re.sub(r"(?<!\w)[.\-]|[.\-](?!\w)", " ", text)
    return " ".join(re.sub(r"\b(?:a|an|the)\b", " ", text).split())


def _plain_words(text: str) -> str:
    """Contractions expanded by four regex passes, then ``\\w+`` runs."""
    apostrophes = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u2032": "'"})
    text = unicodedata.normalize("NFKC", text).casefold().translate(apostrophes)
    text = re.sub(r"\bcan't\b", "can not", text)
    text = re.sub(r"\bwon't\b", "will not", text)
    text = re.sub(r"\bcannot\b", "can not", text)
    text = re.sub(r"n't\b", " not", text)
    return " ".join(re.findall(r"\w+", text))


@settings(max_examples=600)
@given(TEXT)
def test_xldocbench_normaliser_equals_the_released_expression(text: str) -> None:
    assert normalize_xldocbench(text) == released_normalize(text)
    assert xldocbench_tokens(text) == released_normalize(text).split()


@settings(max_examples=1500)
@given(TEXT)
def test_xldocbench_token_set_equals_the_released_tokens_as_a_set(text: str) -> None:
    assert xldocbench_token_set(text) == set(released_normalize(text).split())


def test_xldocbench_token_set_by_hand() -> None:
    assert xldocbench_token_set("The cat. the. A-b, an%x 5%a a.b.the the") == {
        "cat.", ".", "-b", "%x", "5%", ".b.",
    }  # fmt: skip


@settings(max_examples=600)
@given(TEXT)
def test_assay_normalise_equals_the_plain_regex_passes(text: str) -> None:
    assert assay_rules.normalise(text) == _plain_normalise(text)


@settings(max_examples=600)
@given(TEXT)
def test_words_equals_the_plain_regex_passes(text: str) -> None:
    assert assay_rules.words(text) == _plain_words(text)


def _plain_normalise_prefix(raw: str) -> str:
    """The leading answer prefixes off, each checked on the text casefolded anew."""
    text = raw.strip()
    for prefix in ("final answer:", "the answer is", "answer:", "answer is"):
        if text.casefold().startswith(prefix):
            text = text[len(prefix) :].strip()
    return text


@settings(max_examples=600)
@given(TEXT)
def test_normalise_prefix_equals_the_plain_loop(text: str) -> None:
    assert assay_rules.normalise_prefix(text) == _plain_normalise_prefix(text)
    assert assay_rules.normalise_prefix(f"Final Answer: {text}") == _plain_normalise_prefix(
        f"Final Answer: {text}"
    )


def test_every_single_character_is_handled_like_the_regex() -> None:
    """Each code point alone and between words: the ASCII tables and the token rules."""
    for code in [*range(0x250), 0x2028, 0x3000, 0xFEFF, 0x0307]:
        for text in (chr(code), f"the{chr(code)}a an", f"x {chr(code)}the. a-{chr(code)}"):
            assert normalize_xldocbench(text) == released_normalize(text), hex(code)
            assert xldocbench_token_set(text) == set(released_normalize(text).split()), hex(code)
            assert assay_rules.normalise(text) == _plain_normalise(text), hex(code)
            assert assay_rules.words(text) == _plain_words(text), hex(code)


def test_xldocbench_token_set_with_sentence_ends_by_hand() -> None:
    """Every "." ends its token: "a." and "the." become "." (as the released pattern does)."""
    assert xldocbench_token_set("The cat sat. On a. mat the.") == {"cat", "sat.", "on", ".", "mat"}
    assert xldocbench_token_set("x. y.") == {"x.", "y."}


SPACED = st.lists(st.sampled_from(["a", "an", "the", "x", "b1", "_", "é", " ", "  "]), max_size=16)


@settings(max_examples=600)
@given(SPACED.map("".join))
def test_spaced_without_articles_equals_the_joined_tokens(text: str) -> None:
    assert spaced_without_articles(text) == " ".join(drop_articles(text))


def test_spaced_without_articles_by_hand() -> None:
    assert spaced_without_articles("  the the cat  a an  sat the ") == "cat sat"
    assert spaced_without_articles("a") == ""
    assert spaced_without_articles("") == ""
    assert spaced_without_articles("theory another a_b") == "theory another a_b"


def test_drop_articles_by_hand() -> None:
    assert drop_articles("the cat sat on a mat") == ["cat", "sat", "on", "mat"]
    assert drop_articles("the. an-x 5%a theory another") == [".", "-x", "5%", "theory", "another"]
    assert drop_articles("") == []


@settings(max_examples=600)
@given(TEXT)
def test_article_regex_matches_the_plain_expression(text: str) -> None:
    normalize = importlib.import_module("assay.text.normalize")
    assert normalize._ARTICLES.sub(" ", text) == ARTICLES.sub(" ", text)
    assert [m.span() for m in normalize._ARTICLES.finditer(text)] == [
        m.span() for m in ARTICLES.finditer(text)
    ]


def _plain_breakdowns(questions: list) -> dict:
    """Per dimension and label: (count, sum/n of each column), appended in question order."""
    out: dict = {}
    for dim in ("split", "domain", "reasoning_type", "answer_format", "difficulty", "doc_type"):
        groups: dict = {}
        for q in questions:
            groups.setdefault(getattr(q, dim), []).append(q)
        out[dim] = _plain_means(groups)
    groups = {}
    for q in questions:
        for name in q.evidence_sources:
            groups.setdefault(name, []).append(q)
    out["evidence_source"] = _plain_means(groups)
    return out


def _plain_means(groups: dict) -> list:
    rows = []
    for name in sorted(groups):
        qs = groups[name]
        n = len(qs)
        rows.append((name, n, *(sum(getattr(q, m) for q in qs) / n
                                for m in ("accuracy", "token_f1", "anls"))))  # fmt: skip
    return rows


def test_breakdowns_equal_plain_grouping_bit_for_bit() -> None:
    """Random labels (repeated evidence sources too) and values whose sum depends on order."""
    import random

    from assay.evaluation.benchmark import QuestionResult, breakdowns

    rng = random.Random(10)
    labels = ["b", "a", "", "unknown", "Z", "é"]
    questions = []
    for k in range(400):
        pick = lambda: rng.choice(labels)  # noqa: E731
        sources = tuple(rng.choice(labels) for _ in range(rng.randint(1, 3)))
        questions.append(QuestionResult(
            f"q{k}", "p", "g", pick(), "success", float(rng.random() < 0.5),
            rng.random() * 10 ** rng.randint(-8, 8), rng.random() / 3,
            pick(), pick(), pick(), pick(), pick(), sources, "entity", "scored", "p",
        ))  # fmt: skip
    got = {
        dim: [(name, a.count, a.accuracy, a.token_f1, a.anls) for name, a in rows]
        for dim, rows in breakdowns(questions)
    }
    assert got == _plain_breakdowns(questions)
    assert list(got) == [
        "split", "domain", "reasoning_type", "answer_format", "difficulty", "doc_type",
        "evidence_source",
    ]  # fmt: skip
    assert breakdowns([]) == tuple((dim, ()) for dim in got)


def test_released_surrogate_warning_names_the_first_row(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A lone surrogate in a prediction, or inside a status written as a list, is warned
    about under the xldocbench profile (the released evaluator fails writing its CSV)."""
    import json

    from assay.evaluation.runs import SystemInput, evaluate

    gold = tmp_path / "gold.jsonl"
    gold.write_text("".join(
        json.dumps({"question_id": f"q{k}", "answer": {"value": "x", "format": "Str"}}) + "\n"
        for k in range(3)
    ))  # fmt: skip
    plain = tmp_path / "plain.jsonl"
    plain.write_text('{"question_id": "q0", "prediction": "caf\\u00e9 \\ud83d\\ude00"}\n')
    lone = tmp_path / "lone.jsonl"
    lone.write_text(
        '{"question_id": "q1", "prediction": "a\\ud800b"}\n'
        '{"question_id": "q2", "prediction": "y", "status": ["\\udc00"]}\n'
    )
    result = evaluate([gold], [SystemInput("plain", str(plain))], profile="xldocbench")
    assert not [w for w in result.warnings if "a lone surrogate" in w]
    result = evaluate([gold], [SystemInput("lone", str(lone))], profile="xldocbench")
    warned = [w for w in result.warnings if "a lone surrogate" in w]
    assert len(warned) == 1 and warned[0].startswith("question 'q1': ")
    assert warned[0].endswith("(2 rows)")


def test_evaluate_breakdowns_from_the_gold_layout_equal_plain_grouping(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The gold-side layout (every question scored) and the per-system one (some skipped
    under ignore_missing) give what plain grouping of the scored questions gives."""
    from assay.evaluation.runs import SystemInput, evaluate
    from compare_helpers import GOLD_DIR, write_predictions

    files = write_predictions(tmp_path / "pred", {"full": [1, 0, 1, 1, 0, 1], "half": [1] * 6})
    half = files[1]
    half.write_text("".join(half.read_text().splitlines(keepends=True)[::2]))  # 3 of 6 missing
    gold = [GOLD_DIR / "qa_single_doc.jsonl", GOLD_DIR / "qa_cross_doc.jsonl"]
    for ignore in (False, True):
        result = evaluate(gold, [SystemInput(f.stem, str(f)) for f in files],
                          ignore_missing=ignore)  # fmt: skip
        for system in result.systems:
            got = {
                dim: [(name, a.count, a.accuracy, a.token_f1, a.anls) for name, a in rows]
                for dim, rows in system.breakdowns
            }
            assert got == _plain_breakdowns(list(system.questions))


def test_evaluate_pauses_the_collector_and_restores_its_state(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Collector off while scoring; on again after (also after an error), off if it was off."""
    import gc

    import pytest

    from assay.errors import InputFileError
    from assay.evaluation.runs import SystemInput, evaluate
    from compare_helpers import GOLD_DIR, write_predictions

    paths = write_predictions(tmp_path / "p")
    systems = [SystemInput(p.stem, (str(p),)) for p in paths]
    gold = [GOLD_DIR / "qa_single_doc.jsonl"]
    seen: list[bool] = []
    try:
        assert gc.isenabled()
        result = evaluate(gold, systems, progress=lambda name: seen.append(gc.isenabled()))
        assert gc.isenabled() and seen == [False] * len(paths)
        assert [s.system for s in result.systems] == [p.stem for p in paths]
        with pytest.raises(InputFileError):
            evaluate(gold, [SystemInput("none", (str(tmp_path / "missing.jsonl"),))])
        assert gc.isenabled()
        gc.disable()
        evaluate(gold, systems)
        assert not gc.isenabled()
    finally:
        gc.enable()


_SURROGATE_TEXT = st.text(
    st.sampled_from(["a", "é", "\ud800", "\udc00", "\U0001f600", " "]), max_size=3
)
_RELEASED_VALUE = st.one_of(
    st.none(), _SURROGATE_TEXT, st.lists(_SURROGATE_TEXT, max_size=2),
    st.dictionaries(_SURROGATE_TEXT, _SURROGATE_TEXT, max_size=1), st.integers(0, 3),
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.lists(
            st.tuples(
                _SURROGATE_TEXT,
                _SURROGATE_TEXT,
                st.one_of(st.none(), st.tuples(*[_RELEASED_VALUE] * 5)),
            ),  # fmt: skip
            max_size=4,
        ),
        min_size=1,
        max_size=3,
    )
)
def test_surrogate_warning_equals_the_row_by_row_check(systems) -> None:  # type: ignore[no-untyped-def]
    """The joined-text check per system warns exactly as checking every row on its own."""
    from types import SimpleNamespace

    from assay.evaluation import runs
    from assay.evaluation.benchmark import QuestionResult

    results = []
    for s, rows in enumerate(systems):
        questions = tuple(
            QuestionResult(
                f"q{k}",
                prediction,
                gold,
                "Str",
                "success",
                1.0,
                1.0,
                1.0,
                "s",
                "d",
                "r",
                "easy",
                "pdf",
                (),
                "entity",
                "scored",
                prediction,
                (),
                released,
            )  # fmt: skip
            for k, (prediction, gold, released) in enumerate(rows)
        )
        results.append(SimpleNamespace(system=f"s{s}", questions=questions))
    hits = [q.question_id for r in results for q in r.questions if runs._row_has_surrogate(q)]
    expected = []
    if hits:
        rows_text = f"{len(hits)} row" + ("" if len(hits) == 1 else "s")
        expected = [f"question {hits[0]!r}: {runs.SURROGATE_NOTE} ({rows_text})"]
    assert runs._surrogate_warning(results) == expected  # type: ignore[arg-type]
