"""The fuzz targets added in issue 31: rescore, judge, judge-calibrate, code, parquet reports.

:mod:`fuzz_harness` runs the cases; this module gives it

- the seeds of the newer commands (the bundled lm-eval run and inspect_ai ``.eval`` log,
  an inspect_ai ``.json`` log made from that archive's members, the judge answers,
  rubric and human labels, a verdict ledger and a judge report made against the
  scripted judge, two code problems with their samples, a saved structured report);
- the commands and their silent-loss checks;
- the mutation classes of issue 31: lone surrogates, corrupt archives (zip members
  with flags, methods and names inspect_ai never writes, a member that expands past
  its size; a damaged gzip stream for other files), and hostile replies from a judge
  server this module starts on 127.0.0.1 (deep nesting, 5,000-digit integers, lone
  surrogates, bodies that are not JSON or not UTF-8, 404/500 for everything, hang-ups).
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import os
import random
import shutil
import struct
import zipfile
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from judge_server import JudgeServer

# -- the judge server --------------------------------------------------------------------------

HOSTILE = (
    "deep_body", "deep_content", "huge_int_body", "huge_int_content", "surrogate_content",
    "surrogate_body", "not_json", "not_utf8", "http404", "http500", "empty_choices",
    "wrong_types", "hangup", "huge_reason", "null_content",
)  # fmt: skip


def _hostile_reply(mode: str) -> tuple[int, bytes] | None:
    """``(status, body)`` of one hostile reply, or ``None`` for a hang-up."""
    deep = "[" * 100_000 + "]" * 100_000

    def chat(content_json: str, extra: str = "") -> bytes:
        return (
            '{"id": "x", "model": "hostile", "choices": [{"index": 0, "message": {"role": '
            f'"assistant", "content": {content_json}}}}}]{extra}}}'
        ).encode()

    replies: dict[str, tuple[int, bytes]] = {
        "deep_body": (200, deep.encode()),
        "deep_content": (200, chat(json.dumps('{"verdict": ' + "[" * 5000 + "]" * 5000 + "}"))),
        "huge_int_body": (200, chat('"{\\"verdict\\": \\"pass\\"}"',
                                    ', "usage": {"prompt_tokens": ' + "9" * 5000 + "}")),
        "huge_int_content": (200, chat(json.dumps('{"verdict": "pass", "n": ' + "7" * 5000
                                                  + "}"))),
        "surrogate_content": (200, chat('"{\\"verdict\\": \\"pass\\", \\"reason\\": '
                                        '\\"\\ud800\\"}"')),
        "surrogate_body": (200, chat('"\\udc80{\\"verdict\\": \\"pass\\"}"',
                                     ', "model": "\\ud83d"')),
        "not_json": (200, b"<html><body>502 bad gateway</body></html>"),
        "http404": (404, b'{"error": "not found"}'),
        "http500": (500, b'{"error": {"message": "boom"}}'),
        "empty_choices": (200, b'{"choices": []}'),
        "wrong_types": (200, b'{"choices": [{"message": {"content": 5}}], "usage": [1]}'),
        "huge_reason": (200, chat(json.dumps(json.dumps({"verdict": "pass",
                                                         "reason": "r" * 2_000_000})))),
        "null_content": (200, b'{"choices": [{"message": {"content": null}}], "model": null}'),
        "not_utf8": (200, b'{"choices": [{"message": {"content": "\xff\xfe{\\"verdict\\": 1}"}}]}'),
    }  # fmt: skip
    return replies.get(mode)


class HostileJudge(JudgeServer):
    """The scripted judge of tests/judge_server.py, or one hostile reply for every request."""

    mode: str | None = None

    def handle(self, handler: Any) -> None:
        """Answer with :attr:`mode`'s reply when one is set, else as the scripted judge."""
        mode = self.mode
        if mode is None:
            super().handle(handler)
            return
        length = int(handler.headers.get("content-length", "0"))
        handler.rfile.read(length)
        reply = _hostile_reply(mode)
        if reply is None:  # hang up without an answer
            handler.close_connection = True
            handler.connection.close()
            return
        self._send(handler, *reply)


_SERVER: list[HostileJudge] = []


def judge_server() -> HostileJudge:
    """The one judge server of this process (started on first use, on 127.0.0.1)."""
    if not _SERVER:
        server = HostileJudge()
        server.thread.start()
        _SERVER.append(server)
    return _SERVER[0]


def _judge_args(files: dict[str, Path]) -> list[str]:
    return ["--judge-url", judge_server().url, "--judge-model", "fuzz", "--judge-cache",
            str(files["ledger"].parent), "--judge-retries", "0",
            "--judge-timeout", "5"]  # fmt: skip


