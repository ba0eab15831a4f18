"""embedding_cosine / greedy_match: offline, against wordllama's own inference code."""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

import assay

WL_DIR = Path(next(iter(importlib.util.find_spec("wordllama").submodule_search_locations)))
WEIGHTS = WL_DIR / "weights" / "l2_supercat_256.safetensors"
TOKENIZER = WL_DIR / "tokenizers" / "l2_supercat_tokenizer_config.json"

PAIRS = [
    ("The cat sat on the mat.", "A cat was sitting on the mat."),
    ("Paris is the capital of France.", "The capital of France is Paris."),
    ("I like green apples", "Quantum chromodynamics describes quarks"),
    ("the the the", "the"),
    ("Berlin", "Germany's capital city is Berlin"),
]


@pytest.fixture(scope="module")
def peer():  # wordllama's own inference object over the same two files
    from safetensors import safe_open
    from tokenizers import Tokenizer
    from wordllama.inference import WordLlamaInference

    with safe_open(str(WEIGHTS), framework="np", device="cpu") as handle:
        embedding = handle.get_tensor("embedding.weight")
    return WordLlamaInference(embedding, Tokenizer.from_file(str(TOKENIZER)))


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_embedding_cosine_agrees_with_wordllama_similarity(peer, a: str, b: str) -> None:
    expected = max(0.0, peer.similarity(a, b))  # float32 pooling in the peer
    assert assay.score("embedding_cosine", a, [b]) == pytest.approx(expected, abs=2e-6)


def _token_vectors(peer, text: str) -> list[list[float]]:
    ids = peer.tokenize(text)[0].ids
    return [[float(x) for x in peer.embedding[i]] for i in ids]


def _cos(u: list[float], v: list[float]) -> float:
    dot = math.fsum(x * y for x, y in zip(u, v, strict=True))
    return dot / (math.sqrt(math.fsum(x * x for x in u)) * math.sqrt(math.fsum(y * y for y in v)))


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_greedy_match_agrees_with_a_pure_python_computation(peer, a: str, b: str) -> None:
    x, y = _token_vectors(peer, a), _token_vectors(peer, b)
    p = sum(max(_cos(u, v) for v in y) for u in x) / len(x)
    r = sum(max(_cos(u, v) for u in x) for v in y) / len(y)
    f = 2 * p * r / (p + r)
    assert assay.score("greedy_match", a, [b], measure="p") == pytest.approx(p, abs=1e-9)
    assert assay.score("greedy_match", a, [b], measure="r") == pytest.approx(r, abs=1e-9)
    assert assay.score("greedy_match", a, [b]) == pytest.approx(f, abs=1e-9)


def test_greedy_match_subset_has_precision_one_and_recall_below_one() -> None:
    # every prediction token also occurs in the target: each matches itself (cosine 1)
    assert assay.score("greedy_match", "the cat", ["the cat sat"], measure="p") == 1.0
    assert assay.score("greedy_match", "the cat", ["the cat sat"], measure="r") < 1.0


@pytest.mark.parametrize("metric", ["embedding_cosine", "greedy_match"])
def test_edge_cases(metric: str) -> None:
    assert assay.score(metric, "", [""]) == 1.0
    assert assay.score(metric, "", ["something"]) == 0.0
    assert assay.score(metric, "something", [""]) == 0.0
    assert assay.score(metric, "The same words.", ["The same words."]) == 1.0
    # multi-target: max over targets
    best = assay.score(metric, "a red car", ["a red car"])
    assert assay.score(metric, "a red car", ["quantum physics", "a red car"]) == best


def test_related_sentences_score_above_unrelated_ones() -> None:
    for metric in ("embedding_cosine", "greedy_match"):
        related = assay.score(metric, "The cat sat on the mat.", ["A cat sat on a mat."])
        unrelated = assay.score(metric, "The cat sat on the mat.", ["Stock prices fell sharply."])
        assert related > unrelated


