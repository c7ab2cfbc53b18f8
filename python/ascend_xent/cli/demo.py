"""Run an LLM-sized CrossEntropyLossGrad on the default backend and check it.

The default case is N = 4096 rows, C = 32000 classes, bfloat16, class weights,
5% ignored rows, label smoothing 0.1 and z-loss 1e-4 under reduction "mean". The
result is compared with the float64 golden (ascend_xent.golden); the command prints
the backend, SoC profile, tiling, error against the golden, the first and the warm
median call time and GM traffic against the minimum, one line each with what it
means, and exits 1 when the error is out of tolerance.
"""

from __future__ import annotations

import json
import statistics
import time

import numpy as np

from ._dtype import add_dtype_argument, long
from ._sim_options import apply as apply_sim_options

# The simulator runs launches of at most this many elements on one host thread (docs/python_api.md).
SINGLE_THREAD_ELEMENTS = 2 ** 17

NAME = "demo"
HELP = "run an LLM-sized case on the default backend and check it against the float64 golden"


def add_arguments(p) -> None:
    p.add_argument("--n", type=int, default=4096, help="rows (tokens), default 4096")
    p.add_argument("--c", type=int, default=32000, help="classes (vocabulary), default 32000")
    add_dtype_argument(p)
    p.add_argument("--target-dtype", default="int64", choices=("int32", "int64"),
                   help="dtype of the class indices, default int64")
    p.add_argument("--reduction", default="mean", choices=("mean", "sum", "none"),
                   help="how the loss was reduced, default mean (none: a per-row upstream gradient)")
    p.add_argument("--ignore-fraction", type=float, default=0.05,
                   help="share of rows whose target is --ignore-index, default 0.05")
    p.add_argument("--ignore-index", type=int, default=-100, help="the target value of ignored rows, default -100")
    p.add_argument("--label-smoothing", type=float, default=0.1, help="label smoothing in [0, 1], default 0.1")
    p.add_argument("--zloss", type=float, default=1e-4,
                   help="z-loss scale (lse_square_scale_for_zloss), default 1e-4; 0 for none")
    p.add_argument("--grad-zloss", type=float, default=None,
                   help="upstream gradient of the separate z-loss output (default: none)")
    p.add_argument("--no-weight", action="store_true", help="no class weights (default: random weights in [0.5, 1.5))")
    p.add_argument("--soc", default=None,
                   help="SoC profile the simulator models (ascend-xent info lists them; default: ASCEND_XENT_SOC "
                        "or ascend910b)")
    p.add_argument("--cores", type=int, default=None, help="use at most this many vector cores (default: all)")
    p.add_argument("--threads", type=int, default=None,
                   help="host threads that run the simulated cores (default: ASCEND_XENT_THREADS or the CPU count)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random inputs, default 0")
    p.add_argument("--repeat", type=int, default=3,
                   help="warm calls after the first, into the same output buffer (default 3)")
    p.add_argument("--json", action="store_true", help="also print the launch statistics as JSON")


def _make_inputs(args, dtype_name):
    """The case's arrays. log_prob rows are circular shifts of up to 256 random rows: the
    same work for the kernel and the golden as independent rows, made in a fraction of
    the time (the exp and log run once per base row)."""
    from .._arrays import numpy_dtype

    dt = numpy_dtype(dtype_name)
    rng = np.random.default_rng(args.seed)
    n, c = args.n, args.c
    x = rng.standard_normal((min(256, max(n, 1)), c), dtype=np.float32)
    x *= 2.0
    m = x.max(axis=1, keepdims=True)
    base_lse = np.log(np.exp(x - m).sum(axis=1, keepdims=True)) + m
    base = (x - base_lse).astype(dt)
    log_prob = np.empty((n, c), dtype=dt)
    lse = np.empty(n, dtype=np.float32)
    for r0 in range(0, n, len(base)):
        k = min(len(base), n - r0)
        shift = int(rng.integers(c))
        log_prob[r0:r0 + k, :c - shift] = base[:k, shift:]
        log_prob[r0:r0 + k, c - shift:] = base[:k, :shift]
        lse[r0:r0 + k] = base_lse[:k, 0]
    target = rng.integers(0, c, size=n, dtype=np.int64)
    ignored = rng.random(n) < args.ignore_fraction
    target[ignored] = args.ignore_index
    target = target.astype(args.target_dtype)
    weight = None if args.no_weight else rng.uniform(0.5, 1.5, size=c).astype(np.float32)
    if args.reduction == "none":
        grad_loss = rng.standard_normal(n).astype(dt)
        grad_zloss = None if args.grad_zloss is None else np.full(n, args.grad_zloss, dtype=dt)
    else:
        grad_loss = np.asarray(1.0, dtype=dt)
        grad_zloss = None if args.grad_zloss is None else np.asarray(args.grad_zloss, dtype=dt)
    lse_for_zloss = lse.astype(dt) if args.zloss != 0.0 else None
    return grad_loss, log_prob, target, weight, grad_zloss, lse_for_zloss, int(ignored.sum())


def _bytes(b) -> str:
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if b >= size:
            return f"{b / size:,.1f} {unit}"
    return f"{b:,} bytes"


