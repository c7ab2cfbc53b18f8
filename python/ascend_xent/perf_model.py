"""A performance MODEL of CrossEntropyLossGrad on an Ascend NPU (not a measurement).

The simulator counts what a launch does (GM bytes moved by MTE2/MTE3, DMA calls,
vector instructions and 256-byte repeats per operation, scalar accesses, per block).
This module prices those counts with the figures in ``FIGURES``, each with its
source, or labelled an assumption: ``sensitivity`` reports how a result moves when
an assumed figure halves or doubles. HBM bandwidth and clock come from the SoC
profile (sim/src/profiles.cpp), whose ascend910b values ``FIGURES`` sources.

Per block k (the makespan is the slowest block):

    t_mte(k)  = bytes(k) / bw + dma_calls(k) * DMA_START_CYCLES / clock
    t_vec(k)  = (sum over ops of repeats(op) * cycles_per_repeat(op) + vec_instr(k) * VEC_START_CYCLES) / clock
    t_s(k)    = (scalar_ub(k) * SCALAR_UB_CYCLES + scalar_gm(k) * SCALAR_GM_CYCLES) / clock
    double-buffered: t(k) = max(t_mte, t_vec + t_s) + min(t_mte, t_vec + t_s) / tiles(k)
                     (a two-stage pipeline: the shorter stage shows once; one tile hides nothing)
    single-buffered: t(k) = t_mte + t_vec + t_s
    t = LAUNCH_US + SYNCALL_US * prologue + max_k t(k)

where bw = min(CORE_DMA_BYTES_PER_SEC, hbm / active blocks): a single core cannot pull
the whole HBM bandwidth; enough of them share it. The HBM roofline of a case is
min_bytes / hbm with min_bytes = N*C*(in + out bytes); ``roofline_fraction`` is that
floor over the modelled time.
"""

from __future__ import annotations

import math
from typing import Optional

__all__ = ["FIGURES", "COSTS", "CYCLES_PER_REPEAT", "estimate", "sensitivity", "analytic", "run_case",
           "model_stats", "model_case", "format_report", "ELEM_BYTES"]

_ASC = "asc-devkit (gitcode.com/cann/asc-devkit, 82b89a1) "
_VEC_TABLE = _ASC + "docs/zh/api/附录/Vector指令理论性能汇总.md, A2/A3 tables 6-15"

# name: (value, kind, source); kind is "source", "derived" or "assumption".
FIGURES = {
    "hbm_bytes_per_sec": (1.6e12, "source",
                          _ASC + "docs/zh/guide/算子实践参考/SIMD算子性能优化/内存访问/L2-Cache切分.md: GM bandwidth "
                          "about 1.6 TB/s (its example AI processor has A2's 192 MB L2, 7 TB/s)"),
    "CORE_DMA_BYTES_PER_SEC": (128e9, "derived",
                               "Hot Chips 31 (2019), Ascend 910: up to 128 GB/s per core on the on-chip mesh, as "
                               "reported by bytefeed.ai/technology/huaweis-homegrown-ai-chip-examined-chinese-fab-"
                               "smic-produced-ascend-910b-is-massively-different-from-the-tsmc-produced-ascend-910/; "
                               "the 910's figure, not the 910B's"),
    "vector_bytes_per_cycle": (256.0, "source",
                               _VEC_TABLE + ": Add, Mul, Muls, Adds, Axpy, Cast, Compare, Select, Duplicate on float "
                               "64 elements (256 B) per cycle, one repeat per cycle"),
    "clock_hz": (1.8e9, "assumption",
                 "no published AI Core clock for the 910B found; MindSpore's profiler prices peak FLOPS as clock x "
                 "AI cores x 4096 x 2 (flops_parser.py), which with third-party 910B FP16 peaks (280-320 TFLOPS, "
                 "20-24 AI cores) gives 1.4-2.0 GHz"),
    "DMA_START_CYCLES": (200, "assumption",
                         "per DataCopy/DataCopyPad: descriptor start and first-byte latency; the vendor guide only says "
                         "copies of 16 KB and more get near-best bandwidth (尽量一次搬运较大的数据块.md)"),
    "VEC_START_CYCLES": (16, "assumption", "per vector instruction: dispatch and pipeline fill"),
    "SCALAR_UB_CYCLES": (4, "assumption", "per scalar UB GetValue/SetValue"),
    "SCALAR_GM_CYCLES": (60, "assumption", "per scalar GM GetValue (DCache, mostly misses)"),
    "LAUNCH_US": (10.0, "assumption", "kernel launch and block start"),
    "SYNCALL_US": (3.0, "assumption", "one hard SyncAll (the prologue)"),
}

