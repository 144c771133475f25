"""Names indexed once: an unknown name costs about the same among 100 or 10,000 tools.

Only names that can score are scored: equal, containing or contained, one swap away, or
sharing enough letters for a Jaro similarity above 0.7 (shared letters bound it).
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Iterator, Sequence
from heapq import heappush, heappushpop, merge
from itertools import accumulate, groupby, islice
from operator import itemgetter

from ._arguments import share, similarity

__all__ = ["NameIndex"]


def _letters(low: str) -> list[tuple[str, int]]:
    """Each letter with its count so far: two names share ``min`` of each letter's count."""
    return [(ch, low.count(ch, 0, i + 1)) for i, ch in enumerate(low)]


class NameIndex:
    """``names`` indexed for :meth:`did_you_mean` and :meth:`closest` (built once per tool set)."""

    __slots__ = ("_by_name", "_ends", "_letters", "_lower", "_sizes", "_text", "names")

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)
        lows = [n.lower() for n in self.names]
        self._lower: dict[str, list[int]] = {}
        # (letter, its count so far) -> length of the name -> the names
        self._letters: dict[tuple[str, int], dict[int, list[int]]] = {}
        for i, low in enumerate(lows):
            self._lower.setdefault(low, []).append(i)
            for letter in _letters(low):
                self._letters.setdefault(letter, {}).setdefault(len(low), []).append(i)
        self._sizes = sorted({len(low) for low in lows if len(low) >= 3})
        self._text = "\n".join(lows)  # a name containing the one sent is found in here
        self._ends = list(accumulate(len(low) + 1 for low in lows))  # where each name ends, +1
        self._by_name = sorted(range(len(self.names)), key=self.names.__getitem__)

    def _found(self, low: str) -> set[int]:
        """The names that score above 0 for ``low`` other than by their Jaro similarity."""
        found: set[int] = set(self._lower.get(low, ()))
        size = len(low)
        for i in range(size - 1):  # one swap of neighbours
            found.update(self._lower.get(low[:i] + low[i + 1] + low[i] + low[i + 2 :], ()))
        for n in self._sizes:  # a name the one sent contains
            for i in range(size - n + 1):
                found.update(self._lower.get(low[i : i + n], ()))
        at = self._text.find(low) if size >= 3 else -1
        while at >= 0:  # a name containing the one sent
            i = bisect_right(self._ends, at)
            if at + size < self._ends[i]:
                found.add(i)
            at = self._text.find(low, at + 1)
        return found

    def _shared(self, low: str) -> dict[int, list[tuple[int, int]]]:
        """Length -> ``(name, letters shared with low)``, most first, for names sharing a letter."""
        shared: dict[int, Counter[int]] = {}
        for letter in _letters(low):  # one walk over the index counts them for every name
            for length, ids in self._letters.get(letter, {}).items():
                shared.setdefault(length, Counter()).update(ids)
        return {length: counts.most_common() for length, counts in shared.items()}

    def suggest(self, name: str, limit: int) -> tuple[str | None, list[str]]:
        """What ``did_you_mean`` and the first ``limit`` of ``closest`` give over the names."""
        low, names = name.lower(), self.names
        size = len(low) or 1
        found = self._found(low)
        shared = self._shared(low)
        letters: dict[int, int] = {}
        jaro: list[tuple[float, int]] = []  # (-bound, name) of those that may score by Jaro
        for length, pairs in shared.items():
            letters.update(pairs)
            for i, m in pairs:
                # m letters shared bound the Jaro similarity (reckoned as Jaro does)
                bound = (m / size + m / length + 1.0) / 3
                if bound <= 0.7:
                    break
                if i not in found:
                    jaro.append((-bound, i))
        scored = {i: similarity(name, names[i]) for i in found}
        score, first = max(((s, -i) for i, s in scored.items()), default=(0.0, 0))
        kept = sorted(scored.values())[-limit:] if limit > 0 else []  # the best ``limit`` scores
        for bound, i in sorted(jaro):
            # none left can come first (a tie might: the first name wins it), nor be listed
            if -bound < score and len(kept) >= limit and (not kept or kept[0] > -bound):
                break
            s = scored[i] = similarity(name, names[i])
            score, first = max((score, first), (s, -i))
            if limit > 0:
                heappushpop(kept, s) if len(kept) >= limit else heappush(kept, s)
        hint = names[-first] if score > 0 else None
        if limit <= 0:
            return hint, []
        best = [
            (-s, -share(letters.get(i, 0), size, len(names[i].lower())), names[i])
            for i, s in scored.items()
        ]

        def ranked(length: int, pairs: list[tuple[int, int]]) -> Iterator[tuple[float, str]]:
            # each count's names by name: only the counts reached are sorted
            for m, group in groupby(pairs, key=itemgetter(1)):
                for n in sorted(names[i] for i, _ in group if i not in scored):
                    yield -share(m, size, length), n

        others = merge(*(ranked(length, pairs) for length, pairs in shared.items()))
        best.extend((0.0, *key) for key in islice(others, limit))
        if len(best) < limit + len(scored):  # few share a letter: those that share none, by name
            left = (names[i] for i in self._by_name if i not in scored and i not in letters)
            best.extend((0.0, 0.0, n) for n in islice(left, limit))
        return hint, [n for *_, n in sorted(best)[:limit]]
