"""Row factors near the ends of the float32 range.

The per-row scalars are products and quotients of user inputs (g, W, the z-loss
scale, lse); where the exact gradient fits in float32, no intermediate may
overflow. Checked against the float64 golden, float32 only (the inputs are
float32 values; fp16/bf16 cannot hold them).
"""

import numpy as np
import pytest

import ascend_xent as ax
from ascend_xent import golden

pytestmark = pytest.mark.requires_sim


def _case(n=6, c=9, seed=3):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, c))
    log_prob = (x - np.log(np.exp(x).sum(1, keepdims=True))).astype(np.float32)
    target = rng.integers(0, c, n).astype(np.int64)
    return log_prob, target


def _check(*args, **kw):
    out = ax.cross_entropy_loss_grad(*args, **kw)
    ref = golden.cross_entropy_loss_grad(*args, **kw)
    assert np.isfinite(ref).all() and np.isfinite(out).all()
    assert golden.compare(out, ref)["ok"]


def test_zloss_scale_near_float32_max():
    # 2 * 1e38 * lse * z: 2e38 * 2 overflows on its own; the product (~1e38) fits.
    log_prob, target = _case()
    lse = np.full(target.shape, 2.0, np.float32)
    g = np.full(target.shape, 0.25, np.float32)
    _check(g, log_prob, target, None, None, lse, "none", -100, 0.0, 1e38)


def test_mean_with_large_gradient_and_weights():
    # g * w[t] = 1e40 overflows; g * w[t] / W = 1e10 / n fits.
    log_prob, target = _case()
    weight = np.full(log_prob.shape[1], 1e30, np.float32)
    _check(1e10, log_prob, target, weight, None, None, "mean", -100, 0.1, 0.0)
