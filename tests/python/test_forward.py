"""The forward kernel (``ascend_xent.cross_entropy_loss``, aclnnCrossEntropyLoss) against
references no one here wrote: PyTorch's F.cross_entropy / log_softmax / logsumexp in
float64, and the float64 golden of the formulas (``ascend_xent.golden.cross_entropy``).

Tolerances (``golden.compare``, both sides divided by max |reference|, then
``|a - e| <= atol + rtol |e|``): float32 rtol 1.3e-6, atol 1e-5; float16 rtol 1e-3,
atol 1e-5; bfloat16 rtol 1.6e-2, atol 1e-5 (``golden.TOLERANCES``). The kernel computes
in float32 and rounds each output once, so half an ulp of the output dtype plus a few
float32 ulps is what these allow.
"""

import itertools
import math

import ml_dtypes
import numpy as np
import pytest

import ascend_xent as ax
from ascend_xent import golden

torch = pytest.importorskip("torch")
import torch.nn.functional as F  # noqa: E402

DTYPES = ("float32", "float16", "bfloat16")
NP_DTYPES = {"float32": np.float32, "float16": np.float16, "bfloat16": ml_dtypes.bfloat16}


def _inputs(n, c, dtype="float32", seed=0, ignore_index=-100, target_dtype=np.int64, spread=4.0):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal((n, c)) * spread).astype(NP_DTYPES[dtype])
    t = rng.integers(0, c, n).astype(target_dtype)
    t[::7] = ignore_index
    w = rng.uniform(0.1, 2.1, c).astype(np.float32)
    return x, t, w


def _check_against_golden(out, x, t, w, reduction, ii, ls, z, dtype, label):
    ref = golden.cross_entropy(x, t, w, reduction, ii, ls, z)
    check_outputs(("loss", "log_prob", "zloss", "lse_for_zloss"), out, ref, dtype, label)


def check_outputs(names, out, ref, dtype, label):
    """Each output has the dtype and shape of the reference, NaN where it is, and is
    within the dtype's tolerance of it elsewhere."""
    for name, got, want in zip(names, out, ref):
        got = np.asarray(got)
        assert got.dtype == NP_DTYPES[dtype], (label, name)
        want = np.asarray(want, dtype=np.float64)
        assert got.shape == want.shape, (label, name, got.shape, want.shape)
        nan = np.isnan(want)  # mean over no counted row: NaN, as PyTorch
        assert np.array_equal(np.isnan(got.astype(np.float64)), nan), (label, name)
        res = golden.compare(got[~nan], want[~nan], dtype)
        assert res["ok"], (label, name, res)


