#!/usr/bin/env python3
"""Peak memory of a training step's loss: an LM head (hidden (N, 64) @ head (64, C)) makes
the (N, C) logits, then the loss and the backward through it: ascend_xent.cross_entropy
unfused (our forward and backward kernels; with and without inplace_backward), fused
(with and without inplace), and F.cross_entropy.

Each variant runs in a fresh process: it allocates the hidden states and the head
(requires_grad), targets and weight, takes the resident set as the baseline, then
reports how far the peak RSS rose above it during the forward (the logits included),
and during the backward (the peak reset to the current RSS in between), with what is
still resident after the forward and after the backward (the head's and the hidden
states' gradients, small; the forward's saved tensors are freed). The peak is VmHWM after
/proc/self/clear_refs 5 (as bench_xent.py's peak-memory column). A warm-up step on
a small problem first, so that one-time allocations (libraries, thread pools) are in
the baseline.

usage: bench_inplace_memory.py [--n 4096] [--c 32000] [--dtype bf16]   (about a minute)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from bench_xent import _proc_status_kib

DTYPES = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16"}
SMOOTHING = (0.0, 0.1)  # F.cross_entropy's label smoothing keeps N x C temporaries in the forward
VARIANTS = ("ascend_xent", "ascend_xent inplace_backward", "ascend_xent fused", "ascend_xent fused inplace",
            "F.cross_entropy")
HIDDEN = 64


def _reset_peak() -> int:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    return _proc_status_kib("VmRSS")


def child(variant, n, c, dtype, label_smoothing):
    import torch
    import torch.nn.functional as F

    import ascend_xent as ax

    dt = getattr(torch, DTYPES[dtype])

    def step(h, head, t, w):
        x = h @ head
        if variant == "F.cross_entropy":
            return F.cross_entropy(x, t, w, label_smoothing=label_smoothing)
        fused = " fused" in variant
        return ax.cross_entropy(x, t, w, label_smoothing=label_smoothing, fused=fused,
                                inplace=fused and variant.endswith("inplace"),
                                inplace_backward=variant.endswith("inplace_backward"))

    def problem(rows, cols):
        g = torch.Generator().manual_seed(0)
        h = torch.randn(rows, HIDDEN, generator=g).to(dt).requires_grad_()
        head = (torch.randn(HIDDEN, cols, generator=g) * 0.25).to(dt).requires_grad_()
        return h, head, torch.randint(0, cols, (rows,), generator=g), (0.5 + torch.rand(cols, generator=g)).to(dt)

    step(*problem(64, 1000)).backward()  # warm-up
    h, head, t, w = problem(n, c)
    base = _reset_peak()
    loss = step(h, head, t, w)
    fwd = _proc_status_kib("VmHWM")
    mid = _reset_peak()
    loss.backward()
    bwd = _proc_status_kib("VmHWM")
    after = _proc_status_kib("VmRSS")
    mib = 1.0 / 1024
    print(json.dumps({"variant": variant, "logits_mib": n * c * h.element_size() / 2**20,
                      "forward_peak_mib": (fwd - base) * mib, "backward_peak_mib": (bwd - base) * mib,
                      "after_forward_mib": (mid - base) * mib, "after_backward_mib": (after - base) * mib}))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=4096)
    ap.add_argument("--c", type=int, default=32000)
    ap.add_argument("--dtype", choices=sorted(DTYPES), default="bf16")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--label-smoothing", type=float, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.child, args.n, args.c, args.dtype, args.label_smoothing)
        return 0
    print(f"N={args.n} C={args.c} {args.dtype}, class weights, mean; MiB above the inputs (peak RSS, VmHWM)")
    print(f"{'variant':<30} {'smoothing':>9} {'forward peak':>13} {'backward peak':>14} {'after forward':>14} "
          f"{'after backward':>15}")
    for ls in SMOOTHING:
        for variant in VARIANTS:
            cmd = [sys.executable, os.path.abspath(__file__), "--child", variant, "--n", str(args.n),
                   "--c", str(args.c), "--dtype", args.dtype, "--label-smoothing", str(ls)]
            out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
            r = json.loads(out.splitlines()[-1])
            print(f"{variant:<30} {ls:>9} {r['forward_peak_mib']:>13.0f} {r['backward_peak_mib']:>14.0f} "
                  f"{r['after_forward_mib']:>14.0f} {r['after_backward_mib']:>15.0f}")
    print(f"(the logits are {r['logits_mib']:.0f} MiB; the gradient is as large)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
