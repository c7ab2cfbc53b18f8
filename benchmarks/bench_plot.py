"""The benchmark's plot: time per element against problem size N x C, one panel per dtype.

Every case is on it, in families: the cases without options by vocabulary C (a line over
N as N x C grows), the cases with options (label smoothing, class weights, z-loss) by
option set. A family has one colour; ours is a solid line, PyTorch's CPU backward a
dashed one, torch.exp over the same tensor (the floor of any single pass) a dotted one.
"""

from __future__ import annotations

import sys

DTYPES = ("fp32", "bf16", "fp16")


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


def _elements(x, _pos=None) -> str:
    for div, unit in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if x >= div:
            return f"{x / div:g}{unit}"
    return f"{x:g}"


def _ns(y, _pos=None) -> str:
    return f"{y:g}"


def plot(results, path):
    """Draws ``results`` (the benchmark's cases) into ``path``; returns it, or None."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.lines import Line2D
        from matplotlib.ticker import FuncFormatter, LogLocator
    except ImportError:
        print("matplotlib is not installed (pip install matplotlib): no plot", file=sys.stderr)
        return None
    dtypes = [d for d in DTYPES if any(r["dtype"] == d for r in results)]
    if not dtypes:
        return None
    families = sorted({family(r) for r in results}, key=_order)
    palette = plt.get_cmap("tab10").colors + plt.get_cmap("Dark2").colors
    color = {f: palette[i % len(palette)] for i, f in enumerate(families)}
    fig, axes = plt.subplots(1, len(dtypes), figsize=(6.4 * len(dtypes) + 3.2, 5.4), squeeze=False,
                             sharex=True, sharey=True)
    for ax, dt in zip(axes[0], dtypes):
        for f in families:
            pts = sorted((r for r in results if r["dtype"] == dt and family(r) == f),
                         key=lambda r: (r["n"] * r["c"], r["c"]))
            if not pts:
                continue
            x = [r["n"] * r["c"] for r in pts]
            per = {k: [r["ns_per_elem"][k] for r in pts] for k in ("ours", "exp")}
            ax.plot(x, per["exp"], ":", marker="x", color=color[f], lw=1.3, ms=4, alpha=0.8)
            tb = [(xi, r["ns_per_elem"]["torch_backward"]) for xi, r in zip(x, pts)
                  if r["ns_per_elem"]["torch_backward"]]
            if tb:
                ax.plot(*zip(*tb), "s--", color=color[f], lw=1.3, ms=5, alpha=0.85)
            ax.plot(x, per["ours"], "o-", color=color[f], lw=2.2, ms=6)
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
    styles = [Line2D([], [], color="k", ls="-", marker="o", lw=2.2, label="ours (on the simulator)"),
              Line2D([], [], color="k", ls="--", marker="s", label="PyTorch CPU backward"),
              Line2D([], [], color="k", ls=":", marker="x", label="torch.exp, same tensor (floor)")]
    fams = [Line2D([], [], color=color[f], lw=4, label=f) for f in families]
    fig.legend(handles=styles + fams, loc="center right", fontsize=9, frameon=False)
    fig.suptitle("CrossEntropyLossGrad, time per element: lower is better (host CPU, interleaved runs)",
                 fontsize=12)
    fig.tight_layout(rect=(0, 0, 1 - 3.0 / fig.get_figwidth(), 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
