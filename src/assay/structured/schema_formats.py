"""The ``format`` checker of a contract: jsonschema's, with assay's own for six formats.

jsonschema's Draft 2020-12 checker accepts any string holding an ``@`` as an
``email`` and any string :class:`uuid.UUID` can read as a ``uuid`` (so ``@example.com``
and a UUID with an underscore or a trailing ``-`` pass), and checks ``regex`` with
Python's ``re``. Here:

* ``email`` is an RFC 5321 mailbox: a dot-atom or quoted-string local part (at most
  64 characters), ``@``, then a host name (letters, digits, inner hyphens, labels of
  at most 63 characters) or an address literal ``[IPv4]`` / ``[IPv6:...]``;
* ``idn-email`` is the same with UTF-8 allowed (RFC 6531): any non-ASCII character in the
  local part (at most 64 octets) and in host-name labels;
* ``uuid`` is exactly ``8-4-4-4-12`` ASCII hexadecimal digits (RFC 9562 text form);
* ``date-time`` and ``time`` are RFC 3339 (``full-date "T" full-time``; an offset is
  required; ``T``/``Z`` in either case; a leap second ``:60`` only at 23:59 UTC);
* ``regex`` is a pattern that compiles in the ECMA-262 dialect assay runs patterns in.

Every other format is jsonschema's own checker, except ``idn-hostname``, which is
not asserted (jsonschema's checker accepts a trailing dot and digit-first labels in
right-to-left names). A format with no checker is listed as ``formats_not_asserted``
in the report; which formats have a checker is tested against the official
JSON-Schema-Test-Suite (``tests/test_structured_schema_suite.py``).
"""

from __future__ import annotations

import datetime as _dt
import ipaddress
import re
from functools import lru_cache
from typing import Any

from assay.structured.ecma_regex import PatternError, compile_pattern

_ATEXT = r"[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+"
_DOT_STRING = re.compile(rf"{_ATEXT}(?:\.{_ATEXT})*\Z")
_QUOTED = re.compile(r'"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"\Z')
_ATEXT_UTF8 = r"(?:[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]|[^\x00-\x7f])+"
_DOT_STRING_UTF8 = re.compile(rf"{_ATEXT_UTF8}(?:\.{_ATEXT_UTF8})*\Z")
_QUOTED_UTF8 = re.compile(r'"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|[^\x00-\x7f]|\\[\x20-\x7e])*"\Z')
_LET_DIG_UTF8 = r"(?:[A-Za-z0-9]|[^\x00-\x7f])"
_LABEL_UTF8 = re.compile(rf"{_LET_DIG_UTF8}(?:(?:{_LET_DIG_UTF8}|-)*{_LET_DIG_UTF8})?\Z")
_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\Z")
_UUID = re.compile(r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\Z")


def is_email(value: object) -> bool:
    """Whether ``value`` is an RFC 5321 mailbox (non-strings pass: they are not strings)."""
    return _is_mailbox(value, utf8=False)


def is_idn_email(value: object) -> bool:
    """Whether ``value`` is an RFC 6531 (UTF-8) mailbox (non-strings pass)."""
    return _is_mailbox(value, utf8=True)


def _is_mailbox(value: object, *, utf8: bool) -> bool:
    if not isinstance(value, str):
        return True
    local, at, domain = value.rpartition("@")
    if not at or not local or len(local.encode("utf-8", "surrogatepass")) > 64:
        return False
    dot_string, quoted = (_DOT_STRING_UTF8, _QUOTED_UTF8) if utf8 else (_DOT_STRING, _QUOTED)
    if not (dot_string.match(local) or quoted.match(local)):
        return False
    return _is_mail_domain(domain, _LABEL_UTF8 if utf8 else _LABEL)


def _is_mail_domain(domain: str, label: re.Pattern[str]) -> bool:
    if domain.startswith("[") and domain.endswith("]"):
        literal = domain[1:-1]
        try:
            if literal.startswith("IPv6:"):
                return isinstance(ipaddress.ip_address(literal[5:]), ipaddress.IPv6Address)
            return isinstance(ipaddress.ip_address(literal), ipaddress.IPv4Address)
        except ValueError:
            return False
    parts = domain.split(".")
    return 0 < len(domain) <= 253 and all(label.match(part) for part in parts)


def is_uuid(value: object) -> bool:
    """Whether ``value`` is the ``8-4-4-4-12`` hexadecimal text form of a UUID."""
    return not isinstance(value, str) or _UUID.match(value) is not None


_TIME = re.compile(
    r"([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))\Z"
)
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")


def is_time(value: object) -> bool:
    """Whether ``value`` is an RFC 3339 ``full-time`` (non-strings pass)."""
    if not isinstance(value, str):
        return True
    match = _TIME.match(value)
    if match is None:
        return False
    hour, minute, second = (int(match.group(i)) for i in (1, 2, 3))
    sign = {"+": 1, "-": -1, None: 0}[match.group(4)]
    offset_hour, offset_minute = (int(match.group(i) or 0) for i in (5, 6))
    if hour > 23 or minute > 59 or second > 60 or offset_hour > 23 or offset_minute > 59:
        return False
    utc = (hour * 60 + minute - sign * (offset_hour * 60 + offset_minute)) % 1440
    return second < 60 or utc == 23 * 60 + 59


def is_date_time(value: object) -> bool:
    """Whether ``value`` is an RFC 3339 ``date-time`` (non-strings pass)."""
    if not isinstance(value, str):
        return True
    day, separator, time = value[:10], value[10:11], value[11:]
    if separator not in ("T", "t") or not _DATE.match(day) or not is_time(time):
        return False
    try:
        _dt.date.fromisoformat(day)
    except ValueError:
        return False
    return True


def is_regex(value: object) -> bool:
    """Whether ``value`` compiles as an ECMA-262 pattern (as assay runs ``pattern``)."""
    if not isinstance(value, str):
        return True
    try:
        compile_pattern(value)
    except PatternError:
        return False
    return True


@lru_cache(maxsize=1)
def format_checker() -> Any:
    """The Draft 2020-12 checker of jsonschema with the replacements above."""
    from jsonschema import Draft202012Validator, FormatChecker  # type: ignore[import-untyped]

    checker = FormatChecker(formats=())
    checker.checkers = dict(Draft202012Validator.FORMAT_CHECKER.checkers)
    checker.checkers.pop("idn-hostname", None)
    # jsonschema asserts these only when the optional ``jsonpointer`` package happens to be
    # installed (inspect-ai pulls it in), and its relative-json-pointer check accepts what the
    # suite rejects: left out, so a contract's verdicts do not depend on what is installed.
    checker.checkers.pop("json-pointer", None)
    checker.checkers.pop("relative-json-pointer", None)
    own = (
        ("date-time", is_date_time),
        ("email", is_email),
        ("idn-email", is_idn_email),
        ("regex", is_regex),
        ("time", is_time),
        ("uuid", is_uuid),
    )
    for name, check in own:
        checker.checks(name)(check)
    return checker
