"""The kernel against the float64 golden, over every option (on the test backend:
the simulator, or the NPU under ASCEND_XENT_BACKEND=npu, see conftest.py).

Tolerance: torch.testing.assert_close defaults for the output dtype after dividing
both sides by max |golden| (fp32 rtol 1.3e-6 atol 1e-5; fp16 1e-3/1e-5;
bf16 1.6e-2/1e-5), see conftest.TOL.
"""

import itertools
import zlib

import numpy as np
import pytest

import ascend_xent as ax
from conftest import (DTYPES, ON_NPU, assert_close_scaled, from_backend, golden_of, make_case, run_grad,
                      to_backend)

REDUCTIONS = ("mean", "sum", "none")
SMOOTHING = (0.0, 0.1, 1.0)
ZLOSS = ("off", "on", "on_gz")
TARGETS = ("int32", "int64")
N, C = 19, 41  # C not a multiple of 8 or 16


def _ignore_values(c):
    return (-100, 0, c - 1)


MATRIX = list(itertools.product(REDUCTIONS, (False, True), SMOOTHING, ZLOSS, DTYPES, TARGETS,
                                ("-100", "0", "C-1")))


def _ii(tag, c):
    return {"-100": -100, "0": 0, "C-1": c - 1}[tag]


@pytest.mark.parametrize(
    "reduction,weight,ls,zloss,dtype,target_dtype,ii", MATRIX,
    ids=[f"{r}-{'w' if w else 'now'}-ls{ls}-z{z}-{d}-{t}-ii{i}" for r, w, ls, z, d, t, i in MATRIX])
def test_matrix(reduction, weight, ls, zloss, dtype, target_dtype, ii, torch):
    seed = zlib.crc32(repr((reduction, weight, ls, zloss, dtype, target_dtype, ii)).encode())
    kw = make_case(N, C, dtype, reduction=reduction, weight=weight, label_smoothing=ls,
                   zloss=zloss, target_dtype=target_dtype, ignore_index=_ii(ii, C), seed=seed)
    out = run_grad(**kw)
    assert out.dtype == kw["log_prob"].dtype and out.shape == (N, C)
    assert_close_scaled(out, golden_of(kw), dtype, f"{reduction} w={weight} ls={ls} z={zloss}")


# Row-packed tiles whose rows have different scales (random class weights, or per-row
# grad_loss under none) take one instruction per 64-column stripe over a piece's rows,
# with runs of ignored rows (ignore_frac) cut out of the stripes.
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction,weight,ls", [("mean", True, 0.1), ("sum", True, 0.1), ("mean", True, 0.0),
                                                 ("none", False, 0.0), ("none", True, 0.1)])
@pytest.mark.parametrize("shape", [(300, 257), (130, 100)], ids=["300x257", "130x100"])
def test_rows_with_their_own_scales(shape, reduction, weight, ls, dtype, torch):
    n, c = shape
    kw = make_case(n, c, dtype, reduction=reduction, weight=weight, label_smoothing=ls, ignore_frac=0.3,
                   seed=n + c)
    if weight:
        assert np.ptp(kw["weight"]) > 0  # rows then differ in scale
    out = run_grad(**kw)
    assert_close_scaled(out, golden_of(kw), dtype, f"{shape} {reduction} w={weight} ls={ls}")
    assert np.all(out[kw["target"] == -100] == 0)


SHAPES = [(1, 1), (7, 1), (1, 7), (5, 9), (1, 256), (1, 257), (19, 41), (255, 7), (7, 257),
          (601, 9), (8, 883), (16, 984), (256, 255), (257, 257), (64, 15), (64, 17),
          (3, 4097), (1, 20000), (1, 131073), (4096, 3)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=[f"{n}x{c}" for n, c in SHAPES])
def test_shapes(shape, dtype, torch):
    n, c = shape
    for reduction, weight, ls, zloss in (("mean", True, 0.1, "on_gz"), ("none", False, 0.0, "off")):
        kw = make_case(n, c, dtype, reduction=reduction, weight=weight, label_smoothing=ls,
                       zloss=zloss, seed=n * 7919 + c)
        out = run_grad(**kw)
        assert_close_scaled(out, golden_of(kw), dtype, f"{shape} {reduction}")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("c", [1, 64])
def test_all_rows_ignored_mean_gives_zero(c, dtype):
    kw = make_case(8, c, dtype, reduction="mean", weight=True, label_smoothing=0.1, zloss="on_gz",
                   ignore_frac=1.0)
    assert (kw["target"] == -100).all()
    out = run_grad(**kw)
    assert np.all(out.astype(np.float64) == 0.0)


def test_ignore_index_any_int64():
    for ii in (-(2**63), 2**63 - 1, -1, 5):
        kw = make_case(12, 6, "float32", reduction="sum", ignore_index=ii, seed=3)
        kw["target"][::3] = ii  # such rows are ignored
        out = run_grad(**kw)
        ref = golden_of(kw)
        np.testing.assert_allclose(out, ref, rtol=1.3e-6, atol=1e-5 * np.abs(ref).max())
        assert np.all(out[kw["target"] == ii] == 0)


