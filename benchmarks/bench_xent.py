#!/usr/bin/env python3
"""Benchmark of CrossEntropyLossGrad on the Ascend C simulator against PyTorch's CPU backward.

For each case, in the same process and interleaved rep by rep (the host is shared
and noisy; every contender sees the same load; each rep runs them in a new seeded
random order, so none always follows the same one):

  ours+alloc  ascend_xent.cross_entropy_loss_grad without out=: it allocates its
            output, as the autograd path does; the package's output cache hands it the
            buffer the previous rep's result freed (resident, as in a training loop)
  ours+fresh  the same with the cache off (ASCEND_XENT_OUTPUT_CACHE_MB=0): every
            output is fresh memory and pays its first touch (page faults, zeroing)
            like torch's backward pays for its gradient
  torch     loss.backward() of F.cross_entropy with the same options (weight, label
            smoothing; z-loss as + s * logsumexp^2), the forward excluded; PyTorch's
            default CPU allocator
  torch+THP the same backward in a worker process started with THP_MEM_ALLOC_ENABLE=1
            (PyTorch's switch for 2 MiB pages in its CPU allocator, read when torch is
            imported; bench_torch_worker.py), asked for one timed rep per rep
  ours      the same call as ours+alloc into a preallocated output
  exp       torch.exp(log_prob, out=y): the floor of any single pass over the tensor
  exp+alloc torch.exp(log_prob), allocating its result
  copy      y.copy_(log_prob): a memory copy of the same size (GB/s reference)
  ours/torch after a gap  ours (preallocated) and torch, each after an idle gap
            (--settle-ms, default 20; 0 leaves this variant out), the two interleaved
            in a loop of their own after the others' (a host left idle runs the next
            few milliseconds of calls slower, so no sleep comes between the others)

The like-for-like ratios are torch/ours+alloc and torch+THP/ours+alloc: both sides
allocate, no call waits for an idle gap (torch/ours+fresh: ours without the cache).
The gap variant is reported because it measures something else: PyTorch's OpenMP
workers spin-wait for several milliseconds after each parallel region, so a call right
after a torch op shares the CPUs with a spinning thread (ours: the simulator's block
threads want both CPUs), and after a gap each call starts with its threads asleep.

Reported per case: medians of the times and of the per-rep ratios, achieved GB/s
(N*C*(in+out bytes) / time of ours) against the copy's, the GM traffic from the
simulator's counters against the minimum N*C*(in+out bytes) and against the minimum
that includes the unavoidable per-row / per-column inputs, the load average at the
case's start, and (in a subprocess per case) the peak resident memory beyond the
inputs and the output (VmHWM, see rss_child). Results go to <out-dir>/<name>.json
and <name>.png, by default in a new directory <date>-<time> under
$XDG_CACHE_HOME/ascend-xent/bench (~/.cache/ascend-xent/bench), outside any source
tree; existing files are never overwritten. The plot is drawn by bench_plot.py, with
matplotlib (pip install ".[bench]" in the source tree).

usage: bench_xent.py [--quick | --headline] [--name NAME] [--reps K] [--no-rss] [--no-plot]
                     [--out-dir DIR] [--only TEXT] [--settle-ms MS] [--replot JSON]
       (ascend-xent bench wraps this script with the same options)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time

# Developer hook: import ascend_xent from a build tree instead of the installed package
# (for example, to measure a freshly built _C before reinstalling).
_PKG_PATH = os.environ.get("ASCEND_XENT_BENCH_PYTHONPATH")
if _PKG_PATH:
    sys.meta_path = [f for f in sys.meta_path if "editable" not in repr(f).lower() and "skbc" not in repr(f).lower()]
    sys.path.insert(0, _PKG_PATH)

HERE = os.path.dirname(os.path.abspath(__file__))

VOCABS = (32000, 50257, 128256, 151936)
ELEM_BYTES = {"fp32": 4, "fp16": 2, "bf16": 2}
LLM_SHAPE = (4096, 32000)
ZLOSS_SCALE = 1e-4

DEFAULT_SETTLE_MS = 20.0  # idle gap of the gap variant (see the module docstring)
THP_ENV = {"THP_MEM_ALLOC_ENABLE": "1"}  # the torch+THP contender's worker environment
CACHE_ENV = "ASCEND_XENT_OUTPUT_CACHE_MB"  # the ours+fresh contender switches the output cache off


# ----------------------------------------------------------------------------- cases

def _case(n, c, dtype, ls=0.0, weight=False, zloss=False, group="sweep"):
    opts = []
    if weight:
        opts.append("w")
    if ls:
        opts.append(f"ls{ls:g}")
    if zloss:
        opts.append("z")
    name = f"{dtype} {n}x{c}" + (" " + "+".join(opts) if opts else "")
    return {"name": name, "group": group, "n": n, "c": c, "dtype": dtype, "label_smoothing": ls,
            "weight": weight, "zloss": zloss, "reduction": "mean"}


# The like-for-like headline: the targets, fp16 for the torch.exp floor, weighted
# smoothing against unweighted, the small problems and the row-packed shape.
HEADLINE = ("fp32 4096x32000", "fp32 4096x32000 ls0.1", "bf16 4096x32000", "bf16 4096x32000 ls0.1",
            "fp16 4096x32000", "fp16 4096x32000 ls0.1", "bf16 4096x32000 w+ls0.1",
            "fp32 1x32000", "bf16 8x32000", "fp32 64x32000", "bf16 1x151936",
            "fp32 131073x257", "fp32 131073x257 w+ls0.1", "fp16 131073x257", "fp16 131073x257 w+ls0.1",
            "bf16 131073x257", "bf16 131073x257 w+ls0.1")


def build_cases(kind="full"):
    """The cases of a run: "full", "quick" or "headline" (a subset of "full")."""
    cases = []
    n, c = LLM_SHAPE
    for dt in ("fp32", "bf16"):
        for ls in (0.0, 0.1):
            cases.append(_case(n, c, dt, ls, group="llm"))
    if kind == "quick":
        # Two small row counts per dtype: with 4096 rows, a line over N x C in the plot.
        cases += [_case(rows, 32000, dt) for dt in ("fp32", "bf16") for rows in (1, 256)]
        cases += [_case(1024, 151936, "bf16"),
                  _case(n, c, "fp32", 0.1, weight=True, group="options"),
                  _case(n, c, "bf16", 0.0, zloss=True, group="options"),
                  _case(257, 131073, "fp32", group="vendor"), _case(131073, 257, "fp32", group="vendor")]
        return cases
    # Options at the target shape, every dtype.
    for dt in ("fp32", "fp16", "bf16"):
        if dt == "fp16":
            cases += [_case(n, c, dt, group="options"), _case(n, c, dt, 0.1, group="options")]
        cases += [_case(n, c, dt, 0.0, weight=True, group="options"),
                  _case(n, c, dt, 0.1, weight=True, group="options"),
                  _case(n, c, dt, 0.0, zloss=True, group="options")]
    # Vocabulary x rows sweep (elements capped so the run stays at a few minutes).
    for dt in ("fp32", "bf16"):
        for v in VOCABS:
            for rows in (1, 8, 64, 1024, 4096, 16384):
                if (rows, v) == LLM_SHAPE:
                    continue
                cap = 2 ** 29 if (dt == "bf16" and v == 32000) else 2 ** 28
                if rows * v > cap:
                    continue
                cases.append(_case(rows, v, dt))
    # The vendor's test shapes.
    for dt in ("fp32", "fp16", "bf16"):
        for shape in ((257, 131073), (131073, 257)):
            cases.append(_case(*shape, dt, group="vendor"))
            cases.append(_case(*shape, dt, 0.1, weight=True, group="vendor"))
    if kind == "headline":
        cases = [k for k in cases if k["name"] in HEADLINE]
    return cases


def reps_for(case, default):
    elems = case["n"] * case["c"]
    if elems >= 2e8:
        return max(3, default - 2)
    if elems <= 1e6:
        return max(default, 15)
    return default


# ----------------------------------------------------------------------------- progress

class Progress:
    """A one-line progress bar on stderr (no dependencies) over ``total`` steps of one
    ``kind`` ("cases", "peak-memory runs")."""

    def __init__(self, total, kind):
        self.total, self.kind, self.done, self.t0 = total, kind, 0, time.monotonic()
        self.tty = sys.stderr.isatty()

    def show(self, label):
        width = 28
        fill = int(width * self.done / max(1, self.total))
        el = time.monotonic() - self.t0
        # No estimate before the first step is done.
        eta = f"{el / self.done * (self.total - self.done):4.0f}s" if self.done else "   ?"
        line = (f"[{'#' * fill}{'.' * (width - fill)}] {self.done}/{self.total} {self.kind} {label:<34.34} "
                f"{el:5.0f}s elapsed, eta {eta}")
        if self.tty:
            sys.stderr.write("\r" + line)
        else:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def step(self, label):
        self.done += 1
        self.show(label)

    def close(self):
        if self.tty:
            sys.stderr.write("\n")


# ----------------------------------------------------------------------------- inputs

def torch_dtype(torch, name):
    return {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[name]


def make_inputs(torch, case):
    n, c = case["n"], case["c"]
    dt = torch_dtype(torch, case["dtype"])
    g = torch.Generator().manual_seed(1234)
    x = (torch.randn(n, c, generator=g, dtype=torch.float32) * 2.0).to(dt)
    target = torch.randint(0, c, (n,), generator=g, dtype=torch.int64)
    weight = (torch.rand(c, generator=g) + 0.5) if case["weight"] else None
    log_prob = torch.log_softmax(x, dim=-1)
    lse = torch.logsumexp(x.float(), dim=-1).to(dt) if case["zloss"] else None
    return x, target, weight, log_prob, lse


def unavoidable_extra_bytes(case):
    """Bytes any implementation must read besides logProb and out: targets, the weight
    (all of it with label smoothing, else one value per distinct target), lse, gradLoss."""
    n, c, es = case["n"], case["c"], ELEM_BYTES[case["dtype"]]
    b = n * 8 + es  # int64 targets, 0-D gradLoss
    if case["weight"]:
        b += 4 * (c if case["label_smoothing"] else min(n, c))
    if case["zloss"]:
        b += n * es
    return b


# ----------------------------------------------------------------------------- one case

def torch_backward(torch, F, case, x, target, weight):
    """A function timing one loss.backward() of PyTorch's cross entropy with the case's
    options, after its forward (not timed) and an idle gap of gap_s seconds; the
    previous gradient is dropped first, so every backward allocates its own."""
    ls, zl = case["label_smoothing"], case["zloss"]
    xr = x.detach().requires_grad_()
    w_t = weight.to(x.dtype) if weight is not None else None

    def seconds(gap_s=0.0):
        xr.grad = None
        loss = F.cross_entropy(xr, target, weight=w_t, label_smoothing=ls)
        if zl:
            loss = loss + ZLOSS_SCALE * (torch.logsumexp(xr.float(), dim=-1) ** 2).mean()
        if gap_s:
            time.sleep(gap_s)
        t0 = time.perf_counter()
        loss.backward()
        return time.perf_counter() - t0

    return seconds


def _median_ratio(times, num, den):
    if num not in times or den not in times:
        return None
    return statistics.median(a / b for a, b in zip(times[num], times[den]))


def run_case(case, reps, torch, F, xent, settle_s, thp=None):
    """Times the contenders of the module docstring; ``thp`` is the THP worker (or None)."""
    loadavg = os.getloadavg()
    x, target, weight, log_prob, lse = make_inputs(torch, case)
    ls = case["label_smoothing"]
    out = torch.empty_like(log_prob)
    y = torch.empty_like(log_prob)
    z_scale = ZLOSS_SCALE if case["zloss"] else 0.0

    def ours():
        xent.cross_entropy_loss_grad(1.0, log_prob, target, weight, None, lse, "mean", -100, ls, z_scale, out=out)

    def ours_alloc():
        xent.cross_entropy_loss_grad(1.0, log_prob, target, weight, None, lse, "mean", -100, ls, z_scale)

    def ours_fresh():
        saved = os.environ.get(CACHE_ENV)
        os.environ[CACHE_ENV] = "0"
        try:
            ours_alloc()
        finally:
            if saved is None:
                del os.environ[CACHE_ENV]
            else:
                os.environ[CACHE_ENV] = saved

    def timed(f, gap_s=0.0):
        if gap_s:
            time.sleep(gap_s)
        t0 = time.perf_counter()
        f()
        return time.perf_counter() - t0

    backward = torch_backward(torch, F, case, x, target, weight)
    contenders = {
        "ours_alloc": lambda: timed(ours_alloc),
        "ours_fresh": lambda: timed(ours_fresh),
        "torch_backward": backward,
        "ours": lambda: timed(ours),
        "exp": lambda: timed(lambda: torch.exp(log_prob, out=y)),
        "exp_alloc": lambda: timed(lambda: torch.exp(log_prob)),
        "copy": lambda: timed(lambda: y.copy_(log_prob)),
    }
    # The gap pair runs in a loop of its own, after the others: its sleeps would
    # otherwise leave the host idle just before the no-gap calls that follow them.
    gapped = {}
    if settle_s:
        gapped["ours_gap"] = lambda: timed(ours, settle_s)
        gapped["torch_backward_gap"] = lambda: backward(settle_s)
    errors = {}
    if thp is not None:
        ready = thp.start_case(case)
        if "error" in ready:
            errors["torch_backward_thp"] = ready["error"]
        else:
            contenders["torch_backward_thp"] = thp.rep
    # warm-up: first touch of every buffer, thread pools, the simulator's block threads
    ours()
    stats = xent.last_launch_stats() or {}
    for k in list(contenders):
        try:
            contenders[k]()
        except (RuntimeError, TypeError) as e:  # e.g. a dtype PyTorch's CPU kernels lack
            errors[k] = str(e).splitlines()[0]
            del contenders[k]
    for k, base in (("ours_gap", "ours"), ("torch_backward_gap", "torch_backward")):
        if base in errors:
            gapped.pop(k, None)
    times = {k: [] for k in [*contenders, *gapped]}
    order = random.Random(case["name"])  # seeded: the same orders on every run of this case
    for group in (contenders, gapped):
        names = list(group)
        for _ in range(reps):
            # A new order each rep: in a fixed cycle each contender would always follow the
            # same one (the THP worker's spinning OpenMP threads, say), whatever rep it started.
            order.shuffle(names)
            for k in names:
                times[k].append(group[k]())

    n, c, es = case["n"], case["c"], ELEM_BYTES[case["dtype"]]
    elems = n * c
    min_bytes = elems * 2 * es
    gm = int(stats.get("gm_read_bytes", 0)) + int(stats.get("gm_write_bytes", 0))
    med = {k: statistics.median(v) for k, v in times.items()}
    r = dict(case)
    r.update({
        "reps": reps, "loadavg": loadavg,
        "median_s": med, "ours_min_s": min(times["ours"]),
        # per-rep ratios, then their median; the first two are the like-for-like ones
        "ratios": {"torch/ours_alloc": _median_ratio(times, "torch_backward", "ours_alloc"),
                   "torch_thp/ours_alloc": _median_ratio(times, "torch_backward_thp", "ours_alloc"),
                   "torch/ours_fresh": _median_ratio(times, "torch_backward", "ours_fresh"),
                   "torch/ours": _median_ratio(times, "torch_backward", "ours"),
                   "torch_gap/ours_gap": _median_ratio(times, "torch_backward_gap", "ours_gap"),
                   "ours/exp": _median_ratio(times, "ours", "exp"),
                   "ours_alloc/exp_alloc": _median_ratio(times, "ours_alloc", "exp_alloc")},
        "ours_gbps": min_bytes / med["ours"] / 1e9,
        "copy_gbps": min_bytes / med["copy"] / 1e9,
        "ns_per_elem": {k: v / elems * 1e9 for k, v in med.items()},
        "gm_bytes": gm,
        "min_bytes": min_bytes,
        "min_bytes_with_row_col_inputs": min_bytes + unavoidable_extra_bytes(case),
        "traffic_ratio": gm / min_bytes,
        "traffic_ratio_incl_unavoidable": gm / (min_bytes + unavoidable_extra_bytes(case)),
        "tiling": {k: stats.get(k) for k in ("mode", "tile_rows", "tile_cols", "row_tiles", "col_tiles",
                                             "block_dim", "prologue")},
        "counters": {k: stats.get(k) for k in ("dma_in", "dma_out", "vector_instructions", "vector_repeats",
                                               "scalar_gm_reads", "scalar_ub_reads", "scalar_ub_writes",
                                               "blocks_used", "ub_peak_bytes")},
        "host_threads": stats.get("host_threads"),
    })
    if errors:
        r["errors"] = errors
    if thp is not None and "anon_huge_kib" in ready:
        r["thp_worker_anon_huge_kib"] = ready["anon_huge_kib"]
    return r


# ----------------------------------------------------------------------------- peak RSS (child)

def _proc_status_kib(field):
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def rss_child(spec):
    """Runs in a fresh process: allocate the inputs and the output with NumPy, take the
    resident set as the baseline, run the op twice, report how far the peak rose above it.

    The peak is VmHWM of /proc/self/status, reset to the current RSS after the inputs are
    allocated (clear_refs 5). getrusage's ru_maxrss is no use here: Linux carries it over
    fork and exec, so a subprocess starts with its parent's high-water mark (the benchmark
    process itself, GBs). Without /proc, ru_maxrss is the fallback (then only meaningful
    when the parent is small)."""
    import resource

    import numpy as np

    import ascend_xent as xent

    case = json.loads(spec)
    n, c = case["n"], case["c"]
    if case["dtype"] == "bf16":
        import ml_dtypes

        npdt = ml_dtypes.bfloat16
    else:
        npdt = {"fp32": np.float32, "fp16": np.float16}[case["dtype"]]
    log_prob = np.full((n, c), -10.0, dtype=npdt)
    out = np.full((n, c), 0.0, dtype=npdt)
    target = (np.arange(n, dtype=np.int64) * 7919) % c
    weight = np.full(c, 1.0, dtype=np.float32) if case["weight"] else None
    lse = np.full(n, 10.0, dtype=npdt) if case["zloss"] else None
    z = ZLOSS_SCALE if case["zloss"] else 0.0
    method = "VmHWM"
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # reset the peak RSS to the current RSS
        base = _proc_status_kib("VmRSS")
    except OSError:
        base = _proc_status_kib("VmHWM")
    if base is None:
        method = "ru_maxrss"
        base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for _ in range(2):
        xent.cross_entropy_loss_grad(1.0, log_prob, target, weight, None, lse, "mean", -100,
                                     case["label_smoothing"], z, out=out)
    peak = _proc_status_kib("VmHWM") if method == "VmHWM" else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"method": method, "baseline_kib": base, "peak_kib": peak, "extra_mib": (peak - base) / 1024.0,
                      "inputs_outputs_mib": (log_prob.nbytes + out.nbytes) / 2 ** 20}))
    return 0


def measure_rss(case):
    cmd = [sys.executable, os.path.abspath(__file__), "--rss-child", json.dumps(case)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            return {"error": (p.stderr.strip().splitlines() or ["?"])[-1]}
        return json.loads(p.stdout.strip().splitlines()[-1])
    except (OSError, subprocess.SubprocessError, ValueError) as e:
        return {"error": str(e)}


# ----------------------------------------------------------------------------- report

# (heading, format, value of a result, what it is). Times are medians in ms; ratios are
# medians of per-rep ratios. The first two ratios are the like-for-like ones.
_COLUMNS = (
    ("ours+alloc", "10.3f", lambda r: _ms(r, "ours_alloc"),
     "ms, ours allocating its output (no out=), as autograd calls it"),
    ("torch", "8.3f", lambda r: _ms(r, "torch_backward"), "ms, PyTorch's CPU backward (it allocates its gradient)"),
    ("torch+THP", "9.3f", lambda r: _ms(r, "torch_backward_thp"),
     "ms, the same with THP_MEM_ALLOC_ENABLE=1 (2 MiB pages), in a worker process"),
    ("t/o+alloc", "9.2f", lambda r: r["ratios"]["torch/ours_alloc"],
     "torch / ours+alloc: how many times faster ours is, like for like"),
    ("THP/o+al", "8.2f", lambda r: r["ratios"]["torch_thp/ours_alloc"], "torch+THP / ours+alloc"),
    ("t/o+fresh", "9.2f", lambda r: r["ratios"].get("torch/ours_fresh"),
     "torch / ours with the output cache off (every output fresh memory, as torch's)"),
    ("ours", "8.3f", lambda r: _ms(r, "ours"), "ms, ours into a preallocated out="),
    ("t/ours", "6.2f", lambda r: r["ratios"]["torch/ours"], "torch / ours into out="),
    ("gap t/o", "7.2f", lambda r: r["ratios"]["torch_gap/ours_gap"],
     "torch / ours into out=, each call after an idle gap (--settle-ms)"),
    ("o/exp", "6.2f", lambda r: r["ratios"]["ours/exp"],
     "ours into out= / torch.exp into out=: times the floor of one pass over the tensor"),
    ("al/exp+al", "9.2f", lambda r: r["ratios"]["ours_alloc/exp_alloc"], "ours+alloc / torch.exp allocating"),
    ("GB/s", "6.1f", lambda r: r["ours_gbps"], "ours into out=: N*C*(in+out bytes) / time"),
    ("copy", "6.1f", lambda r: r["copy_gbps"], "GB/s of a memory copy of the same size, for reference"),
    ("traffic", "8.4f", lambda r: r["traffic_ratio"],
     "GM bytes the simulator moved / N*C*(in+out bytes); 1 is the minimum"),
    ("+rowcol", "8.4f", lambda r: r["traffic_ratio_incl_unavoidable"],
     "the same against a minimum that also counts targets, weight and lse"),
    ("rss MiB", "7.1f", lambda r: (r.get("rss") or {}).get("extra_mib"),
     "peak memory beyond inputs and output, in a process of its own (- when not measured)"),
)


def _ms(r, contender):
    s = r["median_s"].get(contender)
    return None if s is None else s * 1e3


def _cell(v, spec):
    return format(v, spec) if v is not None else "-".rjust(int(spec.split(".")[0]))


def print_table(results, file=sys.stdout):
    """The table of every case, then what each column is."""
    hdr = f"{'case':<28}" + "".join(f" {h:>{spec.split('.')[0]}}" for h, spec, _, _ in _COLUMNS)
    print(hdr, file=file)
    print("-" * len(hdr), file=file)
    for r in results:
        print(f"{r['name']:<28}" + "".join(f" {_cell(f(r), spec)}" for _, spec, f, _ in _COLUMNS), file=file)
    print("\ncase: dtype N x C, then w (class weights), ls0.1 (label smoothing 0.1), z (z-loss); "
          "reduction mean. Columns:", file=file)
    for h, _, _, meaning in _COLUMNS:
        print(f"  {h:<10} {meaning}", file=file)
    print("Times are medians of interleaved reps; ratios are medians of per-rep ratios. "
          "Runs on a busy host are slower and spread more.", file=file)


def machine_info(torch):
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu": cpu, "cpus": os.cpu_count(), "python": platform.python_version(),
            "torch": torch.__version__, "torch_threads": torch.get_num_threads(),
            "platform": platform.platform(), "loadavg_start": os.getloadavg(),
            "transparent_hugepage": {k: _read_sys(f"/sys/kernel/mm/transparent_hugepage/{k}") for k in ("enabled", "defrag")}}


def _read_sys(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


# ----------------------------------------------------------------------------- main

def _sibling(name):
    """The module <name>.py beside this file (also when this file is loaded by path, by ascend-xent bench)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def default_out_dir():
    """A new directory for one run's results, under the user's cache directory: outside
    any source tree, so results never land among tracked files."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "ascend-xent", "bench", time.strftime("%Y%m%d-%H%M%S"))


def output_paths(out_dir, name, suffixes, replace=False):
    """``<out_dir>/<name><suffix>`` for each suffix; out_dir (default: default_out_dir())
    is created. A ValueError when a file is already there, unless ``replace``."""
    out_dir = out_dir or default_out_dir()
    paths = [os.path.join(out_dir, name + s) for s in suffixes]
    taken = [p for p in paths if os.path.exists(p)]
    if taken and not replace:
        raise ValueError(f"{' and '.join(taken)} {'exist' if len(taken) > 1 else 'exists'} already: choose "
                         "another --out-dir or --name (results are never written over existing files)")
    os.makedirs(out_dir, exist_ok=True)
    return paths


def add_arguments(p):
    """The options (ascend-xent bench has the same)."""
    n_quick, n_headline, n_full = (len(build_cases(k)) for k in ("quick", "headline", "full"))
    kind = p.add_mutually_exclusive_group()
    kind.add_argument("--quick", action="store_true",
                      help=f"{n_quick} cases: 4096 x 32000 in fp32 and bf16 with and without label "
                           "smoothing, and nine other shapes and options (default: all "
                           f"{n_full} cases)")
    kind.add_argument("--headline", action="store_true",
                      help=f"the {n_headline} cases of the like-for-like table of docs/performance.md: 4096 x 32000 in "
                           "every dtype with and without label smoothing, bf16 weighted smoothing, four small "
                           "problems, 131073 x 257 in every dtype with and without weight and smoothing")
    p.add_argument("--name", default=None, help="results file stem (default: quick, headline or full)")
    p.add_argument("--out-dir", default=None,
                   help="directory for <name>.json and <name>.png (default: a new directory <date>-<time> under "
                        "~/.cache/ascend-xent/bench, or $XDG_CACHE_HOME/ascend-xent/bench when that is set); existing "
                        "files are never overwritten")
    p.add_argument("--reps", type=int, default=5, help="timed reps per contender after one warm-up (default 5)")
    p.add_argument("--no-rss", action="store_true",
                   help="skip the peak-memory runs (one subprocess per case; with --quick and --headline only "
                        "for 4096 x 32000 in fp32 and bf16)")
    p.add_argument("--no-plot", action="store_true",
                   help="skip the PNG (drawn when matplotlib is installed: pip install \".[bench]\")")
    p.add_argument("--only", default=None, help="run only cases whose name contains this text")
    p.add_argument("--settle-ms", type=float, default=DEFAULT_SETTLE_MS,
                   help="idle gap before the calls of the gap variant (ours into a preallocated out and "
                        "PyTorch's backward, each after the gap: neither starts beside the previous call's "
                        "spinning OpenMP workers); default %(default)g; 0 leaves that variant out")
    p.add_argument("--replot", default=None, metavar="JSON",
                   help="only draw the plot of a results JSON, as <name>.png beside it (replacing the plot "
                        "drawn from it before), or into --out-dir")


def parse_args(argv):
    p = argparse.ArgumentParser(prog="bench_xent.py", description=__doc__.split("\n\n")[0])
    add_arguments(p)
    p.add_argument("--rss-child", default=None, help=argparse.SUPPRESS)
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    if args.rss_child:
        return rss_child(args.rss_child)
    return run(args)


def run(args):
    """The benchmark for parsed options (add_arguments)."""
    plot = _sibling("bench_plot")
    if args.replot:
        with open(args.replot) as f:
            doc = json.load(f)
        stem = args.name or os.path.splitext(os.path.basename(args.replot))[0]
        out_dir = args.out_dir or os.path.dirname(os.path.abspath(args.replot))
        (png_path,) = output_paths(out_dir, stem, [".png"], replace=args.out_dir is None)
        p = plot.plot(doc["cases"], png_path, doc.get("meta"))
        print(f"plot: {p}" if p else "no plot")
        return 0 if p else 1
    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        print("bench: PyTorch is needed for the comparison: pip install \".[bench]\" in the source tree "
              "(torch==2.13.0 and matplotlib; the CPU build of torch: "
              "PIP_EXTRA_INDEX_URL=https://download.pytorch.org/whl/cpu)", file=sys.stderr)
        return 2
    import ascend_xent as xent

    kind = "quick" if args.quick else "headline" if args.headline else "full"
    name = args.name or kind
    cases = build_cases(kind)
    if args.only:
        cases = [c for c in cases if args.only in c["name"]]
    json_path, png_path = output_paths(args.out_dir, name, [".json", ".png"])
    print(f"results: {os.path.dirname(json_path)}")
    if not args.no_plot and not plot.available():
        print(plot.MISSING, file=sys.stderr)

    machine = machine_info(torch)  # before the run: its load average is the one at the start
    rss_cases = [c for c in cases if not args.no_rss and (kind == "full" or c["group"] == "llm")]
    results = []
    t0 = time.monotonic()
    thp = _sibling("bench_torch_worker").Worker(THP_ENV)
    prog = Progress(len(cases), "cases")
    prog.show("starting")
    try:
        for case in cases:
            prog.show(case["name"])
            results.append(run_case(case, reps_for(case, args.reps), torch, F, xent, args.settle_ms / 1e3, thp))
            prog.step(case["name"])
    finally:
        thp.close()
        prog.close()
    if rss_cases:
        prog = Progress(len(rss_cases), "peak-memory runs")
        for case in rss_cases:
            prog.show(case["name"])
            next(r for r in results if r["name"] == case["name"])["rss"] = measure_rss(case)
            prog.step(case["name"])
        prog.close()

    doc = {"meta": dict(machine, name=name, kind=kind, seconds=time.monotonic() - t0,
                        sim_profile=xent.current_profile(), sim_host_threads=xent.host_threads(),
                        loadavg_end=os.getloadavg(), settle_ms=args.settle_ms, thp_worker_env=THP_ENV,
                        note="times are medians over interleaved reps, no idle gap unless a contender's name "
                             "ends in _gap; ratios are medians of per-rep ratios"),
           "cases": results}
    with open(json_path, "w") as f:
        json.dump(doc, f, indent=1)
    print_table(results)
    load = " / ".join(f"{v:.1f}" for v in doc["meta"]["loadavg_end"])
    print(f"\n{len(results)} cases in {doc['meta']['seconds']:.0f} s on {machine['cpus']} CPUs ({machine['cpu']}); "
          f"load average at the end {load} (over 1 / 5 / 15 minutes)")
    print(f"JSON: {json_path}")
    if not args.no_plot:
        p = plot.plot(results, png_path, doc["meta"])
        if p:
            print(f"plot: {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
