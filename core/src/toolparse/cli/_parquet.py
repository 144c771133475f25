"""Parquet files of recorded calls for ``toolparse check`` (with ``toolparse[arrow]``).

A file holds a column of records (each a JSON text or a struct, in any shape
``check`` reads) or ``name`` and ``arguments`` columns (and ``id``, when there
is one). It is read one record batch at a time, only the columns needed, so that
memory does not grow with the file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ._targets import CommandError

__all__ = ["RECORD", "is_parquet", "parquet_batches"]

#: the column of records read when none is named
RECORD = "record"
_MAGIC = b"PAR1"


def is_parquet(path: str) -> bool:
    """Whether ``path`` is a Parquet file: by its name, else by its first bytes."""
    if path.endswith((".parquet", ".pq")):
        return True
    try:
        with open(path, "rb") as f:
            return f.read(4) == _MAGIC
    except OSError:
        return False


def _arguments(value: Any) -> Any:
    # a map column reads as a list of (key, value) pairs
    if isinstance(value, list) and all(isinstance(p, tuple) and len(p) == 2 for p in value):
        return dict(value)
    return value


def _columns(path: str, names: list[str], column: str | None) -> list[str]:
    """The columns to read: the records' own, else ``name``/``arguments`` (and ``id``)."""
    if (column or RECORD) in names:
        return [column or RECORD]
    if column is None and {"name", "arguments"} <= set(names):
        return [c for c in ("id", "name", "arguments") if c in names]
    wanted = (
        f"no column {column!r}"
        if column
        else f'no "{RECORD}" column and no "name" and "arguments" columns'
    )
    message = f"{path} has {wanted} (its columns: {', '.join(names) or 'none'}); name the column of records with --column"
    raise CommandError(message)


def parquet_batches(
    path: str, column: str | None, size: int
) -> tuple[Iterator[list[Any]], Callable[[], str]]:
    """Lists of at most ``size`` records read from ``path``, and the share read so far (for progress)."""
    try:
        import pyarrow.parquet as pq  # type: ignore[import-untyped]
    except ImportError:
        raise CommandError(
            f'reading Parquet ({path}) needs pyarrow: pip install "toolparse[arrow]"'
        ) from None
    try:
        file = pq.ParquetFile(path)
    except Exception as exc:  # what pyarrow raises for a file not Parquet: ArrowInvalid, OSError
        raise CommandError(f"cannot read {path} as Parquet: {exc}") from None
    columns = _columns(path, file.schema_arrow.names, column)
    rows = file.metadata.num_rows
    done = [0]

    def chunks() -> Iterator[list[Any]]:
        with file:
            for batch in file.iter_batches(batch_size=size, columns=columns):
                found = batch.to_pydict()
                if len(columns) == 1:
                    records = found[columns[0]]
                else:
                    found["arguments"] = [_arguments(a) for a in found["arguments"]]
                    rows = zip(*found.values(), strict=True)
                    records = [dict(zip(found, values, strict=True)) for values in rows]
                done[0] += len(records)
                yield records

    return chunks(), lambda: f" ({100 * done[0] / rows:.0f}%)" if rows else ""
