"""NaN and Inf in log_prob, grad_loss, grad_zloss and lse_for_zloss.

Where PyTorch has the same computation (logits with NaN/+Inf/-Inf, an upstream
gradient that is NaN/Inf), the kernel's output is compared with torch.autograd of
F.cross_entropy: the same NaN positions, the same infinities with the same signs,
the finite rest close. Everything (z-loss included) is also compared with the
float64 golden in the same way, for every dtype. Nothing crashes.
"""

import math
import zlib

import numpy as np
import pytest

import ascend_xent as ax
from ascend_xent import golden
from conftest import DTYPES, TOL, make_case

# NumPy inputs and simulator settings (cores, threads, counters): the sim backend only.
pytestmark = pytest.mark.requires_sim

NAN, INF = math.nan, math.inf


def assert_same_specials(actual, expected, dtype, what=""):
    a = np.asarray(actual, dtype=np.float64)
    e = np.asarray(expected, dtype=np.float64)
    assert a.shape == e.shape
    bad_nan = np.isnan(a) != np.isnan(e)
    assert not bad_nan.any(), f"{what}: NaN positions differ at {np.argwhere(bad_nan)[:5].tolist()}"
    ia, ie = np.isinf(a), np.isinf(e)
    assert (ia == ie).all(), f"{what}: Inf positions differ at {np.argwhere(ia != ie)[:5].tolist()}"
    assert (np.sign(a[ia]) == np.sign(e[ie])).all(), f"{what}: Inf signs differ"
    fin = np.isfinite(e)
    if fin.any():
        scale = max(float(np.abs(e[fin]).max()), 1e-30)
        rtol, atol = TOL[dtype]
        np.testing.assert_allclose(a[fin] / scale, e[fin] / scale, rtol=rtol, atol=max(atol, 1e-3 if dtype != "float32" else atol),
                                   err_msg=what)


def _torch_grad(torch, x, target, weight, reduction, ignore_index, ls, upstream):
    x = x.detach().clone().requires_grad_(True)
    loss = torch.nn.functional.cross_entropy(x, target, weight, ignore_index=ignore_index,
                                             reduction=reduction, label_smoothing=ls)
    loss.backward(upstream)
    return x.grad


LOGIT_SPECIALS = [("nan", NAN), ("+inf", INF), ("-inf", -INF)]


@pytest.mark.parametrize("name,value", LOGIT_SPECIALS, ids=[s[0] for s in LOGIT_SPECIALS])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("ls", [0.0, 0.1])
def test_special_logits_match_torch_autograd(name, value, reduction, ls, torch):
    g = torch.Generator().manual_seed(7)
    n, c = 8, 11
    x = torch.randn(n, c, generator=g, dtype=torch.float64) * 2
    t = torch.randint(0, c, (n,), generator=g)
    t[5] = -100  # an ignored row with a special value too
    w = torch.rand(c, generator=g, dtype=torch.float64) + 0.5
    x[1, 3] = value
    x[5, 0] = value
    x[6, t[6]] = value  # at the target column
    upstream = torch.randn(n, generator=g, dtype=torch.float64) if reduction == "none" \
        else torch.tensor(0.75, dtype=torch.float64)
    ref = _torch_grad(torch, x, t, w, reduction, -100, ls, upstream)
    lp = torch.log_softmax(x, -1)
    got = ax.cross_entropy_loss_grad(upstream.float(), lp.float(), t, w.float(), reduction=reduction,
                                     label_smoothing=ls)
    assert_same_specials(got.numpy(), ref.numpy(), "float32", f"{name} {reduction} ls={ls}")


