"""Several Python threads calling the op at once.

Launches are not serialised: the simulator accepts overlapping registrations of
caller memory, so threads that share log_prob / weight / target run concurrently.
Every thread must get bitwise the single-threaded result, on shared and on
separate tensors, NumPy and torch alike; last_launch_stats() stays a coherent
record of one of the launches.
"""

import threading

import numpy as np
import pytest

import ascend_xent as ax
from conftest import golden_of, make_case

# NumPy inputs and simulator settings (cores, threads, counters): the sim backend only.
pytestmark = pytest.mark.requires_sim

THREADS = 4


def _run_threads(fns):
    """Run fns[i]() on its own thread, all released at once; returns results, re-raises errors."""
    barrier = threading.Barrier(len(fns))
    results = [None] * len(fns)
    errors = []

    def work(i):
        try:
            barrier.wait()
            results[i] = fns[i]()
        except BaseException as e:  # pragma: no cover - reported below
            errors.append((i, e))

    ths = [threading.Thread(target=work, args=(i,)) for i in range(len(fns))]
    for t in ths:
        t.start()
    for t in ths:
        t.join(timeout=600)
    assert not any(t.is_alive() for t in ths), "a thread hung"
    assert not errors, errors
    return results


@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "float16"])
def test_shared_inputs_bitwise_equal_to_single_thread(dtype):
    # Same log_prob, target, weight and lse objects in every thread; separate outputs.
    kw = make_case(257, 1500, dtype, reduction="mean", weight=True, label_smoothing=0.1,
                   zloss="on_gz", seed=5)
    ref = ax.cross_entropy_loss_grad(**kw)
    outs = [np.full_like(ref, 3.0) for _ in range(THREADS)]

    def call(i):
        return lambda: [ax.cross_entropy_loss_grad(**kw, out=outs[i]) for _ in range(3)][-1]

    res = _run_threads([call(i) for i in range(THREADS)])
    for i, r in enumerate(res):
        assert r is outs[i]
        assert r.tobytes() == ref.tobytes(), f"thread {i} differs from the single-threaded run"


def test_shared_inputs_different_options_per_thread():
    # Shared log_prob/target/weight, but each thread its own reduction/smoothing/z-loss:
    # the shared buffers are registered by launches with different tilings at once.
    base = make_case(300, 777, "float32", reduction="none", weight=True, zloss="on_gz", seed=9)
    variants = []
    for k, (red, ls, z) in enumerate([("mean", 0.0, 0.0), ("sum", 0.2, 1e-2), ("none", 0.05, 1e-3),
                                      ("mean", 1.0, 1e-2), ("sum", 0.0, 0.0), ("none", 0.0, 0.0)]):
        kw = dict(base)
        kw.update(reduction=red, label_smoothing=ls, lse_square_scale_for_zloss=z)
        if red != "none":
            kw["grad_loss"] = np.asarray(0.5 + k, np.float32)
            kw["grad_zloss"] = np.asarray(-0.25, np.float32)
        variants.append(kw)
    refs = [ax.cross_entropy_loss_grad(**kw) for kw in variants]
    res = _run_threads([lambda kw=kw: ax.cross_entropy_loss_grad(**kw) for kw in variants])
    for kw, r, ref in zip(variants, res, refs):
        assert r.tobytes() == ref.tobytes(), kw["reduction"]
        np.testing.assert_allclose(r, golden_of(kw), rtol=1e-5, atol=1e-6)


def test_separate_tensors_of_different_shapes():
    cases = [make_case(n, c, dt, reduction=red, weight=w, label_smoothing=0.1, zloss=z, seed=n + c)
             for n, c, dt, red, w, z in [(64, 3000, "bfloat16", "mean", True, "on"),
                                         (1, 70000, "float32", "none", False, "off"),
                                         (2000, 33, "float16", "sum", True, "on_gz"),
                                         (129, 257, "float32", "mean", False, "on_gz")]]
    refs = [ax.cross_entropy_loss_grad(**kw) for kw in cases]
    res = _run_threads([lambda kw=kw: ax.cross_entropy_loss_grad(**kw) for kw in cases])
    for r, ref in zip(res, refs):
        assert r.tobytes() == ref.tobytes()


