"""Parquet files of recorded calls for ``toolparse check``, read one record batch at a time."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ._targets import CommandError

__all__ = ["RECORD", "is_parquet", "parquet_batches"]

#: the column of records read when none is named
RECORD = "record"


def is_parquet(path: str) -> bool:
    """Whether ``path`` is a Parquet file: by its name, else by its first bytes."""
    try:
        with open(path, "rb") as f:
            return path.endswith((".parquet", ".pq")) or f.read(4) == b"PAR1"
    except OSError:
        return False


def _columns(path: str, names: list[str], column: str | None) -> list[str]:
    """The columns to read: the records' own, else ``name``/``arguments`` (and ``id``)."""
    if (column or RECORD) in names:
        return [column or RECORD]
    if column is None and {"name", "arguments"} <= set(names):
        return [c for c in ("id", "name", "arguments") if c in names]
    wanted = repr(column) if column else f'"{RECORD}" and no "name" and "arguments" columns'
    message = f"{path} has no column {wanted} (its columns: {', '.join(names) or 'none'}); name the column of records with --column"
    raise CommandError(message)


def parquet_batches(
    path: str, column: str | None, size: int
) -> tuple[Iterator[list[Any]], Callable[[], str]]:
    """Lists of at most ``size`` records read from ``path``, and the share read so far (for progress)."""
    try:
        import pyarrow.parquet as pq  # type: ignore[import-untyped]
        from pyarrow import types
    except ImportError:
        message = f'reading Parquet ({path}) needs pyarrow: pip install "toolparse[arrow]"'
        raise CommandError(message) from None
    try:
        file = pq.ParquetFile(path)
    except Exception as exc:  # what pyarrow raises for a file not Parquet: ArrowInvalid, OSError
        raise CommandError(f"cannot read {path} as Parquet: {exc}") from None
    columns = _columns(path, file.schema_arrow.names, column)
    rows = file.metadata.num_rows
    done = [0]
    pairs = len(columns) > 1 and types.is_map(file.schema_arrow.field("arguments").type)

    def chunks() -> Iterator[list[Any]]:
        with file:
            for batch in file.iter_batches(batch_size=size, columns=columns):
                found = batch.to_pydict()
                if pairs:  # a map column reads as a list of (key, value) pairs
                    found["arguments"] = [a if a is None else dict(a) for a in found["arguments"]]
                if len(columns) == 1:
                    records = found[columns[0]]
                else:
                    each = zip(*found.values(), strict=True)
                    records = [dict(zip(found, values, strict=True)) for values in each]
                done[0] += len(records)
                yield records

    return chunks(), lambda: f" ({100 * done[0] / rows:.0f}%)" if rows else ""