# The per-operation costs: the figures above that are not the profile's.
COSTS = {k: v[0] for k, v in FIGURES.items() if k.isupper()}

# Cycles per 256-byte repeat of the widest operand, relative to one repeat per cycle.
# _VEC_TABLE: float Exp, Ln, Div 32 elements per cycle; Gather 5; ReduceSum/ReduceMax are
# composite ("软仿"), priced as ReduceRepeat on float (64/7 elements per cycle). The kernel
# computes in float, so the float rates apply; other ops one repeat per cycle.
CYCLES_PER_REPEAT = {"Exp": 2.0, "Ln": 2.0, "Div": 2.0, "Gather": 64 / 5, "ReduceSum": 7.0, "ReduceMax": 7.0}

ELEM_BYTES = {"fp32": 4, "float32": 4, "fp16": 2, "float16": 2, "bf16": 2, "bfloat16": 2}
_SENSITIVE = [k for k, v in FIGURES.items() if v[1] != "source"]


def _profile(profile):
    if profile is None:
        from . import sim

        profile = sim.current_profile()
    return profile


def _vector_cycles(c, vbpc):
    by_op = c.get("vector_repeats_by_op") or {}
    weighted = sum(r * CYCLES_PER_REPEAT.get(op, 1.0) for op, r in by_op.items())
    rest = c["vector_repeats"] - sum(by_op.values())  # repeats of no named op: one per cycle
    return (weighted + rest) * 256.0 / vbpc


def _block_time(c, prof, bw, double_buffer, a):
    clock = float(prof["clock_hz"])
    nbytes = c["gm_read_bytes"] + c["gm_write_bytes"]
    calls = c["dma_in"] + c["dma_out"]
    t_mte = nbytes / bw + calls * a["DMA_START_CYCLES"] / clock
    t_vec = (_vector_cycles(c, float(prof["vector_bytes_per_cycle"]))
             + c["vector_instructions"] * a["VEC_START_CYCLES"]) / clock
    t_s = ((c["scalar_ub_reads"] + c["scalar_ub_writes"]) * a["SCALAR_UB_CYCLES"]
           + c["scalar_gm_reads"] * a["SCALAR_GM_CYCLES"]) / clock
    tiles = max(1, c["dma_out"])
    if double_buffer:
        # k tiles in a two-stage pipeline: the longer stage runs back to back, the shorter
        # one shows once (the first copy-in or the last compute); k = 1 hides nothing.
        t = max(t_mte, t_vec + t_s) + min(t_mte, t_vec + t_s) / tiles
    else:
        t = t_mte + t_vec + t_s
    return t, t_mte, t_vec, t_s


