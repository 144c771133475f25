"""Draw the scaling curves of a benchmark run as one SVG (matplotlib, the ``bench`` group).

A row that is a point of a curve carries ``curve=(panel, curve, x)``: each panel is
one plot (its title says what ``x`` counts, on a log scale), each curve a line of
ratios with their spread as error bars and its target, if any, as a dashed line.
Where a table of every size would be long, the plot shows the shape at a glance.
"""

from __future__ import annotations

import pathlib
from collections import defaultdict

from harness import Row

__all__ = ["draw"]


def draw(rows: list[Row], path: pathlib.Path) -> bool:
    """Write the curves of ``rows`` to ``path``; ``False`` when there are none or no matplotlib."""
    panels: dict[str, dict[str, list[Row]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        if row.curve is not None:
            panel, curve, _ = row.curve
            panels[panel][curve].append(row)
    if not panels:
        return False
    try:
        import matplotlib
    except ImportError:
        return False
    matplotlib.use("svg")
    matplotlib.rcParams["svg.hashsalt"] = "toolparse"  # the same ids every run: a small diff
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(
        1, len(panels), figsize=(4.2 * len(panels), 3.6), squeeze=False, layout="constrained"
    )
    for ax, (panel, curves) in zip(axes[0], panels.items(), strict=True):
        for curve, points in curves.items():
            points.sort(key=lambda r: r.curve[2] if r.curve else 0.0)
            xs = [r.curve[2] for r in points if r.curve]
            ys = [r.ratio for r in points]
            low = [r.ratio - (r.spread or (r.ratio, r.ratio))[0] for r in points]
            high = [(r.spread or (r.ratio, r.ratio))[1] - r.ratio for r in points]
            line = ax.errorbar(xs, ys, yerr=[low, high], marker="o", capsize=3, label=curve)
            target = points[-1].target
            if target is not None:
                ax.axhline(target, linestyle="--", linewidth=1, color=line.lines[0].get_color())
        ax.set_xscale("log")
        ax.set_title(panel, fontsize=10)
        ax.set_ylabel("ratio to the floor")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    figure.savefig(path, format="svg", metadata={"Date": None})
    pyplot.close(figure)
    return True
