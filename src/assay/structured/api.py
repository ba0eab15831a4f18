"""The library entry: :func:`score_structured` and the :class:`StructuredReport` record.

``StructuredReport.to_dict()`` is the single source of truth: the JSON report, the
per-item JSONL, the CSV and the terminal view are all rendered from it. It holds
no wall-clock time and no absolute paths (file names and SHA-256 digests only), so
identical inputs and options give byte-identical reports.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assay._version import __version__
from assay.errors import AccountingError
from assay.io.records import is_frame
from assay.parallel import chunked, executor_for
from assay.structured import summary, tables
from assay.structured.contract import Contract, contract_from_schema, load_contract
from assay.structured.deferred_references import DeferredReferences, read_deferred
from assay.structured.items import StructuredItem, attach_references, read_items
from assay.structured.records import attach_reference_records, items_from_records
from assay.structured.scoring import ItemResult, score_items
from assay.structured.verdicts import Judge, NormalizedMatchJudge

REPORT_KIND = "assay.structured"
REPORT_VERSION = 1


@dataclass(frozen=True, slots=True, repr=False)
class StructuredReport:
    """The result of a structured-output scoring run.

    Attributes:
        results: one :class:`~assay.structured.scoring.ItemResult` per item, input order.
        contract: the contract the responses were checked against.
        read_facts_from_wrapped: whether the fact fallback was declared.
        judge_name: the free-text judge used.
        inputs: file names and digests of the inputs (empty for in-memory items).
    """

    results: tuple[ItemResult, ...]
    contract: Contract
    read_facts_from_wrapped: bool
    judge_name: str
    inputs: tuple[tuple[str, dict[str, str] | None], ...] = ()

    @property
    def signature(self) -> str:
        """``structured|fallback:..|judge:..|contract:<sha256[:12]>|v:VERSION``."""
        fallback = "yes" if self.read_facts_from_wrapped else "no"
        return (
            f"structured|fallback:{fallback}|judge:{self.judge_name}"
            f"|contract:{self.contract.sha256[:12]}|v:{__version__}"
        )

    def to_pandas(self) -> Any:
        """The per-item DataFrame: verdicts, reasons and claim counts (needs pandas).

        Raises:
            MissingExtraError: pandas is not installed (``pip install 'assay[pandas]'``).
        """
        return tables.items_frame(self.results)

    def summary_frame(self) -> Any:
        """The headline rates, one row each: k, n, rate and the 95% Wilson interval."""
        return tables.headline_frame(summary.headlines(self.results))

    def __repr__(self) -> str:
        """A few lines, not every item: count, signature and the headline rates."""
        return tables.report_repr(summary.headlines(self.results), len(self.results),
                                  self.signature)  # fmt: skip

    def _repr_html_(self) -> str:
        return tables.report_html(summary.headlines(self.results), len(self.results),
                                  self.signature)  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """The whole report as canonical JSON-ready data (identity checked on the way)."""
        tally = summary.Tally.of(self.results)  # one pass for every aggregate
        return self.dict_with(tally, [r.to_dict() for r in self.results])

    def dict_with(self, tally: summary.Tally, items: list[dict[str, Any]]) -> dict[str, Any]:
        """:meth:`to_dict` from the counts and the per-item records of all the results.

        For a run scored in parts (:class:`PreparedRun`), whose results are not in one
        process; ``self.results`` is not read.
        """
        return {
            "assay_version": __version__,
            "contract": self.contract.to_dict(),
            "cross_tab": summary.cross_tab(tally),
            "fact": summary.fact_summary(tally),
            "format": summary.format_summary(tally),
            "headlines": summary.headlines(tally),
            "identity": summary.identity(tally),
            "inputs": dict(self.inputs),
            "items": items,
            "kind": REPORT_KIND,
            "options": {
                "confidence": summary.CONFIDENCE,
                "interval": "wilson",
                "judge": self.judge_name,
                "read_facts_from_wrapped": self.read_facts_from_wrapped,
            },
            "report_version": REPORT_VERSION,
            "signature": self.signature,
        }


ItemsInput = str | Path | Iterable[StructuredItem | Mapping[str, Any]] | Any  # Any: a DataFrame


def score_structured(
    items: ItemsInput,
    schema: str | Path | Mapping[str, Any] | Contract,
    *,
    references: str | Path | Mapping[str, Any] | Iterable[Mapping[str, Any]] | Any = None,
    read_facts_from_wrapped: bool = False,
    judge: Judge | None = None,
    executor: Any = None,
    progress: Callable[[int, int], None] | None = None,
) -> StructuredReport:
    """Score raw responses on the FORMAT and FACT axes.

    Args:
        items: an items JSONL path, or in-memory items: an iterable (list, generator)
            of dicts ``{id, response, reference?, claims?}`` or of
            :class:`StructuredItem`, or a pandas DataFrame with those columns. Rows
            are checked as file rows; messages name ``items records[i]``.
        schema: a JSON Schema file path, a schema object, or a loaded contract.
        references: optional references JSONL path (rows keyed by ``id``), an
            in-memory ``{id: reference}`` mapping, or reference rows as the file
            holds them (an iterable of dicts or a DataFrame; messages name
            ``references records[i]``).
        read_facts_from_wrapped: declare up front that facts may be read from the
            inner JSON of fenced/prose responses (their format failure is kept).
        judge: free-text judge; default :class:`NormalizedMatchJudge`.
        executor: where items are scored: ``None`` (this process), ``"local:N"``, a
            scheduler address or a ``dask.distributed.Client`` (:mod:`assay.parallel`);
            items are cut into partitions of :data:`CHUNK_ITEMS` and the report is
            identical for every executor.
        progress: called with ``(done, total)`` partitions.

    Returns:
        The :class:`StructuredReport`; ``to_dict()`` is the JSON report.

    Raises:
        InputFileError: a bad contract, items line or row, reference or comparison
            rule, naming the file and line (or the row index) and the field.
        InvalidTypeError: items or references that are neither a path nor rows.
    """
    contract = _contract(schema)
    loaded, inputs = _load(items, references)
    chosen = judge if judge is not None else NormalizedMatchJudge()
    task = _ItemsTask(contract, read_facts_from_wrapped, chosen)
    with executor_for(executor) as runner:
        if runner.distributed:
            parts = runner.map(task, chunked(loaded, CHUNK_ITEMS), progress=progress)
            results = tuple(r for part in parts for r in part)
        else:
            results = task(loaded)
    return StructuredReport(results, contract, read_facts_from_wrapped, chosen.name, inputs)


def _load(
    items: ItemsInput, references: Any, deferred: list[DeferredReferences] | None = None
) -> tuple[list[StructuredItem], tuple[tuple[str, dict[str, str] | None], ...]]:
    """The items with their references attached, and the inputs' names and digests.

    ``deferred``: a references file is read and checked but not parsed; its rows are
    appended there (:mod:`assay.structured.deferred_references`) and the items come
    back without them.
    """
    inputs: dict[str, dict[str, str] | None] = {"references": None}
    if isinstance(items, (str, Path)):
        digest = hashlib.sha256()  # hashed as read: a pipe or FIFO is read once
        loaded = read_items(items, digest)
        inputs["items"] = _described(items, digest)
    else:
        inputs["items"] = None
        loaded = items_from_records(items)
    if references is not None:
        if isinstance(references, (str, Path)) and deferred is not None:
            digest = hashlib.sha256()
            deferred.append(read_deferred(loaded, references, digest))
            inputs["references"] = _described(references, digest)
        elif isinstance(references, (str, Path)):
            digest = hashlib.sha256()
            loaded = attach_references(loaded, references, digest)
            inputs["references"] = _described(references, digest)
        elif isinstance(references, Mapping) and not is_frame(references):
            loaded = attach_references(loaded, references)
        else:
            loaded = attach_reference_records(loaded, references)
    return loaded, tuple(sorted(inputs.items()))


@dataclass(frozen=True)
class ScoredPart:
    """A run of consecutive items, scored: their counts and their per-item records."""

    tally: summary.Tally
    items: list[dict[str, Any]]


@dataclass(frozen=True)
class PreparedRun:
    """The loaded inputs of a run, to be scored in parts (each part in any process).

    ``report_dict`` of the parts, in item order, is ``score_structured(...).to_dict()``
    (a test compares the two); ``assay structured`` scores two halves in two processes.
    """

    items: tuple[StructuredItem, ...]
    task: _ItemsTask
    head: StructuredReport  # its ``results`` are empty: the contract, options and inputs
    references: DeferredReferences | None = None  # parsed by each part for its items

    def part(self, start: int, stop: int) -> ScoredPart:
        """Score ``items[start:stop]`` (parsing their deferred references first)."""
        items: Sequence[StructuredItem] = self.items[start:stop]
        if self.references is None:
            results = self.task(items)
        else:
            items = self.references.attach(items)
            try:
                results = self.task(items)
            except Exception:
                self.references.raise_first()  # a bad reference anywhere comes first
                raise
        return ScoredPart(summary.Tally.of(results), [r.to_dict() for r in results])

    def report_dict(self, parts: Sequence[ScoredPart]) -> dict[str, Any]:
        """The JSON report of the parts (consecutive, in order, covering every item)."""
        tally = summary.Tally()
        records: list[dict[str, Any]] = []
        for part in parts:
            tally.absorb(part.tally)
            records += part.items
        if tally.total != len(self.items):
            raise AccountingError(f"scored parts hold {tally.total} of {len(self.items)} items")
        return self.head.dict_with(tally, records)


def prepare_structured(
    items: ItemsInput,
    schema: str | Path | Mapping[str, Any] | Contract,
    *,
    references: str | Path | Mapping[str, Any] | Iterable[Mapping[str, Any]] | Any = None,
    read_facts_from_wrapped: bool = False,
    judge: Judge | None = None,
    defer_references: bool = False,
) -> PreparedRun:
    """Load a run as :func:`score_structured` does (same arguments, same errors), unscored.

    ``defer_references``: a references file is read and its ids checked, but each
    reference is parsed by the :meth:`PreparedRun.part` that scores its item (an
    error in one is raised there, the one reading it now would raise).
    """
    contract = _contract(schema)
    deferred: list[DeferredReferences] | None = [] if defer_references else None
    loaded, inputs = _load(items, references, deferred)
    chosen = judge if judge is not None else NormalizedMatchJudge()
    task = _ItemsTask(contract, read_facts_from_wrapped, chosen)
    head = StructuredReport((), contract, read_facts_from_wrapped, chosen.name, inputs)
    return PreparedRun(tuple(loaded), task, head, deferred[0] if deferred else None)


CHUNK_ITEMS = 2_000  # items per Dask partition: cut by the data, never by the worker count


@dataclass(frozen=True)
class _ItemsTask:
    """Score one partition of items, in input order."""

    contract: Contract
    read_facts_from_wrapped: bool
    judge: Judge

    def __call__(self, items: Sequence[StructuredItem]) -> tuple[ItemResult, ...]:
        return score_items(
            items, self.contract, read_facts_from_wrapped=self.read_facts_from_wrapped,
            judge=self.judge,
        )  # fmt: skip


def _contract(schema: str | Path | Mapping[str, Any] | Contract) -> Contract:
    if isinstance(schema, Contract):
        return schema
    if isinstance(schema, (str, Path)):
        return load_contract(schema)
    return contract_from_schema(dict(schema))


def _described(path: str | Path, digest: Any) -> dict[str, str]:
    """File name and SHA-256 of the bytes read (no absolute path: reports stay portable)."""
    return {"name": Path(path).name, "sha256": digest.hexdigest()}
