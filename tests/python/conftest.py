"""Shared helpers for the Python tests.

Tolerances (torch.testing.assert_close defaults for the output dtype), applied after
dividing both sides by max |golden|:
    float32  rtol 1.3e-6  atol 1e-5
    float16  rtol 1e-3    atol 1e-5
    bfloat16 rtol 1.6e-2  atol 1e-5
with one exception: atol is raised to the dtype's smallest subnormal divided by the
scale when that is larger (it only ever is for float16, whose subnormal spacing 2**-24
becomes > 1e-5 after dividing by a max |golden| below ~6e-3, e.g. under "mean" with
hundreds of rows): a correctly rounded result can be that far from the golden.

Large shapes (e.g. (257, 131073), (131073, 257)) are marked ``large``: skipped by a
plain ``pytest``, run with ``--run-large`` (scripts/run_tests.sh and CI pass it).

Backends. ``ASCEND_XENT_BACKEND`` picks where the kernel tests run: ``sim`` (the default
for the simulator build) or ``npu`` (the default for the CANN build; needs torch_npu and
an NPU). Tests build their inputs as NumPy arrays (``make_case``) or CPU tensors and go
through ``run_grad`` / ``to_backend`` / ``DEVICE``, which on ``npu`` move them to the NPU
and the results back; on ``sim`` they pass them through unchanged. Tests marked
``requires_sim`` (simulator violations, counters and launch statistics, profiles,
NumPy-only paths, the CLI demo) are skipped on ``npu``.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

import ascend_xent  # noqa: F401  (fails fast when the extension is missing)
from ascend_xent import _backends, golden
from ascend_xent._arrays import numpy_dtype

BUILD = _backends.build_backend()  # "sim" or "cann"
BACKEND = (os.environ.get(_backends.ENV, "").strip().lower()
           or (_backends.SIM if BUILD == "sim" else _backends.NPU))
ON_NPU = BACKEND == _backends.NPU
DEVICE = "npu" if ON_NPU else "cpu"  # where torch tensors of the tests live

TOL = {  # (rtol, atol), torch.testing.assert_close defaults
    "float32": (1.3e-6, 1e-5),
    "float16": (1e-3, 1e-5),
    "bfloat16": (1.6e-2, 1e-5),
}
DTYPES = ("float32", "float16", "bfloat16")
SUBNORMAL = {"float32": 2.0**-149, "float16": 2.0**-24, "bfloat16": 2.0**-133}


def pytest_addoption(parser):
    parser.addoption("--run-large", action="store_true", default=False,
                     help="also run the tests marked 'large' (CI does)")


def pytest_configure(config):
    config.addinivalue_line("markers", "large: large shapes; run with --run-large")
    config.addinivalue_line("markers", "requires_sim: needs the simulator; skipped under "
                            "ASCEND_XENT_BACKEND=npu")
    problem = backend_problem()
    if problem:
        raise pytest.UsageError(problem)


def backend_problem(backend: str = BACKEND, build: str = BUILD):
    """Why the test suite cannot run on ``backend`` here (None when it can)."""
    if backend not in _backends.BACKENDS:
        return f"{_backends.ENV}={backend!r}: expected 'sim' or 'npu'"
    if backend == _backends.SIM:
        if build != "sim":
            return ("ascend_xent._C is the CANN build (no simulator): run the tests with "
                    f"{_backends.ENV}=npu on an NPU host, or install the simulator build "
                    "(pip install . -Ccmake.define.ASCEND_XENT_CANN=OFF)")
        return None
    try:
        import torch
        import torch_npu  # noqa: F401
    except ImportError:
        return (f"{_backends.ENV}=npu needs torch and torch_npu (tensors on device 'npu'); "
                "torch_npu is not installed here")
    if not torch.npu.is_available():
        return f"{_backends.ENV}=npu: torch_npu reports no NPU device"
    if build != "cann":
        return (f"{_backends.ENV}=npu: ascend_xent._C is the simulator build; reinstall with CANN's "
                "set_env.sh sourced (pip install . -Ccmake.define.ASCEND_XENT_CANN=ON)")
    return None


def pytest_collection_modifyitems(config, items):
    skip_large = pytest.mark.skip(reason="large shape: run with --run-large (scripts/run_tests.sh does)")
    skip_sim = pytest.mark.skip(reason="needs the simulator (ASCEND_XENT_BACKEND=npu)")
    run_large = config.getoption("--run-large")
    for item in items:
        if not run_large and "large" in item.keywords:
            item.add_marker(skip_large)
        if ON_NPU and "requires_sim" in item.keywords:
            item.add_marker(skip_sim)


# ---------------------------------------------------------------------------------------
# Moving test data to the backend and back
# ---------------------------------------------------------------------------------------
def to_backend(x):
    """A NumPy array as the backend takes it: itself on sim, a torch tensor on the NPU."""
    if not ON_NPU or not isinstance(x, np.ndarray):
        return x
    import torch

    if x.dtype.name == "bfloat16":
        t = torch.from_numpy(np.ascontiguousarray(x).view(np.int16)).view(torch.bfloat16)
    else:
        t = torch.from_numpy(np.ascontiguousarray(x))
    return t.to(DEVICE)


def from_backend(y):
    """A result as a NumPy array (bfloat16 through ml_dtypes)."""
    if isinstance(y, np.ndarray):
        return y
    import torch

    y = y.detach().cpu()
    if y.dtype == torch.bfloat16:
        return y.view(torch.int16).numpy().view(numpy_dtype("bfloat16"))
    return y.numpy()


def run_grad(**kw):
    """ascend_xent.cross_entropy_loss_grad(**kw) on the test backend; NumPy in, NumPy out.

    On sim this is exactly the plain call with the NumPy arguments."""
    if not ON_NPU:
        return ascend_xent.cross_entropy_loss_grad(**kw)
    return from_backend(ascend_xent.cross_entropy_loss_grad(**{k: to_backend(v) for k, v in kw.items()}))


def assert_close_scaled(actual, expected, dtype: str, msg: str = ""):
    """assert_close with the dtype's default tolerances after dividing by max |expected|."""
    import torch

    a = torch.from_numpy(np.asarray(actual, dtype=np.float64)) if not isinstance(actual, torch.Tensor) \
        else actual.detach().double()
    e = torch.from_numpy(np.asarray(expected, dtype=np.float64)) if not isinstance(expected, torch.Tensor) \
        else expected.detach().double()
    scale = float(e.abs().max()) if e.numel() else 1.0
    if scale == 0.0:
        scale = 1.0
    rtol, atol = TOL[dtype]
    atol = max(atol, SUBNORMAL[dtype] / scale)
    torch.testing.assert_close(a / scale, e / scale, rtol=rtol, atol=atol, msg=lambda m: f"{msg}\n{m}")


