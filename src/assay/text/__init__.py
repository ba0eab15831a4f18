"""Text layer: named tokenizers and normalizers (no scoring here)."""

from assay.text.normalize import NORMALIZERS, Normalizer, get_normalizer, normalize
from assay.text.tokenize import TOKENIZERS, Tokenizer, get_tokenizer, tokenize

__all__ = [
    "NORMALIZERS",
    "TOKENIZERS",
    "Normalizer",
    "Tokenizer",
    "get_normalizer",
    "get_tokenizer",
    "normalize",
    "tokenize",
]
