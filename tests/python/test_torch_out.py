"""cross_entropy_loss_grad(..., out=) with torch tensors behaves as torch's own out= ops:
the version counter of out is bumped (autograd refuses values the kernel overwrote),
out= with an argument that requires grad is refused under grad mode, and out may be
log_prob itself (the gradient in place), compared with the out-of-place result and the
float64 golden."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import ascend_xent as ax  # noqa: E402
from conftest import DEVICE, DTYPES, from_backend, golden_of, make_case  # noqa: E402


def _case(n=6, c=5, dtype=torch.float32):
    g = torch.Generator().manual_seed(0)
    lp = torch.log_softmax(torch.randn(n, c, generator=g), -1).to(dtype).to(DEVICE)
    t = torch.randint(0, c, (n,), generator=g).to(DEVICE)
    return torch.ones((), dtype=dtype, device=DEVICE), lp, t


def _torch_out_op(out):
    torch.exp(torch.ones(out.shape, dtype=out.dtype, device=out.device), out=out)


@pytest.mark.parametrize("writer", ["torch", "ascend_xent"])
def test_out_bumps_the_version_counter(writer):
    g, lp, t = _case()
    buf = torch.rand(lp.shape, device=DEVICE)
    x = torch.rand(lp.shape, device=DEVICE, requires_grad=True)
    y = (buf * x).sum()  # saves buf for backward
    v = buf._version
    if writer == "torch":
        _torch_out_op(buf)
    else:
        assert ax.cross_entropy_loss_grad(g, lp, t, out=buf) is buf
    assert buf._version > v
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()


@pytest.mark.parametrize("leaf", [True, False])
def test_out_that_requires_grad_is_refused_under_grad_mode(leaf):
    g, lp, t = _case()
    out = torch.zeros(lp.shape, device=DEVICE, requires_grad=True)
    if not leaf:
        out = out * 1.0
    with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
        _torch_out_op(out)  # torch's own behaviour
    before = out.detach().clone()
    with pytest.raises(RuntimeError, match=r"^out: cross_entropy_loss_grad\(\): functions with out=\.\.\. "
                                           r"arguments don't support automatic differentiation, but out requires grad"):
        ax.cross_entropy_loss_grad(g, lp, t, out=out)
    assert torch.equal(out.detach(), before)
    # Under no_grad torch accepts it (as for an optimizer step), and so does ascend_xent.
    with torch.no_grad():
        _torch_out_op(out)
        ax.cross_entropy_loss_grad(g, lp, t, out=out)
    assert torch.equal(out.detach(), ax.cross_entropy_loss_grad(g, lp, t))


@pytest.mark.parametrize("name", ["log_prob", "grad_loss"])
def test_out_with_an_input_that_requires_grad_is_refused(name):
    g, lp, t = _case()
    args = {"grad_loss": g, "log_prob": lp}
    args[name] = args[name].clone().requires_grad_()
    with pytest.raises(RuntimeError, match=f"^{name}: .*but {name} requires grad"):
        ax.cross_entropy_loss_grad(args["grad_loss"], args["log_prob"], t, out=torch.empty_like(lp))
    # Without out= too: the result would be a new tensor outside autograd.
    with pytest.raises(RuntimeError, match=f"^{name}: cross_entropy_loss_grad\\(\\) is not differentiable"):
        ax.cross_entropy_loss_grad(args["grad_loss"], args["log_prob"], t)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_in_place_torch(dtype, reduction):
    kw = make_case(37, 300, dtype, reduction=reduction, weight=True, label_smoothing=0.1,
                   zloss="on_gz", target_dtype="int32")
    ref = golden_of(kw)
    tkw = {k: _to_torch(v) for k, v in kw.items()}
    expected = ax.cross_entropy_loss_grad(**tkw)
    lp = tkw["log_prob"]
    v = lp._version
    res = ax.cross_entropy_loss_grad(**tkw, out=lp)
    assert res is lp and lp._version > v
    assert torch.equal(lp.view(torch.uint8), expected.view(torch.uint8))  # bitwise
    assert ax.golden.compare(from_backend(lp), ref)["ok"]


@pytest.mark.requires_sim
@pytest.mark.parametrize("dtype", DTYPES)
def test_in_place_numpy(dtype):
    kw = make_case(40, 3000, dtype, reduction="mean", weight=True, label_smoothing=0.1, zloss="on")
    expected = ax.cross_entropy_loss_grad(**kw)
    lp = kw["log_prob"]
    assert ax.cross_entropy_loss_grad(**kw, out=lp) is lp
    assert lp.tobytes() == expected.tobytes()


def test_in_place_on_a_log_prob_saved_for_backward_is_caught_by_autograd():
    x = torch.randn(6, 5, device=DEVICE, requires_grad=True)
    t = torch.randint(0, 5, (6,), device=DEVICE)
    lp = torch.log_softmax(x, -1)  # saves its output
    with torch.no_grad():
        ax.cross_entropy_loss_grad(1.0, lp, t, out=lp)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        lp.sum().backward()


def _to_torch(v):
    if not isinstance(v, np.ndarray):
        return v
    t = torch.from_numpy(v.view(np.int16)).view(torch.bfloat16) if v.dtype.name == "bfloat16" \
        else torch.from_numpy(np.array(v))
    return t.clone().to(DEVICE)



def test_opcheck_in_place_op():
    assert ax.torch_ops  # loads the custom ops when this test runs alone
    g, lp, t = _case(11, 29)
    w = torch.rand(29, device=DEVICE) + 0.5
    torch.library.opcheck(torch.ops.ascend_xent.cross_entropy_loss_grad_.default,
                          (g, lp, t, w, None, None, "sum", -100, 0.1, 0.0))