# -- seeds -------------------------------------------------------------------------------------


def _members(path: Path) -> dict[str, bytes]:
    import zipfile_zstd  # noqa: F401 - teaches zipfile the Zstandard method (93)

    with zipfile.ZipFile(path) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


def add_seeds(root: Path, files: dict[str, Path], run: Callable[[list[str]], None]) -> None:
    """Write the newer commands' seeds under ``root`` and name them in ``files``.

    ``run`` runs one assay command (it must succeed).
    """
    data = Path(str(resources.files("assay") / "data"))
    shutil.copytree(data / "harness" / "lm-eval", root / "lm")
    (samples,) = (root / "lm").glob("samples_*.jsonl")
    (results,) = (root / "lm").glob("results_*.json")
    (root / "inspect").mkdir()
    archive = root / "inspect" / "log.eval"
    shutil.copy(data / "harness" / "inspect" / "assay_mock_qa.eval", archive)
    members = _members(archive)
    header = json.loads(members["header.json"])
    header["samples"] = [json.loads(v) for k, v in members.items() if k.startswith("samples/")]
    (root / "inspect" / "log.json").write_text(json.dumps(header), encoding="utf-8")
    shutil.copytree(data / "judge", root / "judge")
    code = root / "code"
    code.mkdir()
    problems = (data / "code" / "problems.jsonl").read_text(encoding="utf-8").splitlines()[:2]
    wanted = {json.loads(line)["task_id"] for line in problems}
    chosen = [line for line in (data / "code" / "samples.jsonl").read_text(encoding="utf-8")
              .splitlines() if json.loads(line)["task_id"] in wanted][:5]  # fmt: skip
    (code / "problems.jsonl").write_text("\n".join(problems) + "\n", encoding="utf-8")
    (code / "samples.jsonl").write_text("\n".join(chosen) + "\n", encoding="utf-8")
    files.update(
        lm_samples=samples, lm_results=results, eval_log=archive,
        json_log=root / "inspect" / "log.json", answers=root / "judge" / "answers.jsonl",
        rubric=root / "judge" / "rubric.txt", human=root / "judge" / "human_labels.jsonl",
        ledger=root / "ledger" / "ledger.jsonl", judged=root / "judge" / "judged.json",
        problems=code / "problems.jsonl", code_samples=code / "samples.jsonl",
        structured_report=root / "saved" / "structured.json",
    )  # fmt: skip
    run(["judge", "--items", str(files["answers"]), "--rubric", str(files["rubric"]),
         "--output", str(files["judged"]), *_judge_args(files)])  # fmt: skip
    run(["structured", "--example", "--output", str(files["structured_report"])])


#: Seeds read together, copied into one folder of a case (the names matter: lm-eval's results
#: file is found beside its samples file, the ledger in its folder).
GROUPS = {"lm_samples": "lm", "lm_results": "lm", "ledger": "ledger"}

Builder = Callable[[dict[str, Path], Path], list[str]]
JUDGE_COMMANDS = ("judge", "structured_judge")

COMMANDS: dict[str, tuple[tuple[str, ...], Builder]] = {
    "rescore_folder": (
        ("lm_samples", "lm_results"),
        lambda f, o: ["rescore", str(f["lm_samples"].parent), "-m", "f1,exact_match",
                      "--output", str(o / "r.json"), "--per-item", str(o / "p.jsonl")],
    ),
    "rescore_samples": (
        ("lm_samples", "lm_results"),
        lambda f, o: ["rescore", str(f["lm_samples"]), "-m", "f1", "--profile", "assay",
                      "--json", "--per-item", str(o / "p.jsonl")],
    ),
    "rescore_eval": (
        ("eval_log",),
        lambda f, o: ["rescore", str(f["eval_log"]), "-m", "f1", "--output", str(o / "r.json"),
                      "--per-item", str(o / "p.jsonl")],
    ),
    "rescore_json": (
        ("json_log",),
        lambda f, o: ["rescore", str(f["json_log"]), "-m", "rouge_l", "--prediction-from",
                      "scorer", "--per-item", str(o / "p.jsonl")],
    ),
    "judge": (
        ("answers", "rubric", "ledger"),
        lambda f, o: ["judge", "--items", str(f["answers"]), "--rubric", str(f["rubric"]),
                      "--output", str(o / "j.json"), *_judge_args(f)],
    ),
    "judge_calibrate": (
        ("human", "judged"),
        lambda f, o: ["judge-calibrate", "--human", str(f["human"]), "--judged",
                      str(f["judged"]), "--output", str(o / "c.json")],
    ),
    "code": (
        ("problems", "code_samples"),
        lambda f, o: ["code", "--problems", str(f["problems"]), "--samples",
                      str(f["code_samples"]), "--allow-code-execution", "--timeout", "5",
                      "--output", str(o / "c.json"), "--per-sample", str(o / "c.jsonl")],
    ),
    "report_parquet": (
        ("structured_report",),
        lambda f, o: ["report", str(f["structured_report"]), "--format", "parquet",
                      "--output", str(o / "r.parquet")],
    ),
    "report_result_parquet": (
        ("result",),
        lambda f, o: ["report", str(f["result"]), "--format", "parquet", "--output",
                      str(o / "r.parquet")],
    ),
    "structured_judge": (
        ("items", "references", "ledger"),
        lambda f, o: ["structured", "--items", str(f["items"]), "--schema", str(f["schema"]),
                      "--references", str(f["references"]), "--output", str(o / "s.json"),
                      *_judge_args(f)],
    ),
}  # fmt: skip

