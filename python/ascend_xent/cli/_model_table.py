"""The standing table of the modelled NPU time: the benchmark's shape families in markdown.

Every case runs at its full size with the timing model on: a launch of 2^27
elements takes a few seconds on the simulator, so the whole table takes several minutes.
"""

from __future__ import annotations

from .. import perf_model

CLASSES = (257, 4096, 32000, 128256, 151936)
DTYPES = ("fp32", "fp16", "bf16")
VARIANTS = (("plain", 0.0, False), ("ls 0.1", 0.1, False), ("weight", 0.0, True), ("weight + ls 0.1", 0.1, True))


def shapes():
    """(N, C): N*C ~ 2^27 for each C, then 1 x C, then 131073 x 257."""
    big = [(round(2 ** 27 / c), c) for c in CLASSES]
    return big + [(1, c) for c in CLASSES] + [(131073, 257)]


def rows(path="backward"):
    """One row per (shape, dtype): the modelled time of every variant of ``path``'s kernel."""
    out = []
    for n, c in shapes():
        for dtype in DTYPES:
            cells, tiling = {}, None
            for name, ls, weight in VARIANTS:
                m = perf_model.model_case(n, c, dtype, ls, weight, path=path)
                cells[name] = {k: m[k] for k in ("seconds", "hbm_floor_seconds", "roofline_fraction")}
                if name == "plain":
                    tiling = f"{m['tiling']['tile_rows']} x {m['tiling']['tile_cols']}"
            out.append({"n": n, "c": c, "dtype": dtype, "tiling": tiling, "cells": cells})
    return out


def markdown(table) -> str:
    head = ["case", "tile (plain)", "HBM floor us"] + [v[0] for v in VARIANTS] + ["weight / plain",
                                                                                    "weight + ls / ls"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in table:
        cells = r["cells"]
        floor = cells["plain"]["hbm_floor_seconds"] * 1e6
        case = f"{r['dtype']} {r['n']} x {r['c']}"
        vals = [f"{m['seconds'] * 1e6:.1f} ({m['roofline_fraction'] * 100:.0f}%)" for m in cells.values()]
        ratios = [cells["weight"]["seconds"] / cells["plain"]["seconds"],
                  cells["weight + ls 0.1"]["seconds"] / cells["ls 0.1"]["seconds"]]
        lines.append("| " + " | ".join([case, r["tiling"], f"{floor:.3g}"] + vals + [f"{x:.2f}" for x in ratios]) + " |")
    lines.append("")
    lines.append("Modelled Task Duration in us (the HBM floor's fraction of it).")
    return "\n".join(lines)
