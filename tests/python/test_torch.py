"""PyTorch API: autograd cross-check of cross_entropy, opcheck, torch.compile, and
NumPy vs torch parity.

Without z-loss the values of cross_entropy equal F.cross_entropy exactly (the forward
calls it). Losses, z-losses and gradients are compared with torch.autograd of
F.cross_entropy (plus the explicit z-loss formula) computed in float64 from the same
logits, after dividing both sides by max |reference|, with the output dtype's
assert_close rtol (fp32 1.3e-6, fp16 1e-3, bf16 1.6e-2) and atol 1e-5 for fp32 but two
machine epsilons for fp16 (2 * 2**-10) and bf16 (2 * 2**-7): F.cross_entropy itself
computes in that dtype, and, like torch_npu, the backward starts from log_prob and
lse_for_zloss rounded to the input dtype (eps/2 relative each, times |log p| for p),
which comes on top of the output's own rounding (eps/2). (Against the float64 golden of the same log_prob, see
test_kernel_golden.py, the plain assert_close defaults hold.)

Tensors live on conftest.DEVICE: the CPU (simulator) or, under ASCEND_XENT_BACKEND=npu, the
NPU; references are computed on the CPU in float64.
"""

import itertools
import os

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import torch.nn.functional as F  # noqa: E402

import ascend_xent as ax  # noqa: E402
from conftest import DEVICE, DTYPES, ON_NPU, TOL, assert_close_scaled, golden_of, make_case  # noqa: E402

TDT = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}


def _inputs(n, c, dtype, weight, ii, seed=0, target_dtype=torch.int64, ignore_frac=0.2):
    g = torch.Generator().manual_seed(seed)
    x = (torch.randn(n, c, generator=g, dtype=torch.float64) * 3).to(TDT[dtype])
    t = torch.randint(0, c, (n,), generator=g)
    t[torch.rand(n, generator=g) < ignore_frac] = ii
    w = (torch.rand(c, generator=g, dtype=torch.float64) * 1.8 + 0.2).to(TDT[dtype]) if weight else None
    return x.to(DEVICE), t.to(target_dtype).to(DEVICE), None if w is None else w.to(DEVICE)


def _reference(x, t, w, reduction, ii, ls, scale):
    """loss, zloss and d(loss)/dx, d(zloss)/dx through torch.autograd in float64."""
    x, t = x.detach().cpu(), t.cpu()
    xd = x.double().requires_grad_()
    wd = None if w is None else w.cpu().double()
    ce = F.cross_entropy(xd, t.long(), weight=wd, reduction=reduction, ignore_index=ii,
                         label_smoothing=ls)
    lse = torch.logsumexp(xd, -1)
    valid = t.long() != ii
    zr = torch.where(valid, scale * lse * lse, torch.zeros_like(lse))
    if reduction == "none":
        z = zr
    elif reduction == "sum":
        z = zr.sum()
    else:
        z = zr.sum() / valid.sum().clamp_min(1)
    return ce + z, z, xd


AUTOGRAD = list(itertools.product(("mean", "sum", "none"), (False, True), (0.0, 0.1, 1.0),
                                  (0.0, 1e-2), DTYPES, (-100, 0)))


@pytest.mark.parametrize("reduction,weight,ls,scale,dtype,ii", AUTOGRAD,
                         ids=[f"{r}-{'w' if w else 'now'}-ls{ls}-z{s}-{d}-ii{i}"
                              for r, w, ls, s, d, i in AUTOGRAD])
def test_cross_entropy_autograd(reduction, weight, ls, scale, dtype, ii):
    n, c = 23, 37
    x, t, w = _inputs(n, c, dtype, weight, ii,
                      seed=len(reduction) + int(ls * 10) + c + int(os.environ.get("XENT_SEED", 0)))
    xa = x.clone().requires_grad_()
    loss, zloss = ax.cross_entropy(xa, t, w, reduction, ii, ls, scale, return_zloss=True)
    ref_loss, ref_z, xd = _reference(x, t, w, reduction, ii, ls, scale)
    # values
    assert loss.dtype == x.dtype and loss.shape == ref_loss.shape
    if scale == 0.0:
        # PyTorch in float32, rounded once to the dtype: the forward kernel accumulates in
        # float32 (F.cross_entropy's own float16 sums differ from it by an ulp or two).
        expected = F.cross_entropy(x.float(), t.long(), weight=None if w is None else w.float(),
                                   reduction=reduction, ignore_index=ii, label_smoothing=ls).to(x.dtype)
        torch.testing.assert_close(loss, expected, equal_nan=True)
        assert torch.all(zloss == 0)
    _assert_close_eps(loss, ref_loss, dtype)
    _assert_close_eps(zloss, ref_z, dtype)
    # gradients: of the loss, and of loss + zloss weighted (grad_zloss path)
    gen = torch.Generator().manual_seed(c)
    gl = torch.randn(loss.shape, dtype=torch.float64, generator=gen).to(x.dtype)
    gz = torch.randn(loss.shape, dtype=torch.float64, generator=gen).to(x.dtype)
    torch.autograd.backward([loss, zloss], [gl.to(DEVICE), gz.to(DEVICE)])
    torch.autograd.backward([ref_loss, ref_z], [gl.double(), gz.double()])
    assert xa.grad.dtype == x.dtype
    _assert_close_eps(xa.grad, xd.grad, dtype)


