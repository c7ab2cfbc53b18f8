#!/usr/bin/env python3
"""Vocab-parallel cross-entropy (ascend_xent.parallel) against the single-process op.

For N x C logits (default 4096 x 128256, bf16, mean, class weights, label smoothing 0.1,
z-loss 1e-4), prints medians over --reps of
  single   ascend_xent.cross_entropy on the whole (N, C) in one process: forward
           (PyTorch ops) and backward (the kernel on the simulator)
  R ranks  vocab_parallel_cross_entropy in R processes (gloo over 127.0.0.1), the vocabulary
           split as evenly as it goes: per rank the forward and the backward (the slowest
           rank of each rep: wall time, and CPU time of all the rank's threads, which
           sharing the cores with the other ranks inflates much less), and the bytes each
           rank hands to the collectives (payload),
           with what a ring algorithm sends per rank (all_reduce 2 (R-1)/R x payload,
           all_gather (R-1) x the rank's part)
Every process gets max(1, cores / R) torch and simulator threads: the ranks share the
host's cores, so per-rank times on R > cores ranks include waiting for a core.

usage: bench_vocab_parallel.py [--n N] [--c C] [--ranks 2 4] [--dtype bf16] [--reps K]
"""

from __future__ import annotations

import argparse
import datetime
import os
import socket
import statistics
import time

DTYPES = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16"}
OPTIONS = dict(reduction="mean", label_smoothing=0.1, lse_square_scale_for_zloss=1e-4)


def problem(n, c, dtype, seed=0):
    import torch

    g = torch.Generator().manual_seed(seed)
    logits = (2.0 * torch.randn(n, c, generator=g)).to(dtype)
    target = torch.randint(0, c, (n,), generator=g)
    target[torch.rand(n, generator=g) < 0.05] = -100
    weight = (0.5 + torch.rand(c, generator=g)).to(dtype)
    return logits, target, weight


def timed(fn):
    """(wall seconds, CPU seconds of all the process's threads, fn())"""
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return time.perf_counter() - t0, time.process_time() - c0, out


def single(n, c, dtype, reps):
    import torch
    import ascend_xent as ax

    logits, target, weight = problem(n, c, dtype)
    fwd, bwd = [], []
    for _ in range(reps + 1):  # the first is a warm-up
        x = logits.clone().requires_grad_(True)
        *tf, loss = timed(lambda: ax.cross_entropy(x, target, weight, **OPTIONS))
        *tb, _ = timed(lambda: loss.backward())
        fwd.append(tf)
        bwd.append(tb)
        del x, loss
    return medians(fwd[1:]), medians(bwd[1:])


def medians(times):
    """(median wall, median CPU) of (wall, CPU) pairs"""
    return tuple(statistics.median(t[k] for t in times) for k in range(2))


class Counter:
    """Payload bytes of every collective this process starts, by wrapping torch.distributed."""

    def __init__(self, dist):
        self.payload = self.ring = 0
        world = dist.get_world_size()
        reduce_, gather = dist.all_reduce, dist.all_gather

        def all_reduce(t, *a, **k):
            b = t.numel() * t.element_size()
            self.payload += b
            self.ring += 2 * (world - 1) * b // world
            return reduce_(t, *a, **k)

        def all_gather(out, t, *a, **k):
            b = t.numel() * t.element_size()
            self.payload += b
            self.ring += (world - 1) * b
            return gather(out, t, *a, **k)

        dist.all_reduce, dist.all_gather = all_reduce, all_gather


def rank_main(rank, world, port, n, c, dtype_name, reps, threads, results):
    os.environ["ASCEND_XENT_THREADS"] = str(threads)
    import torch
    import torch.distributed as dist

    torch.set_num_threads(threads)
    import ascend_xent.parallel as vp

    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=600))
    dtype = getattr(torch, dtype_name)
    logits, target, weight = problem(n, c, dtype)
    widths = [c // world + (r < c % world) for r in range(world)]
    lo = sum(widths[:rank])
    shard = logits[:, lo: lo + widths[rank]].contiguous()
    w_shard = weight[lo: lo + widths[rank]].contiguous()
    del logits, weight
    counter = Counter(dist)
    fwd, bwd, payload, ring = [], [], 0, 0
    for _ in range(reps + 1):  # the first is a warm-up
        x = shard.clone().requires_grad_(True)
        dist.barrier()
        counter.payload = counter.ring = 0
        *tf, loss = timed(lambda: vp.vocab_parallel_cross_entropy(x, target, weight=w_shard, **OPTIONS))
        payload, ring = counter.payload, counter.ring
        *tb, _ = timed(lambda: loss.backward())
        fwd.append(tf)
        bwd.append(tb)
        del x, loss
    every = [None] * world
    dist.all_gather_object(every, (fwd, bwd))
    if rank == 0:  # per rep, the slowest rank's wall time and the largest CPU time
        fwd_max = [[max(f[i][k] for f, _ in every) for k in range(2)] for i in range(1, reps + 1)]
        bwd_max = [[max(b[i][k] for _, b in every) for k in range(2)] for i in range(1, reps + 1)]
        results.put((medians(fwd_max), medians(bwd_max), payload, ring, widths))
    dist.destroy_process_group()


def parallel(world, n, c, dtype_name, reps):
    import torch.multiprocessing as mp

    ctx = mp.get_context("spawn")
    results = ctx.Queue()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    threads = max(1, (os.cpu_count() or 1) // world)
    procs = [ctx.Process(target=rank_main, args=(r, world, port, n, c, dtype_name, reps, threads, results))
             for r in range(world)]
    for p in procs:
        p.start()
    out = results.get(timeout=1800)
    for p in procs:
        p.join(timeout=60)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=4096)
    ap.add_argument("--c", type=int, default=128256)
    ap.add_argument("--ranks", type=int, nargs="+", default=[2, 4])
    ap.add_argument("--dtype", choices=sorted(DTYPES), default="bf16")
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args()
    import torch

    dtype = getattr(torch, DTYPES[a.dtype])
    elem = torch.empty((), dtype=dtype).element_size()
    print(f"N = {a.n}, C = {a.c}, {a.dtype}, {OPTIONS}, class weights; "
          f"medians of {a.reps} reps after a warm-up; {os.cpu_count()} cores")
    print(f"{'':>10} {'classes/rank':>13} {'fwd wall s':>11} {'fwd CPU s':>10} {'bwd wall s':>11} "
          f"{'bwd CPU s':>10} {'payload B/rank':>15} {'ring B/rank':>12} {'N*C_r*elem B':>13}")

    def row(name, classes, tf, tb, payload, ring):
        print(f"{name:>10} {classes:>13} {tf[0]:>11.3f} {tf[1]:>10.3f} {tb[0]:>11.3f} {tb[1]:>10.3f} "
              f"{payload:>15} {ring:>12} {a.n * classes * elem:>13}")

    torch.set_num_threads(os.cpu_count() or 1)
    row("single", a.c, *single(a.n, a.c, dtype, a.reps), 0, 0)
    for world in a.ranks:
        tf, tb, payload, ring, widths = parallel(world, a.n, a.c, DTYPES[a.dtype], a.reps)
        row(f"{world} ranks", widths[0], tf, tb, payload, ring)


if __name__ == "__main__":
    main()
