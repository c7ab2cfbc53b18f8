"""The modelled NPU time of CrossEntropyLossGrad (a MODEL, not a measurement).

Runs a case once on the simulator with its timing model on (docs/timing_model.md): the
kernel's own instructions, synchronisation and DMAs replayed pipe by pipe with the
published and fitted constants of an Atlas A2 vector core. The model's error against
the vendor's published A2 measurements is stated in docs/timing_model.md.

The HBM floor of a case is the time its unavoidable HBM traffic takes at the model's
HBM bandwidth: log_prob read once, and the part of the gradient the L2 cannot hold
written back (a gradient that fits in the L2 stays there when the launch ends, as the
vendor's add_high_performance case 5 shows). No kernel that reads log_prob from HBM
can beat it; roofline_fraction is that floor over the modelled time.
"""

from __future__ import annotations

import math
from typing import Optional

__all__ = ["ELEM_BYTES", "PATHS", "run_case", "model_case", "format_report", "hbm_bytes_per_second",
           "hbm_floor_seconds", "compare_step", "format_step"]

#: The kernels a case can run: the backward (CrossEntropyLossGrad, from log_prob), the
#: forward (aclnnCrossEntropyLoss, from the logits), the fused loss and gradient (from the
#: logits; fused-inplace writes the gradient over them).
PATHS = ("backward", "forward", "fused", "fused-inplace")

ELEM_BYTES = {"fp32": 4, "float32": 4, "fp16": 2, "float16": 2, "bf16": 2, "bfloat16": 2}


def hbm_bytes_per_second(soc: Optional[str] = None) -> float:
    """The timing model's HBM bandwidth for a SoC profile (the current one by default)."""
    from . import sim

    p = sim.timing_params(soc or sim.current_profile()["name"])
    return p["hbm_bytes_per_cycle"] * p["clock_hz"]


def hbm_floor_seconds(n: int, c: int, dtype: str, soc: Optional[str] = None) -> float:
    """The time the case's unavoidable HBM traffic takes (the module's docstring)."""
    from . import sim

    name = soc or sim.current_profile()["name"]
    l2 = next(p["l2_bytes"] for p in sim.profiles() if p["name"] == name)
    tensor = n * c * ELEM_BYTES[dtype]
    return (tensor + max(0, tensor - l2)) / hbm_bytes_per_second(name)


def _numpy_dtype(dtype: str):
    import numpy as np

    if dtype in ("bf16", "bfloat16"):
        import ml_dtypes

        return ml_dtypes.bfloat16
    return np.float32 if ELEM_BYTES[dtype] == 4 else np.float16


def run_case(n: int, c: int, dtype: str = "fp32", label_smoothing: float = 0.0, weight: bool = False,
             zloss: bool = False, reduction: str = "mean", soc: Optional[str] = None, path: str = "backward",
             softcap: Optional[float] = None) -> dict:
    """Runs the case's kernel (``path``, one of ``PATHS``) once on the simulator with timing
    on; its launch stats (``timing`` set)."""
    import numpy as np

    from . import _api, sim

    if dtype not in ELEM_BYTES:
        raise ValueError(f"dtype: expected one of {', '.join(ELEM_BYTES)}, got {dtype!r}")
    if path not in PATHS:
        raise ValueError(f"path: expected one of {', '.join(PATHS)}, got {path!r}")
    if soc is not None:
        sim.set_soc(soc)
    npdt = _numpy_dtype(dtype)
    # log_prob of uniform logits (the backward's input); the logits themselves for the others
    rows = np.full((n, c), -math.log(c) if path == "backward" else 0.0, dtype=npdt)
    target = (np.arange(n, dtype=np.int64) * 7919) % c
    w = np.ones(c, dtype=np.float32) if weight else None
    scale = 1e-4 if zloss else 0.0
    was = sim.timing_enabled()
    sim.set_timing(True)
    try:
        if path == "backward":
            lse = np.full(n, 10.0, dtype=npdt) if zloss else None
            grad = 1.0 if reduction != "none" else np.ones(n, dtype=npdt)
            _api.cross_entropy_loss_grad(grad, rows, target, w, None, lse, reduction, -100, label_smoothing,
                                         scale, out=np.empty_like(rows))
        elif path == "forward":
            _api.cross_entropy_loss(rows, target, w, reduction, -100, label_smoothing, scale)
        else:
            _api.cross_entropy_loss_with_grad(rows, target, w, reduction, -100, label_smoothing, scale, softcap,
                                              inplace=path == "fused-inplace")
    finally:
        sim.set_timing(None if not was else True)
    return dict(sim.last_launch_stats(), min_traffic_bytes=n * c * 2 * ELEM_BYTES[dtype])


def model_case(n: int, c: int, dtype: str = "fp32", label_smoothing: float = 0.0, weight: bool = False,
               zloss: bool = False, reduction: str = "mean", soc: Optional[str] = None, path: str = "backward",
               softcap: Optional[float] = None) -> dict:
    """The modelled NPU time of one case, with its HBM roofline (of one read and one write)."""
    stats = run_case(n, c, dtype, label_smoothing, weight, zloss, reduction, soc, path, softcap)
    t = stats["timing"]
    floor = hbm_floor_seconds(n, c, dtype, stats["soc"])
    # Launches queued on one stream run one after the other: the call's time is their sum.
    launches_us = [x["task_duration_us"] for x in stats["timings"]]
    seconds = sum(launches_us) * 1e-6
    return {
        "label": "MODEL (the simulator's timing model, not a measurement)",
        "case": {"n": n, "c": c, "dtype": dtype, "label_smoothing": label_smoothing, "weight": weight,
                 "zloss": zloss, "reduction": reduction, "path": path, "softcap": softcap},
        "tiling": {k: stats.get(k) for k in ("mode", "tile_rows", "tile_cols", "row_tiles", "col_tiles",
                                             "block_dim", "prologue")},
        "traffic_ratio": (stats["gm_read_bytes"] + stats["gm_write_bytes"]) / stats["min_traffic_bytes"],
        "seconds": seconds,
        "hbm_floor_seconds": floor,
        "roofline_fraction": floor / seconds if seconds > 0 else float("nan"),
        "launches_us": launches_us,
        "timing": t,
    }


