#!/usr/bin/env python3
"""Random-case fuzzer for ascend_xent.cross_entropy_loss_grad (not run in CI).

Each case draws N, C, dtype, target dtype, reduction, weight, label smoothing, z-loss
(with/without grad_zloss), ignore_index (-100, another negative, inside [0, C), huge,
or absent from the targets), the fraction of ignored rows, sometimes NaN/Inf in an
input, sometimes an out-of-range target, sometimes N = 0, and checks:

  normal cases    the kernel against the float64 golden with the tests' tolerances
                  (ascend_xent.golden.compare: assert_close defaults for the dtype after
                  dividing by max |golden|); ignored rows exactly 0;
  special values  the same NaN positions, the same infinities and signs, the finite
                  rest within the tolerances;
  bad targets     ValueError naming the first bad row and its value, out untouched;
  N = 0           an empty (0, C) result;
  in place        (a tenth of the normal cases) out = log_prob: bitwise the result above;
  torch           (--torch-share of the cases, when torch imports) the PyTorch contract:
                  cross_entropy vs F.cross_entropy (K-dim, autocast, inplace_backward),
                  torch.func, out= aliasing, version counters, requires_grad refusals
                  (scripts/fuzz_torch.py).

Prints the seed, the counts (cases, passed, failed, by category) and the first
failures with a reproducer; exits 1 on any failure.

    python scripts/fuzz.py                 # 10000 cases, random seed
    python scripts/fuzz.py --cases 20000 --seed 123
"""

from __future__ import annotations

import argparse
import collections
import math
import os
import sys
import time
import traceback

import warnings

import numpy as np

import ascend_xent as ax
from ascend_xent import golden
from ascend_xent._arrays import numpy_dtype

DTYPES = ("float32", "float16", "bfloat16")
I64_MIN, I64_MAX = -(2**63), 2**63 - 1