@pytest.mark.parametrize("value", [NAN, INF, -INF], ids=["nan", "+inf", "-inf"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_special_upstream_gradient_matches_torch_autograd(value, reduction, torch):
    g = torch.Generator().manual_seed(3)
    n, c = 6, 9
    x = torch.randn(n, c, generator=g, dtype=torch.float64)
    t = torch.randint(0, c, (n,), generator=g)
    t[2] = -100
    if reduction == "none":
        upstream = torch.randn(n, generator=g, dtype=torch.float64)
        upstream[1] = value
        upstream[2] = value  # ignored row: PyTorch's gradient stays 0
    else:
        upstream = torch.tensor(value, dtype=torch.float64)
    ref = _torch_grad(torch, x, t, None, reduction, -100, 0.1, upstream)
    lp = torch.log_softmax(x, -1).float()
    got = ax.cross_entropy_loss_grad(upstream.float(), lp, t, reduction=reduction, label_smoothing=0.1)
    assert_same_specials(got.numpy(), ref.numpy(), "float32", f"upstream {value} {reduction}")


def _special_case(dtype, reduction, where, value, seed):
    kw = make_case(10, 37, dtype, reduction=reduction, weight=True, label_smoothing=0.1, zloss="on_gz",
                   seed=seed)
    kw["target"][4] = kw["ignore_index"]
    for k in ("grad_loss", "grad_zloss", "lse_for_zloss", "log_prob"):
        kw[k] = np.array(kw[k], copy=True)
    if where == "log_prob":
        kw["log_prob"][2, 5] = value
        kw["log_prob"][4, 0] = value  # ignored row
        kw["log_prob"][7, int(kw["target"][7]) if kw["target"][7] >= 0 else 0] = value
    elif where in ("grad_loss", "grad_zloss"):
        if reduction == "none":
            kw[where][3] = value
            kw[where][4] = value
        else:
            kw[where][...] = value
    elif where == "lse_for_zloss":
        kw[where][3] = value
        kw[where][4] = value
    return kw


WHERE = ["log_prob", "grad_loss", "grad_zloss", "lse_for_zloss"]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("value", [NAN, INF, -INF], ids=["nan", "+inf", "-inf"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_specials_everywhere_match_the_golden(dtype, where, value, reduction):
    kw = _special_case(dtype, reduction, where, value, seed=zlib.crc32(repr((dtype, where, reduction)).encode()) % 1000)
    out = ax.cross_entropy_loss_grad(**kw)
    ref = golden.cross_entropy_loss_grad(**kw)
    assert_same_specials(out, ref, dtype, f"{dtype} {where}={value} {reduction}")
    # Ignored rows: 0, or NaN where p itself is NaN (log_prob NaN/+Inf), as p * 0 in PyTorch.
    row = out[4].astype(np.float64)
    lp_row = kw["log_prob"][4].astype(np.float64)
    specials = np.isnan(lp_row) | (lp_row == INF)
    assert np.all(row[~specials] == 0.0)
    assert np.all(np.isnan(row[specials]))


def test_special_weights_and_zero_weights(torch):
    # A NaN/Inf class weight and an all-zero weight (W = 0 divides by zero as PyTorch does).
    g = torch.Generator().manual_seed(1)
    x = torch.randn(5, 6, generator=g, dtype=torch.float64)
    t = torch.tensor([0, 1, 2, 3, 4])
    for w in (torch.tensor([1.0, NAN, 1.0, 1.0, 1.0, 1.0], dtype=torch.float64),
              torch.tensor([1.0, 1.0, INF, 1.0, 1.0, 1.0], dtype=torch.float64),
              torch.zeros(6, dtype=torch.float64)):
        for reduction in ("mean", "sum"):
            ref = _torch_grad(torch, x, t, w, reduction, -100, 0.0, torch.tensor(1.0, dtype=torch.float64))
            got = ax.cross_entropy_loss_grad(1.0, torch.log_softmax(x, -1).float(), t, w.float(),
                                             reduction=reduction)
            assert_same_specials(got.numpy(), ref.numpy(), "float32", f"weight {w.tolist()} {reduction}")


def test_all_special_inputs_do_not_crash():
    # Everything NaN or Inf at once, every dtype: a result of the right shape, no exception.
    for dtype in DTYPES:
        for value in (NAN, INF, -INF):
            kw = make_case(17, 300, dtype, reduction="none", weight=True, label_smoothing=0.5, zloss="on_gz")
            for k in ("log_prob", "grad_loss", "grad_zloss", "lse_for_zloss"):
                kw[k] = np.full_like(kw[k], value)
            kw["weight"] = np.full_like(kw["weight"], value)
            out = ax.cross_entropy_loss_grad(**kw)
            assert out.shape == (17, 300)
            ref = golden.cross_entropy_loss_grad(**kw)
            assert_same_specials(out, ref, dtype, f"all {value} {dtype}")