def estimate(stats: dict, profile: Optional[dict] = None, min_bytes: Optional[int] = None,
             double_buffer: bool = True, costs: Optional[dict] = None) -> dict:
    """MODEL: the NPU time of the launch described by ``stats`` (ascend_xent.last_launch_stats())."""
    prof = _profile(profile)
    a = dict(COSTS, **(costs or {}))
    hbm = float(prof["hbm_bytes_per_sec"])
    blocks = [b for b in stats.get("per_block") or [] if (b["dma_in"] + b["dma_out"] + b["vector_instructions"])]
    if not blocks:  # totals only: spread evenly over the blocks used
        used = max(1, int(stats.get("blocks_used") or 1))
        keys = ("gm_read_bytes", "gm_write_bytes", "dma_in", "dma_out", "vector_instructions", "vector_repeats",
                "scalar_ub_reads", "scalar_ub_writes", "scalar_gm_reads")
        by_op = {k: v / used for k, v in (stats.get("vector_repeats_by_op") or {}).items()}
        blocks = [dict({k: stats.get(k, 0) / used for k in keys}, vector_repeats_by_op=by_op)] * used
    active = len(blocks)
    bw = min(a["CORE_DMA_BYTES_PER_SEC"], hbm / active)
    per = [_block_time(b, prof, bw, double_buffer, a) for b in blocks]
    k = max(range(active), key=lambda i: per[i][0])
    t_core, t_mte, t_vec, t_s = per[k]
    prologue = 1 if stats.get("prologue") else 0
    t = a["LAUNCH_US"] * 1e-6 + a["SYNCALL_US"] * 1e-6 * prologue + t_core
    if min_bytes is None:
        min_bytes = stats.get("min_traffic_bytes")
    floor = (min_bytes or 0) / hbm
    return {
        "label": "MODEL (sourced and assumed figures, not a measurement)",
        "soc": prof.get("name"),
        "seconds": t,
        "hbm_floor_seconds": floor,
        "roofline_fraction": floor / t if t > 0 else float("nan"),
        "bound": "HBM/MTE" if t_mte >= t_vec + t_s else "vector/scalar",
        "slowest_block": {"mte_s": t_mte, "vector_s": t_vec, "scalar_s": t_s, "total_s": t_core},
        "active_blocks": active,
        "bandwidth_per_block": bw,
        "double_buffer": double_buffer,
        "costs": a,
    }


def sensitivity(stats: dict, profile: Optional[dict] = None, min_bytes: Optional[int] = None,
                double_buffer: bool = True) -> dict:
    """The modelled time with each figure that is not a published one halved and doubled."""
    prof = dict(_profile(profile))
    out = {}
    for name in _SENSITIVE:
        kind = FIGURES[name][1]
        row = {"kind": kind}
        for label, f in (("half", 0.5), ("double", 2.0)):
            if name in COSTS:
                m = estimate(stats, prof, min_bytes, double_buffer, {name: COSTS[name] * f})
            else:
                m = estimate(stats, dict(prof, **{name: prof[name] * f}), min_bytes, double_buffer)
            row[label] = {"seconds": m["seconds"], "roofline_fraction": m["roofline_fraction"]}
        out[name] = dict(row, value=COSTS.get(name, prof.get(name)))
    return out