def test_signature_names_model_version_and_weights_hash() -> None:
    digest = hashlib.sha256(WEIGHTS.read_bytes()).hexdigest()[:16]
    version = importlib.metadata.version("wordllama")
    assert assay.signature("embedding_cosine") == (
        f"embedding_cosine|tok:none|norm:none|model:wordllama-l2_supercat_256|"
        f"wordllama:{version}|weights:sha256:{digest}|multi:max|v:0.1.0"
    )
    assert assay.signature("greedy_match", measure="r") == (
        f"greedy_match|tok:none|norm:none|measure:r|model:wordllama-l2_supercat_256|"
        f"wordllama:{version}|weights:sha256:{digest}|multi:max|v:0.1.0"
    )


def test_tokenizer_option_is_refused() -> None:
    with pytest.raises(assay.InvalidOptionError):
        assay.score("greedy_match", "a", ["a"], tokenizer="word")


# A sitecustomize that makes wordllama unimportable and any socket use fail.
SITE = """
import importlib.abc, socket, sys
class _Hide(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "wordllama" and {hide}:
            raise ModuleNotFoundError("No module named 'wordllama'")
        return None
sys.meta_path.insert(0, _Hide())
def _no_network(*args, **kwargs):
    raise OSError("network used during scoring")
socket.socket.connect = _no_network
socket.create_connection = _no_network
"""


def _assay(tmp_path: Path, hide: bool, *args: str) -> subprocess.CompletedProcess[str]:
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(SITE.format(hide=hide))
    env = dict(os.environ, PYTHONPATH=str(site), HF_HUB_OFFLINE="0", HOME=str(tmp_path))
    return subprocess.run(
        [sys.executable, "-m", "assay", *args], capture_output=True, text=True, env=env,
        timeout=120,
    )  # fmt: skip


def test_scores_offline_in_a_fresh_process_with_network_refused(tmp_path: Path) -> None:
    done = _assay(tmp_path, False, "score", "greedy_match", "-p", "a red car", "-t", "a red car")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("greedy_match: 1.000000\n")
    assert not (tmp_path / ".cache").exists()  # nothing downloaded into the user's cache


def test_missing_package_gives_one_line_install_hint(tmp_path: Path) -> None:
    done = _assay(tmp_path, True, "score", "embedding_cosine", "-p", "a", "-t", "b")
    assert done.returncode == 1
    assert done.stderr == (
        "error: embedding_cosine/greedy_match: the optional package 'wordllama' is not "
        "installed; install it with: pip install 'assay[semantic]'\n"
    )
    listing = _assay(tmp_path, True, "metrics")
    assert listing.returncode == 0, listing.stderr
    line = next(x for x in listing.stdout.splitlines() if x.startswith("greedy_match "))
    assert line.endswith("(needs: pip install 'assay[semantic]')")
    assert "rouge_l|" in listing.stdout  # the other metrics still list


# Tokenising by segments and the corpus path (issue 10): the same ids as the
# tokenizer's own encode, and score_corpus values equal to assay.score per item.
_PIECES = ["a", "cat", "Straße", "東京", "😀", "\n", "\t", " ", "  ", "\u2581", "<s>", "</s>",
           "<unk>", "x-y", "3.14", ",", "ba0", "Hello", "é", "\u3000", "s>", "<"]  # fmt: skip


def _random_texts(seed: int, n: int) -> list[str]:
    import random

    rng = random.Random(seed)
    return ["".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 30))) for _ in range(n)]


def test_segment_tokenisation_equals_the_tokenizers_encode() -> None:
    from assay.metrics import static_embeddings

    model = static_embeddings.load()
    assert model.segmentable  # the bundled vocabulary allows it (checked at load)
    texts = _random_texts(1, 3000) + ["", " ", "  a  ", "a <s> b", "\u2581\u2581x y"]
    expected = [model.tokenizer.encode(t, add_special_tokens=False).ids for t in texts]
    assert model.token_id_lists(texts) == expected


