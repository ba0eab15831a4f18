"""records.builder: a record built with plain stores is the record ``cls(...)`` builds."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assay.evaluation.benchmark import QuestionResult
from assay.io.predictions import PredictionRow
from assay.records import builder

VALUE = st.none() | st.text(max_size=8) | st.floats(allow_nan=False) | st.integers()
VALUE = VALUE | st.tuples(st.text(max_size=4))


def _same(cls: type, values: list[Any]) -> None:
    made, built = cls(*values), builder(cls)(*values)
    assert type(built) is cls
    assert built == made and hash(built) == hash(made) and repr(built) == repr(made)
    assert dataclasses.astuple(built) == tuple(values)
    assert pickle.loads(pickle.dumps(built)) == made
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.__setattr__(dataclasses.fields(cls)[0].name, "changed")


@given(st.lists(VALUE, min_size=19, max_size=19))
def test_question_results_built_either_way_are_the_same_record(values: list[Any]) -> None:
    _same(QuestionResult, values)


@given(st.lists(VALUE, min_size=8, max_size=8))
def test_prediction_rows_built_either_way_are_the_same_record(values: list[Any]) -> None:
    _same(PredictionRow, values)


@dataclass(slots=True)
class _Mutable:
    a: int


@dataclass(frozen=True)
class _NoSlots:
    a: int


@dataclass(frozen=True, slots=True)
class _Checked:
    a: int

    def __post_init__(self) -> None:
        raise ValueError


@pytest.mark.parametrize("cls", [_Mutable, _NoSlots, _Checked])
def test_other_classes_are_refused(cls: type) -> None:
    with pytest.raises(TypeError, match="frozen slots dataclass"):
        builder(cls)