#: Files a command may append to (the verdict ledger): checked to keep their old bytes first.
APPENDED = ("ledger",)


# -- mutation classes --------------------------------------------------------------------------

SURROGATES = (b'"\\ud800"', b'"x\\udfff"', b'"\\ud83d\\u0041"', b'{"\\udc00": 1}')


def surrogate(data: bytes, rng: random.Random, with_literal: Any) -> bytes:
    """One value (or key) an escaped lone surrogate; raw surrogate bytes in other text."""
    if data.lstrip()[:1] in (b"{", b"["):
        return bytes(with_literal(data, rng, rng.choice(SURROGATES)))
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.choice([b"\xed\xa0\x80", b"\\ud800"]) + data[at:]


_LOCAL, _CENTRAL = b"PK\x03\x04", b"PK\x01\x02"


def _zip_patch(data: bytes, rng: random.Random) -> bytes:
    """One member of a zip archive given flags, a method, a name or a size it never has."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        infos = archive.infolist()
    info = rng.choice(infos)
    name = info.filename.encode("utf-8")
    kind = rng.choice(["encrypted", "method99", "patched", "bad_utf8_name", "size", "crc",
                       "bomb", "duplicate", "cut_directory"])  # fmt: skip
    if kind == "bomb":
        return _with_bomb(data, info.filename)
    if kind == "duplicate":
        members = _members_of(data)
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
            for member, body in members.items():
                target.writestr(member, body)
                if member == info.filename:
                    target.writestr(member.replace(".json", "_again.json"), body)
        return out.getvalue()
    if kind == "cut_directory":
        at = data.rfind(_CENTRAL)
        return data[: at + rng.randrange(46)] if at >= 0 else data[:-30]
    out = bytearray(data)
    for at in [i for i in range(len(out)) if out.startswith(name, i)]:
        if out[at - 30 : at - 26] == _LOCAL:
            base, flags, method, crc, size = at - 30, 6, 8, 14, 22
        elif out[at - 46 : at - 42] == _CENTRAL:
            base, flags, method, crc, size = at - 46, 8, 10, 16, 24
        else:
            continue
        if kind in ("encrypted", "patched", "bad_utf8_name"):
            bit = {"encrypted": 1, "patched": 1 << 5, "bad_utf8_name": 1 << 11}[kind]
            old = struct.unpack_from("<H", out, base + flags)[0]
            struct.pack_into("<H", out, base + flags, old | bit)
            if kind == "bad_utf8_name" and len(name) > 1:
                out[at + len(name) // 2] = 0xFF
        elif kind == "method99":
            struct.pack_into("<H", out, base + method, 99)
        elif kind == "size":
            struct.pack_into("<L", out, base + size, rng.choice([0, 1, 2**32 - 1]))
        else:
            struct.pack_into("<L", out, base + crc, rng.randrange(2**32))
    return bytes(out)


def _members_of(data: bytes) -> dict[str, bytes]:
    import zipfile_zstd  # noqa: F401 - teaches zipfile the Zstandard method (93)

    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


def _with_bomb(data: bytes, member: str) -> bytes:
    """``member`` replaced by a small Zstandard frame that expands to 128 MiB (stored size kept)."""
    import zstandard

    members = _members_of(data)
    compressor = zstandard.ZstdCompressor().compressobj()
    block = b" " * (1 << 20)
    frame = b"".join(compressor.compress(block) for _ in range(128)) + compressor.flush()
    size = len(members[member])
    members[member] = frame
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as target:
        for name, body in members.items():
            target.writestr(name, body)
    patched = bytearray(out.getvalue())
    encoded = member.encode()
    for at in [i for i in range(len(patched)) if patched.startswith(encoded, i)]:
        if patched[at - 30 : at - 26] == _LOCAL:
            struct.pack_into("<H", patched, at - 30 + 8, 93)
        elif patched[at - 46 : at - 42] == _CENTRAL:
            struct.pack_into("<H", patched, at - 46 + 10, 93)
            struct.pack_into("<L", patched, at - 46 + 24, size)
    return bytes(patched)


def corrupt_archive(data: bytes, rng: random.Random) -> bytes:
    """A zip archive with one odd member; any other file gzip-compressed and then damaged."""
    if data.startswith(_LOCAL):
        try:
            return _zip_patch(data, rng)
        except (zipfile.BadZipFile, KeyError, ValueError, OSError):
            return data[: len(data) // 2]
    packed = gzip.compress(data, mtime=0)
    if rng.random() < 0.5:
        return packed[: rng.randrange(10, max(11, len(packed)))]  # cut short
    out = bytearray(packed)
    for _ in range(rng.randint(1, 3)):
        out[rng.randrange(10, len(out))] = rng.randrange(256)
    return bytes(out)


# -- silent losses -----------------------------------------------------------------------------


def _lines(path: Path) -> int | None:
    if not path.is_file() or path.is_symlink():
        return None
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        with contextlib.suppress(OSError, EOFError):
            data = gzip.decompress(data)
    return sum(1 for line in data.split(b"\n") if line.strip())


def read_json(path: Path) -> Any:
    """The JSON document in ``path``, or ``None`` (missing, not a plain file, not JSON)."""
    if not path.is_file():  # a FIFO is read by the command, once
        return None
    try:
        return json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None


def _rows(path: Path) -> list[Any] | None:
    if not path.is_file():
        return None
    try:
        return [json.loads(line) for line in path.read_bytes().splitlines() if line.strip()]
    except (OSError, ValueError):
        return None


def silent_loss(command: str, files: dict[str, Path], out: Path, stdout: str) -> str | None:
    """What an exit-0 run of a newer command lost, counted from its input; ``None``: nothing."""
    if command.startswith("rescore"):
        rows = _rows(out / "p.jsonl")
        if rows is None:
            return "no readable --per-item rows after exit 0"
        keys = [(r.get("log"), r.get("id"), r.get("epoch")) for r in rows]
        if len(set(map(repr, keys))) != len(keys):
            return "two per-item rows share a log, id and epoch"
        expected = None
        if command in ("rescore_folder", "rescore_samples"):
            expected = _lines(files["lm_samples"])
        elif command == "rescore_eval" and files["eval_log"].is_file():
            with contextlib.suppress(zipfile.BadZipFile, OSError, ValueError):
                with zipfile.ZipFile(files["eval_log"]) as archive:
                    expected = sum(n.startswith("samples/") for n in archive.namelist())
        if expected is not None and len(rows) != expected:
            return f"the log holds {expected} samples; --per-item has {len(rows)} rows"
    elif command == "judge":
        report, count = read_json(out / "j.json"), _lines(files["answers"])
        items = report.get("items") if isinstance(report, dict) else None
        if count is not None and (not isinstance(items, list) or len(items) != count):
            return f"answers hold {count} rows; the report a different number"
    elif command == "code":
        count, rows = _lines(files["code_samples"]), _rows(out / "c.jsonl")
        if count is not None and (rows is None or len(rows) != count):
            return f"samples hold {count} rows; --per-sample has {rows and len(rows)}"
    elif command in ("report_parquet", "report_result_parquet"):
        return _parquet_loss(command, files, out)
    return None


def _parquet_loss(command: str, files: dict[str, Path], out: Path) -> str | None:
    import pyarrow.parquet as pq

    key = "structured_report" if command == "report_parquet" else "result"
    document = read_json(files[key])
    if not isinstance(document, dict) or not isinstance(document.get("items"), list):
        return None
    items = document["items"]
    if command == "report_parquet":
        expected = len(items)
    else:
        expected = sum(len(i.get("results", {})) for i in items if isinstance(i, dict))
    try:
        rows = pq.read_metadata(out / "r.parquet").num_rows
    except (OSError, ValueError) as exc:
        return f"no readable Parquet file after exit 0 ({exc})"
    return None if rows == expected else f"document holds {expected} rows; Parquet has {rows}"


def snapshot(folder: Path) -> dict[Path, bytes]:
    """Every regular file under ``folder`` (links not followed) and its bytes."""
    found = {}
    for root, _, names in os.walk(folder):
        for name in names:
            path = Path(root) / name
            if path.is_file() and not path.is_symlink():
                with contextlib.suppress(OSError):
                    found[path] = path.read_bytes()
    return found
