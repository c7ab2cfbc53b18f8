"""The benchmark's plot: time per element against problem size N x C, one panel per dtype.

Every case is on it, in families: the cases without options by vocabulary C (a line over
N as N x C grows), the cases with options (label smoothing, class weights, z-loss) by
option set; a family has one marker, and cases of different families at the same N x C
are set side by side. The colour is the contender, each without an
idle gap before its call: ours allocating its output (blue, solid) and into a
preallocated one (light blue), PyTorch's CPU backward with its default allocator
(orange, dashed) and with THP_MEM_ALLOC_ENABLE=1 (red, dashed), and torch.exp over
the same tensor (grey, dotted), the floor of any single pass over it. Results from
before the allocating contenders have only ours, PyTorch's default and torch.exp.
"""

from __future__ import annotations

import importlib.util
import math
import sys

MISSING = ('no plot: matplotlib is not installed; pip install ".[bench]" in the source tree (or pip install '
           'matplotlib) adds it, and ascend-xent bench --replot <name>.json draws the plot of these results')
DTYPES = ("fp32", "bf16", "fp16")
MARKERS = "osD^vP*X<>h"
LEGEND_IN = 4.4  # inches right of the panels for the legend
DODGE = 0.08  # decades between cases of different families at the same N x C
# contender: (key in ns_per_elem, label, colour, line style, line width)
CONTENDERS = (("ours_alloc", "ours, allocating its output (on the simulator)", "tab:blue", "-", 2.2),
              ("ours", "ours, into a preallocated output", "lightskyblue", "-", 1.5),
              ("torch_backward", "PyTorch CPU backward", "tab:orange", "--", 1.5),
              ("torch_backward_thp", "PyTorch CPU backward, THP_MEM_ALLOC_ENABLE=1", "tab:red", "--", 1.5),
              ("exp", "torch.exp into a preallocated output (floor)", "0.5", ":", 1.5))


def family(r) -> str:
    """The case's family: its option set, or its vocabulary when it has none."""
    opts = []
    if r["weight"]:
        opts.append("class weights")
    if r["label_smoothing"]:
        opts.append(f"label smoothing {r['label_smoothing']:g}")
    if r["zloss"]:
        opts.append("z-loss")
    return " + ".join(opts) if opts else f"C = {r['c']}, no options"


def _order(f):
    return (0, int(f.split()[2].rstrip(","))) if f.startswith("C = ") else (1, f)


def _dodge(panel) -> dict:
    """A factor on N x C per case, so that cases of different families at (nearly) the same
    N x C (the options at 4096 x 32000 beside 1024 x 151936, say) sit side by side instead
    of on top of each other: DODGE decades apart, centred on where they are."""
    cases = sorted(panel, key=lambda r: (r["n"] * r["c"], _order(family(r))))
    clusters, shift = [], {}
    for r in cases:
        x = math.log10(r["n"] * r["c"])
        if clusters and x - math.log10(clusters[-1][-1]["n"] * clusters[-1][-1]["c"]) < DODGE:
            clusters[-1].append(r)
        else:
            clusters.append([r])
    for same in clusters:
        centre = sum(math.log10(r["n"] * r["c"]) for r in same) / len(same)
        for i, r in enumerate(same):
            at = centre + DODGE * (i - (len(same) - 1) / 2)
            shift[r["name"]] = 10 ** (at - math.log10(r["n"] * r["c"]))
    return shift


def _elements(x, _pos=None) -> str:
    for div, unit in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if x >= div:
            return f"{x / div:g}{unit}"
    return f"{x:g}"


def _ns(y, _pos=None) -> str:
    return f"{y:g}"


def _conditions(meta) -> str:
    """The idle gap and the host's load, for the title."""
    # results without "kind" predate the gap variant: there every call came after the gap
    gap = f"every call after a {meta['settle_ms']:g} ms idle gap" if "kind" not in meta and meta.get(
        "settle_ms") else "no idle gap"
    text = f"{gap}; {meta.get('cpus')} CPUs"
    loads = {when: meta[f"loadavg_{when}"] for when in ("start", "end") if meta.get(f"loadavg_{when}")}
    if loads:
        text += "; load average over 1 / 5 / 15 minutes at the " + " and at the ".join(
            f"{when}: " + " / ".join(f"{v:.1f}" for v in load) for when, load in loads.items())
        if max(max(load) for load in loads.values()) > (meta.get("cpus") or 0):
            text += " (above the CPU count: other work shared the CPUs)"
    return text


def available() -> bool:
    return importlib.util.find_spec("matplotlib") is not None


def plot(results, path, meta=None):
    """Draws ``results`` (the benchmark's cases) into ``path``; returns it, or None.
    ``meta`` (the results' machine record) adds the host and its load to the title."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.lines import Line2D
        from matplotlib.ticker import FuncFormatter, LogLocator
    except ImportError:
        print(MISSING, file=sys.stderr)
        return None
    dtypes = [d for d in DTYPES if any(r["dtype"] == d for r in results)]
    if not dtypes:
        return None
    families = sorted({family(r) for r in results}, key=_order)
    marker = {f: MARKERS[i % len(MARKERS)] for i, f in enumerate(families)}
    fig, axes = plt.subplots(1, len(dtypes), figsize=(6.4 * len(dtypes) + LEGEND_IN, 5.4), squeeze=False,
                             sharex=True, sharey=True)
    for ax, dt in zip(axes[0], dtypes):
        panel = [r for r in results if r["dtype"] == dt]
        shift = _dodge(panel)
        for f in families:
            pts = sorted((r for r in panel if family(r) == f), key=lambda r: (r["n"] * r["c"], r["c"]))
            for key, _label, colour, ls, lw in CONTENDERS:
                xy = [(r["n"] * r["c"] * shift[r["name"]], r["ns_per_elem"][key]) for r in pts
                      if r["ns_per_elem"].get(key)]
                if xy:
                    ax.plot(*zip(*xy), ls=ls, lw=lw, marker=marker[f], ms=7, color=colour, alpha=0.9,
                            markeredgecolor="white", markeredgewidth=0.6)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_major_locator(LogLocator(base=10))
        ax.xaxis.set_major_formatter(FuncFormatter(_elements))
        ax.yaxis.set_major_formatter(FuncFormatter(_ns))
        ax.set_xlabel("N x C, elements of log_prob (log scale)")
        ax.set_ylabel("ns per element, median (log scale)")
        ax.set_title(f"{dt}, reduction mean", fontsize=11)
        ax.grid(True, which="major", alpha=0.4)
        ax.grid(True, which="minor", alpha=0.12)
    styles = [Line2D([], [], color=colour, ls=ls, lw=lw, label=label) for key, label, colour, ls, lw in CONTENDERS
              if any(r["ns_per_elem"].get(key) for r in results)]
    fams = [Line2D([], [], color="k", ls="", marker=marker[f], ms=7, label=f) for f in families]
    fig.legend(handles=styles + fams, loc="center right", fontsize=9, frameon=False)
    title = "CrossEntropyLossGrad, time per element: lower is better (host CPU, interleaved runs)"
    if meta:
        title += "\n" + _conditions(meta)
    fig.suptitle(title, fontsize=12)
    fig.tight_layout(rect=(0, 0, 1 - LEGEND_IN / fig.get_figwidth(), 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
