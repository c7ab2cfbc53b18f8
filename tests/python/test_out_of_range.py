"""Out-of-range targets (neither ignore_index nor in [0, C)).

Through the public API: ValueError naming the first bad row and its value, out
untouched. With the Python check bypassed (the native layer called directly):
the kernel still reports the first bad row (status 161002 -> ValueError), the bad
rows come out exactly 0, the others equal the golden computed with those rows
ignored, and nothing is accessed out of bounds -- the simulator bounds every GM
access by the GlobalTensor's SetGlobalBuffer size and by the registered buffers,
and such an access would surface as a RuntimeError("simulator violation ...")
instead of the ValueError checked here.
"""

import numpy as np
import pytest

import ascend_xent as ax
from ascend_xent._native import call, descriptor
from conftest import DTYPES, assert_close_scaled, golden_of, make_case

# NumPy inputs and simulator settings (cores, threads, counters): the sim backend only.
pytestmark = pytest.mark.requires_sim

I64_MAX, I64_MIN = 2**63 - 1, -(2**63)
BAD_VALUES = [5, 6, -1, -2, 1000, I64_MAX, I64_MIN]


@pytest.mark.parametrize("bad", BAD_VALUES)
@pytest.mark.parametrize("target_dtype", ["int32", "int64"])
def test_python_names_first_bad_row_and_value(bad, target_dtype):
    if target_dtype == "int32" and not (-(2**31) <= bad < 2**31):
        pytest.skip("does not fit int32")
    kw = make_case(12, 5, "float32", reduction="mean", weight=True, target_dtype=target_dtype, seed=3)
    kw["target"][7] = bad
    kw["target"][10] = 99  # a later bad row is not the one named
    out = np.full((12, 5), 7.0, np.float32)
    with pytest.raises(ValueError) as ei:
        ax.cross_entropy_loss_grad(**kw, out=out)
    assert str(ei.value) == (f"target: target[7] = {bad} is out of range [0, 5) "
                             f"and is not ignore_index (-100)")
    assert np.all(out == 7.0)


def test_ignore_index_changes_what_is_bad():
    kw = make_case(8, 4, "bfloat16", reduction="sum", ignore_index=3, seed=2)
    kw["target"][2] = -100  # not ignored when ignore_index is 3
    with pytest.raises(ValueError, match=r"^target: target\[2\] = -100 is out of range \[0, 4\) "
                                         r"and is not ignore_index \(3\)"):
        ax.cross_entropy_loss_grad(**kw)
    kw["target"][2] = 3
    ax.cross_entropy_loss_grad(**kw)
    kw = make_case(8, 4, "float32", ignore_index=7, seed=2)  # ignore_index outside [0, C): 7 rows ignored
    kw["target"][5] = 7
    np.testing.assert_allclose(ax.cross_entropy_loss_grad(**kw), golden_of(kw), rtol=1e-5, atol=1e-7)


def test_torch_names_first_bad_row(torch):
    lp = torch.log_softmax(torch.randn(9, 4), -1)
    t = torch.tensor([0, 1, 2, 3, -5, 0, 4, 1, 2], dtype=torch.int32)
    with pytest.raises(ValueError, match=r"^target: target\[4\] = -5 is out of range \[0, 4\)"):
        ax.cross_entropy_loss_grad(1.0, lp, t)
    x = torch.randn(3, 4, requires_grad=True)
    with pytest.raises(ValueError, match=r"target\[1\] = 4"):
        ax.cross_entropy(x, torch.tensor([0, 4, 1]))


def _native(kw, out):
    """The native layer with the Python checks bypassed (only descriptors built)."""
    args = [kw["grad_loss"], kw["log_prob"], kw["target"], kw["weight"], kw["grad_zloss"], kw["lse_for_zloss"]]
    d = [descriptor(a) for a in args]  # make_case's arrays are contiguous
    call(*d, kw["reduction"], kw["ignore_index"], kw["label_smoothing"],
         kw["lse_square_scale_for_zloss"], descriptor(out))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("shape", [(33, 17), (5, 20000)], ids=["row_packed", "column_split"])
def test_bypassed_check_zeroes_bad_rows_without_oob_access(dtype, reduction, shape, torch):
    n, c = shape
    kw = make_case(n, c, dtype, reduction=reduction, weight=True, label_smoothing=0.1, zloss="on_gz",
                   seed=n + c)
    t = kw["target"]
    bad_rows = {1: c, 3: -1, n - 1: I64_MAX}
    if n > 10:
        # 2^32 + 3 is 3 in its low 32 bits; 2^24 + 1 is 2^24 as a float
        bad_rows.update({10: I64_MIN, 11: 10 * c, 12: 2**32 + 3, 13: 2**24 + 1, 14: -(2**32) + 2})
    for i, v in bad_rows.items():
        t[i] = v
    out = np.full((n, c), 7.0, kw["log_prob"].dtype)
    with pytest.raises(ValueError) as ei:
        _native(kw, out)
    first = min(bad_rows)
    msg = str(ei.value)
    assert msg.startswith(f"target: target[{first}] = {bad_rows[first]} is outside [0, {c})"), msg
    assert "status 161002" in msg and "zero gradient" in msg
    rows = sorted(bad_rows)
    assert np.all(out[rows].astype(np.float64) == 0.0)
    # The rest: the golden with the bad rows ignored (excluded from W and M).
    ref_kw = dict(kw, target=t.copy())
    ref_kw["target"][rows] = kw["ignore_index"]
    assert_close_scaled(out, golden_of(ref_kw), dtype, f"{dtype} {reduction} {shape}")


def test_bypassed_check_every_row_bad_under_mean():
    kw = make_case(16, 9, "float32", reduction="mean", weight=True, label_smoothing=0.2, zloss="on_gz")
    kw["target"][:] = np.arange(16) + 9
    out = np.full((16, 9), 7.0, np.float32)
    with pytest.raises(ValueError, match=r"target\[0\] = 9 is outside \[0, 9\)"):
        _native(kw, out)
    assert np.all(out == 0.0)  # 0, not NaN, as when every row is ignored


def test_bypassed_check_with_a_weight_at_the_end_of_its_buffer():
    # The weight is the last C floats of a larger array; a weight[t] read with t >= C would
    # land in the (unregistered, unbounded-by-SetGlobalBuffer) rest of that array.
    kw = make_case(10, 6, "float32", reduction="sum", weight=True, seed=8)
    backing = np.full(6 + 64, 1e30, np.float32)
    backing[-64 - 6:-64] = kw["weight"]
    kw["weight"] = backing[-64 - 6:-64]
    kw["target"][4] = 6
    out = np.empty((10, 6), np.float32)
    with pytest.raises(ValueError, match=r"target\[4\] = 6"):
        _native(kw, out)
    assert np.all(np.abs(out) < 1e3)  # no 1e30 weight was read into any row
    assert np.all(out[4] == 0.0)
