r"""The static token-embedding model shipped inside the ``wordllama`` wheel, loaded offline.

``wordllama`` (PyPI, MIT licence as its package metadata states) ships one small model
in its wheel: ``wordllama/weights/l2_supercat_256.safetensors`` (a 32000 × 256 float32
matrix, tensor ``embedding.weight``) and its tokenizer
``wordllama/tokenizers/l2_supercat_tokenizer_config.json`` (the Llama-2 vocabulary).
Its own loader ``WordLlama.load()`` looks for the tokenizer under ``tokenizer/``
(singular), a folder the wheel does not have, and then falls back to a hub download.
So this module never calls that loader: it finds the package folder with
``importlib.util.find_spec`` (without importing ``wordllama``, whose import configures
logging), reads the two files explicitly with ``safetensors`` and ``tokenizers``
(both dependencies of ``wordllama``), and makes no network request.

The model is loaded once per process; :func:`model_parts` gives the signature parts:
model name, ``wordllama`` version and the SHA-256 of the weights file.

**Tokenising by segments** (:meth:`StaticEmbeddings.token_id_lists`, the same ids as
``tokenizer.encode``, several times faster on long texts): the tokenizer's
normaliser prepends ``▁`` and turns every space into ``▁``; it has no
pre-tokenizer, so BPE runs over the whole normalised text. Every vocabulary piece
holds ``▁`` only at its start, or is a run of ``▁`` alone, so no merge joins a
character to a following ``▁``: the text splits there into segments (a run of
``▁`` and the characters up to the next ``▁``) that BPE treats independently, and
each distinct segment is encoded once by the model's own BPE. A text containing a
special token's string (``<s>``, ``</s>``, ``<unk>``, matched before normalisation)
goes through ``encode`` whole, and so does everything if the loaded vocabulary
breaks the rule above (checked at load; the byte-fallback pieces must all exist, so
no ``<unk>`` can be fused across segments).

**Lone surrogates** (``"\ud800"``, valid as a JSON escape, so possible in any input, but
not encodable as UTF-8, so the Rust tokenizer refuses the whole text): each is tokenised as
a character the vocabulary does not hold, i.e. as the byte-fallback tokens of its three
bytes in CPython's ``surrogatepass`` UTF-8 (``\ud800`` → ``<0xED><0xA0><0x80>``), never
merged with a neighbour — exactly what the tokenizer does for any other unknown
character. It is done by stand-in: each lone surrogate is replaced by one private-use
character that neither the text nor any vocabulary piece holds (U+E000 upwards, also
three UTF-8 bytes), the text is tokenised, and the stand-in's three byte tokens are
replaced, in order, by those of the surrogate it stands for. So two different lone
surrogates are different tokens, and a text never fails to tokenise.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assay.errors import InvalidInputError, MissingExtraError

if TYPE_CHECKING:  # numpy is imported when the model loads, not with assay
    import numpy as np
    import numpy.typing as npt

    Matrix = npt.NDArray[np.float64]

PACKAGE = "wordllama"
EXTRA = "semantic"
MODEL = "l2_supercat_256"
WEIGHTS_FILE = ("weights", "l2_supercat_256.safetensors")
TOKENIZER_FILE = ("tokenizers", "l2_supercat_tokenizer_config.json")
TENSOR = "embedding.weight"
SPACE = "\u2581"  # ▁, the SentencePiece word-start mark
_SEGMENT = re.compile(f"{SPACE}*[^{SPACE}]+|{SPACE}+")
_SURROGATE = re.compile("[\ud800-\udfff]")
_STAND_INS = range(0xE000, 0xF900)  # private use, three UTF-8 bytes each


@dataclass(frozen=True)
class StaticEmbeddings:
    """A tokenizer and its static embedding matrix (one row per token id)."""

    tokenizer: Any
    weights: npt.NDArray[np.float32]
    weights_sha256: str
    version: str
    segmentable: bool = False
    specials: tuple[str, ...] = field(default=())
    byte_ids: tuple[int, ...] = field(default=())
    vocabulary_characters: frozenset[str] = field(default=frozenset())

    def token_ids(self, text: str) -> list[int]:
        """Token ids of ``text`` (no special tokens, as ``wordllama`` embeds)."""
        return self.token_id_lists([text])[0]

    def encode(self, text: str) -> list[int]:
        """Token ids of ``text`` by the tokenizer's own ``encode`` (the reference path)."""
        ids: list[int] = self.tokenizer.encode(text, add_special_tokens=False).ids
        top = self.weights.shape[0] - 1
        return [min(max(i, 0), top) for i in ids]

    def token_id_lists(self, texts: Sequence[str]) -> list[list[int]]:
        """Token ids of each text, segment by segment (see the module docstring)."""
        memo: dict[str, list[int]] = {}
        bpe = self.tokenizer.model.tokenize
        top = self.weights.shape[0] - 1
        out: list[list[int]] = []
        for text in texts:
            if not text.isascii() and _SURROGATE.search(text):
                out.append(self._with_surrogates(text))
                continue
            if not self.segmentable or any(s in text for s in self.specials):
                out.append(self.encode(text))
                continue
            segments = _SEGMENT.findall(SPACE + text.replace(" ", SPACE)) if text else []
            for segment in set(segments).difference(memo):
                memo[segment] = [min(max(t.id, 0), top) for t in bpe(segment)]
            out.append(list(chain.from_iterable(map(memo.__getitem__, segments))))
        return out

    def _with_surrogates(self, text: str) -> list[int]:
        """Token ids of a text holding lone surrogates (see the module docstring)."""
        lone = _SURROGATE.findall(text)
        taken = self.vocabulary_characters
        stand_in = next(
            (chr(c) for c in _STAND_INS if chr(c) not in text and chr(c) not in taken), None
        )
        if stand_in is None or len(self.byte_ids) != 256:  # no byte fallback to spell it with
            raise _unspellable(text)
        ids = self.token_id_lists([_SURROGATE.sub(stand_in, text)])[0]
        spelled = [self.byte_ids[b] for b in stand_in.encode("utf-8")]
        out: list[int] = []
        position, found = 0, 0
        while position < len(ids):
            if found < len(lone) and ids[position : position + 3] == spelled:
                raw = lone[found].encode("utf-8", "surrogatepass")
                out.extend(self.byte_ids[b] for b in raw)
                position, found = position + 3, found + 1
            else:
                out.append(ids[position])
                position += 1
        if found != len(lone):
            raise _unspellable(text)
        return out

    def vectors(self, ids: list[int]) -> Matrix:
        """One float64 row per token id (shape ``(0, dim)`` for none)."""
        import numpy as np

        return self.weights[ids].astype(np.float64)