GRAD_ATOL = {"float32": 1e-5, "float16": 2 * 2.0**-10, "bfloat16": 2 * 2.0**-7}


def _assert_close_eps(actual, expected, dtype):
    a = actual.detach().cpu().double()
    e = expected.detach().cpu().double()
    scale = float(e.abs().max()) or 1.0
    torch.testing.assert_close(a / scale, e / scale, rtol=TOL[dtype][0], atol=GRAD_ATOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
def test_cross_entropy_grad_matches_the_op_bitwise(dtype):
    # The backward of cross_entropy is exactly our op applied to its saved log_prob.
    x, t, w = _inputs(40, 300, dtype, True, -100)
    xa = x.clone().requires_grad_()
    loss = ax.cross_entropy(xa, t, w, "mean", -100, 0.1, 1e-3)
    loss.backward()
    loss2, lp, z, lse = ax.cross_entropy_loss(x, t, w, "mean", -100, 0.1, 1e-3)
    g = ax.cross_entropy_loss_grad(torch.ones((), dtype=x.dtype, device=x.device), lp, t, w, None, lse, "mean", -100,
                                   0.1, 1e-3)
    assert torch.equal(xa.grad, g)


def test_all_ignored_mean_gives_zero_grad_and_nan_loss():
    x, t, w = _inputs(6, 10, "float32", True, -100, ignore_frac=1.0)
    xa = x.clone().requires_grad_()
    loss = ax.cross_entropy(xa, t, w, "mean", label_smoothing=0.1, lse_square_scale_for_zloss=1e-2)
    assert torch.isnan(loss)  # as F.cross_entropy
    loss.backward()
    assert torch.all(xa.grad == 0)


def test_auxiliary_outputs_are_differentiable():
    x, t, w = _inputs(9, 12, "float32", False, -100)
    xa = x.clone().requires_grad_()
    loss, lp, z, lse = ax.cross_entropy_loss(xa, t, None, "sum", -100, 0.0, 0.0)
    (lp[:, 3].sum() + 2.0 * lse.sum()).backward()
    xr = x.clone().requires_grad_()
    (torch.log_softmax(xr, -1)[:, 3].sum() + 2.0 * torch.logsumexp(xr, -1).sum()).backward()
    torch.testing.assert_close(xa.grad, xr.grad)


# ----------------------------------------------------------------------------------------
# torch.library.opcheck
# ----------------------------------------------------------------------------------------
def _grad_samples():
    out = []
    for dtype, reduction, weight, z, tdt in [("float32", "mean", True, True, torch.int64),
                                             ("bfloat16", "none", False, True, torch.int32),
                                             ("float16", "sum", True, False, torch.int64)]:
        kw = make_case(11, 29, dtype, reduction=reduction, weight=weight, label_smoothing=0.1,
                       zloss="on_gz" if z else "off", target_dtype=str(tdt).split(".")[1])
        conv = {}
        for k, v in kw.items():
            if isinstance(v, np.ndarray):
                conv[k] = (torch.from_numpy(v.astype(np.float32)).to(TDT[dtype])
                           if v.dtype.name == "bfloat16" else torch.from_numpy(np.array(v))).to(DEVICE)
            else:
                conv[k] = v
        out.append(conv)
    return out


@pytest.mark.parametrize("i", range(3))
def test_opcheck_grad_op(i):
    kw = _grad_samples()[i]
    args = (kw["grad_loss"], kw["log_prob"], kw["target"], kw["weight"], kw["grad_zloss"],
            kw["lse_for_zloss"], kw["reduction"], kw["ignore_index"], kw["label_smoothing"],
            kw["lse_square_scale_for_zloss"])
    torch.library.opcheck(torch.ops.ascend_xent.cross_entropy_loss_grad.default, args)


@pytest.mark.parametrize("dtype,reduction,weight,scale",
                         [("float32", "mean", True, 1e-2), ("bfloat16", "none", False, 0.0),
                          ("float16", "sum", True, 1e-3)])
def test_opcheck_forward_op(dtype, reduction, weight, scale):
    x, t, w = _inputs(13, 31, dtype, weight, -100)
    x.requires_grad_()
    torch.library.opcheck(torch.ops.ascend_xent.cross_entropy_loss.default,
                          (x, t, w, reduction, -100, 0.1, scale))


# ----------------------------------------------------------------------------------------
# torch.compile
# ----------------------------------------------------------------------------------------
def test_torch_compile_fullgraph():
    torch._dynamo.reset()
    x, t, w = _inputs(32, 100, "float32", True, -100)

    def step(x, t, w):
        loss, z = ax.cross_entropy(x, t, w, "mean", -100, 0.1, 1e-3, return_zloss=True)
        return loss * 2.0 + z

    compiled = torch.compile(step, fullgraph=True, backend="aot_eager")
    xa = x.clone().requires_grad_()
    out = compiled(xa, t, w)
    out.backward()
    xe = x.clone().requires_grad_()
    ref = step(xe, t, w)
    ref.backward()
    torch.testing.assert_close(out, ref)
    torch.testing.assert_close(xa.grad, xe.grad)


@pytest.mark.skipif(ON_NPU, reason="inductor code generation for the NPU is not assumed")
def test_torch_compile_inductor():
    torch._dynamo.reset()
    x, t, w = _inputs(16, 50, "bfloat16", False, -100)
    compiled = torch.compile(lambda a, b: ax.cross_entropy(a, b, label_smoothing=0.1),
                             fullgraph=True)
    xa = x.clone().requires_grad_()
    loss = compiled(xa, t)
    loss.backward()
    xe = x.clone().requires_grad_()
    ref = ax.cross_entropy(xe, t, label_smoothing=0.1)
    ref.backward()
    torch.testing.assert_close(loss, ref)
    torch.testing.assert_close(xa.grad, xe.grad)


# ----------------------------------------------------------------------------------------
# NumPy and torch give identical results
# ----------------------------------------------------------------------------------------
@pytest.mark.requires_sim  # NumPy arrays run on the simulator only
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_numpy_torch_identical(dtype, reduction):
    kw = make_case(37, 300, dtype, reduction=reduction, weight=True, label_smoothing=0.1,
                   zloss="on_gz", target_dtype="int32")
    out_np = ax.cross_entropy_loss_grad(**kw)
    tkw = {}
    for k, v in kw.items():
        if isinstance(v, np.ndarray):
            tkw[k] = torch.from_numpy(v.view(np.int16)).view(torch.bfloat16) \
                if v.dtype.name == "bfloat16" else torch.from_numpy(v)
        else:
            tkw[k] = v
    out_t = ax.cross_entropy_loss_grad(**tkw)
    assert isinstance(out_t, torch.Tensor) and out_t.dtype == TDT[dtype]
    if dtype == "bfloat16":
        np.testing.assert_array_equal(out_t.view(torch.int16).numpy(), out_np.view(np.int16))
    else:
        np.testing.assert_array_equal(out_t.numpy(), out_np)
    # the torch path with out= writes into the caller's tensor
    buf = torch.empty_like(tkw["log_prob"])
    res = ax.cross_entropy_loss_grad(**tkw, out=buf)
    assert res is buf and torch.equal(buf, out_t)


def test_torch_python_number_grad_loss():
    x, t, w = _inputs(10, 20, "float32", True, -100)
    lp = torch.log_softmax(x, -1)
    a = ax.cross_entropy_loss_grad(0.5, lp, t, w, reduction="sum")
    b = ax.cross_entropy_loss_grad(torch.tensor(0.5, device=DEVICE), lp, t, w, reduction="sum")
    assert torch.equal(a, b)


def test_torch_requires_grad_inputs_are_accepted_where_nothing_is_recorded():
    # Where autograd records, they are refused (test_torch_contract.py).
    x, t, w = _inputs(10, 20, "float32", True, -100)
    lp = torch.log_softmax(x, -1).requires_grad_()
    with torch.no_grad():
        out = ax.cross_entropy_loss_grad(torch.tensor(1.0, device=DEVICE), lp, t, w)
    assert out.shape == lp.shape
