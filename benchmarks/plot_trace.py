"""Draws a timing-model trace (ASCEND_XENT_TRACE) as a PNG: one row per pipe of each of
the first few blocks, a bar per instruction, so that the gaps where a pipe waits show.

    python benchmarks/plot_trace.py trace.json trace.png [--blocks 0,47] [--until-us 30]

Perfetto (ui.perfetto.dev) or chrome://tracing open the same file interactively.
"""

from __future__ import annotations

import argparse
import json

COLORS = {"scalar": "#7f7f7f", "vector (V)": "#2ca02c", "MTE2 (GM->UB)": "#1f77b4", "MTE3 (UB->GM)": "#d62728"}


def load(path):
    with open(path) as f:
        events = json.load(f)["traceEvents"]
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    bars = [e for e in events if e.get("ph") == "X"]
    return names, bars


def plot(trace, png, blocks=(0, 1), until_us=None):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names, bars = load(trace)
    rows = sorted(k for k in names if k[0] in blocks)
    index = {k: i for i, k in enumerate(rows)}
    fig, ax = plt.subplots(figsize=(12, 0.45 * len(rows) + 1.2))
    for e in bars:
        key = (e["pid"], e["tid"])
        if key not in index or (until_us is not None and e["ts"] > until_us):
            continue
        ax.broken_barh([(e["ts"], max(e["dur"], 1e-3))], (index[key] - 0.4, 0.8),
                       color=COLORS.get(names[key], "#9467bd"), linewidth=0)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([f"block {b}: {names[(b, t)]}" for b, t in rows])
    ax.invert_yaxis()
    ax.set_xlabel("modelled time (us)")
    if until_us is not None:
        ax.set_xlim(0, until_us)
    ax.set_title("Timing model: each pipe's instructions (gaps are waits)")
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("trace")
    p.add_argument("png")
    p.add_argument("--blocks", default="0,1", help="the blocks to draw, comma-separated (default 0,1)")
    p.add_argument("--until-us", type=float, default=None, help="draw only the first microseconds")
    a = p.parse_args(argv)
    plot(a.trace, a.png, tuple(int(b) for b in a.blocks.split(",")), a.until_us)


if __name__ == "__main__":
    main()
