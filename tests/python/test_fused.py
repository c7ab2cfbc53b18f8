"""The fused loss and gradient (``ascend_xent.cross_entropy_loss_with_grad`` and
``ascend_xent.cross_entropy(..., fused=True)``) against references no one here wrote:
PyTorch autograd of F.cross_entropy in float64 with the z-loss and the softcap written
out in torch, and the float64 golden (``golden.cross_entropy_with_grad``).

Tolerances (``golden.compare``: both sides divided by max |reference|, then
``|a - e| <= atol + rtol |e|``): float32 rtol 1.3e-6, atol 1e-5; float16 rtol 1e-3, atol
1e-5; bfloat16 rtol 1.6e-2, atol 1e-5 (``golden.TOLERANCES``): the kernel computes in
float32 and rounds each output once. Through autograd the upstream gradient multiplies
the saved gradient in the input's dtype: one more rounding, within the same tolerance.
"""

import itertools

import numpy as np
import pytest

import ascend_xent as ax
from ascend_xent import golden

torch = pytest.importorskip("torch")
import torch.nn.functional as F  # noqa: E402

from conftest import DEVICE  # noqa: E402
from test_forward import DTYPES, _inputs, check_outputs, infinite_rows  # noqa: E402  (the forward's inputs and checks)

TORCH_DTYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}


def _check(out, ref, dtype, label):
    check_outputs(("loss", "zloss", "lse_for_zloss", "grad"), out, ref, dtype, label)


