"""ascend_xent.cross_entropy against PyTorch's own behaviour where its contract is
PyTorch's: a weight that requires grad, autocast, torch.func transforms,
K-dimensional inputs, and inplace_backward (the gradient written over the saved
log-probabilities). References: F.cross_entropy and torch.autograd / torch.func of it."""

import itertools

import pytest

torch = pytest.importorskip("torch")
import torch.nn.functional as F  # noqa: E402

import ascend_xent as ax  # noqa: E402
from conftest import DEVICE, ON_NPU  # noqa: E402


def _case(n=12, c=9, dtype=torch.float32, seed=0, ii=-100):
    g = torch.Generator().manual_seed(seed)
    x = (torch.randn(n, c, generator=g) * 2).to(dtype).to(DEVICE)
    t = torch.randint(0, c, (n,), generator=g)
    t[::5] = ii
    w = (torch.rand(c, generator=g) + 0.5).to(dtype).to(DEVICE)
    return x, t.to(DEVICE), w


def _grad(fn, x, *args, **kw):
    xa = x.detach().clone().requires_grad_()
    loss = fn(xa, *args, **kw)
    loss.sum().backward()
    return loss.detach(), xa.grad


# ----------------------------------------------------------------------------------------
# weight.requires_grad
# ----------------------------------------------------------------------------------------
def test_weight_that_requires_grad_is_refused_as_by_f_cross_entropy():
    x, t, w = _case()
    w.requires_grad_()
    with pytest.raises(RuntimeError, match="not differentiable with respect to argument 'weight'"):
        F.cross_entropy(x, t, w)
    with pytest.raises(RuntimeError, match="^weight: the function 'cross_entropy' is not differentiable with "
                                           "respect to argument 'weight'"):
        ax.cross_entropy(x, t, w)
    with pytest.raises(RuntimeError, match="^weight: "):
        ax.cross_entropy_loss(x, t, w)
    with torch.no_grad():  # as F.cross_entropy, accepted where nothing is recorded
        torch.testing.assert_close(ax.cross_entropy(x, t, w), F.cross_entropy(x, t, w))


def test_kernel_call_on_tensors_that_require_grad_is_refused():
    """cross_entropy_loss_grad itself is not differentiable: called where autograd records,
    its result would silently have no grad_fn."""
    x, t, w = _case()
    log_prob = torch.log_softmax(x.clone().requires_grad_(), dim=1)
    g = torch.tensor(1.0, device=DEVICE)
    with pytest.raises(RuntimeError, match="^log_prob: cross_entropy_loss_grad\\(\\) is not differentiable"):
        ax.cross_entropy_loss_grad(g, log_prob, t)
    with pytest.raises(RuntimeError, match="^grad_loss: "):
        ax.cross_entropy_loss_grad(g.clone().requires_grad_(), log_prob.detach(), t)
    with torch.no_grad():
        got = ax.cross_entropy_loss_grad(g, log_prob, t)
    torch.testing.assert_close(got, ax.cross_entropy_loss_grad(g, log_prob.detach(), t))


def test_in_place_kernel_op_refuses_a_log_prob_that_requires_grad():
    x, t, w = _case()
    g = torch.tensor(1.0, device=DEVICE)
    leaf = torch.log_softmax(x, dim=1).requires_grad_()
    before = leaf.detach().clone()
    for ctx in (torch.enable_grad, torch.no_grad):
        with ctx(), pytest.raises(RuntimeError, match="^log_prob: cross_entropy_loss_grad_ overwrites log_prob, "
                                                      "which requires grad"):
            torch.ops.ascend_xent.cross_entropy_loss_grad_(g, leaf, t)
        assert torch.equal(leaf.detach(), before)
    # Its detached alias (the same memory) is written in place, as documented.
    torch.ops.ascend_xent.cross_entropy_loss_grad_(g, leaf.detach(), t)
    torch.testing.assert_close(leaf.detach(), ax.cross_entropy_loss_grad(g, before, t))


# ----------------------------------------------------------------------------------------
# autocast
# ----------------------------------------------------------------------------------------
@pytest.mark.skipif(ON_NPU, reason="CPU autocast")
@pytest.mark.parametrize("in_dtype,w_dtype", [(torch.bfloat16, torch.float32), (torch.float32, torch.bfloat16),
                                              (torch.bfloat16, torch.bfloat16), (torch.float16, torch.float32)])
@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_autocast_runs_in_float32_like_f_cross_entropy(in_dtype, w_dtype, reduction):
    x, t, w = _case(dtype=in_dtype)
    w = w.to(w_dtype)
    results = []
    for fn in (ax.cross_entropy, F.cross_entropy):
        xa = x.detach().clone().requires_grad_()
        with torch.autocast("cpu", torch.bfloat16):
            loss = fn(xa, t, w, reduction=reduction, label_smoothing=0.1)
        loss.sum().backward()
        results.append((loss, xa.grad))
    (loss, grad), (ref, ref_grad) = results
    assert loss.dtype == ref.dtype == torch.float32
    assert grad.dtype == ref_grad.dtype == in_dtype
    torch.testing.assert_close(loss, ref)
    torch.testing.assert_close(grad, ref_grad)
    # Outside autocast the dtype rule of F.cross_entropy holds again.
    if in_dtype != w_dtype:
        with pytest.raises(TypeError, match="^weight: expected dtype"):
            ax.cross_entropy(x, t, w)