def draw(rng: np.random.Generator) -> dict:
    """One random case: the keyword arguments plus its categories."""
    r = rng.random()
    if r < 0.03:
        n = 0
    elif r < 0.75:
        n = int(rng.integers(1, 65))
    else:
        n = int(rng.integers(65, 700))
    r = rng.random()
    if r < 0.08:
        c = int(rng.integers(1, 4))
    elif r < 0.85:
        c = int(rng.integers(4, 700))
    else:
        c = int(rng.integers(700, 40000))
        n = min(n, 8)
    dtype = str(rng.choice(DTYPES))
    tdtype = "int32" if rng.random() < 0.4 else "int64"
    reduction = str(rng.choice(["mean", "sum", "none"]))
    ii_kind = str(rng.choice(["-100", "negative", "in_range", "huge", "absent"]))
    ii = {"-100": -100, "negative": int(rng.integers(-5000, 0)), "in_range": int(rng.integers(0, c)),
          "huge": int(rng.choice([I64_MIN, I64_MAX])) if tdtype == "int64" else int(rng.choice([-(2**31), 2**31 - 1])),
          "absent": -100}[ii_kind]
    ignore_frac = 0.0 if ii_kind == "absent" else float(rng.choice([0.0, 0.1, 0.5, 1.0], p=[0.2, 0.5, 0.25, 0.05]))
    ls = float(rng.choice([0.0, 0.0, 0.1, 0.5, 1.0, rng.random()]))
    zloss = str(rng.choice(["off", "on", "on_gz"]))
    weight = rng.random() < 0.5
    dt = numpy_dtype(dtype)

    x = rng.normal(0.0, float(rng.choice([0.5, 3.0, 10.0])), size=(n, c))
    lp64 = golden.log_softmax(x) if n else np.zeros((0, c))
    lse64 = (x - lp64)[:, 0] if n else np.zeros(0)
    log_prob = np.ascontiguousarray(lp64.astype(dt))
    target = rng.integers(0, c, size=n).astype(np.int64)
    if n and ignore_frac:
        target[rng.random(n) < ignore_frac] = ii
    target = target.astype(tdtype)
    w = rng.uniform(0.0 if rng.random() < 0.1 else 0.2, 2.0, size=c).astype(np.float32) if weight else None
    if reduction == "none":
        g = rng.normal(0.0, 1.0, size=n).astype(dt)
        gz = rng.normal(0.0, 1.0, size=n).astype(dt) if zloss == "on_gz" else None
    else:
        g = np.asarray(rng.normal(0.0, 1.0), dtype=dt) if rng.random() < 0.8 else float(rng.normal())
        gz = np.asarray(rng.normal(), dtype=dt) if zloss == "on_gz" else None
    lse, scale = (None, 0.0) if zloss == "off" else (lse64.astype(dt), float(rng.choice([1e-4, 1e-2, 1.0])))
    kw = dict(grad_loss=g, log_prob=log_prob, target=target, weight=w, grad_zloss=gz, lse_for_zloss=lse,
              reduction=reduction, ignore_index=ii, label_smoothing=ls, lse_square_scale_for_zloss=scale)
    cats = [f"dtype={dtype}", f"reduction={reduction}", f"target={tdtype}", f"ignore_index={ii_kind}",
            f"zloss={zloss}", "weight" if weight else "no_weight", "ls>0" if ls else "ls=0"]
    kind = "normal"
    if n == 0:
        kind = "empty"
    elif rng.random() < 0.08:
        kind = "special"
        value = float(rng.choice([math.nan, math.inf, -math.inf]))
        where = str(rng.choice(["log_prob", "grad_loss", "grad_zloss", "lse_for_zloss", "weight"]))
        arr = kw.get(where)
        if arr is None or not isinstance(arr, np.ndarray):
            where = "log_prob"
            arr = kw["log_prob"]
        arr = np.array(arr, copy=True)
        flat = arr.reshape(-1)
        k = max(1, flat.size // 50)
        flat[rng.integers(0, flat.size, size=k)] = value
        kw[where] = arr
        cats.append(f"special:{where}={value}")
    elif rng.random() < 0.06:
        kind = "bad_target"
        i = int(rng.integers(0, n))
        lim_lo, lim_hi = (-(2**31), 2**31 - 1) if tdtype == "int32" else (I64_MIN, I64_MAX)
        choices = [c, c + int(rng.integers(0, 1000)), -1, lim_hi, lim_lo]
        bad = int(rng.choice([v for v in choices if lim_lo <= v <= lim_hi and v != ii]))
        kw["target"] = kw["target"].copy()
        kw["target"][i] = bad
        cats.append("bad_target")
    in_place = kind == "normal" and rng.random() < 0.1
    if in_place:
        cats.append("in_place")
    return dict(kw=kw, kind=kind, cats=cats, n=n, c=c, dtype=dtype, in_place=in_place)


def same_specials(a, e, dtype, log_prob, kw) -> bool:
    a = np.asarray(a, dtype=np.float64)
    e = np.asarray(e, dtype=np.float64)
    # p = exp(log_prob) is computed in fp32 by the kernel (as by PyTorch for fp32/fp16/bf16):
    # where it underflows to 0 (or a subnormal) and the golden's float64 p does not,
    # 0 * Inf gives NaN instead of +-Inf. Accept exactly that difference.
    with np.errstate(over="ignore", under="ignore"):
        p32 = np.exp(np.asarray(log_prob, dtype=np.float32))
    underflow = (p32 < np.float32(2.0**-126)) & np.isinf(e) & np.isnan(a)
    e = np.where(underflow, np.nan, e)
    if (np.isnan(a) != np.isnan(e)).any():
        return False
    ia, ie = np.isinf(a), np.isinf(e)
    if (ia != ie).any() or (np.sign(a[ia]) != np.sign(e[ie])).any():
        return False
    fin = np.isfinite(e)
    return True if not fin.any() else (_loose(a[fin], e[fin], dtype) or cancellation_ok(a, e, kw, dtype, fin))


def cancellation_ok(a, e, kw, dtype, mask=None) -> bool:
    """When every output nearly cancels (e.g. C = 1, where the gradient is 0 up to rounding),
    max |golden| is no scale: bound the error by the fp32 rounding of the terms instead,
    |a - e| <= 32 * 2^-24 * (|nll| + |smooth| * sum|w| + |lse| + |smooth| * |w_j| + |nll|)
    plus the output dtype's rounding of |e| (the bound the C++ tests use)."""
    n, c = e.shape
    valid, tc, w, sum_w, nll, smooth, lse = golden._row_coefficients(
        kw["grad_loss"], kw["target"], kw["weight"], kw["grad_zloss"], kw["lse_for_zloss"], kw["reduction"],
        kw["ignore_index"], kw["label_smoothing"], kw["lse_square_scale_for_zloss"], n, c)
    abs_w = np.abs(np.asarray(w, dtype=np.float64))
    terms = (np.abs(nll) + np.abs(smooth) * abs_w.sum() + np.abs(lse))[:, None] \
        + np.abs(smooth)[:, None] * abs_w[None, :] + np.abs(nll)[:, None]
    rtol = golden.TOLERANCES[dtype][0]
    with np.errstate(invalid="ignore"):
        err = np.abs(np.asarray(a, dtype=np.float64) - e)
        ok = err <= 32 * 2.0**-24 * terms + rtol * np.abs(e) + golden.SUBNORMAL[dtype]
    return bool(np.all(ok if mask is None else ok[mask]))


def _loose(a, e, dtype):
    # fp16/bf16 with specials: the tests' criterion on the finite part.
    rtol, atol = golden.TOLERANCES[dtype]
    scale = max(float(np.abs(e).max()), 1e-30)
    return bool(np.all(np.abs(a / scale - e / scale) <= max(atol, golden.SUBNORMAL[dtype] / scale)
                       + rtol * np.abs(e / scale)))


def check(case) -> str | None:
    """None when the case passes, else a description of the failure."""
    kw, kind, n, c = case["kw"], case["kind"], case["n"], case["c"]
    if kind == "bad_target":
        t = kw["target"].astype(np.int64)
        bad = np.flatnonzero((t != kw["ignore_index"]) & ((t < 0) | (t >= c)))
        i = int(bad[0])
        out = np.full((n, c), 7.0, kw["log_prob"].dtype)
        try:
            ax.cross_entropy_loss_grad(**kw, out=out)
        except ValueError as e:
            want = f"target: target[{i}] = {int(t[i])} is out of range [0, {c})"
            if not str(e).startswith(want):
                return f"message {str(e)!r}, wanted it to start with {want!r}"
            if not np.all(out.astype(np.float64) == 7.0):
                return "out was written although the call failed"
            return None
        return "no ValueError for an out-of-range target"
    out = ax.cross_entropy_loss_grad(**kw)
    if out.shape != (n, c) or out.dtype != kw["log_prob"].dtype:
        return f"result {out.shape} {out.dtype}"
    if n == 0:
        return None
    # A Python-number grad_loss is rounded to log_prob's dtype by the API (documented):
    # the golden gets the same rounded value.
    gkw = dict(kw)
    if isinstance(kw["grad_loss"], float):
        gkw["grad_loss"] = np.asarray(kw["grad_loss"], dtype=kw["log_prob"].dtype)
    ref = golden.cross_entropy_loss_grad(**gkw)
    if kind == "special":
        return None if same_specials(out, ref, case["dtype"], kw["log_prob"], gkw) \
            else "special values differ from the golden"
    res = golden.compare(out, ref)
    if not res["ok"] and cancellation_ok(out, ref, gkw, case["dtype"]):
        case["cats"].append("passed_by_cancellation_bound")
    elif not res["ok"]:
        return (f"max_scaled_error {res['max_scaled_error']:.3g} at {res['worst_index']}, "
                f"{res['mismatches']} mismatches")
    if case["in_place"]:
        lp = kw["log_prob"].copy()
        if ax.cross_entropy_loss_grad(**dict(kw, log_prob=lp), out=lp).tobytes() != out.tobytes():
            return "in place (out = log_prob) differs from out of place"
    ignored = kw["target"].astype(np.int64) == kw["ignore_index"]
    if ignored.any() and not np.all(out[ignored].astype(np.float64) == 0.0):
        return "an ignored row is not 0"
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--show", type=int, default=10, help="failures to print in full")
    ap.add_argument("--torch-share", type=float, default=0.2,
                    help="fraction of torch cases (fuzz_torch.py; 0 without torch)")
    args = ap.parse_args(argv)
    try:
        import fuzz_torch
    except ImportError:
        fuzz_torch, args.torch_share = None, 0.0
    warnings.filterwarnings("ignore", category=RuntimeWarning)  # the golden on NaN/Inf inputs
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    print(f"fuzz: seed {seed}, {args.cases} cases, soc {ax.current_profile()['name']}, "
          f"host threads {ax.host_threads()}, torch share {args.torch_share}", flush=True)
    counts = collections.Counter()
    by_cat = collections.defaultdict(lambda: [0, 0])  # category -> [passed, failed]
    failures = []
    t0 = time.perf_counter()
    for k in range(args.cases):
        rng = np.random.default_rng([seed, k])
        torch_case = rng.random() < args.torch_share
        case = fuzz_torch.draw(rng) if torch_case else draw(rng)
        try:
            err = fuzz_torch.check(case) if torch_case else check(case)
        except Exception as e:  # a crash of the op or the checker: a failure too
            err = f"{type(e).__name__}: {e}\n{traceback.format_exc(limit=3)}"
        ok = err is None
        counts["cases"] += 1
        counts["passed" if ok else "failed"] += 1
        for cat in [f"kind={case['kind']}"] + case["cats"]:
            by_cat[cat][0 if ok else 1] += 1
        if not ok:
            failures.append((k, case, err))
        if (k + 1) % 1000 == 0:
            print(f"  {k + 1} cases, {counts['failed']} failed, {time.perf_counter() - t0:.0f} s", flush=True)
    wall = time.perf_counter() - t0
    print(f"\nseed {seed}: {counts['cases']} cases, {counts['passed']} passed, {counts['failed']} failed "
          f"in {wall:.0f} s")
    print("by category (passed / failed):")
    for cat in sorted(by_cat):
        p, f = by_cat[cat]
        print(f"  {cat:<40} {p:>6} / {f}")
    for k, case, err in failures[:args.show]:
        print(f"\nFAILED case {k} (reproduce: python scripts/fuzz.py --seed {seed} --cases {k + 1}; "
              f"n={case['n']} c={case['c']} {case['kind']} {' '.join(case['cats'])}):\n  {err}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
