"""Determinism: bitwise the same output across repeated runs, host thread
counts 1 and 2, and core counts 1, 7, 40 and 48 (the prologue's cross-core sums of
W, M and sum_k w_k are chunked independently of the core count)."""

import itertools
import os
import subprocess
import sys

import numpy as np
import pytest

import ascend_xent as ax
from conftest import make_case

# NumPy inputs and simulator settings (cores, threads, counters): the sim backend only.
pytestmark = pytest.mark.requires_sim

CORES = (1, 7, 40, 48)
THREADS = (1, 2)

CASES = [
    # (n, c, dtype, reduction, weight, smoothing, zloss): prologue with several row and weight chunks,
    # column split, row packed, none without prologue.
    (4500, 300, "bfloat16", "mean", True, 0.1, "on_gz"),
    (3, 70001, "float32", "mean", True, 0.05, "on"),
    (257, 4097, "float16", "sum", True, 0.2, "off"),
    (2800, 33, "float32", "none", False, 0.0, "on_gz"),
    # 64 rows under mean: every core sums W and M itself (no cross-core prologue).
    (64, 8000, "bfloat16", "mean", True, 0.0, "on"),
]


@pytest.fixture
def restore_settings():
    yield
    ax.set_cores(0)
    ax.set_threads(0)


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}x{c[1]}-{c[2]}-{c[3]}" for c in CASES])
def test_bitwise_across_cores_threads_and_repeats(case, restore_settings):
    n, c, dtype, reduction, weight, ls, zloss = case
    kw = make_case(n, c, dtype, reduction=reduction, weight=weight, label_smoothing=ls, zloss=zloss,
                   seed=n ^ c)
    if ax.current_profile()["vector_cores"] < max(CORES):
        pytest.skip("the default profile has fewer than 48 cores")
    first, seen = None, []
    for cores, threads in itertools.product(CORES, THREADS):
        ax.set_cores(cores)
        ax.set_threads(threads)
        for rep in range(2):
            out = ax.cross_entropy_loss_grad(**kw)
            st = ax.last_launch_stats()
            assert st["block_dim"] <= cores
            # Problems of at most 2^17 elements run on one host thread whatever the setting.
            assert st["host_threads"] == (1 if n * c <= 1 << 17 else threads)
            if first is None:
                first = out.tobytes()
            assert out.tobytes() == first, f"differs at cores={cores} threads={threads} rep={rep}"
            seen.append(st["block_dim"])
    assert len(set(seen)) >= 3, seen  # the core count really changed the launch


def test_bitwise_across_socs():
    kw = make_case(2100, 500, "bfloat16", reduction="mean", weight=True, label_smoothing=0.1,
                   zloss="on_gz", seed=4)
    outs = {}
    try:
        for p in ax.profiles():
            ax.set_soc(p["name"])
            outs[p["name"]] = ax.cross_entropy_loss_grad(**kw).tobytes()
    finally:
        ax.set_soc(None)
    assert len(set(outs.values())) == 1, list(outs)


def test_environment_variables_give_the_same_bits(tmp_path):
    # ASCEND_XENT_CORES / ASCEND_XENT_THREADS in fresh processes, against this process.
    kw = make_case(2500, 123, "float16", reduction="mean", weight=True, label_smoothing=0.1, zloss="on",
                   seed=12)
    ref = ax.cross_entropy_loss_grad(**kw)
    np.savez(tmp_path / "in.npz", **{k: v for k, v in kw.items() if isinstance(v, np.ndarray)})
    code = f"""
import numpy as np, ascend_xent as ax, sys

d = dict(np.load({str(tmp_path / 'in.npz')!r}))
out = ax.cross_entropy_loss_grad(d['grad_loss'], d['log_prob'], d['target'], d['weight'], None,
                                 d['lse_for_zloss'], 'mean', -100, 0.1, 1e-2)
st = ax.last_launch_stats()
sys.stdout.write(out.tobytes().hex()[:0] + str(st['block_dim']) + ' ' + str(st['host_threads']) + '\\n')
np.save({str(tmp_path / 'out.npy')!r}, out.view(np.uint16))
"""
    for cores, threads in (("7", "1"), ("40", "2")):
        env = dict(os.environ, ASCEND_XENT_CORES=cores, ASCEND_XENT_THREADS=threads)
        r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stderr
        block_dim, host_threads = map(int, r.stdout.split())
        assert block_dim <= int(cores) and host_threads <= int(threads)
        got = np.load(tmp_path / "out.npy")
        assert got.tobytes() == ref.view(np.uint16).tobytes(), (cores, threads)
