"""Benchmark against PyTorch's CPU backward, torch.exp and a memory copy (benchmarks/bench_xent.py).

Runs the benchmark script of the source tree (it is not part of the wheel): the
cases of issue #5, interleaved timings, GM traffic from the simulator's counters,
peak memory per case, JSON and PNG under benchmarks/results/. Needs torch;
matplotlib for the plot (pip install 'ascend-xent[bench]').
"""

from __future__ import annotations

import importlib.util
import os

NAME = "bench"
HELP = "benchmark vs PyTorch's CPU backward and torch.exp (the source tree's benchmarks/bench_xent.py)"


def _script():
    env = os.environ.get("ASCEND_XENT_BENCH_SCRIPT")
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [env] if env else []
    candidates += [os.path.join(here, "..", "..", "..", "benchmarks", "bench_xent.py"),
                   os.path.join(os.getcwd(), "benchmarks", "bench_xent.py")]
    for c in candidates:
        if c and os.path.isfile(c):
            return os.path.normpath(c)
    return None


def add_arguments(p) -> None:
    p.add_argument("--quick", action="store_true", help="a ~1-minute subset (the four target cases and a few more)")
    p.add_argument("--name", default=None, help="results file stem (default: quick or full)")
    p.add_argument("--out-dir", default=None, help="directory for <name>.json and <name>.png")
    p.add_argument("--reps", type=int, default=5, help="timed reps per contender after a warm-up")
    p.add_argument("--no-rss", action="store_true", help="skip the per-case peak-memory subprocesses")
    p.add_argument("--no-plot", action="store_true", help="skip the PNG")
    p.add_argument("--only", default=None, help="only cases whose name contains this text")
    p.add_argument("--settle-ms", type=float, default=None,
                   help="idle gap before every timed call (default 20; 0: none)")


def run(args) -> int:
    path = _script()
    if path is None:
        raise RuntimeError("benchmarks/bench_xent.py not found: run from a source checkout, "
                           "or set ASCEND_XENT_BENCH_SCRIPT to its path")
    spec = importlib.util.spec_from_file_location("ascend_xent_bench_script", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    argv = []
    if args.quick:
        argv.append("--quick")
    for flag, val in (("--name", args.name), ("--out-dir", args.out_dir), ("--only", args.only),
                      ("--settle-ms", args.settle_ms)):
        if val is not None:
            argv += [flag, str(val)]
    argv += ["--reps", str(args.reps)]
    if args.no_rss:
        argv.append("--no-rss")
    if args.no_plot:
        argv.append("--no-plot")
    return int(mod.main(argv) or 0)
