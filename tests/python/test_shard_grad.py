"""ascend_xent.parallel.cross_entropy_loss_grad_shard in one process: the shards' gradients
are the whole problem's columns to the bit (same row terms, same per-element operations),
and its argument errors."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

import ascend_xent as ax  # noqa: E402
from ascend_xent.parallel import cross_entropy_loss_grad_shard  # noqa: E402

WIDTHS = (5, 300, 1, 94)


def problem(dtype, reduction, seed=0):
    g = torch.Generator().manual_seed(seed)
    n, c = 37, sum(WIDTHS)
    log_prob = torch.log_softmax(3 * torch.randn(n, c, generator=g), dim=1).to(dtype)
    target = torch.randint(0, c, (n,), generator=g)
    target[::7] = -100
    weight = 0.5 + torch.rand(c, generator=g)
    grad = torch.randn(n, generator=g).to(dtype) if reduction == "none" else torch.tensor(1.5, dtype=dtype)
    lse = (2 * torch.randn(n, generator=g)).to(dtype)
    return grad, log_prob, target, weight, lse


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_shards_are_the_whole_gradient_bitwise(dtype, reduction):
    grad, log_prob, target, weight, lse = problem(dtype, reduction)
    opts = dict(reduction=reduction, ignore_index=-100, label_smoothing=0.1, lse_square_scale_for_zloss=1e-2)
    whole = ax.cross_entropy_loss_grad(grad, log_prob, target, weight, None, lse, **opts)
    parts, lo = [], 0
    for w in WIDTHS:
        parts.append(cross_entropy_loss_grad_shard(grad, log_prob[:, lo: lo + w].contiguous(), target, weight,
                                                   None, lse, **opts, class_offset=lo, class_count=log_prob.shape[1]))
        lo += w
    assert torch.equal(torch.cat(parts, dim=1), whole)


def test_argument_errors():
    grad, log_prob, target, weight, _ = problem(torch.float32, "mean")
    shard = log_prob[:, :300].contiguous()
    c = log_prob.shape[1]
    with pytest.raises(ValueError, match=r"class_offset: expected in \[0, class_count - C\] = \[0, 100\], got 101"):
        cross_entropy_loss_grad_shard(grad, shard, target, class_offset=101, class_count=c)
    with pytest.raises(ValueError, match=r"class_count: expected >= C = 300"):
        cross_entropy_loss_grad_shard(grad, shard, target, class_offset=0, class_count=299)
    with pytest.raises(TypeError, match=r"class_offset: expected an int"):
        cross_entropy_loss_grad_shard(grad, shard, target, class_offset=1.0, class_count=c)
    with pytest.raises(ValueError, match=r"weight: expected the whole vocabulary's \(class_count,\) = \(400,\)"):
        cross_entropy_loss_grad_shard(grad, shard, target, weight[:300], class_offset=0, class_count=c)
    bad = target.clone()
    bad[3] = c
    with pytest.raises(ValueError, match=r"target\[3\] = 400 is outside \[0, 400\)"):
        cross_entropy_loss_grad_shard(grad, shard, bad, class_offset=0, class_count=c)


def test_weight_checked_as_in_the_unsharded_call():
    grad, log_prob, target, weight, _ = problem(torch.float32, "mean")
    shard = log_prob[:, :300].contiguous()
    c = log_prob.shape[1]
    with pytest.raises(TypeError, match="^weight: expected a floating dtype"):
        cross_entropy_loss_grad_shard(grad, shard, target, weight.long(), class_offset=0, class_count=c)
    huge = weight.double()
    huge[7] = 1e300
    with pytest.raises(ValueError, match=r"^weight: weight\[7\] = 1e\+300 does not fit float32"):
        cross_entropy_loss_grad_shard(grad, shard, target, huge, class_offset=0, class_count=c)
    # A float64 weight that fits is the float32 one.
    got = cross_entropy_loss_grad_shard(grad, shard, target, weight.double(), class_offset=0, class_count=c)
    want = cross_entropy_loss_grad_shard(grad, shard, target, weight, class_offset=0, class_count=c)
    assert torch.equal(got, want)