# ----------------------------------------------------------------------------------------
# torch.func
# ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_torch_func_grad_and_vmap_of_grad(reduction):
    x, t, w = _case()
    kw = dict(weight=w, reduction=reduction, label_smoothing=0.1)
    ours = torch.func.grad(lambda a: ax.cross_entropy(a, t, **kw))(x)
    ref = torch.func.grad(lambda a: F.cross_entropy(a, t, **kw))(x)
    torch.testing.assert_close(ours, ref)
    xs = torch.stack([x, 0.5 * x, -x])
    ours = torch.func.vmap(torch.func.grad(lambda a: ax.cross_entropy(a, t, **kw)))(xs)
    ref = torch.func.vmap(torch.func.grad(lambda a: F.cross_entropy(a, t, **kw)))(xs)
    torch.testing.assert_close(ours, ref)


def test_torch_func_vmap_over_the_batch_and_targets():
    x, t, w = _case()
    xs, ts = torch.stack([x, 2 * x]), torch.stack([t, t.flip(0)])
    ours = torch.func.vmap(lambda a, b: ax.cross_entropy(a, b, w, label_smoothing=0.2))(xs, ts)
    # (F.cross_entropy itself cannot be vmapped over targets with label smoothing: masked_select)
    ref = torch.stack([F.cross_entropy(a, b, w, label_smoothing=0.2) for a, b in zip(xs, ts)])
    torch.testing.assert_close(ours, ref)


def test_torch_func_jacrev():
    x, t, w = _case(n=5, c=4)
    for reduction in ("none", "mean"):
        ours = torch.func.jacrev(lambda a: ax.cross_entropy(a, t, w, reduction=reduction))(x)
        ref = torch.func.jacrev(lambda a: F.cross_entropy(a, t, w, reduction=reduction))(x)
        torch.testing.assert_close(ours, ref)


def test_torch_func_forward_mode_is_refused_clearly():
    x, t, _ = _case(n=3, c=4)
    with pytest.raises(NotImplementedError, match="jvp"):
        torch.func.jacfwd(lambda a: ax.cross_entropy(a, t))(x)


# ----------------------------------------------------------------------------------------
# K-dimensional inputs
# ----------------------------------------------------------------------------------------
KDIM = list(itertools.product(("mean", "sum", "none"), ((3, 7, 4), (2, 6, 3, 5)), (False, True), (0.0, 0.1)))


@pytest.mark.parametrize("reduction,shape,weight,ls", KDIM,
                         ids=[f"{r}-{'x'.join(map(str, s))}-{'w' if w else 'now'}-ls{ls}" for r, s, w, ls in KDIM])
def test_k_dimensional_inputs_match_f_cross_entropy(reduction, shape, weight, ls):
    g = torch.Generator().manual_seed(len(shape))
    x = torch.randn(shape, generator=g).to(DEVICE)
    c = shape[1]
    t = torch.randint(0, c, (shape[0],) + shape[2:], generator=g)
    t.view(-1)[::4] = -100
    t = t.to(DEVICE)
    w = (torch.rand(c, generator=g) + 0.5).to(DEVICE) if weight else None
    kw = dict(weight=w, reduction=reduction, label_smoothing=ls)
    loss, grad = _grad(ax.cross_entropy, x, t, **kw)
    ref, ref_grad = _grad(F.cross_entropy, x, t, **kw)
    assert loss.shape == ref.shape and grad.shape == x.shape
    torch.testing.assert_close(loss, ref)
    torch.testing.assert_close(grad, ref_grad)


def test_k_dimensional_z_loss_per_position():
    x = torch.randn(2, 5, 3, device=DEVICE)
    t = torch.randint(0, 5, (2, 3), device=DEVICE)
    loss, z = ax.cross_entropy(x, t, reduction="none", lse_square_scale_for_zloss=1e-2, return_zloss=True)
    rows = x.movedim(1, -1).reshape(-1, 5)
    loss2, z2 = ax.cross_entropy(rows, t.reshape(-1), reduction="none", lse_square_scale_for_zloss=1e-2,
                                 return_zloss=True)
    assert z.shape == (2, 3)
    assert torch.equal(z, z2.reshape(2, 3)) and torch.equal(loss, loss2.reshape(2, 3))


