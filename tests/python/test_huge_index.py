"""64-bit index arithmetic of a real launch past 2^31 elements / 2^32 bytes.

N = 65537, C = 32768, float16: the last row of log_prob and out starts at element 2^31,
byte 2^32. log_prob is np.zeros (calloc'd pages that are only read map the shared zero
page, so it costs no memory); out is written (4 GiB of RSS); about 3 s on 2 cores.
Rows differ through their target and grad_loss ("none"), so a write landing at a
wrapped offset would leave the sampled rows wrong (or trip the simulator's bounds
checks). Marked "large" (CI runs it); scripts/stress_huge.py is the full-data version.
"""

import numpy as np
import pytest

import ascend_xent as ax
from ascend_xent import golden

# NumPy inputs and simulator settings (cores, threads, counters): the sim backend only.
pytestmark = pytest.mark.requires_sim


@pytest.mark.large
def test_rows_past_2_to_the_31_elements():
    n, c = 65537, 32768
    assert n * c > 2**31 and (n - 1) * c * 2 == 2**32
    lp = np.zeros((n, c), np.float16)
    out = np.empty((n, c), np.float16)
    rng = np.random.default_rng(0)
    t = rng.integers(0, c, size=n)
    t[::17] = -100
    g = rng.normal(size=n).astype(np.float16)
    ax.cross_entropy_loss_grad(g, lp, t, reduction="none", label_smoothing=0.1, out=out)
    rows = sorted({0, 1, 16383, 16384, 32767, 32768, 65535, 65536} | set(rng.integers(0, n, 24).tolist()))
    ref = golden.cross_entropy_loss_grad(g[rows], lp[rows], t[rows], reduction="none", label_smoothing=0.1)
    res = golden.compare(out[rows], ref)
    assert res["ok"], res
    assert not np.array_equal(out[65536], out[0])
    st = ax.last_launch_stats()
    assert st["gm_write_bytes"] >= n * c * 2
