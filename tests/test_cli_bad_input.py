"""Hostile-but-realistic input through ``python -m assay``: one clear line, never a traceback.

Every case runs the real CLI in a subprocess. All subprocesses are started once per
module (two at a time) and each parametrised test checks one of them: the exit
code, that stderr is exactly one ``error:`` line (click's own usage errors: one
``Error:`` line after the usage text), and the words that name the file, line,
field and fix.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

GOLD = (
    '{"question_id": "q1", "task_type": "single_doc", '
    '"answer": {"value": "Paris", "format": "Str"}}\n'
    '{"question_id": "q2", "answer": {"value": "42", "format": "Int"}}\n'
)
PRED = '{"question_id": "q1", "prediction": "Paris"}\n{"question_id": "q2", "prediction": "42"}\n'
PAIR = '{"id": "a", "prediction": "x", "targets": ["x"]}\n'
ITEM = '{"id": "p1", "response": "{}"}\n'
SCHEMA = '{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}'

FILES: dict[str, str | bytes] = {
    "gold.jsonl": GOLD,
    "pred.jsonl": PRED,
    "pairs.jsonl": PAIR,
    "items.jsonl": ITEM,
    "schema.json": SCHEMA,
    "empty.jsonl": "",
    "blank.jsonl": "\n   \n\n",
    "latin1.jsonl": b'{"question_id": "q1", "answer": "x"}\n'
    b'{"question_id": "q2", "answer": "caf\xe9"}\n',
    "pairs_latin1.jsonl": PAIR.encode("utf-8") + b'{"id": "b", "prediction": "caf\xe9"}\n',
    "bom_gold.jsonl": ("\ufeff" + GOLD).encode("utf-8"),
    "bom_pred.json": "\ufeff" + json.dumps({"q1": "Paris", "q2": "42"}),
    "crlf_gold.jsonl": GOLD.replace("\n", "\r\n").encode("utf-8"),
    "array.jsonl": json.dumps([{"question_id": "q1", "prediction": "Paris"}]) + "\n",
    "array_pred.json": json.dumps([{"question_id": "q1", "prediction": "Paris"}]),
    "jsonl_as.json": PRED.replace('"42"}', '"42"'),  # JSON Lines under .json, line 2 cut
    "pretty.jsonl": json.dumps({"question_id": "q1", "answer": "x"}, indent=2) + "\n",
    "string_line.jsonl": '"hello"\n',
    "number_line.jsonl": "42\n",
    "null_line.jsonl": "null\n",
    "noid_gold.jsonl": '{"answer": "x"}\n',
    "noid_pred.jsonl": '{"prediction": "x"}\n',
    "intid_gold.jsonl": '{"question_id": 1, "answer": "Paris"}\n'
    '{"question_id": 2.5, "answer": "x"}\n',
    "intid_pred.jsonl": '{"question_id": " 1 ", "prediction": "Paris"}\n',
    "boolid_gold.jsonl": '{"question_id": true, "answer": "Paris"}\n',
    "objid_gold.jsonl": '{"question_id": {"a": 1}, "answer": "Paris"}\n',
    "listid_pred.jsonl": '{"question_id": ["q1"], "prediction": "Paris"}\n',
    "dup_gold.jsonl": GOLD + '{"question_id": "q1", "answer": "London"}\n',
    "dup_pred.jsonl": PRED + '{"question_id": "q1", "prediction": "London"}\n',
    "dupkey_pred.json": '{"q1": "Paris", "q1": "London", "q2": "42"}',
    "nan_pred.jsonl": '{"question_id": "q1", "prediction": NaN}\n',
    "noanswer_gold.jsonl": '{"question_id": "q1"}\n',
    "novalue_gold.jsonl": '{"question_id": "q1", "answer": {"format": "Str"}}\n',
    "badformat_gold.jsonl": '{"question_id": "q1", "answer": {"value": "x", "format": 5}}\n',
    "unans_gold.jsonl": '{"question_id": "q1", "answer": "x", '
    '"metadata": {"is_unanswerable": "false"}}\n',
    "listlabel_gold.jsonl": '{"question_id": "q1", "answer": "x", "task_type": ["a"]}\n',
    "odd_pred.jsonl": '{"question_id": "q1", "prediction": 5}\n'
    '{"question_id": "q2", "prediction": [4, 2]}\n',
    "status_pred.jsonl": '{"question_id": "q1", "prediction": "x", "status": ["x"]}\n',
    "huge_pred.jsonl": json.dumps({"question_id": "q1", "prediction": "x " * 500_000}) + "\n",
    "deep_pred.jsonl": '{"question_id": "q1", "prediction": ' + "[" * 50_000 + "]" * 50_000 + "}\n",
    "surrogate_pred.jsonl": '{"question_id": "q1", "prediction": "a\\ud800b"}\n',
    "release/qa_single_doc.jsonl": GOLD,
    "release/documents.jsonl": '{"document_id": "D1", "page_count": 3}\n',
    "release/manifest.json": '{"results": {"scores": "s.jsonl", "summary": "sum.json"}}',
    "release/s.jsonl": '{"system": "a", "question_id": "q1", "accuracy": "x"}\n'
    '{"question_id": "q2", "accuracy": 1.0}\n',
    "release/sum.json": '{"systems": [{"system": "a"}]}',
    "release2/qa_single_doc.jsonl": GOLD,
    "release2/documents.jsonl": '{"document_id": "D1", "page_count": 3}\n',
    "release2/manifest.json": '{"results": {"scores": "s.jsonl", "summary": "sum.json"}}',
    "release2/s.jsonl": '{"system": "a", "question_id": "q1", "accuracy": "x"}\n',
    "release2/sum.json": '{"systems": {"a": {"accuracy": 1.0}}}',
    "pairs_dup.jsonl": PAIR + PAIR,
    "pairs_badpred.jsonl": '{"id": "a", "prediction": 5, "targets": ["x"]}\n',
    "pairs_bom.jsonl": ("\ufeff" + PAIR).encode("utf-8"),
    "schema_bad.json": "{not json",
    "schema_invalid.json": '{"type": "wibble"}',
    "items_noresp.jsonl": '{"id": "p1"}\n',
    "refs_rule.jsonl": json.dumps(
        {"id": "p1", "reference": {"fields": {"a": {"value": 1, "rule": "wibble"}}}}
    )
    + "\n",
    "refs_unknown.jsonl": json.dumps({"id": "zzz", "reference": {"a": 1}}) + "\n",
    "other_tool.json": json.dumps({"foo": 1}),
    "truncated.json": '{"kind": "assay.result", "systems": [',
    "list.json": "[1, 2, 3]",
    "empty.json": "",
    "adir/.keep": "",
    "emptydir/.keep": "",
    "preds/a.jsonl": PRED,
    "preds/b.jsonl": PRED.replace("42", "41"),
    "other_preds/c.jsonl": PRED,
}

# The result/report files that `diff`, `report` and `compare` read are written by
# setup commands below, with the CLI itself.
SETUP = (
    ["eval", "--gold-files", "{d}/gold.jsonl", "--predictions", "{d}/pred.jsonl",
     "--output", "{d}/rep1.json", "--result-json", "{d}/res1.json"],
    ["eval", "--gold-files", "{d}/gold.jsonl", "--predictions", "{d}/other_preds",
     "--predictions", "{d}/preds", "--output", "{d}/rep3.json", "--result-json",
     "{d}/res3.json"],
    ["eval", "--gold-files", "{d}/intid_gold.jsonl", "--predictions", "{d}/intid_pred.jsonl",
     "--output", "{d}/rep_other_gold.json"],
)  # fmt: skip

E = "{d}/gold.jsonl"
P = "{d}/pred.jsonl"

# (id, args, exit code, words that must appear in the one stderr line)
ERRORS: list[tuple[str, list[str], int, tuple[str, ...]]] = [
    # gold files
    ("gold-empty", ["eval", "--gold-files", "{d}/empty.jsonl", "--predictions", P], 3,
     ("empty.jsonl", "no gold questions")),
    ("gold-blank", ["eval", "--gold-files", "{d}/blank.jsonl", "--predictions", P], 3,
     ("blank.jsonl", "no gold questions")),
    ("gold-latin1", ["eval", "--gold-files", "{d}/latin1.jsonl", "--predictions", P], 3,
     ("latin1.jsonl:2", "not UTF-8", "re-encode")),
    ("gold-array", ["eval", "--gold-files", "{d}/array.jsonl", "--predictions", P], 3,
     ("array.jsonl:1", "got list", "each element of the array on its own line")),
    ("gold-pretty", ["eval", "--gold-files", "{d}/pretty.jsonl", "--predictions", P], 3,
     ("pretty.jsonl:1", "one complete {...} object per line")),
    ("gold-string-line", ["eval", "--gold-files", "{d}/string_line.jsonl", "--predictions", P],
     3, ("string_line.jsonl:1", "got string")),
    ("gold-noid", ["eval", "--gold-files", "{d}/noid_gold.jsonl", "--predictions", P], 3,
     ("noid_gold.jsonl:1", "'id'", "question_id")),
    ("gold-boolid", ["eval", "--gold-files", "{d}/boolid_gold.jsonl", "--predictions", P], 3,
     ("boolid_gold.jsonl:1", "'question_id'", "string or a number", "boolean")),
    ("gold-objid", ["eval", "--gold-files", "{d}/objid_gold.jsonl", "--predictions", P], 3,
     ("objid_gold.jsonl:1", "'question_id'", "object")),
    ("gold-dup", ["eval", "--gold-files", "{d}/dup_gold.jsonl", "--predictions", P], 3,
     ("dup_gold.jsonl:3", "duplicate question id 'q1'", "dup_gold.jsonl:1")),
    ("gold-noanswer", ["eval", "--gold-files", "{d}/noanswer_gold.jsonl", "--predictions", P],
     3, ("noanswer_gold.jsonl:1", "'answer'", "missing")),
    ("gold-novalue", ["eval", "--gold-files", "{d}/novalue_gold.jsonl", "--predictions", P], 3,
     ("novalue_gold.jsonl:1", "'answer.value'", "missing")),
    ("gold-badformat", ["eval", "--gold-files", "{d}/badformat_gold.jsonl", "--predictions",
                        P], 3, ("badformat_gold.jsonl:1", "'answer.format'", "string")),
    ("gold-unanswerable", ["eval", "--gold-files", "{d}/unans_gold.jsonl", "--predictions", P],
     3, ("unans_gold.jsonl:1", "'metadata.is_unanswerable'", "true or false")),
    ("gold-listlabel", ["eval", "--gold-files", "{d}/listlabel_gold.jsonl", "--predictions", P],
     3, ("listlabel_gold.jsonl:1", "'task_type'", "string")),
    ("gold-twice", ["eval", "--gold-files", E, E, "--predictions", P], 3,
     ("gold.jsonl", "given twice")),
    ("gold-dir", ["eval", "--gold-files", "{d}/adir", "--predictions", P], 3,
     ("adir", "cannot open file")),
    ("gold-missing", ["eval", "--gold-files", "{d}/nope.jsonl", "--predictions", P], 3,
     ("nope.jsonl", "No such file", "check the path")),
    ("data-dir-empty", ["eval", "--data-dir", "{d}/emptydir", "--predictions", P], 2,
     ("--data-dir", "qa_single_doc.jsonl", "--gold-files")),
    # prediction files
    ("pred-number-line", ["eval", "--gold-files", E, "--predictions", "{d}/number_line.jsonl"],
     3, ("number_line.jsonl:1", "got number")),
    ("pred-null-line", ["eval", "--gold-files", E, "--predictions", "{d}/null_line.jsonl"], 3,
     ("null_line.jsonl:1", "got null")),
    ("pred-jsonl-as-json", ["eval", "--gold-files", E, "--predictions", "{d}/jsonl_as.json"],
     3, ("jsonl_as.json:2", "invalid JSON", "fix or remove the line")),
    ("pred-empty-json", ["eval", "--gold-files", E, "--predictions", "{d}/empty.json"], 3,
     ("empty.json", "empty")),
    ("pred-noid", ["eval", "--gold-files", E, "--predictions", "{d}/noid_pred.jsonl"], 3,
     ("noid_pred.jsonl:1", "'id'", "no id")),
    ("pred-listid", ["eval", "--gold-files", E, "--predictions", "{d}/listid_pred.jsonl"], 3,
     ("listid_pred.jsonl:1", "'question_id'", "list")),
    ("pred-dup-reject", ["eval", "--gold-files", E, "--predictions", "{d}/dup_pred.jsonl",
                         "--duplicates", "reject"], 3,
     ("dup_pred.jsonl:3", "duplicate prediction id 'q1'", "--duplicates last-wins")),
    ("pred-dupkey", ["eval", "--gold-files", E, "--predictions", "{d}/dupkey_pred.json"], 3,
     ("dupkey_pred.json", "'q1'", "twice")),
    ("pred-nan", ["eval", "--gold-files", E, "--predictions", "{d}/nan_pred.jsonl"], 3,
     ("nan_pred.jsonl:1", "NaN is not valid JSON")),
    ("pred-status-list", ["eval", "--gold-files", E, "--predictions", "{d}/status_pred.jsonl"],
     3, ("status_pred.jsonl:1", "'status'", "string")),
    ("prediction-field-in-no-row", ["eval", "--gold-files", E, "--predictions", P,
                                    "--prediction-field", "answr"], 3,
     ("pred.jsonl", "'answr'", "no row has the field", "--prediction-field")),
    ("pred-nested-too-deep", ["eval", "--gold-files", E, "--predictions",
                              "{d}/deep_pred.jsonl"], 3,
     ("deep_pred.jsonl:1", "nested too deeply")),
    ("pred-missing", ["eval", "--gold-files", E, "--predictions", "{d}/nope.jsonl"], 3,
     ("nope.jsonl", "cannot open file")),
    ("pred-emptydir", ["eval", "--gold-files", E, "--predictions", "{d}/emptydir"], 2,
     ("--predictions", "no .jsonl or .json files")),
    ("system-no-equals", ["eval", "--gold-files", E, "--system", "foo"], 2,
     ("--system 'foo'", "NAME=FILE")),
    ("system-same-name", ["eval", "--gold-files", E, "--system", f"a={P}", "--system",
                          f"a={P}"], 2, ("system names must be unique",)),
    # output paths
    ("output-under-file", ["eval", "--gold-files", E, "--predictions", P, "--output",
                           "{d}/gold.jsonl/out.json"], 3,
     ("--output", "gold.jsonl: it is a file", "choose another path")),
    ("csv-under-file", ["eval", "--gold-files", E, "--predictions", P, "--per-question-csv",
                        "{d}/gold.jsonl/q.csv"], 3, ("--per-question-csv", "it is a file")),
    ("results-dir-under-file", ["eval", "--gold-files", E, "--predictions", P,
                                "--results-dir", "{d}/gold.jsonl/res"], 3,
     ("--results-dir", "it is a file")),
    ("output-overwrites-gold", ["eval", "--gold-files", E, "--predictions", P, "--output", E],
     3, ("gold.jsonl", "--output", "input file", "choose another path")),
    ("two-outputs-one-file", ["eval", "--gold-files", E, "--predictions", P, "--output",
                              "{d}/o.json", "--result-json", "{d}/o.json"], 3,
     ("--result-json", "--output")),
    # score
    # a path of the wrong kind is an input mistake (3), whoever checks it
    ("score-file-is-dir", ["score", "f1", "--file", "{d}/adir"], 3, ("--file", "directory")),
    ("check-file-not-dir", ["check", E], 3, ("gold.jsonl", "is a file")),
    ("output-is-dir", ["eval", "--gold-files", E, "--predictions", P, "--output", "{d}/adir"],
     3, ("--output", "directory")),
    ("score-empty", ["score", "f1", "--file", "{d}/empty.jsonl"], 3,
     ("empty.jsonl", "no rows to score")),
    ("score-blank", ["score", "f1", "--file", "{d}/blank.jsonl"], 3,
     ("blank.jsonl", "no rows to score")),
    ("score-dup-id", ["score", "f1", "--file", "{d}/pairs_dup.jsonl"], 3,
     ("pairs_dup.jsonl:2", "'id'", "duplicate id 'a'")),
    ("score-bad-prediction", ["score", "f1", "--file", "{d}/pairs_badpred.jsonl"], 3,
     ("pairs_badpred.jsonl:1", "'prediction'", "not a string")),
    ("score-latin1", ["score", "f1", "--file", "{d}/pairs_latin1.jsonl"], 3,
     ("pairs_latin1.jsonl:2", "not UTF-8")),
    ("score-missing", ["score", "f1", "--file", "{d}/nope.jsonl"], 3, ("nope.jsonl",)),
    ("score-unknown-metric", ["score", "wibble", "-p", "a", "-t", "a"], 2,
     ("unknown metric 'wibble'",)),
    ("score-unknown-option", ["score", "bleu", "-p", "a", "-t", "a", "--option", "wibble=1"],
     2, ("does not take option 'wibble'",)),
    ("score-bad-option-value", ["score", "bleu", "-p", "a", "-t", "a", "--option",
                                "max_order=abc"], 2, ("max_order", "whole number")),
    ("score-nan-option", ["score", "anls", "-p", "a", "-t", "a", "--option", "threshold=nan"],
     2, ("threshold", "between 0 and 1")),
    ("score-unknown-tokenizer", ["score", "f1", "-p", "a", "-t", "a", "--tokenizer", "nope"],
     2, ("unknown tokenizer 'nope'",)),
    # saved reports: compare, diff, report
    ("compare-other-tool", ["compare", "{d}/other_tool.json"], 3,
     ("other_tool.json", "not an assay result")),
    ("compare-truncated", ["compare", "{d}/truncated.json"], 3,
     ("truncated.json:1", "invalid JSON")),
    ("compare-result-among-reports", ["compare", "{d}/res1.json", "{d}/rep1.json"], 3,
     ("res1.json", "give it alone")),
    ("compare-reports-on-different-gold", ["compare", "{d}/rep1.json",
                                           "{d}/rep_other_gold.json"], 2,
     ("'rep_other_gold'", "shares no question id with 'rep1'", "same gold files")),
    ("compare-html-overwrites-input", ["compare", "--gold-files", E, "--predictions",
                                       "{d}/preds", "--html", E], 3, ("--html", "input file")),
    ("diff-list", ["diff", "{d}/list.json", "{d}/res1.json"], 3,
     ("list.json", "expected a JSON object", "got list")),
    ("diff-truncated", ["diff", "{d}/truncated.json", "{d}/res1.json"], 3,
     ("truncated.json:1", "invalid JSON")),
    ("diff-other-tool", ["diff", "{d}/other_tool.json", "{d}/res1.json"], 3,
     ("other_tool.json", "no per-item scores")),
    ("diff-no-common-system", ["diff", "{d}/res1.json", "{d}/res3.json"], 3,
     ("no system in common", "old: pred", "new: a, b, c")),
    ("diff-json-overwrites-input", ["diff", "{d}/res1.json", "{d}/res1.json", "--output",
                                    "{d}/res1.json"], 3, ("--output", "input file")),
    ("report-newer-version", ["report", "{d}/v2.json", "--format", "md", "--output",
                              "{d}/o.md"], 3, ("v2.json", "'result_version'", "must be 1, got 2")),
    ("report-missing-comparison", ["report", "{d}/no_comparison.json", "--format", "html",
                                   "--output", "{d}/o.html"], 3,
     ("no_comparison.json", "'comparison'", "missing")),
    ("compare-empty-system", ["compare", "{d}/empty_system.json"], 3,
     ("empty_system.json", "'systems[0].accounting'", "missing")),
    ("diff-items-string", ["diff", "{d}/items_string.json", "{d}/res3.json"], 3,
     ("items_string.json", "'items'", "must be array, got string")),
    ("diff-row-without-id", ["diff", "{d}/row_without_id.json", "{d}/rep1.json"], 3,
     ("row_without_id.json", "per_question[0]", "'question_id'")),
    ("report-empty", ["report", "{d}/empty.json", "--format", "md", "--output", "{d}/o.md"],
     3, ("empty.json", "empty")),
    ("report-list", ["report", "{d}/list.json", "--format", "md", "--output", "{d}/o.md"], 3,
     ("list.json", "expected a JSON object")),
    ("report-other-tool", ["report", "{d}/other_tool.json", "--format", "csv", "--output",
                           "{d}/o.csv"], 3, ("other_tool.json", "not an assay result")),
    ("report-overwrites-input", ["report", "{d}/res3.json", "--format", "md", "--output",
                                 "{d}/res3.json"], 3, ("--output", "input file")),
    ("report-under-file", ["report", "{d}/res3.json", "--format", "md", "--output",
                           "{d}/gold.jsonl/o.md"], 3, ("--output", "it is a file")),
    # structured
    ("structured-schema-not-json", ["structured", "--items", "{d}/items.jsonl", "--schema",
                                    "{d}/schema_bad.json", "--output", "{d}/s.json"], 3,
     ("schema_bad.json:1", "invalid JSON")),
    ("structured-schema-invalid", ["structured", "--items", "{d}/items.jsonl", "--schema",
                                   "{d}/schema_invalid.json", "--output", "{d}/s.json"], 3,
     ("schema_invalid.json", "'/type'", "Draft 2020-12")),
    ("structured-items-empty", ["structured", "--items", "{d}/empty.jsonl", "--schema",
                                "{d}/schema.json", "--output", "{d}/s.json"], 3,
     ("empty.jsonl", "no items")),
    ("structured-no-response", ["structured", "--items", "{d}/items_noresp.jsonl", "--schema",
                                "{d}/schema.json", "--output", "{d}/s.json"], 3,
     ("items_noresp.jsonl:1", "'response'", "missing")),
    ("structured-unknown-rule", ["structured", "--items", "{d}/items.jsonl", "--schema",
                                 "{d}/schema.json", "--references", "{d}/refs_rule.jsonl",
                                 "--output", "{d}/s.json"], 3,
     ("refs_rule.jsonl:1", "'reference.fields.a.rule'", "unknown comparison rule")),
    ("structured-unknown-id", ["structured", "--items", "{d}/items.jsonl", "--schema",
                               "{d}/schema.json", "--references", "{d}/refs_unknown.jsonl",
                               "--output", "{d}/s.json"], 3,
     ("refs_unknown.jsonl:1", "'zzz'", "not in the items file")),
    ("structured-overwrites-items", ["structured", "--items", "{d}/items.jsonl", "--schema",
                                     "{d}/schema.json", "--output", "{d}/items.jsonl"], 3,
     ("--output", "input file")),
    ("structured-under-file", ["structured", "--items", "{d}/items.jsonl", "--schema",
                               "{d}/schema.json", "--output", "{d}/gold.jsonl/s.json"], 3,
     ("s.json", "it is a file")),
    ("demo-under-file", ["demo", "--out", "{d}/gold.jsonl/demo"], 3,
     ("--out", "it is a file")),
]  # fmt: skip

# click's own usage errors: usage text, then one ``Error:`` line; exit 2.
USAGE: list[tuple[str, list[str], tuple[str, ...]]] = [
    ("eval-unknown-profile", ["eval", "--gold-files", E, "--predictions", P, "--profile", "x"],
     ("--profile", "'x'")),
    ("fingerprint-unknown-profile", ["fingerprint", "--profile", "x"], ("--profile",)),
    ("report-unknown-format", ["report", "{d}/res3.json", "--format", "pdf", "--output",
                               "{d}/o.pdf"], ("--format", "'pdf'")),
    ("option-without-equals", ["score", "bleu", "-p", "a", "-t", "a", "--option", "smoothing"],
     ("KEY=VALUE",)),
]  # fmt: skip

# Legitimately acceptable input: exit 0 and the numbers say what happened.
ACCEPTED: list[tuple[str, list[str], tuple[str, ...]]] = [
    ("gold-bom", ["eval", "--gold-files", "{d}/bom_gold.jsonl", "--predictions", P],
     ("Gold questions: 2", "Accuracy: 1.000000")),
    ("gold-crlf", ["eval", "--gold-files", "{d}/crlf_gold.jsonl", "--predictions", P],
     ("Gold questions: 2", "Accuracy: 1.000000")),
    ("pred-bom-json", ["eval", "--gold-files", E, "--predictions", "{d}/bom_pred.json"],
     ("Accuracy: 1.000000",)),
    ("pred-array-json", ["eval", "--gold-files", E, "--predictions", "{d}/array_pred.json"],
     ("Evaluated: 1", "Missing predictions: 1")),  # evaluated: with a prediction
    ("numeric-ids-become-strings", ["eval", "--gold-files", "{d}/intid_gold.jsonl",
                                    "--predictions", "{d}/intid_pred.jsonl"],
     ("Gold questions: 2", "Missing predictions: 1", "Accuracy: 0.500000")),
    ("duplicates-counted-last-wins", ["eval", "--gold-files", E, "--predictions",
                                      "{d}/dup_pred.jsonl", "--profile", "xldocbench"],
     ("  predictions:          2",)),
    ("odd-prediction-types-rendered", ["eval", "--gold-files", E, "--predictions",
                                       "{d}/odd_pred.jsonl"], ("Evaluated: 2",)),
    ("lone-surrogate-written-escaped", ["eval", "--gold-files", E, "--predictions",
                                        "{d}/surrogate_pred.jsonl", "--per-question-csv",
                                        "{d}/surrogate.csv", "--output", "{d}/surrogate.json"],
     ("wrote",)),
    ("huge-line", ["eval", "--gold-files", E, "--predictions", "{d}/huge_pred.jsonl"],
     ("Missing predictions: 1",)),
    ("pairs-bom", ["score", "f1", "--file", "{d}/pairs_bom.jsonl"], ("n=1",)),
    ("diff-with-itself", ["diff", "{d}/res3.json", "{d}/res3.json"], ("0 changed",)),
    ("output-in-new-folder", ["eval", "--gold-files", E, "--predictions", P, "--output",
                              "{d}/new/folder/out.json"], ("wrote",)),
]  # fmt: skip


# `assay check` reports every problem of a release on stdout and exits 1.
REPORTED: list[tuple[str, list[str], tuple[str, ...]]] = [
    ("check-malformed-results", ["check", "{d}/release"],
     ("s.jsonl:2: a score row needs 'system' and 'question_id'",
      "sum.json: 'systems' must be an object", "no summary for system 'a'")),
    ("check-score-not-a-number", ["check", "{d}/release2"],
     ("accuracy score in scores.jsonl is 'x', not a number",)),
]  # fmt: skip


def _run(args: list[str], folder: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    return subprocess.run(
        [sys.executable, "-m", "assay", *(a.replace("{d}", str(folder)) for a in args)],
        capture_output=True,
        text=True,
        env=env,
        cwd=folder,
        timeout=120,
        check=False,
    )


def _write_damaged_documents(folder: Path) -> None:
    """Saved documents that were edited, truncated or written by another version."""
    result = json.loads((folder / "res3.json").read_text("utf-8"))
    report = json.loads((folder / "rep1.json").read_text("utf-8"))
    damaged = {
        "v2.json": {**result, "result_version": 2},
        "no_comparison.json": {k: v for k, v in result.items() if k != "comparison"},
        "empty_system.json": {**result, "systems": [{}]},
        "items_string.json": {**result, "items": "x"},
        "row_without_id.json": {**report, "per_question": [{"accuracy": 1.0}]},
    }
    for name, document in damaged.items():
        (folder / name).write_text(json.dumps(document), "utf-8")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, subprocess.CompletedProcess[str]]:
    """Write the inputs, run the setup commands, then every case (two at a time)."""
    folder = tmp_path_factory.mktemp("bad_input")
    for name, content in FILES.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    for args in SETUP:
        done = _run(list(args), folder)
        assert done.returncode == 0, done.stderr
    _write_damaged_documents(folder)
    cases = [(c[0], c[1]) for c in ERRORS] + [(c[0], c[1]) for c in USAGE + ACCEPTED + REPORTED]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = pool.map(lambda case: _run(case[1], folder), cases)
        return {name: result for (name, _), result in zip(cases, results, strict=True)}


@pytest.mark.parametrize(("name", "args", "code", "words"), ERRORS, ids=[c[0] for c in ERRORS])
def test_bad_input_gives_one_error_line(
    runs: dict[str, subprocess.CompletedProcess[str]],
    name: str,
    args: list[str],
    code: int,
    words: tuple[str, ...],
) -> None:
    done = runs[name]
    lines = done.stderr.splitlines()
    assert done.returncode == code, done.stderr
    assert "Traceback" not in done.stderr
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    for word in words:
        assert word in lines[0], (word, lines[0])


@pytest.mark.parametrize(("name", "args", "words"), USAGE, ids=[c[0] for c in USAGE])
def test_usage_errors_are_one_error_line(
    runs: dict[str, subprocess.CompletedProcess[str]],
    name: str,
    args: list[str],
    words: tuple[str, ...],
) -> None:
    done = runs[name]
    errors = done.stderr.splitlines()
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "Usage:" not in done.stderr
    assert len(errors) == 1 and errors[0].startswith("error: "), done.stderr
    for word in words:
        assert word in errors[0], (word, errors[0])


@pytest.mark.parametrize(("name", "args", "words"), ACCEPTED, ids=[c[0] for c in ACCEPTED])
def test_acceptable_input_is_scored_and_counted(
    runs: dict[str, subprocess.CompletedProcess[str]],
    name: str,
    args: list[str],
    words: tuple[str, ...],
) -> None:
    done = runs[name]
    assert done.returncode == 0, done.stderr
    provenance = ("profile: xldocbench (", "evaluator sha256: ")  # xldocbench: on stderr
    assert [line for line in done.stderr.splitlines() if not line.startswith(provenance)] == []
    for word in words:
        assert word in done.stdout, (word, done.stdout)


def test_lone_surrogate_round_trips_through_the_json_report(
    runs: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    assert runs["lone-surrogate-written-escaped"].returncode == 0
    folder = Path(runs["lone-surrogate-written-escaped"].args[-1]).parent
    report = json.loads((folder / "surrogate.json").read_text("utf-8"))
    assert report["per_question"][0]["prediction"] == "a\ud800b"
    assert "a\\ud800b" in (folder / "surrogate.csv").read_text("utf-8")


@pytest.mark.parametrize(("name", "args", "words"), REPORTED, ids=[c[0] for c in REPORTED])
def test_release_problems_are_reported_not_raised(
    runs: dict[str, subprocess.CompletedProcess[str]],
    name: str,
    args: list[str],
    words: tuple[str, ...],
) -> None:
    done = runs[name]
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    for word in words:
        assert word in done.stdout, (word, done.stdout)