def format_report(res: dict) -> str:
    c, tl, t = res["case"], res["tiling"], res["timing"]
    slowest = max(t["blocks"], key=lambda b: b["aiv_time_us"]) if t["blocks"] else t
    lines = [
        f"MODEL (the simulator's timing model, not a measurement) of the {c['path']} kernel"
        f" for {c['dtype']} {c['n']}x{c['c']}"
        f" ls={c['label_smoothing']:g} weight={c['weight']} zloss={c['zloss']} on {t['soc']}",
        f"  tiling       {tl['mode']} {tl['tile_rows']} x {tl['tile_cols']} ({tl['row_tiles']} x {tl['col_tiles']}"
        f" tiles), blockDim {tl['block_dim']}, sums launch {bool(tl['prologue'])}",
        f"  GM traffic   {res['traffic_ratio']:.4f} x the minimum N*C*(in+out)",
        f"  Task Duration {res['seconds'] * 1e6:9.1f} us   "
        + ("(launch + the slowest block)" if len(res["launches_us"]) == 1 else
           "(launches one after the other: sums " + " + main ".join(f"{x:.1f}" for x in res["launches_us"]) + " us)"),
        f"  HBM floor     {res['hbm_floor_seconds'] * 1e6:9.1f} us   -> {res['roofline_fraction'] * 100:5.1f}%"
        " of it (log_prob read, the gradient beyond the L2 written back)",
        f"  main kernel, per block (mean / slowest): aiv_time {t['aiv_time_us']:.1f} / {slowest['aiv_time_us']:.1f} us",
    ]
    for pipe in ("mte2", "mte3", "vec", "scalar"):
        key = f"aiv_{pipe}_time_us"
        lines.append(f"    {pipe:<7} busy {t[key]:9.1f} us ({t[f'aiv_{pipe}_ratio'] * 100:5.1f}%)"
                     f"   slowest block {slowest[key]:9.1f} us")
    lines.append(f"  L2: {t['l2_hit_bytes'] / 1e6:.1f} MB read from L2, {t['hbm_read_bytes'] / 1e6:.1f} MB from HBM,"
                 f" {t['hbm_write_back_bytes'] / 1e6:.1f} MB written back")
    lines.append("  constants, their sources and the model's error against published A2 measurements:"
                 " docs/timing_model.md")
    return "\n".join(lines)


def compare_step(n: int, c: int, dtype: str = "bf16", label_smoothing: float = 0.0, weight: bool = False,
                 zloss: bool = False, reduction: str = "mean", soc: Optional[str] = None) -> dict:
    """A training step's loss on the model, three ways: the fused kernel; our forward kernel
    then our backward kernel; torch's forward (log_softmax and logsumexp, as
    ``cross_entropy`` ran before the forward kernel) then our backward. torch_npu's kernels
    are not modelled: its forward is counted at its HBM floor (the logits read twice and
    log_prob written once at the model's HBM bandwidth), a lower bound of its time."""
    args = (n, c, dtype, label_smoothing, weight, zloss, reduction, soc)
    us = {p: model_case(*args, path=p)["seconds"] * 1e6 for p in PATHS}
    torch_forward = 3 * n * c * ELEM_BYTES[dtype] / hbm_bytes_per_second(soc) * 1e6
    return {
        "label": "MODEL (the simulator's timing model, not a measurement)",
        "case": {"n": n, "c": c, "dtype": dtype, "label_smoothing": label_smoothing, "weight": weight,
                 "zloss": zloss, "reduction": reduction},
        "us": us,
        "torch_forward_floor_us": torch_forward,
        "pair_us": us["forward"] + us["backward"],
        "torch_pair_us": torch_forward + us["backward"],
        "pair_over_fused": (us["forward"] + us["backward"]) / us["fused"],
        "torch_pair_over_fused": (torch_forward + us["backward"]) / us["fused"],
    }


def format_step(r: dict) -> str:
    c, us = r["case"], r["us"]
    return "\n".join([
        f"MODEL (the simulator's timing model, not a measurement): a training step's loss, {c['dtype']}"
        f" {c['n']}x{c['c']} ls={c['label_smoothing']:g} weight={c['weight']} zloss={c['zloss']} {c['reduction']}",
        f"  fused kernel                        {us['fused']:9.1f} us   (in place {us['fused-inplace']:.1f} us)",
        f"  our forward + our backward          {r['pair_us']:9.1f} us   ({us['forward']:.1f} + {us['backward']:.1f});"
        f" {r['pair_over_fused']:.2f}x the fused",
        f"  torch forward + our backward        {r['torch_pair_us']:9.1f} us   (torch's forward at its HBM floor,"
        f" {r['torch_forward_floor_us']:.1f}, not modelled);"
        f" {r['torch_pair_over_fused']:.2f}x the fused",
    ])
