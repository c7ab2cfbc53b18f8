"""The softcap ``cap * tanh(x / cap)`` of the fused loss and gradient over caps far from
1..1000, against the float64 golden (``golden.cross_entropy_with_grad``).

Two kinds of logits per cap: of order 3 whatever the cap (a large cap then sees
|x / cap| tiny, where tanh must not cancel), and a third of the columns on the cap's own
scale (a tiny cap then has logits near 0 where the slope is neither 0 nor 1).

Tolerances: the loss (reduction "none"), per row, relative error <= 1e-6 in float32 and
the bfloat16 tolerance of ``golden.TOLERANCES`` (rtol 1.6e-2) in bfloat16. The gradient:
``golden.compare``'s (scaled by max |golden|: float32 rtol 1.3e-6, atol 1e-5; bfloat16
rtol 1.6e-2, atol 1e-5) plus, per element, 2^-21 |d loss / d y| (y the capped logit): the
slope 1 - tanh^2 is carried in float32, to about 2^-22 absolute, as torch's float32
autograd carries it. Where every logit saturates (a tiny cap) max |golden| is tiny and
that term is what the float32 slope allows; torch float32 exceeds golden.compare's bound
alone there too.
"""

import numpy as np
import pytest

import ascend_xent as ax
from ascend_xent import golden
from test_forward import NP_DTYPES

# 64 is the largest cap the kernel takes by its exp form alone, 100 adds the series.
CAPS = (1e-4, 1e-2, 1.0, 30.0, 64.0, 100.0, 1e3, 1e5, 1e7)
LOSS_RTOL = {"float32": 1e-6, "bfloat16": 1.6e-2}


def _inputs(n, c, cap, on_cap_scale, dtype, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, c)) * 3
    if on_cap_scale:
        x[:, ::3] = rng.standard_normal((n, (c + 2) // 3)) * cap
    return x.astype(NP_DTYPES[dtype]), rng.integers(0, c, n)


@pytest.mark.parametrize("n,c", [(8, 1001), (2, 40000)], ids=["whole_rows", "column_tiles"])
@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
@pytest.mark.parametrize("on_cap_scale", [False, True], ids=["x_order_3", "x_on_cap_scale"])
@pytest.mark.parametrize("cap", CAPS)
def test_softcap_loss_and_grad_over_caps(n, c, dtype, on_cap_scale, cap):
    x, t = _inputs(n, c, cap, on_cap_scale, dtype, seed=int(np.log10(cap)) + 10)
    loss, _, _, grad = ax.cross_entropy_loss_with_grad(x, t, None, "none", -100, 0.1, 0.0, cap)
    ref_loss, _, _, ref_grad = golden.cross_entropy_with_grad(x, t, None, "none", -100, 0.1, 0.0, cap)
    rel = np.abs(loss.astype(np.float64) - ref_loss) / np.abs(ref_loss)
    assert rel.max() <= LOSS_RTOL[dtype], (cap, float(rel.max()))
    # d loss / d y: the golden's gradient without the slope
    capped = cap * np.tanh(x.astype(np.float64) / cap)
    _, lp, _, lse = golden.cross_entropy(capped, t, None, "none", -100, 0.1, 0.0)
    dldy = golden.cross_entropy_loss_grad(np.ones(n), lp, t, None, None, lse, "none", -100, 0.1, 0.0)
    rtol, atol = golden.TOLERANCES[dtype]
    scale = np.max(np.abs(ref_grad))
    err = np.abs(grad.astype(np.float64) - ref_grad)
    bound = atol * scale + rtol * np.abs(ref_grad) + 2.0**-21 * np.abs(dldy)
    assert (err <= bound).all(), (cap, float(np.max(err / bound)))
