"""Time the kernel on the simulator against PyTorch's CPU backward and torch.exp.

Cases: N = 4096 rows x C = 32000 classes in every dtype, with and without label
smoothing, class weights and z-loss; a sweep of vocabularies (32000 to 151936) and row
counts (1 to 16384); the vendor's test shapes 257 x 131073 and 131073 x 257. --quick
runs a subset, --headline the cases of the like-for-like table of docs/performance.md.
Each call is timed interleaved with the others, rep by rep. Prints a table with a
legend of its columns and writes <name>.json (every figure, GM traffic from the
simulator's counters, peak memory) and <name>.png (time per element against N x C)
into --out-dir, by default a new directory under ~/.cache/ascend-xent/bench
($XDG_CACHE_HOME/ascend-xent/bench); existing files are never overwritten.

Needs torch, and matplotlib for the plot: pip install ".[bench]" in the source tree.
Runs benchmarks/bench_xent.py of the source tree (it is not part of the wheel).
"""

from __future__ import annotations

import importlib.util
import os

NAME = "bench"
HELP = "time the kernel against PyTorch's CPU backward and torch.exp; table, JSON and plot"


def _script():
    env = os.environ.get("ASCEND_XENT_BENCH_SCRIPT")
    candidates = [env] if env else []
    # The source tree above the package as installed, and above the file it links to
    # (a package directory symlinked into site-packages), then the working directory.
    for here in dict.fromkeys(os.path.dirname(f(__file__)) for f in (os.path.abspath, os.path.realpath)):
        candidates.append(os.path.join(here, "..", "..", "..", "benchmarks", "bench_xent.py"))
    candidates.append(os.path.join(os.getcwd(), "benchmarks", "bench_xent.py"))
    # Normalised before the test: the OS resolves ".." after following a symlink, normpath before.
    for c in map(os.path.normpath, candidates):
        if os.path.isfile(c):
            return c
    return None


def _load_script():
    path = _script()
    if path is None:
        return None
    spec = importlib.util.spec_from_file_location("ascend_xent_bench_script", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def add_arguments(p) -> None:
    script = _load_script()
    if script is not None:
        script.add_arguments(p)
    # Without the script its options are unknown: accepted, so that run() can say where it is missing.
    p.set_defaults(_script=script, _accepts_unknown=script is None)


def run(args) -> int:
    if args._script is None:
        raise RuntimeError("benchmarks/bench_xent.py not found: run from a source checkout, "
                           "or set ASCEND_XENT_BENCH_SCRIPT to its path")
    return int(args._script.run(args) or 0)
