"""The float64 golden against torch.autograd in float64 (independent of the kernel)."""

import itertools

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import torch.nn.functional as F  # noqa: E402

from ascend_xent import golden  # noqa: E402

CASES = list(itertools.product(("mean", "sum", "none"), (False, True), (0.0, 0.1, 1.0),
                               (-100, 0, 4), (0.0, 0.05)))


@pytest.mark.parametrize("reduction,weight,ls,ii,scale", CASES)
def test_golden_equals_autograd(reduction, weight, ls, ii, scale):
    g = torch.Generator().manual_seed(1)
    n, c = 17, 5
    x = torch.randn(n, c, dtype=torch.float64, generator=g, requires_grad=True)
    t = torch.randint(0, c, (n,), generator=g)
    t[::4] = ii
    w = torch.rand(c, dtype=torch.float64, generator=g) + 0.5 if weight else None
    ce = F.cross_entropy(x, t, weight=w, reduction=reduction, ignore_index=ii, label_smoothing=ls)
    lse = torch.logsumexp(x, -1)
    valid = t != ii
    zr = torch.where(valid, scale * lse * lse, torch.zeros_like(lse))
    z = zr if reduction == "none" else (zr.sum() if reduction == "sum" else zr.sum() / valid.sum())
    loss = ce + z
    gl = torch.randn(loss.shape, dtype=torch.float64, generator=g)
    gz = torch.randn(loss.shape, dtype=torch.float64, generator=g)
    torch.autograd.backward([loss, z], [gl, gz])
    ref = golden.cross_entropy_loss_grad(gl, torch.log_softmax(x.detach(), -1), t, w,
                                         gz if scale else None, lse.detach() if scale else None,
                                         reduction, ii, ls, scale, chunk_rows=5)
    np.testing.assert_allclose(ref, x.grad.numpy(), rtol=1e-10, atol=1e-12)
    fl, _, fz, flse = golden.cross_entropy(x.detach(), t, w, reduction, ii, ls, scale)
    np.testing.assert_allclose(fl, loss.detach().numpy(), rtol=1e-10)
    np.testing.assert_allclose(fz, z.detach().numpy(), rtol=1e-10, atol=1e-15)


def test_golden_all_ignored_mean_is_zero():
    lp = np.log(np.full((3, 4), 0.25))
    out = golden.cross_entropy_loss_grad(1.0, lp, np.full(3, -100), np.ones(4), 1.0, np.ones(3),
                                         "mean", -100, 0.1, 0.01)
    assert np.all(out == 0)


def test_golden_compare():
    e = np.linspace(-1, 1, 100).reshape(10, 10)
    assert golden.compare(e.astype(np.float32), e)["ok"]
    bad = e.copy()
    bad[3, 4] += 0.1
    r = golden.compare(bad, e, "float32")
    assert not r["ok"] and r["worst_index"] == (3, 4) and r["mismatches"] == 1


def test_compare_reports_absolute_and_scaled_errors():
    e = np.linspace(-10, 10, 100).reshape(10, 10)  # max |golden| = 10
    a = e.copy()
    a[2, 3] += 0.5
    r = golden.compare(a, e, "float64")
    assert r["scale"] == 10.0 and r["worst_index"] == (2, 3)
    assert np.isclose(r["max_abs_error"], 0.5) and np.isclose(r["max_scaled_error"], 0.05)


def test_check_equals_compare():
    rng = np.random.default_rng(0)
    lp = golden.log_softmax(rng.normal(size=(300, 50))).astype(np.float32)
    t = rng.integers(0, 50, 300)
    w = rng.uniform(0.5, 1.5, 50)
    args = (0.5, lp, t, w, None, None, "mean", -100, 0.1, 0.0)
    ref = golden.cross_entropy_loss_grad(*args)
    approx = (ref * (1 + 1e-7)).astype(np.float32)
    a, b = golden.compare(approx, ref), golden.check(approx, *args, chunk_rows=7)
    assert a["ok"] and b["ok"] and a["worst_index"] == b["worst_index"]
    for key in ("max_abs_error", "max_scaled_error", "scale"):
        assert abs(a[key] - b[key]) < 1e-12, key
    approx[5, 5] += 0.01
    a, b = golden.compare(approx, ref), golden.check(approx, *args, chunk_rows=7)
    assert not a["ok"] and not b["ok"] and a["mismatches"] == b["mismatches"] == 1


def test_golden_lse_is_torch_logsumexp_on_infinite_rows():
    x = np.array([[1.0, np.inf, 2.0], [-np.inf] * 3, [1.0, 2.0, 3.0], [np.nan, 1.0, 2.0], [1e30, -1e30, 0.0]])
    want = torch.logsumexp(torch.tensor(x), dim=1).numpy()
    np.testing.assert_array_equal(golden.logsumexp(x), want)
    with np.errstate(all="ignore"):
        _, _, _, lse = golden.cross_entropy(x, np.array([0, 1, 2, 1, 0]), reduction="none")
    np.testing.assert_array_equal(lse, want)
