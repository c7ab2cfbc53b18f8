"""Property test: random shapes and options, kernel against the float64 golden
(same tolerances as test_kernel_golden.py)."""

import numpy as np
import pytest

pytest.importorskip("torch")  # assert_close_scaled uses torch.testing
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import DTYPES, assert_close_scaled, golden_of, make_case, run_grad


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          derandomize=True)
@given(n=st.integers(0, 70), c=st.integers(1, 700), dtype=st.sampled_from(DTYPES),
       reduction=st.sampled_from(["mean", "sum", "none"]), weight=st.booleans(),
       ls=st.sampled_from([0.0, 0.05, 0.5, 1.0]), zloss=st.sampled_from(["off", "on", "on_gz"]),
       target_dtype=st.sampled_from(["int32", "int64"]), ii=st.sampled_from([-100, 0, -1, 3]),
       ignore_frac=st.sampled_from([0.0, 0.3, 1.0]), seed=st.integers(0, 2**16))
def test_random_cases(n, c, dtype, reduction, weight, ls, zloss, target_dtype, ii, ignore_frac, seed):
    kw = make_case(n, c, dtype, reduction=reduction, weight=weight, label_smoothing=ls, zloss=zloss,
                   target_dtype=target_dtype, ignore_index=ii, ignore_frac=ignore_frac, seed=seed)
    out = run_grad(**kw)
    assert out.shape == (n, c) and out.dtype == kw["log_prob"].dtype
    if n:
        assert_close_scaled(out, golden_of(kw), dtype)
        assert np.all(out[kw["target"].astype(np.int64) == ii] == 0)