@pytest.mark.parametrize("metric", ["embedding_cosine", "greedy_match"])
def test_corpus_values_equal_per_item_scores(metric: str) -> None:
    texts = _random_texts(2, 240)
    preds, targets = texts[:80], [[texts[80 + i], texts[160 + i]] for i in range(80)]
    preds[0], targets[1] = "", ["", "a cat"]
    values = assay.score_corpus(metric, preds, targets).values
    assert list(values) == [assay.score(metric, p, t) for p, t in zip(preds, targets, strict=True)]
    for p, ts in zip(preds[:20], targets[:20], strict=True):  # max over targets
        assert assay.score(metric, p, ts) == max(assay.score(metric, p, [t]) for t in ts)


@pytest.mark.parametrize(("a", "b"), PAIRS + [("the cat the cat sat", "cat the mat the the")])
def test_greedy_match_repeated_tokens_against_pure_python(peer, a: str, b: str) -> None:
    x, y = _token_vectors(peer, a), _token_vectors(peer, b)
    p = sum(max(_cos(u, v) for v in y) for u in x) / len(x)
    r = sum(max(_cos(u, v) for u in x) for v in y) / len(y)
    got = assay.score_corpus("greedy_match", [a, b], [[b], [a]], measure="p").values
    assert got[0] == pytest.approx(p, abs=1e-9)
    assert got[1] == pytest.approx(r, abs=1e-9)


# wordllama's own API as the oracle for embedding_cosine on texts of every shape (issue 28).
# assay differs from WordLlamaInference.similarity in exactly three documented choices
# (README, metrics/semantic.py), each named where it applies:
#   NEGATIVE: a negative cosine counts as 0 (assay's metrics are all in [0, 1]);
#   BOTH_EMPTY: two texts without tokens score 1 (wordllama pools zero vectors: 0.0);
#   SAME_TOKENS: texts with identical token multisets score exactly 1 (the same mean;
#     wordllama's float32 pooling may give 0.99999994).
# Everywhere else the values agree to float32 pooling rounding.
SHAPES = {
    "empty": "", "space": " ", "spaces": "     ", "newlines": "\n\n", "tab": "\t",
    "whitespace mix": " \t\n \u3000", "punctuation": "?!.,;:", "question mark": "?",
    "newline": "\n", "digits": "3.14159 2718", "word": "cat", "sentence": "The cat sat.",
    "permuted sentence": "sat The cat.", "repeated": "the the the the", "once": "the",
    "cjk": "東京は日本の首都です", "emoji": "😀🎉👍🏽", "combining": "e\u0301 a\u0308",
    "arabic": "مرحبا بالعالم", "hebrew": "שלום עולם", "mixed": "Straße 東京 😀 x-y 3.14",
    "specials": "<s> </s> <unk>", "special inside": "a<s>b", "sentencepiece mark": "\u2581\u2581x",
    "leading and trailing": "  padded text  ", "code": "def f(x):\n    return {x: [1, 2]}\n",
    "url": "https://example.org/a?b=c#d", "long": " ".join(["lorem ipsum dolor sit amet"] * 400),
    "control": "a\x00b\x7f", "private use": "\ue000\uf8ff", "astral": "\U0001d400\U0010fffd",
}  # fmt: skip
NAMED_PAIRS = [
    ("empty", "empty"), ("empty", "word"), ("sentence", "empty"), ("space", "space"),
    ("question mark", "newline"), ("sentence", "permuted sentence"), ("repeated", "once"),
    ("cjk", "mixed"), ("emoji", "combining"), ("arabic", "hebrew"), ("specials", "word"),
    ("special inside", "sentencepiece mark"), ("code", "url"), ("long", "sentence"),
    ("control", "private use"), ("astral", "digits"), ("whitespace mix", "tab"),
    ("punctuation", "spaces"), ("leading and trailing", "word"), ("long", "long"),
]  # fmt: skip


def _oracle_pairs() -> list[tuple[str, str]]:
    texts = list(SHAPES.values())
    pairs = [(SHAPES[a], SHAPES[b]) for a, b in NAMED_PAIRS]
    pairs += [(a, b) for a in texts for b in texts]  # every shape against every shape
    random_texts = _random_texts(7, 200)
    pairs += list(zip(random_texts[:100], random_texts[100:], strict=True))
    return pairs


