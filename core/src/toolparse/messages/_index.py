"""Names indexed once: an unknown name costs about the same among 100 or 10,000 tools.

Equal, contained, containing or one swap away: looked up. The others come out by the letters
they share with the name sent (which bound their Jaro similarity), closest first, counted on
bit masks for all the names of a length at once, and only as far as the answer needs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from functools import reduce
from heapq import heapify, heappop, heappush, heappushpop, merge
from itertools import groupby, islice

from ._arguments import share, similarity

__all__ = ["NameIndex"]

_Token = tuple[str, int]


def _letters(low: str) -> list[_Token]:
    """Each letter with its count so far: two names share the tokens both have."""
    return [(ch, low.count(ch, 0, i + 1)) for i, ch in enumerate(low)]


def _named(ids: list[int], mask: int) -> Iterator[int]:
    """The names whose bits are set in ``mask``, in order."""
    while mask:
        bit = mask & -mask
        yield ids[bit.bit_length() - 1]
        mask ^= bit


class NameIndex:
    """``names`` indexed for :meth:`did_you_mean` and :meth:`closest` (built once per tool set)."""

    __slots__ = ("_by_name", "_lower", "_lows", "_masks", "_triples", "names")

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)
        self._lows = lows = [n.lower() for n in self.names]
        self._lower: dict[str, list[int]] = {}
        self._triples: dict[str, list[int]] = {}  # three letters -> the names that have them
        for i, low in enumerate(lows):
            self._lower.setdefault(low, []).append(i)
            for triple in {low[j : j + 3] for j in range(len(low) - 2)}:
                self._triples.setdefault(triple, []).append(i)
        # length -> (its names by name, (letter, count) -> a bit for each name that has it)
        self._masks: dict[int, tuple[list[int], dict[_Token, int]]] = {}
        by_length = sorted(range(len(lows)), key=lambda i: (len(lows[i]), self.names[i]))
        for length, group in groupby(by_length, key=lambda i: len(lows[i])):
            ids, bits = list(group), dict[_Token, int]()
            for q, i in enumerate(ids):
                for token in _letters(lows[i]):
                    bits[token] = bits.get(token, 0) | 1 << q
            self._masks[length] = (ids, bits)
        self._by_name = sorted(range(len(self.names)), key=self.names.__getitem__)

    def _found(self, low: str) -> set[int]:
        """The names that score above 0 for ``low`` other than by their Jaro similarity."""
        found: set[int] = set(self._lower.get(low, ()))
        size = len(low)
        for i in range(size - 1):  # one swap of neighbours
            found.update(self._lower.get(low[:i] + low[i + 1] + low[i] + low[i + 2 :], ()))
        for n in self._masks:  # a name the one sent contains
            for i in range(size - n + 1 if n >= 3 else 0):
                found.update(self._lower.get(low[i : i + n], ()))
        if size >= 3:  # a name containing the one sent has each of its triples of letters
            triples = (self._triples.get(low[i : i + 3], ()) for i in range(size - 2))
            found.update(i for i in min(triples, key=len) if low in self._lows[i])
        return found

    def _closest(self, low: str, size: int) -> Iterator[tuple[float, int]]:
        """The names sharing a letter with ``low``, by :func:`share` (most first), then by name."""
        tokens = _letters(low)
        cells: list[tuple[float, int, int, list[int]]] = []  # -share, length, m, the counts
        for length, (ids, masks) in self._masks.items():
            planes: list[int] = []  # bit j of each name's count of shared letters
            for x in filter(None, map(masks.get, tokens)):
                for j, plane in enumerate(planes):  # added as on paper, x the carry
                    planes[j], x = plane ^ x, plane & x
                    if not x:
                        break
                else:
                    planes.append(x)
            most, m = (1 << len(ids)) - 1, 0
            for j in range(len(planes) - 1, -1, -1):  # the most shared, from the top bit
                if most & planes[j]:
                    most, m = most & planes[j], m | 1 << j
            if m:
                cells.append((-share(m, size, length), length, m, planes))
        heapify(cells)
        while cells:
            value, runs = cells[0][0], []
            while cells and cells[0][0] == value:  # the names sharing m letters, at each length
                _, length, m, planes = heappop(cells)
                ids = self._masks[length][0]
                full = (1 << len(ids)) - 1
                bits = (p if m >> j & 1 else full ^ p for j, p in enumerate(planes))
                runs.append(_named(ids, reduce(int.__and__, bits, full)))
                if m > 1:
                    heappush(cells, (-share(m - 1, size, length), length, m - 1, planes))
            for i in runs[0] if len(runs) == 1 else merge(*runs, key=self.names.__getitem__):
                yield -value, i

    def suggest(self, name: str, limit: int) -> tuple[str | None, list[str]]:
        """What ``did_you_mean`` and the first ``limit`` of ``closest`` give over the names."""
        low, names, lows = name.lower(), self.names, self._lows
        size, c = len(low) or 1, Counter(low)
        found = self._found(low)
        scored = {i: similarity(name, names[i]) for i in found}
        shares = {i: share(sum((c & Counter(lows[i])).values()), size, len(lows[i])) for i in found}
        score, first = max(((s, -i) for i, s in scored.items()), default=(0.0, 0))
        kept = sorted(scored.values())[-limit:] if limit > 0 else []  # the best ``limit`` scores
        jaro, others, scoring = True, list[str](), len(found)  # others: scoring 0, closest first
        for value, i in self._closest(low, size):
            bound = (value + 1.0) / 3  # the letters shared bound the Jaro similarity
            # none left can come first (a tie might: the first name wins it), nor be listed
            done = bound < score and len(kept) >= limit and (not kept or kept[0] > bound)
            jaro = jaro and bound > 0.7 and not done
            if not jaro and len(others) + scoring >= limit:
                break
            if i in found:
                continue
            if jaro:
                s = scored[i] = similarity(name, names[i])
                shares[i], (score, first) = value, max((score, first), (s, -i))
                if limit > 0:
                    heappushpop(kept, s) if len(kept) >= limit else heappush(kept, s)
                if s > 0:
                    scoring += 1
                    continue
            others.append(names[i])
        best = sorted((-s, -shares[i], names[i]) for i, s in scored.items() if s > 0)
        listed = [n for *_, n in best] + others
        if len(listed) < limit:  # few share a letter: those that share none, by name
            left = set(low).isdisjoint
            rest = (names[i] for i in self._by_name if i not in scored and left(lows[i]))
            listed += islice(rest, limit - len(listed))
        return names[-first] if score > 0 else None, listed[: max(limit, 0)]