def test_overlapping_views_of_one_buffer_across_threads():
    # Thread i reads rows [i*16, i*16 + 64) of one big log_prob: the launches' regions
    # overlap partially (not identical ranges), which the old registry refused.
    kw = make_case(16 * THREADS + 64, 515, "float32", reduction="sum", weight=True, seed=2)
    lp, t = kw["log_prob"], kw["target"]
    jobs = []
    for i in range(THREADS):
        sub = dict(kw, log_prob=lp[i * 16:i * 16 + 64], target=t[i * 16:i * 16 + 64])
        jobs.append(sub)
    refs = [ax.cross_entropy_loss_grad(**j) for j in jobs]
    res = _run_threads([lambda j=j: ax.cross_entropy_loss_grad(**j) for j in jobs])
    for r, ref in zip(res, refs):
        assert r.tobytes() == ref.tobytes()


def test_torch_threads_share_a_weight(torch):
    g = torch.Generator().manual_seed(0)
    weight = torch.rand(1000, generator=g) + 0.5
    logits = [torch.randn(96, 1000, generator=g, requires_grad=True) for _ in range(THREADS)]
    targets = [torch.randint(0, 1000, (96,), generator=g) for _ in range(THREADS)]

    def grad(i):
        x = logits[i].detach().clone().requires_grad_(True)
        ax.cross_entropy(x, targets[i], weight, label_smoothing=0.1).backward()
        return x.grad

    refs = [grad(i) for i in range(THREADS)]
    res = _run_threads([lambda i=i: grad(i) for i in range(THREADS)])
    for i in range(THREADS):
        assert torch.equal(res[i], refs[i])
        x = logits[i].detach().clone().requires_grad_(True)
        torch.nn.functional.cross_entropy(x, targets[i], weight, label_smoothing=0.1).backward()
        torch.testing.assert_close(res[i], x.grad, rtol=1e-5, atol=1e-7)


def test_errors_in_one_thread_do_not_disturb_others():
    good = make_case(64, 400, "float32", reduction="mean", weight=True, seed=1)
    ref = ax.cross_entropy_loss_grad(**good)
    bad = dict(good, target=good["target"].copy())
    bad["target"][7] = 400  # out of range: ValueError

    def run_bad():
        with pytest.raises(ValueError, match=r"target\[7\] = 400"):
            ax.cross_entropy_loss_grad(**bad)
        return "raised"

    fns = [run_bad if i % 2 else (lambda: ax.cross_entropy_loss_grad(**good)) for i in range(THREADS)]
    res = _run_threads(fns)
    for i, r in enumerate(res):
        if i % 2:
            assert r == "raised"
        else:
            assert r.tobytes() == ref.tobytes()


def test_stats_stay_coherent_under_concurrency():
    a = make_case(50, 2000, "float32", reduction="none", seed=3)
    b = make_case(700, 60, "bfloat16", reduction="mean", weight=True, label_smoothing=0.1, seed=4)
    ax.cross_entropy_loss_grad(**a)
    sa = ax.last_launch_stats()
    ax.cross_entropy_loss_grad(**b)
    sb = ax.last_launch_stats()
    keys = ("gm_read_bytes", "gm_write_bytes", "block_dim", "tile_rows", "tile_cols", "mode")
    assert tuple(sa[k] for k in keys) != tuple(sb[k] for k in keys)
    _run_threads([lambda kw=(a if i % 2 else b): ax.cross_entropy_loss_grad(**kw) for i in range(THREADS)])
    st = ax.last_launch_stats()
    # One launch's record, never a mix of two.
    assert tuple(st[k] for k in keys) in (tuple(sa[k] for k in keys), tuple(sb[k] for k in keys))
    assert st["kernel"] == "cross_entropy_loss_grad" and st["wall_seconds"] > 0
    per_block = sum(pb["gm_read_bytes"] for pb in st["per_block"])  # the main kernel's blocks
    if st["launches"] == 1:
        assert per_block == st["gm_read_bytes"]
    else:  # the totals add the sums launch's reads (targets, weights)
        assert 0 < per_block < st["gm_read_bytes"]
