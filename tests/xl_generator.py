"""Seeded generator of XL-DocBench gold + prediction files: every shape the released script reads.

Each :func:`make_case` returns the files of one evaluation (bytes, written as is), the
released script's options for it and which gold files are not regular files. Covered,
from issue 9 (the drop-in work): numbers after a dot and every answer format/rule,
``--prediction-field answer`` on objects, mapping-shaped files with keys as written,
every status shape including ``""``, raw and blank labels, and the inputs only the
strict loaders refuse: list/object statuses, rows without answer or value, non-string
formats/rules, list/object labels, non-object metadata, odd ``is_unanswerable``,
bool/list ids, empty gold files among several, NaN/Infinity, repeated keys, ``.JSONL``
suffixes, CR-only line ends, trailing NBSP/form feed, a ``--prediction-field`` no row
has; hostile strings (CSV quoting, escapes, non-BMP, combining marks, RTL, other-script
digits). From issue 27 (the released file as the reference): absent metadata keys,
``task_type`` and ``format`` next to present nulls; statuses that are numbers, bools,
lists and objects (``0``, ``true``, ``1.5``, ``["x"]``, ``{}``); list/object label,
evidence-source and format values (keys unsorted, non-ASCII); gold sets that are all
empty; gold files that are directories, symlink loops, dangling links or FIFOs; runs
without ``--output`` or ``--per-question-csv``, with ``--no-per-question-json``, and
into folders that do not exist yet. A small share of cases is broken on purpose (bad
JSON, a non-object row, no id, a CR between JSON tokens): the released script fails
there, so must assay.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any


class Obj(list):  # type: ignore[type-arg]
    """A JSON object written as its (key, value) pairs, so keys may repeat."""


def dump(value: Any, ascii_only: bool) -> str:
    """JSON text of ``value`` (``Obj`` keeps repeated keys; NaN/Infinity written bare)."""
    if isinstance(value, Obj):
        inner = ", ".join(f"{json.dumps(k, ensure_ascii=ascii_only)}: {dump(v, ascii_only)}"
                          for k, v in value)  # fmt: skip
        return "{" + inner + "}"
    if isinstance(value, list):
        return "[" + ", ".join(dump(v, ascii_only) for v in value) + "]"
    if isinstance(value, dict):
        return dump(Obj(value.items()), ascii_only)
    return json.dumps(value, ensure_ascii=ascii_only)


ENTITY = [
    "Paris", "New York", "Café Noir", "東京", "O'Brien", "the Louvre", "Amsterdam",
    "Amsterdm", "naïve", "🙂 ok", "x, y", 'say "hi"', "line1\nline2", "tab\tsep",
    "İstanbul", "straße", "ﬁsh", "שלום", "e\u0301te", "a\u200bb", "\u00a0nbsp", "C", "A",
    "Because of X", "The answer is Paris.", "Answer: Oslo", "answer is Rome", "=1+2",
    "-dash", "50%", "  spaced  out  ", "", "   ", "null", "N/A", "Ⅻ", "½",
]  # fmt: skip
NUMERIC = [
    "5", "0.5", ".5", "-.5", "No. 5", "p. 12", "approx. 5", "1,250", "1 250", "1250",
    "3 items cost 1,250", "63,1", "63.1", "2.5e2", "250", "\u22128.4", "-8.4", "42.9%",
    "43%", "0.429", "0", "0.0000001", "0.00001", "12.", "1.2.3", "٣", "٣.٥", "about 100",
    "105", "105.1", "95.1", "$1,000", "10^3", "1/2", "n/a", "three", "-", "--5", "v2.0",
    "No.5 and 6", "Fig. 3", "approx.12,5", "1e400", "9" * 30,
]  # fmt: skip
BOOLEAN = ["Yes", "No", "yes, it did", "incorrect", "I don't know", "maybe", "True", "false",
           "It is not true", "correct", "", "NO WAY"]  # fmt: skip
ABSTAIN = ["Not answerable", "cannot be determined", "I can't be determined", "CONTEXT_OVERFLOW",
           "There is not enough information", "unanswerable.", "Paris"]  # fmt: skip
CHOICE = ["A", "(C)", "Option C", "I think it is a D", "Because of cost", "b", "answer: B", "D)"]
POOLS = [ENTITY, NUMERIC, BOOLEAN, ABSTAIN, CHOICE]
FORMATS = ["Str", "Int", "Float", "None", "Bool", "Boolean", "Percentage", "single_choice",
           "List", "quantity", "str", "", None, "  ", 5, 0, True, False, ["Int"],
           {"a": 1}, [], {}, 1.5, Obj([("b", "Int"), ("a", "é")])]  # fmt: skip
RULES = ["casefold_exact_match", "numeric_tolerance", "exact_match", "percentage_exact",
         "choice_exact_match", "relative_tolerance", "", None, 5, ["numeric"], True]  # fmt: skip
LABELS = ["single_doc", "cross_doc", None, "", "  ", 0, 1, 2.5, True, False, ["a"],
          {"k": "v"}, "Café", "b", "B", "ä", float("nan"), "unknown", [], {},
          Obj([("z", 1), ("a", ["é", None])]), [1, "b"], -0.0, 10**20]  # fmt: skip
SOURCES = ["text", ["text", "table"], [], ["text", "text"], 0, False, "", None, "  ", [0],
           [None], [""], [{"a": 1}], [["x"]], {"a": 1}, {}, 5, True, "chart",
           Obj([("z", 1), ("a", 2)]), ["text", {"b": [], "a": "ü"}], [False, 0, 1.5]]  # fmt: skip
STATUSES = ["success", "", "context_overflow", "vision_unsupported", "Context_Overflow", None,
            False, 0, 5, ["context_overflow"], {"s": 1}, "missing", "error", True, 1.5, [],
            {}, ["x"], "0", " context_overflow", Obj([("z", 1), ("a", "é")]),
            float("nan")]  # fmt: skip
TEXT_FIELDS = ["prediction", "model_answer", "answer", "response", "output"]
SPACES = ["\u00a0", "\x0c", "\t", " ", "\u3000", "\x0b", "\x1c", "\x85", "\u2028"]
ODD_VALUES = [3, 3.0, 0.5, True, False, None, [1, "a"], {"b": 1, "a": "é"}, float("nan"),
              float("inf"), -0.0, 10**20]  # fmt: skip


@dataclass
class Case:
    """One evaluation: files by name, which are gold and which is the prediction file.

    ``special``: gold files that are not regular files, by name: ``fifo`` (fed its
    bytes in ``files`` once per reader), ``directory``, ``loop`` (a symlink to itself),
    ``dangling`` (a symlink to nothing). ``output``/``csv``: the report and CSV paths
    relative to each program's output folder (``None``: the option is not given).
    """

    files: dict[str, bytes] = field(default_factory=dict)
    gold: list[str] = field(default_factory=list)
    predictions: str = ""
    prediction_field: str | None = None
    ignore_missing: bool = False
    broken: bool = False
    questions: int = 0
    special: dict[str, str] = field(default_factory=dict)
    output: str | None = "report.json"
    csv: str | None = "per_question.csv"
    no_per_question_json: bool = False


def _text(rng: random.Random, pool: list[str]) -> str:
    if rng.random() < 0.15:
        return rng.choice(rng.choice(POOLS))
    return rng.choice(pool)


def _value(rng: random.Random, pool: list[str]) -> Any:
    return rng.choice(ODD_VALUES) if rng.random() < 0.08 else _text(rng, pool)


def _gold_id(rng: random.Random, n: int, used_bools: set[bool]) -> tuple[Any, str]:
    """An id as written and its ``str().strip()``; bool ids at most once each."""
    roll = rng.random()
    if roll < 0.08:
        return n, str(n)
    if roll < 0.12:
        return [n], str([n])
    if roll < 0.14 and len(used_bools) < 2:
        flag = rng.choice([b for b in (True, False) if b not in used_bools])
        used_bools.add(flag)
        return flag, str(flag)
    if roll < 0.2:
        return f"  q{n} ", f"q{n}"
    return f"q{n}", f"q{n}"


def _gold_row(rng: random.Random, n: int, used_bools: set[bool]) -> tuple[Obj, str]:
    written, qid = _gold_id(rng, n, used_bools)
    row = Obj()
    key = rng.choice(["question_id"] * 6 + ["global_qa_id", "global_id", "id"])
    if key != "question_id" and rng.random() < 0.5:
        row.append(("question_id", rng.choice(["", "  ", None])))
    row.append((key, written))
    pool = rng.choice(POOLS)
    fmt = {0: "Str", 1: rng.choice(["Int", "Float", "Percentage"]), 2: "Bool", 3: "None",
           4: "single_choice"}[POOLS.index(pool)]  # fmt: skip
    answer = Obj([("value", _value(rng, pool))])
    roll = rng.random()
    if roll < 0.3:
        answer.append(("format", rng.choice(FORMATS)))
    elif roll < 0.9:
        answer.append(("format", fmt))
    if rng.random() < 0.7:
        answer.append(("verification_rule", rng.choice(RULES)))
    if rng.random() < 0.04:
        answer = Obj(p for p in answer if p[0] != "value")
    roll = rng.random()
    if roll < 0.9:
        row.append(("answer", answer))
    elif roll < 0.96:
        row.append(("answer", _value(rng, pool)))  # not an object: the value itself
    if rng.random() < 0.85:
        row.append(("task_type", rng.choice(LABELS[:2] * 4 + LABELS)))
    row.append(("metadata", _metadata(rng)))
    if rng.random() < 0.05:
        row.append(("answer", Obj([("value", _value(rng, pool)), ("format", fmt)])))  # repeated
    return row, qid


def _metadata(rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.05:
        return rng.choice([None, [], "meta", 5, ["x"]])
    meta = Obj()
    for key in ("domain", "reasoning_type", "difficulty", "doc_type"):
        if rng.random() < 0.8:
            meta.append((key, rng.choice(["geo", "finance", "easy", "hard"] * 3 + LABELS)))
    if rng.random() < 0.8:
        meta.append(("evidence_sources", rng.choice(SOURCES)))
    if rng.random() < 0.3:
        meta.append(("is_unanswerable", rng.choice([True, False, None, "yes", 1, []])))
    return meta


def _prediction_row(rng: random.Random, pred_id: Any, pool_hint: list[str]) -> Obj:
    row = Obj([("question_id", pred_id)])
    roll = rng.random()
    if roll < 0.08:
        row = Obj([(rng.choice(["global_qa_id", "id"]), pred_id)])
    for _ in range(rng.choice([1, 1, 1, 2])):
        name = rng.choice(TEXT_FIELDS)
        if name == "answer" and rng.random() < 0.5:
            row.append(("answer", Obj([("value", _value(rng, pool_hint))])))
        else:
            row.append((name, None if rng.random() < 0.03 else _value(rng, pool_hint)))
    if rng.random() < 0.35:
        row.append(("status", rng.choice(STATUSES)))
    if rng.random() < 0.04:
        row.append(("prediction", _text(rng, pool_hint)))  # repeated key
    return row


def _lines(rng: random.Random, objects: list[Any], ascii_only: bool) -> bytes:
    end = rng.choice(["\n"] * 8 + ["\r\n", "\r"])
    out = []
    for obj in objects:
        line = dump(obj, ascii_only)
        if rng.random() < 0.05:
            line = rng.choice(SPACES) + line
        if rng.random() < 0.08:
            line += rng.choice(SPACES)
        out.append(line)
        if rng.random() < 0.05:
            out.append(rng.choice(["", "   ", "\u00a0", "\x0c"]))
    text = end.join(out) + (end if rng.random() < 0.9 else "")
    return text.encode("utf-8")


def _predictions(rng: random.Random, case: Case, ids: list[str], pools: list[list[str]]) -> None:
    entries: list[tuple[str, Obj]] = []
    for qid, pool in zip(ids, pools, strict=True):
        if rng.random() < 0.1:
            continue  # missing
        entries.append((qid, _prediction_row(rng, _written_id(rng, qid), pool)))
        if rng.random() < 0.05:
            entries.append((qid, _prediction_row(rng, _written_id(rng, qid), pool)))  # duplicate
    for k in range(rng.choice([0, 0, 1, 2])):
        entries.append((f"extra{k}", _prediction_row(rng, f"extra{k}", ENTITY)))
    rng.shuffle(entries)
    ascii_only = rng.random() < 0.3
    shape = rng.choice(["jsonl"] * 10 + ["JSONL", "list", "map", "map", "items"])
    if shape in ("jsonl", "JSONL"):
        name = "preds." + (rng.choice(["JSONL", "Jsonl"]) if shape == "JSONL" else "jsonl")
        case.files[name] = _lines(rng, [row for _, row in entries], ascii_only)
    elif shape == "list":
        name = "preds.json"
        case.files[name] = dump([row for _, row in entries], ascii_only).encode("utf-8")
    else:
        name = "preds.json"
        mapping = Obj()
        for qid, row in entries:
            key = f" {qid} " if rng.random() < 0.05 else qid
            body = Obj(p for p in row if p[0] not in ("question_id", "global_qa_id", "id"))
            mapping.append((key, body if rng.random() < 0.85 else _value(rng, ENTITY)))
        if shape == "map" and rng.random() < 0.1:  # "items" that is no object: an id
            mapping.append(("items", rng.choice([[1, 2], "x", None])))
        doc = Obj([("items", mapping)]) if shape == "items" else mapping
        case.files[name] = dump(doc, ascii_only).encode("utf-8")
    if shape not in ("jsonl", "JSONL") and rng.random() < 0.2:  # one JSON document, any name
        name = rng.choice(["preds.txt", "preds", "preds.JSON"])
        case.files[name] = case.files.pop("preds.json")
    case.predictions = name


def _written_id(rng: random.Random, qid: str) -> Any:
    """An id that reads back as ``qid`` (a number, list or bool written as such)."""
    if rng.random() < 0.6:
        if qid.isdigit():
            return int(qid)
        if qid in ("True", "False"):
            return qid == "True"
        if qid.startswith("["):
            return json.loads(qid)
    return qid if rng.random() < 0.9 else f" {qid}\t"


FORCED = ("fifo", "directory", "loop", "dangling", "all-empty", "broken", "stdout-only")


def make_case(seed: int, questions: int, force: str | None = None) -> Case:
    """The gold and prediction files of case ``seed`` with about ``questions`` questions.

    ``force``: one of :data:`FORCED`, to make sure a small run holds that class.
    """
    case = _make_case(seed, questions)
    rng = random.Random(f"{seed}:{force}")
    if force in SPECIAL:
        case.special = {rng.choice(case.gold): force}
        case.broken = force != "fifo"
    elif force == "all-empty":
        case.files.update((name, rng.choice([b"", b"\n", b" \n\n"])) for name in case.gold)
    elif force == "broken" and not case.broken:
        break_case(rng, case)
    elif force == "stdout-only":
        case.output = case.csv = None
    return case


def _make_case(seed: int, questions: int) -> Case:
    rng = random.Random(seed)
    case = Case(questions=questions)
    used: set[bool] = set()
    rows, ids, pools = [], [], []
    for n in range(questions):
        row, qid = _gold_row(rng, n, used)
        rows.append(row)
        ids.append(qid)
        pools.append(rng.choice(POOLS))
    parts = rng.choice([1, 1, 2, 3])
    cut = sorted(rng.sample(range(1, questions), parts - 1)) if questions > parts else []
    bounds = [0, *cut, questions]
    ascii_only = rng.random() < 0.3
    suffix = rng.choice([".jsonl"] * 12 + [".json", ".JSONL", ".txt", ""])  # JSONL, any name
    for k in range(parts):
        name = f"gold{k}{suffix}"
        case.files[name] = _lines(rng, rows[bounds[k] : bounds[k + 1]], ascii_only)
        case.gold.append(name)
    if rng.random() < 0.1:
        case.files["gold_empty.jsonl"] = rng.choice([b"", b"\n\n", b"  \n", b"\r\n \t\n"])
        case.gold.insert(rng.randrange(len(case.gold) + 1), "gold_empty.jsonl")
    if rng.random() < 0.03:  # every gold file empty: the released script scores 0 questions
        for name in case.gold:
            case.files[name] = rng.choice([b"", b"\n", b" \n\n"])
    _predictions(rng, case, ids, pools)
    if rng.random() < 0.2:
        case.prediction_field = rng.choice(["answer", "answer", "prediction", "response", "nope"])
    case.ignore_missing = rng.random() < 0.2
    _outputs(rng, case)
    if rng.random() < 0.04:
        _special_gold(rng, case)
    if rng.random() < 0.03:
        break_case(rng, case)
    return case


def _outputs(rng: random.Random, case: Case) -> None:
    """Which of --output, --per-question-csv, --no-per-question-json the run gives."""
    roll = rng.random()
    if roll < 0.06:
        case.output = None
    elif roll < 0.1:
        case.csv = None
    elif roll < 0.12:
        case.output = case.csv = None  # the summary on stdout alone
    if rng.random() < 0.08:  # folders that do not exist yet: both programs make them
        case.output = case.output and "new/deeper/report.json"
        case.csv = case.csv and "other/pq.csv"
    case.no_per_question_json = case.output is not None and rng.random() < 0.05


SPECIAL = ["fifo", "fifo", "directory", "loop", "dangling"]


def _special_gold(rng: random.Random, case: Case) -> None:
    """Make one gold file something other than a regular file."""
    name = rng.choice(case.gold)
    case.special[name] = kind = rng.choice(SPECIAL)
    case.broken = kind != "fifo"  # the released script reads a FIFO (it has a writer here)


def break_case(rng: random.Random, case: Case) -> None:
    """Make the case one the released script fails on (and assay must refuse)."""
    target = rng.choice([*case.gold, case.predictions])
    if not target.lower().endswith(".jsonl"):
        target = case.gold[0]
    bad = rng.choice([b"{oops", b"[1, 2]", b'{"prediction": "no id"}', b'{"question_id":\r"q0"}'])
    case.files[target] = case.files[target] + b"\n" + bad + b"\n"
    case.broken = True
