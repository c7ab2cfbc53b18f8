"""Class weights whose sum float32 cannot hold, with label smoothing: the gradient's
smoothing term takes sum_k |w_k| in float32, so the operators refuse a sum of 2**127
(half float32's range) or more with a ValueError naming weight (docs/python_api.md),
where the kernel would otherwise return inf/NaN. Just inside, the gradient is finite and
torch float32 autograd's, within float32's tolerance of golden.compare (rtol 1.3e-6, atol
1e-5 of max |torch|, here against float32 torch, so 1e-5 both)."""

import math

import numpy as np
import pytest

import ascend_xent as ax

N, C = 4, 300
LIMIT = 2.0**127


def _case(wv, dtype=np.float32):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((N, C)).astype(np.float32)
    t = rng.integers(0, C, N)
    return x, t, np.full(C, wv, dtype)


@pytest.mark.parametrize("wv", [3e38, LIMIT / C])
def test_weight_sum_beyond_float32_is_refused_by_name(wv):
    x, t, w = _case(wv)
    lp = x - np.log(np.exp(x).sum(1, keepdims=True))
    msg = r"^weight: the sum of \|weight\| is .* >= 2\*\*127"
    with pytest.raises(ValueError, match=msg):
        ax.cross_entropy_loss_grad(1.0, lp, t, w, label_smoothing=0.1)
    with pytest.raises(ValueError, match=msg):
        ax.cross_entropy_loss_with_grad(x, t, w, "mean", -100, 0.1)
    with pytest.raises(ValueError, match=msg):
        ax.cross_entropy_loss(x, t, w, "sum", -100, 0.1)
    torch = pytest.importorskip("torch")
    from ascend_xent import parallel

    with pytest.raises(ValueError, match=msg):  # one shard of the columns, the whole vocabulary's weight
        parallel.cross_entropy_loss_grad_shard(1.0, torch.tensor(lp[:, :100]), torch.tensor(t), torch.tensor(w),
                                               label_smoothing=0.1, class_offset=0, class_count=C)


def test_without_smoothing_or_with_an_inf_entry_it_is_not_refused():
    x, t, w = _case(3e38)
    ax.cross_entropy_loss_with_grad(x, t, w, "mean", -100, 0.0)  # the sum is not used
    w[5] = math.inf
    ax.cross_entropy_loss_with_grad(x, t, w, "mean", -100, 0.1)  # a special value, not an overflow


def test_just_inside_the_gradient_is_torch_float32s():
    torch = pytest.importorskip("torch")
    import torch.nn.functional as F

    x, t, w = _case(LIMIT / C * 0.99)
    for reduction in ("mean", "sum"):
        xt = torch.tensor(x, requires_grad=True)
        F.cross_entropy(xt, torch.tensor(t), torch.tensor(w), reduction=reduction, label_smoothing=0.1).backward()
        want = xt.grad.double().numpy()
        assert np.isfinite(want).all()
        for fused in (True, False):
            xa = torch.tensor(x, requires_grad=True)
            ax.cross_entropy(xa, torch.tensor(t), torch.tensor(w), reduction, -100, 0.1, fused=fused).backward()
            got = xa.grad.double().numpy()
            scale = np.abs(want).max()
            assert np.all(np.abs(got - want) <= 1e-5 * scale + 1e-5 * np.abs(want)), (reduction, fused)
