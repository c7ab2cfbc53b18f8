"""ascend_xent.parallel.vocab_parallel_cross_entropy in 2 and 4 processes (gloo, 127.0.0.1),
each launch running many cases (vocab_parallel_worker.py: what is compared, tolerances)."""

from __future__ import annotations

import itertools
import socket

import pytest

torch = pytest.importorskip("torch")
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402

import vocab_parallel_worker  # noqa: E402

pytestmark = pytest.mark.skipif(not dist.is_available() or not dist.is_gloo_available(),
                                reason="torch.distributed with gloo is not available")

LAUNCH_TIMEOUT_S = 300
DTYPES = ("float32", "float16", "bfloat16")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch(widths, cases):
    """Runs the cases on len(widths) ranks; returns every failure message."""
    ctx = mp.get_context("spawn")
    results = ctx.Queue()
    world, port = len(widths), free_port()
    procs = [ctx.Process(target=vocab_parallel_worker.worker, args=(r, world, port, widths, cases, results))
             for r in range(world)]
    for p in procs:
        p.start()
    failures, seen = [], set()
    try:
        for _ in procs:
            rank, errs = results.get(timeout=LAUNCH_TIMEOUT_S)
            seen.add(rank)
            failures += errs
    except Exception as e:  # queue.Empty: a rank hung or died
        failures.append(f"ranks {sorted(set(range(world)) - seen)} reported nothing in "
                        f"{LAUNCH_TIMEOUT_S} s ({type(e).__name__})")
    finally:
        for p in procs:
            p.join(timeout=10)
            if p.is_alive():
                p.kill()
    return failures


def assert_none(failures):
    """Every failure in full (pytest would cut a long list's repr in the middle)."""
    if failures:
        pytest.fail(f"{len(failures)} failures:\n" + "\n".join(failures), pytrace=False)


def test_two_ranks_every_option_and_dtype():
    """Uneven 37 + 91 columns: every reduction x weight x label smoothing x z-loss x dtype,
    ignore_index alternating between -100 and a class index."""
    cases = [dict(dtype=dt, reduction=red, weight=w, ls=ls, z=z, n=48, ignore_index=(-100, 5)[(k // 3) % 2],
                  seed=k)
             for k, (dt, red, w, ls, z) in enumerate(itertools.product(
                 DTYPES, ("mean", "sum", "none"), (False, True), (0.0, 0.1), (0.0, 1e-3)))]
    assert_none(launch([37, 91], cases))


def test_four_ranks_uneven_empty_rows_and_targetless_ranks():
    """1 + 50 + 7 + 70 columns; N = 0; every target in rank 0's single column (ranks 1-3
    hold none); mixed options in every dtype."""
    cases = []
    for k, (dt, red, w) in enumerate(itertools.product(DTYPES, ("mean", "sum", "none"), (False, True))):
        common = dict(dtype=dt, reduction=red, weight=w, ignore_index=(-100, 60)[k % 2])
        cases.append(dict(common, ls=(0.0, 0.2)[k % 2], z=(1e-3, 0.0)[k % 3 == 0], n=33, seed=100 + k))
        cases.append(dict(common, ls=0.1, z=1e-3, n=17, seed=200 + k, target_classes=1))
    for red in ("mean", "sum", "none"):
        cases.append(dict(dtype="float32", reduction=red, weight=True, ls=0.1, z=1e-3, n=0,
                          ignore_index=-100, seed=300))
    assert_none(launch([1, 50, 7, 70], cases))


def _refused(expect, **kw):
    return dict(expect={"all": expect}, **kw)


def test_two_ranks_refuse_alike_and_column_major_shards():
    """Targets out of range and ranks that disagree (N, dtype, options, weight, targets) are a
    ValueError on every rank, from the first all_gather (no rank left in a collective, no loss
    that differs between ranks); a weight that requires grad and a rank outside the group are
    refused before any collective. Column-major shards give the row-major result."""
    c = 3 + 4
    oob = ("ValueError", f"target: target[2] = {c} is out of range [0, {c}) and is not ignore_index (-100)")
    neg = ("ValueError", "target: target[1] = -1 is out of range [0, 7)")
    cases = [
        _refused(oob, all_args=dict(target=[0, 1, c, 3, 4])),
        _refused(oob, all_args=dict(target=[0, 1, c, 3, 4], weight=True, reduction="sum")),
        _refused(neg, all_args=dict(target=[0, -1, 2, 3, 4], weight=True)),
        _refused(("ValueError", "logits: the ranks of the group disagree on the N (rank 0 and rank 1: 5 and 6)"),
                 rank_args={1: dict(n=6)}),
        _refused(("ValueError", "logits: the ranks of the group disagree on the dtype (rank 0 and rank 1: float32 "
                                "and float16)"), rank_args={1: dict(dtype=torch.float16)}),
        _refused(("ValueError", "weight: the ranks of the group disagree on the weight"),
                 rank_args={0: dict(weight=True)}),
        _refused(("ValueError", "reduction: the ranks of the group disagree on the reduction (rank 0 and rank 1: "
                                "'mean' and 'sum')"), rank_args={1: dict(reduction="sum")}),
        _refused(("ValueError", "ignore_index: the ranks of the group disagree"), rank_args={1: dict(ignore_index=3)}),
        _refused(("ValueError", "label_smoothing: the ranks of the group disagree on the label_smoothing (rank 0 "
                                "and rank 1: 0.0 and 0.1)"), rank_args={1: dict(label_smoothing=0.1)}),
        _refused(("ValueError", "lse_square_scale_for_zloss: the ranks of the group disagree"),
                 rank_args={0: dict(lse_square_scale_for_zloss=1e-4)}),
        _refused(("ValueError", "target: the ranks of the group disagree on the target checksum"),
                 rank_args={1: dict(target=[0, 1, 2, 3, 5])}),
        _refused(("RuntimeError", "weight: the function 'cross_entropy' is not differentiable"),
                 all_args=dict(weight=True, weight_requires_grad=True)),
        dict(expect={"all": None}, rank_args={1: dict(label_smoothing=-0.0)}),  # the same option as 0.0
        dict(expect={0: None, 1: ("ValueError", "group: this process (global rank 1) is not a member of the group")},
             group_of_rank_0=True, all_args=dict(target=[0, 1, 2, 0, 1])),
    ]
    cases += [dict(dtype=dt, reduction=red, weight=True, ls=0.1, z=1e-3, n=24, ignore_index=-100, seed=50 + k,
                   column_major=True)
              for k, (dt, red) in enumerate(itertools.product(DTYPES, ("mean", "none")))]
    assert_none(launch([3, 4], cases))