def _unspellable(text: str) -> InvalidInputError:
    return InvalidInputError(
        f"the text {text[:40]!r} holds a lone surrogate this tokenizer cannot spell (no byte "
        "fallback); remove it (a lone surrogate is not a Unicode character)"
    )


def package_dir(what: str = "embedding_cosine/greedy_match") -> Path:
    """The installed ``wordllama`` package folder, found without importing it.

    Raises:
        MissingExtraError: ``wordllama`` is not installed (with the one-line install).
    """
    try:
        spec = importlib.util.find_spec(PACKAGE)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise MissingExtraError(what, PACKAGE, EXTRA)
    return Path(next(iter(spec.submodule_search_locations)))


@functools.lru_cache(maxsize=1)
def load() -> StaticEmbeddings:
    """Load the bundled model from the package's own files (cached per process).

    Raises:
        MissingExtraError: ``wordllama`` (or its ``safetensors``/``tokenizers``) is absent,
            or the wheel lacks the model files.
    """
    root = package_dir()
    weights_path = root.joinpath(*WEIGHTS_FILE)
    tokenizer_path = root.joinpath(*TOKENIZER_FILE)
    if not weights_path.is_file() or not tokenizer_path.is_file():
        raise MissingExtraError(f"the bundled model files under {root}", PACKAGE, EXTRA)
    import numpy as np

    try:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer
    except ImportError:
        raise MissingExtraError("embedding_cosine/greedy_match", PACKAGE, EXTRA) from None
    weights = np.ascontiguousarray(load_file(str(weights_path))[TENSOR], dtype=np.float32)
    weights.setflags(write=False)
    tokenizer = Tokenizer.from_file(str(tokenizer_path))
    specials = tuple(t.content for t in tokenizer.get_added_tokens_decoder().values())
    vocab = tokenizer.get_vocab()
    byte_ids = tuple(vocab[f"<0x{b:02X}>"] for b in range(256) if f"<0x{b:02X}>" in vocab)
    return StaticEmbeddings(
        tokenizer, weights, _sha256(weights_path), _version(), _segmentable(tokenizer), specials,
        byte_ids, frozenset("".join(vocab)),
    )


def _segmentable(tokenizer: Any) -> bool:
    """Whether the vocabulary and pipeline allow tokenising by segments (module docstring)."""
    import json

    config = json.loads(tokenizer.to_str())
    model = config.get("model") or {}
    vocab = tokenizer.get_vocab()
    normalizers = (config.get("normalizer") or {}).get("normalizers", [])
    expected = [
        {"type": "Prepend", "prepend": SPACE},
        {"type": "Replace", "pattern": {"String": " "}, "content": SPACE},
    ]
    return (
        model.get("type") == "BPE"
        and model.get("byte_fallback") is True
        and model.get("dropout") is None
        and config.get("pre_tokenizer") is None
        and normalizers == expected
        and all(f"<0x{b:02X}>" in vocab for b in range(256))
        and all(SPACE not in piece[1:] or set(piece) == {SPACE} for piece in vocab)
    )


@functools.lru_cache(maxsize=1)
def model_parts() -> tuple[tuple[str, object], ...]:
    """Signature parts: model name, package version, SHA-256 (first 16 hex) of the weights."""
    model = load()
    return (
        ("model", f"{PACKAGE}-{MODEL}"),
        (PACKAGE, model.version),
        ("weights", f"sha256:{model.weights_sha256[:16]}"),
    )


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version  # ~50 ms: only when asked

    try:
        return version(PACKAGE)
    except PackageNotFoundError:
        return "unknown"