def _secs(t) -> str:
    return f"{t:.2f} s" if t >= 0.1 else f"{t * 1e3:.1f} ms"


def _plural(k, word) -> str:
    return f"{k} {word}" + ("" if k == 1 else "s")


def _report(stats, prof, cmp, dtype_name, t_first, warm, t_golden, elements):
    """The demo's lines: each figure, then what it means."""
    threads = stats.get("host_threads", 0)
    small = elements <= SINGLE_THREAD_ELEMENTS
    ub_kib = prof.get("ub_bytes", 0) // 1024
    mode = stats.get("mode")
    shape = ("each row is cut into column tiles" if mode == "column_split"
             else "whole rows, several per tile")
    verdict = "PASS" if cmp["ok"] else f"FAIL ({cmp['mismatches']} elements out of tolerance)"
    rd, wr = stats.get("gm_read_bytes", 0), stats.get("gm_write_bytes", 0)
    mn = stats.get("min_traffic_bytes", 0) or 1
    warm_line = (f", warm median {_secs(statistics.median(warm))} of {len(warm)} more into the same out= buffer"
                 if warm else "")
    return [
        f"  backend    sim: the Ascend C kernel on a CPU simulator of the NPU, "
        f"{_plural(threads, 'host thread')}" + (" (a problem this small runs on one)" if threads == 1 and small else ""),
        f"  SoC        {prof.get('name')} ({prof.get('soc_version')}, {prof.get('vector_cores')} vector cores, "
        f"UB {ub_kib} KiB): the NPU the simulator models",
        f"  tiling     {mode}: {shape}; tiles of {stats.get('tile_rows')} rows x {stats.get('tile_cols')} "
        f"classes, {stats.get('row_tiles')} x {stats.get('col_tiles')} of them",
        f"  blockDim   {stats.get('block_dim')}: vector cores the kernel is launched on; they share the tiles",
        "  prologue   " + ("yes: a launch of its own first sums what every row needs (the targets' weights, "
                             "the rows kept, all weights)" if stats.get("prologue") else
                             "no: this reduction and these options need no sum over all rows first, or so few "
                             "rows that every core sums them itself"),
        f"  UB peak    {stats.get('ub_peak_bytes', 0) / 1024:.1f} of {ub_kib} KiB: on-chip Unified Buffer the "
        "tiles are computed in",
        f"  accuracy   max |out - golden| = {cmp['max_abs_error']:.3e}, {cmp['max_scaled_error']:.3e} of "
        f"max |golden| (tolerance {dtype_name}: rtol {cmp['rtol']:g}, atol {cmp['atol']:g}): {verdict}",
        f"  time       first call {_secs(t_first)}{warm_line}: wall time on the simulator (the first call "
        "also allocates the output), not an NPU time",
        f"  golden     {_secs(t_golden)}: the float64 NumPy reference, computed and compared block by block",
        f"  GM traffic read {_bytes(rd)} + write {_bytes(wr)} = {_bytes(rd + wr)}: bytes moved to and from global "
        f"memory; {(rd + wr) / mn:.4f}x the minimum {_bytes(mn)} (log_prob in, gradient out)",
        f"  vector     {stats.get('vector_instructions', 0):,} instructions, {stats.get('vector_repeats', 0):,} "
        "repeats: a repeat is one 256-byte step of a vector instruction",
    ]


def run(args) -> int:
    import ascend_xent as ax
    from .. import golden

    dtype_name = long(args.dtype)
    apply_sim_options(soc=args.soc, cores=args.cores, threads=args.threads)

    print(f"ascend-xent {ax.__version__} demo: CrossEntropyLossGrad N={args.n} C={args.c} {dtype_name}, "
          f"{'no weight' if args.no_weight else 'class weights'}, reduction={args.reduction}")
    t0 = time.perf_counter()
    grad_loss, log_prob, target, weight, grad_zloss, lse, n_ignored = _make_inputs(args, dtype_name)
    t_inputs = time.perf_counter() - t0
    print(f"  inputs     {n_ignored} of {args.n} rows ignored (ignore_index={args.ignore_index}), "
          f"label_smoothing={args.label_smoothing}, z-loss scale={args.zloss:g}, "
          f"target {args.target_dtype}; made in {_secs(t_inputs)}")

    call = (grad_loss, log_prob, target, weight, grad_zloss, lse, args.reduction, args.ignore_index,
            args.label_smoothing, args.zloss)
    t0 = time.perf_counter()
    out = ax.cross_entropy_loss_grad(*call)
    t_first = time.perf_counter() - t0
    stats = ax.last_launch_stats() or {}
    warm = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        ax.cross_entropy_loss_grad(*call, out=out)
        warm.append(time.perf_counter() - t0)

    t0 = time.perf_counter()
    cmp = golden.check(out, *call, dtype=dtype_name)
    t_golden = time.perf_counter() - t0
    for line in _report(stats, ax.current_profile(), cmp, dtype_name, t_first, warm, t_golden, args.n * args.c):
        print(line)
    if args.json:
        slim = {k: v for k, v in stats.items() if k != "per_block"}
        print(json.dumps(slim, indent=2, default=str))
    return 0 if cmp["ok"] else 1
