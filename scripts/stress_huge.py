#!/usr/bin/env python3
"""Huge-shape stress run (not run in CI): N * C above 2^31.

Default N = 65537, C = 32768, float16: N * C = 2^31 + 2^15 elements, so the last row
starts at element 2^31 and byte 2^32 of log_prob and out (4 GiB each). Options:
reduction "mean" with class weights, label smoothing 0.1, z-loss 1e-4 with
grad_zloss, 5% ignored rows -- every per-row and cross-core path (W, M and sum_k w_k
prologue over 33 row chunks).

Rows of log_prob are rotations of a few random log-softmax rows (valid log-softmax
rows, cheap to build). The result is checked on sampled rows -- the first, the last,
those around element 2^31 and byte 2^31, and random ones -- against the float64
golden with the tests' criterion (ascend_xent.golden.compare). The golden of a
"mean" row needs W and M of the whole batch: they are summed in float64 here and the
sampled rows are given to the golden as a "none" problem with the equivalent per-row
upstream gradients (g/W for the loss, (g + gz)/M - g/W for the z-loss).

Prints the time of each phase and the peak RSS; exits 1 when a sampled row fails.
Needs about 2 x N x C x 2 bytes of RAM (8.6 GB by default).

    python scripts/stress_huge.py [--n 65537] [--c 32768] [--dtype float16] [--samples 96]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

import numpy as np

import ascend_xent as ax
from ascend_xent import golden
from ascend_xent._checks import numpy_dtype


def peak_rss_gib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # KiB on Linux


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=65537)
    ap.add_argument("--c", type=int, default=32768)
    ap.add_argument("--dtype", default="float16", choices=["float32", "float16", "bfloat16"])
    ap.add_argument("--samples", type=int, default=96, help="random rows checked besides the fixed ones")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)
    n, c, dtype = args.n, args.c, args.dtype
    dt = numpy_dtype(dtype)
    rng = np.random.default_rng(args.seed)
    ls, zscale, g, gz, ii = 0.1, 1e-4, 0.75, -0.5, -100
    print(f"stress_huge: N={n} C={c} {dtype}: N*C = {n * c} elements "
          f"({'>' if n * c > 2**31 else '<='} 2^31), {n * c * dt.itemsize / 2**30:.2f} GiB per (N, C) tensor; "
          f"soc {ax.current_profile()['name']}, host threads {ax.host_threads()}", flush=True)

    t0 = time.perf_counter()
    bases = []
    for _ in range(16):
        x = rng.normal(0.0, 3.0, size=c)
        bases.append(golden.log_softmax(x[None, :])[0].astype(dt))
    log_prob = np.empty((n, c), dtype=dt)
    shifts = rng.integers(0, c, size=n)
    for i in range(n):
        b = bases[i % 16]
        s = int(shifts[i])
        log_prob[i, :c - s] = b[s:]
        log_prob[i, c - s:] = b[:s]
    target = rng.integers(0, c, size=n).astype(np.int64)
    target[rng.random(n) < 0.05] = ii
    weight = rng.uniform(0.2, 2.0, size=c).astype(np.float32)
    lse = rng.uniform(5.0, 15.0, size=n).astype(dt)
    grad_loss = np.asarray(g, dtype=dt)
    grad_zloss = np.asarray(gz, dtype=dt)
    out = np.empty((n, c), dtype=dt)
    t_build = time.perf_counter() - t0
    print(f"inputs built in {t_build:.1f} s, peak RSS {peak_rss_gib():.2f} GiB", flush=True)

    t0 = time.perf_counter()
    ax.cross_entropy_loss_grad(grad_loss, log_prob, target, weight, grad_zloss, lse, "mean", ii, ls, zscale,
                               out=out)
    t_kernel = time.perf_counter() - t0
    st = ax.last_launch_stats()
    print(f"kernel: {t_kernel:.1f} s (launch {st['wall_seconds']:.1f} s), blockDim {st['block_dim']}, "
          f"mode {st['mode']} {st['tile_rows']}x{st['tile_cols']}, GM read {st['gm_read_bytes'] / 2**30:.3f} GiB, "
          f"written {st['gm_write_bytes'] / 2**30:.3f} GiB, peak RSS {peak_rss_gib():.2f} GiB", flush=True)

    # Sampled rows against the golden.
    t0 = time.perf_counter()
    fixed = {0, 1, n - 1, n - 2, (2**31) // c, (2**31) // c - 1, (2**31) // c + 1, (2**30) // c,
             (2**31) // (c * dt.itemsize), (2**32) // (c * dt.itemsize)}
    rows = sorted({r for r in fixed if 0 <= r < n} | set(int(r) for r in rng.integers(0, n, size=args.samples)))
    live = target != ii
    g_d, gz_d = float(grad_loss), float(grad_zloss)
    W = float(np.asarray(weight, np.float64)[target[live]].sum())
    M = int(live.sum())
    sub = dict(grad_loss=np.full(len(rows), g_d / W), log_prob=log_prob[rows], target=target[rows], weight=weight,
               grad_zloss=np.full(len(rows), (g_d + gz_d) / M - g_d / W), lse_for_zloss=lse[rows],
               reduction="none", ignore_index=ii, label_smoothing=ls, lse_square_scale_for_zloss=zscale)
    ref = golden.cross_entropy_loss_grad(**sub)
    got = out[rows]
    res = golden.compare(got, ref, dtype)
    ignored_ok = bool(np.all(got[target[rows] == ii].astype(np.float64) == 0.0))
    finite_ok = bool(np.all(np.isfinite(got.astype(np.float64))))
    t_check = time.perf_counter() - t0
    past31 = sum(1 for r in rows if r * c * dt.itemsize >= 2**31)
    past32 = sum(1 for r in rows if r * c * dt.itemsize >= 2**32)
    print(f"checked {len(rows)} rows ({past31} starting past byte 2^31, {past32} past byte 2^32) "
          f"in {t_check:.1f} s: ok={res['ok']}, max_scaled_error {res['max_scaled_error']:.3g}, "
          f"ignored rows zero: {ignored_ok}, all finite: {finite_ok}")
    print(f"total: build {t_build:.1f} s + kernel {t_kernel:.1f} s + check {t_check:.1f} s; "
          f"peak RSS {peak_rss_gib():.2f} GiB")
    ok = res["ok"] and ignored_ok and finite_ok
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