# ----------------------------------------------------------------------------------------
# inplace_backward
# ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_inplace_backward_is_bitwise_the_allocating_backward(dtype, reduction):
    x, t, w = _case(n=40, c=300, dtype=dtype)
    kw = dict(weight=w, reduction=reduction, label_smoothing=0.1, lse_square_scale_for_zloss=1e-3)
    loss, grad = _grad(ax.cross_entropy, x, t, **kw)
    loss2, grad2 = _grad(ax.cross_entropy, x, t, inplace_backward=True, **kw)
    assert torch.equal(loss, loss2) and torch.equal(grad, grad2)


def test_inplace_backward_gradient_is_the_saved_log_prob():
    # The gradient lands in the saved log_prob's storage: no N x C buffer is allocated for it.
    x, t, w = _case(n=40, c=300)
    saved = []

    def pack(tensor):
        saved.append(tensor.data_ptr())
        return tensor

    for inplace in (False, True):
        saved.clear()
        xa = x.clone().requires_grad_()
        with torch.autograd.graph.saved_tensors_hooks(pack, lambda tensor: tensor):
            loss = ax.cross_entropy(xa, t, w, inplace_backward=inplace)
        loss.backward()
        assert (xa.grad.data_ptr() in saved) == inplace


def test_inplace_backward_refuses_a_second_backward_and_double_backward():
    x, t, _ = _case()
    xa = x.clone().requires_grad_()
    loss = ax.cross_entropy(xa, t, inplace_backward=True)
    loss.backward(retain_graph=True)
    with pytest.raises(RuntimeError, match="^inplace_backward: a backward through this graph already overwrote"):
        loss.backward()
    loss = ax.cross_entropy(xa, t, inplace_backward=True)
    with pytest.raises(RuntimeError, match=r"^inplace_backward: .*create_graph=True"):
        torch.autograd.grad(loss, xa, create_graph=True)
    with pytest.raises(RuntimeError, match="^inplace_backward: not supported under torch.func transforms"):
        torch.func.grad(lambda a: ax.cross_entropy(a, t, inplace_backward=True))(x)
    with pytest.raises(TypeError, match="^inplace_backward: expected a bool"):
        ax.cross_entropy(xa, t, inplace_backward=1)


def test_double_backward_without_inplace_says_what_is_missing():
    x, t, _ = _case()
    xa = x.clone().requires_grad_()
    (g,) = torch.autograd.grad(ax.cross_entropy(xa, t), xa, create_graph=True)
    with pytest.raises(RuntimeError, match="no autograd formula"):
        g.sum().backward()


def test_inplace_backward_under_torch_compile():
    torch._dynamo.reset()
    x, t, w = _case(n=32, c=100)
    step = torch.compile(lambda a, b: ax.cross_entropy(a, b, w, label_smoothing=0.1, inplace_backward=True),
                         fullgraph=True, backend="aot_eager")
    loss, grad = _grad(step, x, t)
    ref, ref_grad = _grad(ax.cross_entropy, x, t, w, label_smoothing=0.1)
    assert torch.equal(loss, ref) and torch.equal(grad, ref_grad)


@pytest.mark.skipif(ON_NPU, reason="CPU autocast")
def test_k_dims_and_autocast_under_torch_compile():
    torch._dynamo.reset()
    x = torch.randn(4, 50, 3, dtype=torch.bfloat16, device=DEVICE)
    t = torch.randint(0, 50, (4, 3), device=DEVICE)
    w = torch.rand(50, device=DEVICE) + 0.5  # float32 with a bf16 input: accepted under autocast
    step = torch.compile(lambda a, b: ax.cross_entropy(a, b, w, label_smoothing=0.1), fullgraph=True,
                         backend="aot_eager")
    results = []
    for fn in (step, lambda a, b: F.cross_entropy(a, b, w, label_smoothing=0.1)):
        xa = x.clone().requires_grad_()
        with torch.autocast("cpu", torch.bfloat16):
            loss = fn(xa, t)
        loss.backward()
        results.append((loss, xa.grad))
    torch.testing.assert_close(results[0], results[1])


@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_cross_entropy_under_torch_compile_dynamic(reduction):
    """dynamic=True makes the Python int and float arguments symbolic (ignore_index a SymInt)."""
    torch._dynamo.reset()
    step = torch.compile(lambda a, b, ii, ls, z: ax.cross_entropy(a, b, ignore_index=ii, label_smoothing=ls,
                                                                  lse_square_scale_for_zloss=z,
                                                                  reduction=reduction),
                         dynamic=True, fullgraph=True, backend="aot_eager")
    for k, (n, ii, ls, z) in enumerate([(12, -100, 0.0, 0.0), (20, 3, 0.1, 1e-4), (7, -1, 0.2, 2e-4)]):
        x, t, _ = _case(n=n, c=9, seed=k, ii=ii)
        loss, grad = _grad(step, x, t, ii, ls, z)
        ref, ref_grad = _grad(ax.cross_entropy, x, t, ignore_index=ii, label_smoothing=ls,
                              lse_square_scale_for_zloss=z, reduction=reduction)
        torch.testing.assert_close((loss, grad), (ref, ref_grad))