# --------------------------------------------------------------------------------------
# The option matrix, NumPy in and out, in both kernel paths
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("n,c", [(37, 1001), (3, 40000)], ids=["whole_rows", "column_tiles"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_option_matrix_against_golden(n, c, dtype, reduction):
    for k, (weighted, ls, z) in enumerate(itertools.product((False, True), (0.0, 0.1), (0.0, 1e-2))):
        ii = -100 if k % 2 else 3
        target_dtype = np.int32 if k % 3 == 0 else np.int64
        x, t, w = _inputs(n, c, dtype, seed=k, ignore_index=ii, target_dtype=target_dtype)
        w = w if weighted else None
        out = ax.cross_entropy_loss(x, t, w, reduction, ii, ls, z)
        _check_against_golden(out, x, t, w, reduction, ii, ls, z, dtype,
                              f"{n}x{c} {dtype} {reduction} w={weighted} ls={ls} z={z}")


@pytest.mark.parametrize("n,c", [(1, 1), (2, 3), (5, 7), (19, 41), (1, 257), (65, 8), (601, 9),
                                 (8, 883), (255, 257), (2, 18433), (1, 131073)])
def test_ragged_shapes(n, c):
    for dtype, reduction in zip(DTYPES, ("none", "mean", "sum")):
        x, t, w = _inputs(n, c, dtype, seed=n + c)
        out = ax.cross_entropy_loss(x, t, w, reduction, -100, 0.1, 1e-3)
        _check_against_golden(out, x, t, w, reduction, -100, 0.1, 1e-3, dtype, f"{n}x{c} {dtype}")


@pytest.mark.large
def test_large_vocabulary_bf16():
    x, t, w = _inputs(64, 128256, "bfloat16", seed=3)
    out = ax.cross_entropy_loss(x, t, w, "mean", -100, 0.1, 1e-4)
    _check_against_golden(out, x, t, w, "mean", -100, 0.1, 1e-4, "bfloat16", "64x128256")


# --------------------------------------------------------------------------------------
# Against PyTorch (float64 references of its own functions)
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("weighted,ls,scale", [(False, 0.0, 0.0), (True, 0.2, 0.0), (True, 0.0, 1e-3),
                                               (False, 0.1, 1e-2)])
def test_against_torch(dtype, reduction, weighted, ls, scale):
    g = torch.Generator().manual_seed(1)
    x = (torch.randn(33, 517, generator=g) * 3).to(dtype)
    t = torch.randint(0, 517, (33,), generator=g)
    t[::4] = -100
    w = (torch.rand(517, generator=g) + 0.5).to(dtype) if weighted else None
    loss, log_prob, zloss, lse = ax.cross_entropy_loss(x, t, w, reduction, -100, ls, scale)
    x64, w64 = x.double(), (w.double() if weighted else None)
    lse64 = torch.logsumexp(x64, -1)
    z_rows = torch.where(t != -100, scale * lse64 * lse64, torch.zeros_like(lse64))
    counted = int((t != -100).sum())
    z = {"none": z_rows, "sum": z_rows.sum(), "mean": z_rows.sum() / counted}[reduction]
    want = F.cross_entropy(x64, t, w64, ignore_index=-100, reduction=reduction, label_smoothing=ls) + z
    tol = dict(golden.TOLERANCES)[str(dtype).replace("torch.", "")]
    for got, ref in ((loss, want), (log_prob, torch.log_softmax(x64, -1)), (zloss, z), (lse, lse64)):
        assert got.dtype == dtype and got.shape == ref.shape
        scale_ = float(ref.abs().max()) or 1.0
        torch.testing.assert_close(got.double() / scale_, ref / scale_, rtol=tol[0], atol=tol[1])


def infinite_rows(c, dtype):
    """Rows 0-2 with a +inf logit, all -inf, +inf beside -inf; row 3 masked (-inf) but
    finite; row 4 plain. Each +inf sits in the last column tile when C is large."""
    g = torch.Generator().manual_seed(3)
    x = torch.randn(5, c, generator=g, dtype=torch.float64) * 2
    x[0, c - 5] = math.inf
    x[1] = -math.inf
    x[2, c - 3] = math.inf
    x[2, : c // 2] = -math.inf
    x[3, 1::2] = -math.inf
    return x.to(dtype)


@pytest.mark.parametrize("c", [1001, 40000], ids=["whole_rows", "column_tiles"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_infinite_logits_as_pytorch(c, dtype):
    """lse is torch.logsumexp's +inf / -inf for a row with a +inf or of -inf only (its
    z-loss s * lse^2 then +inf); log_prob and the loss are NaN there, as torch gives."""
    x = infinite_rows(c, dtype)
    t = torch.tensor([1, 2, 0, 0, 5])
    loss, log_prob, zloss, lse = ax.cross_entropy_loss(x, t, None, "none", -100, 0.0, 1e-3)
    x64 = x.double()
    want_lse = torch.logsumexp(x64, -1)
    assert torch.equal(lse.double()[:3], want_lse[:3])  # +inf, -inf, +inf
    torch.testing.assert_close(lse.double()[3:], want_lse[3:], rtol=1.6e-2, atol=1e-5)
    want_lp = F.log_softmax(x64, -1)
    assert torch.equal(torch.isnan(log_prob), torch.isnan(want_lp))
    assert torch.equal(torch.isinf(log_prob), torch.isinf(want_lp))
    want_loss = F.cross_entropy(x64, t, reduction="none") + 1e-3 * want_lse ** 2
    assert torch.equal(torch.isnan(loss), torch.isnan(want_loss)) and bool(torch.isnan(loss[:3]).all())
    assert torch.equal(zloss.double()[:3], torch.full((3,), math.inf, dtype=torch.float64))


def test_all_rows_ignored_under_mean_is_nan_as_pytorch():
    x, t, w = _inputs(6, 50)
    t[:] = -100
    for weight in (None, w):
        loss, _lp, zloss, _lse = ax.cross_entropy_loss(x, t, weight, "mean", -100, 0.1, 1e-2)
        ref = F.cross_entropy(torch.from_numpy(x), torch.from_numpy(t),
                              None if weight is None else torch.from_numpy(weight), label_smoothing=0.1)
        assert np.isnan(loss) and torch.isnan(ref)
        assert zloss == 0.0
        loss, _lp, zloss, _lse = ax.cross_entropy_loss(x, t, weight, "sum", -100, 0.1, 1e-2)
        assert loss == 0.0 and zloss == 0.0


def test_no_rows():
    x = np.zeros((0, 10), np.float32)
    t = np.zeros(0, np.int64)
    loss, lp, zloss, lse = ax.cross_entropy_loss(x, t, reduction="mean")
    assert np.isnan(loss) and zloss == 0.0 and lp.shape == (0, 10) and lse.shape == (0,)
    loss, _, zloss, _ = ax.cross_entropy_loss(x, t, reduction="sum")
    assert loss == 0.0 and zloss == 0.0
    loss, _, zloss, _ = ax.cross_entropy_loss(x, t, reduction="none")
    assert loss.shape == zloss.shape == (0,)


def test_float16_label_smoothing_stays_finite_where_half_sums_overflow():
    # The smoothing term sums -log_prob over 1001 classes: in float16 that sum overflows.
    x, t, _w = _inputs(37, 1001, "float16", seed=9, spread=1.0)
    x = (x.astype(np.float32) - 30).astype(np.float16)  # large negative log-probabilities
    loss = ax.cross_entropy_loss(x, t, None, "sum", -100, 0.3)[0]
    assert np.isfinite(loss)
    ref = golden.cross_entropy(x, t, None, "sum", -100, 0.3)[0]
    assert golden.compare(loss, ref, "float16")["ok"]


# --------------------------------------------------------------------------------------
# Determinism
# --------------------------------------------------------------------------------------
def test_bitwise_the_same_over_calls_and_core_counts():
    x, t, w = _inputs(2100, 700, "bfloat16", seed=5)
    first = [np.asarray(o).tobytes() for o in ax.cross_entropy_loss(x, t, w, "mean", -100, 0.1, 1e-3)]
    try:
        for cores in (1, 3, 0):
            ax.set_cores(cores)
            again = [np.asarray(o).tobytes() for o in ax.cross_entropy_loss(x, t, w, "mean", -100, 0.1, 1e-3)]
            assert again == first, cores
    finally:
        ax.set_cores(0)


# --------------------------------------------------------------------------------------
# Bad arguments: one at a time, each error naming the argument
# --------------------------------------------------------------------------------------
def _good():
    x, t, w = _inputs(4, 6)
    return dict(input=x, target=t, weight=w, reduction="mean", ignore_index=-100, label_smoothing=0.0,
                lse_square_scale_for_zloss=0.0)


@pytest.mark.parametrize("name,value,error,match", [
    ("input", [[1.0, 2.0]], TypeError, "^input: expected a torch.Tensor or a NumPy array"),
    ("input", np.zeros((4, 6), np.float64), TypeError, "^input: expected dtype float32, float16 or bfloat16"),
    ("input", np.zeros((4, 6, 1), np.float32), ValueError, "^input: expected a 2-D tensor"),
    ("input", np.zeros((4, 0), np.float32), ValueError, r"^input: expected at least one class"),
    ("input", np.zeros((6, 4), np.float32).T, ValueError, "^input: expected a C-contiguous"),
    ("target", None, TypeError, "^target: expected an integer tensor"),
    ("target", np.zeros(4, np.float32), TypeError, "^target: expected dtype int32 or int64"),
    ("target", np.zeros(5, np.int64), ValueError, r"^target: expected shape \(N,\) = \(4,\)"),
    ("target", np.array([0, 1, 6, 2]), ValueError, r"^target: target\[2\] = 6 is out of range \[0, 6\)"),
    ("target", torch.zeros(4, dtype=torch.int64), TypeError, "^target: got a torch tensor, but input is a NumPy"),
    ("weight", np.ones(6, np.int32), TypeError, "^weight: expected a floating dtype"),
    ("weight", np.ones(5, np.float32), ValueError, r"^weight: expected shape \(C,\) = \(6,\)"),
    ("reduction", "avg", ValueError, "^reduction: expected one of"),
    ("reduction", None, TypeError, "^reduction: expected one of"),
    ("ignore_index", 1.5, TypeError, "^ignore_index: expected an int"),
    ("ignore_index", 2**63, ValueError, "^ignore_index: expected a value that fits in int64"),
    ("label_smoothing", 1.5, ValueError, r"^label_smoothing: expected a float in \[0, 1\]"),
    ("label_smoothing", "0.1", TypeError, "^label_smoothing: expected a float"),
    ("lse_square_scale_for_zloss", -1.0, ValueError, "^lse_square_scale_for_zloss: expected a finite float"),
    ("lse_square_scale_for_zloss", None, TypeError, "^lse_square_scale_for_zloss: expected a finite float"),
])
def test_bad_argument(name, value, error, match):
    args = _good()
    args[name] = value
    with pytest.raises(error, match=match):
        ax.cross_entropy_loss(**args)


def test_native_layer_messages_use_python_names():
    # A tiny labelSmoothing / C underflows float32: op_host refuses it, named as in Python.
    x, t, _w = _inputs(2, 6)
    with pytest.raises(ValueError, match=r"^label_smoothing: label_smoothing = 1e-45 is out of range"):
        ax.cross_entropy_loss(x, t, label_smoothing=1e-45)


# --------------------------------------------------------------------------------------
# Random shapes and options (hypothesis), against the golden
# --------------------------------------------------------------------------------------
hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies


@hypothesis.settings(max_examples=60, deadline=None, derandomize=True,
                     suppress_health_check=[hypothesis.HealthCheck.too_slow])
@hypothesis.given(n=st.integers(0, 70), c=st.integers(1, 700), dtype=st.sampled_from(DTYPES),
                  reduction=st.sampled_from(["mean", "sum", "none"]), weighted=st.booleans(),
                  ls=st.sampled_from([0.0, 0.05, 0.5, 1.0]), z=st.sampled_from([0.0, 1e-3]),
                  target_dtype=st.sampled_from([np.int32, np.int64]), ii=st.sampled_from([-100, 0, -1, 3]),
                  seed=st.integers(0, 2**16))
def test_random_cases(n, c, dtype, reduction, weighted, ls, z, target_dtype, ii, seed):
    x, t, w = _inputs(n, c, dtype, seed=seed, ignore_index=ii, target_dtype=target_dtype)
    w = w if weighted else None
    out = ax.cross_entropy_loss(x, t, w, reduction, ii, ls, z)
    _check_against_golden(out, x, t, w, reduction, ii, ls, z, dtype, f"{n}x{c} {dtype} {reduction}")