def test_empty_batch():
    kw = make_case(0, 5, "float32", reduction="none")
    out = run_grad(**kw)
    assert out.shape == (0, 5)


def test_python_number_grad_loss_sum_and_mean():
    for reduction in ("mean", "sum"):
        kw = make_case(9, 13, "float32", reduction=reduction, zloss="on_gz")
        kw["grad_loss"] = 0.75
        kw["grad_zloss"] = -1.5
        out = run_grad(**kw)
        ref = golden_of(kw)
        np.testing.assert_allclose(out, ref, rtol=1.3e-6, atol=1e-5 * np.abs(ref).max())


def test_out_is_written_in_place():
    kw = make_case(33, 70, "bfloat16", reduction="mean", zloss="on")
    out = np.full(kw["log_prob"].shape, 7.0, dtype=kw["log_prob"].dtype)
    if ON_NPU:
        dev_out = to_backend(out)
        res = ax.cross_entropy_loss_grad(**{k: to_backend(v) for k, v in kw.items()}, out=dev_out)
        assert res is dev_out
        out = from_backend(dev_out)
    else:
        res = ax.cross_entropy_loss_grad(**kw, out=out)
        assert res is out
    assert_close_scaled(out.astype(np.float64), golden_of(kw), "bfloat16")


def test_golden_c1_is_all_zero_without_smoothing():
    # With one class, p = 1 and the gradient is 0 (up to the z-loss term).
    kw = make_case(6, 1, "float32", reduction="mean", weight=False)
    out = run_grad(**kw)
    np.testing.assert_allclose(out, 0.0, atol=1e-6)


LARGE = [(257, 131073), (131073, 257), (1, 2_000_003)]


@pytest.mark.large
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", LARGE, ids=[f"{n}x{c}" for n, c in LARGE])
def test_large(shape, dtype, torch):
    n, c = shape
    kw = make_case(n, c, dtype, reduction="mean", weight=True, label_smoothing=0.1, zloss="on_gz",
                   seed=11)
    out = run_grad(**kw)
    st = ax.last_launch_stats()
    ref = golden_of(kw)
    assert_close_scaled(out, ref, dtype, f"{shape}")
    if not ON_NPU:  # GM traffic is counted by the simulator only
        assert st["gm_read_bytes"] + st["gm_write_bytes"] <= traffic_bound(n, c, dtype, kw)


def traffic_bound(n, c, dtype, kw):
    """1.02 * N*C*(in + out bytes) + 64*(N + C) + 1 MiB (per-row/per-class vectors, tiling, partials)."""
    item = 4 if dtype == "float32" else 2
    return 1.02 * n * c * 2 * item + 64 * (n + c) + (1 << 20)


# Row-packed tiles scale a run of rows with the same scale_i (and add the same
# smooth_i) in one vector call. Runs broken by ignored rows, zero and negative-zero
# upstream gradients, and equal values across tile boundaries all match the golden.
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ls", [0.0, 0.1])
@pytest.mark.parametrize("reduction", ["none", "mean"])
def test_row_runs_in_packed_tiles(reduction, ls, dtype):
    n, c = 1500, 9
    kw = make_case(n, c, dtype, reduction=reduction, weight=False, label_smoothing=ls, ignore_frac=0.0,
                   seed=1500 + int(ls * 10))
    t = kw["target"]
    t[100:140] = kw["ignore_index"]  # a block of dead rows
    t[200::37] = kw["ignore_index"]  # scattered ones
    if reduction == "none":
        g = kw["grad_loss"].astype(np.float64)
        g[:600] = 1.5                # one long run across several tiles
        g[600:650] = 0.0
        g[650:700] = -0.0
        g[700:900:2] = 0.25          # alternating: runs of one row
        kw["grad_loss"] = g.astype(kw["log_prob"].dtype)
    out = run_grad(**kw)
    assert_close_scaled(out, golden_of(kw), dtype, f"{reduction} ls={ls}")


@pytest.mark.skipif(ON_NPU, reason="simulator counters")
def test_uniform_row_scales_take_one_muls_per_tile():
    n, c = 4096, 17
    kw = make_case(n, c, "float32", reduction="mean", weight=False, ignore_frac=0.0)
    run_grad(**kw)
    st = ax.last_launch_stats()
    tiles = st["row_tiles"] * st["col_tiles"]
    assert st["tile_rows"] > 1
    # The main kernel (per_block; the totals add the sums launch before it): Exp and one
    # Muls per piece of a tile (pieces of at most 64 rows), plus per block the sums of the
    # slots of that launch (about 20 instructions for one batch of up to 128 slots) and
    # the 4 that code a staging's targets (one staging per block here), not one Muls per row.
    main = sum(b["vector_instructions"] for b in st["per_block"])
    pieces = tiles * -(-st["tile_rows"] // 64)
    assert main <= 2 * pieces + 28 * st["blocks_used"], (main, tiles, n)