def test_embedding_cosine_against_wordllama_on_texts_of_every_shape(peer) -> None:
    from assay.metrics import static_embeddings

    model = static_embeddings.load()
    pairs = _oracle_pairs()
    got = assay.score_corpus("embedding_cosine", [a for a, _ in pairs],
                             [[b] for _, b in pairs]).values  # fmt: skip
    named = {"NEGATIVE": 0, "BOTH_EMPTY": 0, "SAME_TOKENS": 0, "agree": 0}
    worst = 0.0
    for (a, b), value in zip(pairs, got, strict=True):
        reference = peer.similarity(a, b)
        ids_a, ids_b = (peer.tokenize(t)[0].ids for t in (a, b))
        assert model.token_ids(a) == ids_a and model.token_ids(b) == ids_b
        if not ids_a and not ids_b:
            named["BOTH_EMPTY"] += 1
            assert reference == 0.0 and value == 1.0
        elif ids_a and sorted(ids_a) == sorted(ids_b):
            named["SAME_TOKENS"] += 1
            assert value == 1.0 and reference == pytest.approx(1.0, abs=1e-6)
        elif reference < 0:
            named["NEGATIVE"] += 1
            assert value == 0.0 and reference > -1.0
        else:
            named["agree"] += 1
            worst = max(worst, abs(value - reference))
    assert worst < 1e-6  # float32 pooling in the peer, float64 in assay
    # every documented difference was exercised, and most pairs are plain agreement
    assert min(named.values()) >= 2 and named["agree"] > len(pairs) / 2, named
    print(f"embedding_cosine vs wordllama: {named}, max |delta| {worst:.2e}")


# Lone surrogates (issue 28): not encodable as UTF-8, so the tokenizer refuses the whole
# text. assay spells each as a character the vocabulary lacks, by the byte-fallback tokens
# of its bytes in CPython's surrogatepass UTF-8 — the tokenizer's own rule for an unknown
# character. The reference below gets the surrounding tokens from the tokenizer itself
# with U+F0000 (an unassigned-by-the-vocabulary, four-byte character) in each surrogate's
# place, and swaps that character's four byte tokens for the surrogate's three.
UNKNOWN = "\U000f0000"
SURROGATE_TEXTS = ["a\ud800b", "\udfff", "x \udc00 y", "<s>a\udbff", "\ud800\ud800 end",
                   "a\ue000\ud800", "The cat\udc80 sat on the mat."]  # fmt: skip


def _reference_ids(peer, text: str) -> list[int]:
    lone = [c for c in text if "\ud800" <= c <= "\udfff"]
    ids = peer.tokenize("".join(UNKNOWN if c in lone else c for c in text))[0].ids
    byte = {b: peer.tokenizer.token_to_id(f"<0x{b:02X}>") for b in range(256)}
    unknown = [byte[b] for b in UNKNOWN.encode("utf-8")]
    out, i = [], 0
    while i < len(ids):
        if ids[i : i + 4] == unknown:
            out += [byte[b] for b in lone.pop(0).encode("utf-8", "surrogatepass")]
            i += 4
        else:
            out.append(ids[i])
            i += 1
    assert not lone
    return out


def _pooled_cosine(peer, ids_a: list[int], ids_b: list[int]) -> float:
    u = [math.fsum(float(peer.embedding[i][d]) for i in ids_a) / len(ids_a) for d in range(256)]
    v = [math.fsum(float(peer.embedding[i][d]) for i in ids_b) / len(ids_b) for d in range(256)]
    return max(0.0, _cos(u, v))


@pytest.mark.parametrize("text", SURROGATE_TEXTS)
def test_a_lone_surrogate_is_spelled_by_its_bytes(peer, text: str) -> None:
    from assay.metrics import static_embeddings

    expected = _reference_ids(peer, text)
    assert static_embeddings.load().token_ids(text) == expected
    other = "The cat sat on the mat."
    value = assay.score("embedding_cosine", text, [other])
    reference = _pooled_cosine(peer, expected, peer.tokenize(other)[0].ids)
    assert value == pytest.approx(reference, abs=1e-9)
    assert assay.score("greedy_match", text, [text]) == 1.0
