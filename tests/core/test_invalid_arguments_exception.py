"""``InvalidArguments``: the exception a rejected call keeps, as an exception and as a value."""

from __future__ import annotations

import copy
import pickle

import pytest

import toolparse as tp
from toolparse.problems import InvalidArguments


def _rejection() -> InvalidArguments:
    error = tp.invalid_arguments(
        [tp.ArgumentProblem(("a",), "must be an integer", "x")],
        arguments={"a": "x", "zz": 1},
        accepted=["a"],
        more=2,
        unrecognized=["zz"],
    )
    assert isinstance(error.exception, InvalidArguments)
    return error.exception


def test_it_reads_as_its_message() -> None:
    exc = _rejection()
    assert str(exc) == exc.message
    assert exc.args == (exc.message,)
    assert "a: must be an integer" in exc.message
    with pytest.raises(InvalidArguments, match="Invalid arguments for this tool"):
        raise exc


@pytest.mark.parametrize(
    "again",
    [copy.copy, copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))],
    ids=["copy", "deepcopy", "pickle"],
)
def test_a_copy_or_a_pickle_is_the_same_rejection(again: object) -> None:
    exc = _rejection()
    exc.logged = True  # an application's own attribute travels too
    other = again(exc)  # type: ignore[operator]
    assert type(other) is InvalidArguments
    assert other is not exc
    assert (other.message, other.args, other.accepted, other.more) == (
        exc.message,
        exc.args,
        exc.accepted,
        exc.more,
    )
    assert other.problems == exc.problems
    assert [p.path for p in other.problems] == [("a",), ("zz",)]
    assert other.arguments == exc.arguments
    assert other.logged is True