def make_case(n, c, dtype="float32", *, reduction="mean", weight=True, label_smoothing=0.0,
              zloss="off", target_dtype="int64", ignore_index=-100, ignore_frac=0.2, seed=0,
              logit_scale=3.0):
    """Inputs for cross_entropy_loss_grad as NumPy arrays plus the keyword arguments.

    zloss: "off" (no z-loss), "on" (lse_for_zloss, scale 1e-2, no grad_zloss) or
    "on_gz" (also grad_zloss).
    """
    rng = np.random.default_rng(seed)
    dt = numpy_dtype(dtype)
    x = rng.normal(0.0, logit_scale, size=(n, c))
    lp64 = golden.log_softmax(x) if n else np.zeros((0, c))
    lse64 = (x - lp64)[:, 0] if n else np.zeros(0)
    log_prob = np.ascontiguousarray(lp64.astype(dt))
    target = rng.integers(0, c, size=n).astype(np.int64)
    if n:
        ignored = rng.random(n) < ignore_frac
        target[ignored] = ignore_index
    target = target.astype(target_dtype)
    w = rng.uniform(0.2, 2.0, size=c).astype(np.float32) if weight else None
    if reduction == "none":
        g = rng.normal(0.0, 1.0, size=n).astype(dt)
        gz = rng.normal(0.0, 1.0, size=n).astype(dt) if zloss == "on_gz" else None
    else:
        g = np.asarray(0.75, dtype=dt)
        gz = np.asarray(-1.5, dtype=dt) if zloss == "on_gz" else None
    if zloss == "off":
        lse, scale = None, 0.0
    else:
        lse, scale = lse64.astype(dt), 1e-2
    kwargs = dict(grad_loss=g, log_prob=log_prob, target=target, weight=w, grad_zloss=gz,
                  lse_for_zloss=lse, reduction=reduction, ignore_index=ignore_index,
                  label_smoothing=label_smoothing, lse_square_scale_for_zloss=scale)
    return kwargs


def golden_of(kwargs):
    return golden.cross_entropy_loss_grad(**kwargs)


@pytest.fixture
def torch():
    return pytest.importorskip("torch")