def analytic(n: int, c: int, dtype: str, tile_rows: int, tile_cols: int, cores: int,
             profile: Optional[dict] = None, double_buffer: bool = True, smoothing: bool = False,
             costs: Optional[dict] = None) -> dict:
    """MODEL of a hypothetical tiling (R x TC tiles dealt evenly to ``cores``), with the
    kernel's per-tile work counted the way the simulator counts it: per tile two big DMAs, one
    per-row input stage per 64 of a core's rows, Exp (+ 2 Casts for fp16/bf16), per row Muls
    (+ Adds with smoothing), a few scalar accesses per row. For comparing tilings
    (docs/performance.md)."""
    prof = dict(_profile(profile))
    es = ELEM_BYTES[dtype]
    pitch = -(-tile_cols * es // 32) * 32 // es
    row_tiles, col_tiles = -(-n // tile_rows), -(-c // tile_cols)
    tiles = row_tiles * col_tiles
    active = min(cores, tiles)
    per_core = -(-tiles // active)
    # the slowest core: per_core full tiles
    elems = tile_rows * tile_cols
    rep_w = -(-tile_rows * pitch * 4 // 256)              # fp32 repeats over the whole tile
    rep_row = tile_rows * -(-tile_cols * 4 // 256)         # per-row ops
    by_op = {"Exp": rep_w, "Muls": rep_row}
    if es == 2:
        by_op["Cast"] = 2 * rep_w
    if smoothing:
        by_op["Adds"] = rep_row
    vec_instr = 1 + (2 if es == 2 else 0) + tile_rows * (2 if smoothing else 1)
    block = {
        "gm_read_bytes": per_core * (elems * es + tile_rows * 8),
        "gm_write_bytes": per_core * elems * es,
        "dma_in": per_core + -(-per_core * tile_rows // (col_tiles * 64)), "dma_out": per_core,
        "vector_instructions": per_core * vec_instr, "vector_repeats": per_core * sum(by_op.values()),
        "vector_repeats_by_op": {k: per_core * v for k, v in by_op.items()},
        "scalar_ub_reads": per_core * tile_rows * 3, "scalar_ub_writes": per_core * tile_rows * 3,
        "scalar_gm_reads": 0,
    }
    stats = {"per_block": [block] * active, "prologue": 0, "min_traffic_bytes": n * c * 2 * es}
    prof["vector_cores"] = cores
    r = estimate(stats, prof, double_buffer=double_buffer, costs=costs)
    r.update({"tile_rows": tile_rows, "tile_cols": tile_cols, "tiles": tiles, "tiles_per_core": per_core})
    return r


def run_case(n: int, c: int, dtype: str = "fp32", label_smoothing: float = 0.0, weight: bool = False,
             zloss: bool = False, reduction: str = "mean", soc: Optional[str] = None) -> dict:
    """Runs the case once on the simulator (NumPy inputs); its launch stats."""
    import numpy as np

    from . import _api, sim

    if soc is not None:
        sim.set_soc(soc)
    es = ELEM_BYTES[dtype]
    if es == 2 and dtype in ("bf16", "bfloat16"):
        import ml_dtypes

        npdt = ml_dtypes.bfloat16
    else:
        npdt = np.float32 if es == 4 else np.float16
    log_prob = np.full((n, c), -math.log(c), dtype=npdt)
    target = (np.arange(n, dtype=np.int64) * 7919) % c
    w = np.ones(c, dtype=np.float32) if weight else None
    lse = np.full(n, 10.0, dtype=npdt) if zloss else None
    grad = 1.0 if reduction != "none" else np.ones(n, dtype=npdt)
    out = np.empty_like(log_prob)
    _api.cross_entropy_loss_grad(grad, log_prob, target, w, None, lse, reduction, -100, label_smoothing,
                                 1e-4 if zloss else 0.0, out=out)
    return dict(sim.last_launch_stats(), min_traffic_bytes=n * c * 2 * es)


def model_stats(stats: dict, case: dict, profile: Optional[dict] = None) -> dict:
    """The model of one launch's stats: time, roofline, sensitivity and what-if tilings."""
    prof = _profile(profile)
    n, c, dtype = case["n"], case["c"], case["dtype"]
    es = ELEM_BYTES[dtype]
    min_bytes = n * c * 2 * es
    res = {
        "case": case,
        "tiling": {k: stats.get(k) for k in ("mode", "tile_rows", "tile_cols", "row_tiles", "col_tiles",
                                             "block_dim", "prologue")},
        "traffic_ratio": (stats["gm_read_bytes"] + stats["gm_write_bytes"]) / min_bytes,
        "model": estimate(stats, prof, min_bytes),
        "model_single_buffer": estimate(stats, prof, min_bytes, double_buffer=False),
        "sensitivity": sensitivity(stats, prof, min_bytes),
        "figures": {k: {"value": COSTS.get(k, prof.get(k)), "kind": v[1], "source": v[2]}
                    for k, v in FIGURES.items()},
    }
    tr, tc = int(stats["tile_rows"]), int(stats["tile_cols"])
    cores = int(prof["vector_cores"])
    smoothing = case.get("label_smoothing", 0) > 0
    # The chosen tiling's figures come from the launch's counters; the alternatives from the
    # analytic model, scaled so that it gives the chosen tiling that same figure: one time per
    # tiling, and the alternatives compared with it on one footing.
    chosen = analytic(n, c, dtype, tr, tc, cores, prof, smoothing=smoothing)
    calibration = res["model"]["seconds"] / chosen["seconds"]
    alts = {}
    if tc == c and tr > 1:
        alts["one row per tile"] = analytic(n, c, dtype, 1, c, cores, prof, smoothing=smoothing)
    if tc < c:
        # The widest tile UB holds (two in/out tile buffers: 8 B per element for fp32, 4 B for
        # fp16/bf16 beside a work area of at least 2048 floats; ~12.6 KB of scratch and stages):
        # the fewest column tiles, which is what a tiling without the "feed every core" rule
        # would pick.
        work = 0 if es == 4 else 2048 * 4
        widest = (int(prof["ub_bytes"]) - 12352 - 1024 - work) // (2 * es) // (32 // es) * (32 // es)
        k_min = -(-c // widest)
        fewest = -(-c // k_min)
        if fewest != tc:
            alts["fewest column tiles"] = analytic(n, c, dtype, 1, fewest, cores, prof, smoothing=smoothing)
        alts["half-width tiles"] = analytic(n, c, dtype, 1, max(1, tc // 2), cores, prof, smoothing=smoothing)
    tiles = int(stats["row_tiles"]) * int(stats["col_tiles"])
    res["what_if"] = {k: _what_if(v, v["tiles"], v["active_blocks"], calibration) for k, v in alts.items()}
    res["what_if"]["chosen, single-buffered"] = _what_if(
        dict(res["model_single_buffer"], tile_rows=tr, tile_cols=tc), tiles, res["model"]["active_blocks"], 1.0)
    res["analytic_calibration"] = calibration
    return res


def model_case(n: int, c: int, dtype: str = "fp32", label_smoothing: float = 0.0, weight: bool = False,
               zloss: bool = False, reduction: str = "mean", soc: Optional[str] = None) -> dict:
    """Runs the case once on the simulator (NumPy inputs) and models it from the counters."""
    stats = run_case(n, c, dtype, label_smoothing, weight, zloss, reduction, soc)
    case = {"n": n, "c": c, "dtype": dtype, "label_smoothing": label_smoothing, "weight": weight,
            "zloss": zloss, "reduction": reduction}
    return model_stats(stats, case)


def _what_if(m, tiles, active_blocks, scale):
    seconds = m["seconds"] * scale
    return {"seconds": seconds, "roofline_fraction": m["hbm_floor_seconds"] / seconds, "tiles": tiles,
            "tile": f"{m['tile_rows']}x{m['tile_cols']}", "active_blocks": active_blocks, "bound": m["bound"]}


def format_report(res: dict) -> str:
    m = res["model"]
    c, t = res["case"], res["tiling"]
    lines = [
        f"MODEL (sourced and assumed figures, not a measurement) for {c['dtype']} {c['n']}x{c['c']}"
        f" ls={c['label_smoothing']:g} weight={c['weight']} zloss={c['zloss']} on {m['soc']}",
        f"  tiling: {t['mode']} {t['tile_rows']} x {t['tile_cols']} ({t['row_tiles']} x {t['col_tiles']} tiles),"
        f" blockDim {t['block_dim']}, prologue {bool(t['prologue'])}",
        f"  GM traffic {res['traffic_ratio']:.4f} x the minimum N*C*(in+out)",
        f"  modelled NPU time {m['seconds'] * 1e6:10.1f} us   ({m['bound']}-bound, {m['active_blocks']} blocks)",
        f"  HBM roofline      {m['hbm_floor_seconds'] * 1e6:10.1f} us   -> {m['roofline_fraction'] * 100:5.1f}% of the roofline",
        f"  what-if tilings (the analytic model x {res['analytic_calibration']:.3f}, which gives "
        f"the chosen tiling {m['seconds'] * 1e6:.1f} us; single-buffered from the launch's counters):",
    ]
    for k, v in res["what_if"].items():
        lines.append(f"    {k:<26} {v['tile']:>12} {v['tiles']:>7} tiles on {v['active_blocks']:>2} blocks:"
                     f" {v['seconds'] * 1e6:10.1f} us ({v['roofline_fraction'] * 100:5.1f}%, {v['bound']})")
    lines.append("  sensitivity (each figure that is not a published one, halved and doubled):")
    for k, s in res["sensitivity"].items():
        h, d = s["half"], s["double"]
        lines.append(f"    {k:<24} {s['value']:>10g} ({s['kind']:<10}) x0.5: {h['seconds'] * 1e6:9.1f} us"
                     f" ({h['roofline_fraction'] * 100:5.1f}%)   x2: {d['seconds'] * 1e6:9.1f} us"
                     f" ({d['roofline_fraction'] * 100:5.1f}%)")
    lines.append("  figures (value, kind, source):")
    for k, f in res["figures"].items():
        lines.append(f"    {k:<24} {f['value']:>10g}  {f['kind']:<10} {f['source']}")
    return "\n".join(lines)
