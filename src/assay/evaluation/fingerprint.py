r"""The evaluator fingerprint: SHA-256 over the scoring code and the profile configuration.

The hash covers, in this order: for each file of :data:`SCORING_FILES` (paths
relative to the ``assay`` package, line endings normalised to ``\n``) the path, a
NUL, the bytes and a NUL; then the profile's name and configuration as canonical
JSON (sorted keys, no spaces). Any change to a scoring rule or to the profile's
constants changes the fingerprint; renderers, the CLI and docs do not.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from importlib import resources

from assay.evaluation.profiles import get_profile

SCORING_FILES = (
    "numbers.py",
    "text/normalize.py",
    "metrics/edit.py",
    "metrics/overlap.py",
    "io/gold.py",
    "io/predictions.py",
    "io/jsondoc.py",
    "evaluation/xldocbench.py",
    "evaluation/assay_rules.py",
    "evaluation/profiles.py",
    "evaluation/align.py",
    "evaluation/benchmark.py",
)


@cache
def fingerprint(profile_name: str = "xldocbench") -> str:
    """The hex SHA-256 fingerprint of the evaluator under a profile.

    Raises:
        UnknownProfileError: no such profile.
    """
    profile = get_profile(profile_name)
    digest = hashlib.sha256()
    package = resources.files("assay")
    for relative in SCORING_FILES:
        data = package.joinpath(relative).read_bytes().replace(b"\r\n", b"\n")
        digest.update(relative.encode() + b"\0" + data + b"\0")
    config = {"profile": profile.name, "config": profile.config}
    digest.update(json.dumps(config, sort_keys=True, separators=(",", ":")).encode())
    return digest.hexdigest()