# --------------------------------------------------------------------------------------
# NumPy in and out against the float64 golden: the option matrix in both kernel paths
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("n,c", [(37, 1001), (3, 40000)], ids=["whole_rows", "column_tiles"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_option_matrix_against_golden(n, c, dtype, reduction):
    options = itertools.product((False, True), (0.0, 0.1), (0.0, 1e-2), (None, 8.0))
    for k, (weighted, ls, z, cap) in enumerate(options):
        ii = -100 if k % 2 else 3
        x, t, w = _inputs(n, c, dtype, seed=k, ignore_index=ii, target_dtype=np.int32 if k % 3 == 0 else np.int64)
        weight = w if weighted else None
        ref = golden.cross_entropy_with_grad(x, t, weight, reduction, ii, ls, z, cap)
        inplace = k % 4 == 3
        xin = x.copy()
        out = ax.cross_entropy_loss_with_grad(xin, t, weight, reduction, ii, ls, z, cap, inplace=inplace)
        if inplace:
            assert out[3] is xin
        _check(out, ref, dtype, (k, weighted, ls, z, cap, inplace))


@pytest.mark.parametrize("n,c", [(1, 1), (5, 7), (65, 8), (255, 257), (2, 18433), (1, 131073)])
def test_ragged_shapes(n, c):
    for k, dtype in enumerate(DTYPES):
        x, t, w = _inputs(n, c, dtype, seed=n + k)
        reduction = ("mean", "sum", "none")[k]
        ref = golden.cross_entropy_with_grad(x, t, w, reduction, -100, 0.1, 1e-3, 30.0)
        _check(ax.cross_entropy_loss_with_grad(x, t, w, reduction, -100, 0.1, 1e-3, 30.0), ref, dtype, (n, c))


@pytest.mark.large
@pytest.mark.parametrize("n,c", [(257, 131073), (131073, 257)])
def test_large_shapes(n, c):
    """Per row ("none", in place): the golden block by block, never all of it at once."""
    x, t, w = _inputs(n, c, "bfloat16", seed=1)
    out = ax.cross_entropy_loss_with_grad(x.copy(), t, w, "none", -100, 0.1, 1e-4, 30.0, inplace=True)
    step = max(1, 2 ** 22 // c)
    for r0 in range(0, n, step):
        r1 = min(n, r0 + step)
        ref = golden.cross_entropy_with_grad(x[r0:r1], t[r0:r1], w, "none", -100, 0.1, 1e-4, 30.0)
        _check(tuple(o[r0:r1] for o in out), ref, "bfloat16", (n, c, r0))


def test_bf16_true_class_at_p_0_999():
    """p(target) = 0.999: d loss / d x_t = p - 1 = -0.001 is formed in float32 and rounded
    once; rounding p to bf16 first (1.0) and subtracting 1 would give 0."""
    c = 1000
    x = torch.zeros(1, c)
    x[0, 7] = float(np.log(0.999 * (c - 1) / 0.001))
    x = x.to(torch.bfloat16).to(DEVICE).requires_grad_()
    t = torch.tensor([7], device=DEVICE)
    ax.cross_entropy(x, t, fused=True).backward()
    xr = x.detach().double().requires_grad_()
    F.cross_entropy(xr, t).backward()
    assert abs(float(xr.grad[0, 7]) + 0.001) < 2e-5
    assert abs(float(x.grad[0, 7]) - float(xr.grad[0, 7])) <= abs(float(xr.grad[0, 7])) / 128  # 8 bits


@pytest.mark.parametrize("c", [1001, 40000], ids=["whole_rows", "column_tiles"])
@pytest.mark.parametrize("reduction", ["none", "mean"])
def test_infinite_logits_as_pytorch(c, reduction):
    """Rows with a +inf or of -inf only: the lse is torch.logsumexp's, the loss and the
    gradient are what torch's autograd of F.cross_entropy gives, NaN throughout such a row,
    an ignored one too (torch's 0 * softmax); finite rows, masked ones included, as torch."""
    x = infinite_rows(c, torch.float32)
    t = torch.tensor([1, -100, 0, 0, 5])
    loss, zloss, lse, grad = ax.cross_entropy_loss_with_grad(x, t, None, reduction, -100, 0.0, 0.0)
    xr = x.double().requires_grad_()
    want = F.cross_entropy(xr, t, reduction=reduction)
    want.backward(torch.ones_like(want))
    assert torch.equal(lse.double()[:3], torch.logsumexp(xr.detach(), -1)[:3])
    assert torch.equal(torch.isnan(loss), torch.isnan(want.detach()))
    assert torch.equal(torch.isnan(grad), torch.isnan(xr.grad)) and bool(torch.isnan(grad[:3]).all())
    fin = ~torch.isnan(xr.grad)
    torch.testing.assert_close(grad.double()[fin], xr.grad[fin], rtol=1.3e-6, atol=1e-6)


# --------------------------------------------------------------------------------------
# torch autograd against F.cross_entropy in float64 (z-loss and softcap written out)
# --------------------------------------------------------------------------------------
def _reference_loss(xr, t, w, reduction, ii, ls, z, cap):
    """F.cross_entropy of the capped logits plus the z-loss term (xr: float64)."""
    y = cap * torch.tanh(xr / cap) if cap else xr
    loss = F.cross_entropy(y, t, None if w is None else w.double(), ignore_index=ii, reduction=reduction,
                           label_smoothing=ls)
    live = (t != ii).double()
    zrows = z * torch.logsumexp(y, -1) ** 2 * live
    if reduction == "none":
        zl = zrows
    elif reduction == "sum":
        zl = zrows.sum()
    else:
        zl = zrows.sum() / live.sum()
    return loss + zl


def _torch_reference(x, *args):
    xr = x.detach().double().requires_grad_()
    return xr, _reference_loss(xr, *args)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("n,c", [(29, 301), (2, 40000)], ids=["whole_rows", "column_tiles"])
def test_autograd_against_f_cross_entropy(dtype, reduction, n, c):
    tdt = TORCH_DTYPES[dtype]
    for k, (weighted, ls, z, cap) in enumerate(itertools.product((False, True), (0.0, 0.2), (0.0, 1e-3),
                                                                 (None, 10.0))):
        g = torch.Generator().manual_seed(k)
        x = (torch.randn(n, c, generator=g) * 3).to(tdt).to(DEVICE).requires_grad_()
        t = torch.randint(0, c, (n,), generator=g).to(DEVICE)
        t[::5] = -100
        w = (torch.rand(c, generator=g) + 0.5).to(tdt).to(DEVICE) if weighted else None
        loss = ax.cross_entropy(x, t, w, reduction, -100, ls, z, fused=True, softcap=cap)
        up = torch.randn(loss.shape, generator=g).to(tdt).to(DEVICE) if reduction == "none" else \
            torch.tensor(1.5, dtype=tdt, device=DEVICE)
        loss.backward(up)
        xr, ref = _torch_reference(x, t, w, reduction, -100, ls, z, cap)
        ref.backward(up.double())
        label = (k, weighted, ls, z, cap)
        assert golden.compare(loss.detach().float().cpu().numpy(), ref.detach().cpu().numpy(), dtype)["ok"], label
        res = golden.compare(x.grad.float().cpu().numpy(), xr.grad.cpu().numpy(), dtype)
        assert res["ok"], (label, res)


def test_upstream_gradient_of_one_and_return_zloss():
    x = (torch.randn(16, 50) * 2).requires_grad_()
    t = torch.randint(0, 50, (16,))
    loss, zloss = ax.cross_entropy(x, t, lse_square_scale_for_zloss=1e-2, fused=True, return_zloss=True)
    assert not zloss.requires_grad  # part of loss already: for reading only
    loss.backward()
    ref_loss, ref_z = ax.cross_entropy(x.detach(), t, lse_square_scale_for_zloss=1e-2, return_zloss=True)
    xr, ref = _torch_reference(x, t, None, "mean", -100, 0.0, 1e-2, None)
    ref.backward()
    torch.testing.assert_close(x.grad, xr.grad.float(), rtol=1.3e-6, atol=1e-7)
    torch.testing.assert_close((loss.detach(), zloss), (ref_loss, ref_z))


# --------------------------------------------------------------------------------------
# In place
# --------------------------------------------------------------------------------------
def _lm_head_step(inplace, fused=True):
    g = torch.Generator().manual_seed(3)
    h = torch.randn(24, 16, generator=g, requires_grad=True)
    head = torch.randn(16, 300, generator=g, requires_grad=True)
    t = torch.randint(0, 300, (24,), generator=g)
    logits = h @ head
    loss = ax.cross_entropy(logits, t, label_smoothing=0.1, fused=fused, softcap=20.0 if fused else None,
                            inplace=inplace)
    loss.backward()
    return loss.detach(), h.grad, head.grad, logits


def test_in_place_step_is_bitwise_the_allocating_one():
    a, b = _lm_head_step(False), _lm_head_step(True)
    for x, y in zip(a[:3], b[:3]):
        assert torch.equal(x, y)
    assert not torch.equal(a[3], b[3])  # in place: the logits now hold their gradient


def test_in_place_refuses_what_it_would_break():
    x = torch.randn(8, 20, requires_grad=True)
    t = torch.randint(0, 20, (8,))
    with pytest.raises(RuntimeError, match="^inplace: input is a leaf that requires grad"):
        ax.cross_entropy(x, t, fused=True, inplace=True)
    # A second loss head that saved the same logits: its backward sees they were overwritten.
    logits = x * 1.0
    other = (logits ** 2).sum()
    loss = ax.cross_entropy(logits, t, fused=True, inplace=True)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        (loss + other).backward()
    with pytest.raises(RuntimeError, match="^inplace: not supported under torch.func"):
        torch.func.grad(lambda a: ax.cross_entropy(a * 1.0, t, fused=True, inplace=True))(x.detach())
    with pytest.raises(RuntimeError, match="^input: inplace=True overwrites input, which requires grad"):
        ax.cross_entropy_loss_with_grad(x, t, inplace=True)
    # (N, C, d) logits reach the kernel as a (N*d, C) copy: in place would overwrite the copy.
    with pytest.raises(ValueError, match="^inplace: needs a 2-D \\(N, C\\) input, got 3 dims"):
        ax.cross_entropy(torch.randn(2, 20, 3) * 1.0, torch.randint(0, 20, (2, 3)), fused=True, inplace=True)


@pytest.mark.parametrize("kw,match", [
    (dict(softcap=5.0), "^softcap: only the fused path caps the logits"),
    (dict(inplace=True), "^inplace: only the fused path writes the gradient over the logits"),
    (dict(fused=True, inplace_backward=True), "^inplace_backward: the fused path has no separate backward"),
    (dict(fused=True, softcap=-1.0), r"^softcap: expected None or a finite float > 0, got -1\.0"),
    (dict(fused=True, softcap=float("nan")), "^softcap: expected None or a finite float > 0, got nan"),
])
def test_bad_options_name_the_argument(kw, match):
    x = torch.randn(4, 10)
    t = torch.randint(0, 10, (4,))
    with pytest.raises(ValueError, match=match):
        ax.cross_entropy(x, t, **kw)


def test_softcap_type_error():
    with pytest.raises(TypeError, match="^softcap: expected None or a finite float > 0, got str"):
        ax.cross_entropy_loss_with_grad(np.zeros((2, 3), np.float32), np.zeros(2, np.int64), softcap="5")


# --------------------------------------------------------------------------------------
# opcheck, torch.compile, torch.func
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype,reduction,weight,scale,cap",
                         [("float32", "mean", True, 1e-2, 0.0), ("bfloat16", "none", False, 0.0, 5.0),
                          ("float16", "sum", True, 1e-3, 30.0)])
def test_opcheck_fused_ops(dtype, reduction, weight, scale, cap):
    x, t, w = _inputs(13, 31, dtype)
    x = torch.from_numpy(x.astype(np.float32)).to(TORCH_DTYPES[dtype]).to(DEVICE)
    t = torch.from_numpy(t).to(DEVICE)
    w = torch.from_numpy(w).to(TORCH_DTYPES[dtype]).to(DEVICE) if weight else None
    args = (x, t, w, reduction, -100, 0.1, scale, cap)
    torch.library.opcheck(torch.ops.ascend_xent.cross_entropy_loss_with_grad.default, args)
    torch.library.opcheck(torch.ops.ascend_xent.cross_entropy_loss_with_grad_.default, (x.clone(),) + args[1:])


@pytest.mark.parametrize("inplace", [False, True])
def test_torch_compile_fullgraph(inplace):
    torch._dynamo.reset()
    g = torch.Generator().manual_seed(0)
    h = torch.randn(32, 8, generator=g)
    head = torch.randn(8, 100, generator=g)
    t = torch.randint(0, 100, (32,), generator=g)

    def step(h, head, t):
        loss, z = ax.cross_entropy(h @ head, t, label_smoothing=0.1, lse_square_scale_for_zloss=1e-3,
                                   return_zloss=True, fused=True, softcap=15.0, inplace=inplace)
        return loss * 2.0, z

    results = []
    for fn in (torch.compile(step, fullgraph=True, backend="aot_eager"), step):
        ha, wa = h.clone().requires_grad_(), head.clone().requires_grad_()
        loss, z = fn(ha, wa, t)
        loss.backward()
        results.append((loss, z, ha.grad, wa.grad))
    torch.testing.assert_close(results[0], results[1])


def test_torch_func_grad_and_vmap_of_grad():
    x = torch.randn(12, 9)
    t = torch.randint(0, 9, (12,))
    kw = dict(label_smoothing=0.1, lse_square_scale_for_zloss=1e-3, softcap=4.0)

    ours = torch.func.grad(lambda a: ax.cross_entropy(a, t, fused=True, **kw))(x)
    ref = torch.func.grad(lambda a: _reference_loss(a, t, None, "mean", -100, 0.1, 1e-3, 4.0))(x.double())
    torch.testing.assert_close(ours.double(), ref, rtol=1.3e-6, atol=1e-7)
    xs = torch.randn(3, 12, 9)
    ours = torch.func.vmap(torch.func.grad(lambda a: ax.cross_entropy(a, t, fused=True, **kw)))(xs)
    for i in range(3):
        torch.testing.assert_close(ours[i], torch.func.grad(lambda a: ax.cross_entropy(a, t, fused=True, **kw))(xs[i]))
