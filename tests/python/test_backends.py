"""Backend selection (ascend_xent/_backends.py) and what of the npu backend can be
checked without an NPU: refusals with clear messages, the PrivateUse1 registration, and
the binding's ``launch`` callback (the workspace/stream hand-off the npu backend uses),
exercised here on the simulator with a host workspace.
"""

import sys
import types

import numpy as np
import pytest

import ascend_xent as ax
from ascend_xent import _backends, _npu
from ascend_xent._native import call, descriptor
from conftest import BUILD, ON_NPU, backend_problem, golden_of, make_case


@pytest.fixture
def no_backend_env(monkeypatch):
    monkeypatch.delenv(_backends.ENV, raising=False)
    monkeypatch.delenv("ASCEND_XENT_NPU_CHECK_TARGETS", raising=False)
    return monkeypatch


def test_env_value_is_validated(no_backend_env):
    no_backend_env.setenv(_backends.ENV, "cuda")
    with pytest.raises(ValueError, match=r"ASCEND_XENT_BACKEND='cuda': expected 'sim' or 'npu'"):
        _backends.backend_for_device("cpu")
    no_backend_env.setenv(_backends.ENV, " NPU ")
    assert _backends.env_backend() == "npu"


def test_device_routing(no_backend_env):
    assert _backends.backend_for_device("npu") == "npu"
    if BUILD == "sim":
        assert _backends.backend_for_device("cpu") == "sim"
        assert _backends.default_backend() == "sim"
    with pytest.raises(ValueError, match=r"device 'cuda' are not supported.*'npu'"):
        _backends.backend_for_device("cuda")
    no_backend_env.setenv(_backends.ENV, "sim")
    with pytest.raises(ValueError, match=r"ASCEND_XENT_BACKEND='sim': tensors on an 'npu' device"):
        _backends.backend_for_device("npu")


def test_npu_env_refuses_host_data(no_backend_env):
    no_backend_env.setenv(_backends.ENV, "npu")
    kw = make_case(6, 5, "float32")
    with pytest.raises(ValueError, match=r"ASCEND_XENT_BACKEND='npu': host data .* 'npu' device"):
        ax.cross_entropy_loss_grad(**kw)


def test_npu_without_torch_npu_names_the_device(monkeypatch):
    # sys.modules[name] = None makes `import torch_npu` fail, installed or not.
    monkeypatch.setitem(sys.modules, "torch_npu", None)
    with pytest.raises(ImportError, match=r"tensors on device 'npu:0' need torch_npu, which is not installed"):
        _npu.require_torch_npu("npu:0")
    # The npu backend's entry point refuses before touching anything else.
    fake = types.SimpleNamespace(log_prob=types.SimpleNamespace(device="npu:1"))
    with pytest.raises(ImportError, match=r"device 'npu:1' need torch_npu"):
        _npu.run(fake)


@pytest.mark.skipif(BUILD != "sim", reason="the simulator build's refusal")
def test_npu_backend_needs_the_cann_build():
    with pytest.raises(RuntimeError, match=r"built for the simulator.*ASCEND_XENT_CANN=ON"):
        _npu.require_cann_build()


def test_test_suite_refuses_npu_without_torch_npu(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch_npu", None)
    msg = backend_problem("npu", BUILD)
    assert "torch_npu is not installed" in msg and "'npu'" in msg
    assert "expected 'sim' or 'npu'" in backend_problem("gpu", BUILD)
    assert backend_problem("sim", "cann").startswith("ascend_xent._C is the CANN build")
    if BUILD == "sim" and not ON_NPU:
        assert backend_problem("sim", "sim") is None


def test_target_value_check_is_off_on_the_npu_by_default(no_backend_env):
    assert _backends.checks_target_values("cpu")
    assert not _backends.checks_target_values("npu")
    no_backend_env.setenv("ASCEND_XENT_NPU_CHECK_TARGETS", "1")
    assert _backends.checks_target_values("npu")


def test_privateuse1_kernel_is_registered(torch):
    import ascend_xent.torch_ops  # noqa: F401

    dump = torch._C._dispatch_dump("ascend_xent::cross_entropy_loss_grad")
    assert "PrivateUse1:" in dump and "CompositeExplicitAutograd" in dump


# ----------------------------------------------------------------------------------------
# The launch callback, on the simulator (a host buffer as the workspace, stream 0)
# ----------------------------------------------------------------------------------------
def _descs(kw, out):
    args = (kw["grad_loss"], kw["log_prob"], kw["target"], kw["weight"], kw["grad_zloss"],
            kw["lse_for_zloss"])
    d = [None if a is None else descriptor(np.require(a, requirements="C")) for a in args]
    return d + [kw["reduction"], kw["ignore_index"], kw["label_smoothing"],
                kw["lse_square_scale_for_zloss"], descriptor(out)]


def _case():
    kw = make_case(37, 300, "bfloat16", reduction="mean", weight=True, label_smoothing=0.1,
                   zloss="on_gz")
    kw["grad_loss"] = np.asarray(kw["grad_loss"])
    return kw


@pytest.mark.requires_sim
def test_launch_callback_supplies_workspace_and_stream():
    kw = _case()
    ref = ax.cross_entropy_loss_grad(**kw)
    expected_ws = ax.last_launch_stats()["workspace_bytes"]
    out = np.full_like(ref, 3.0)
    calls, keep = [], []

    def launch(nbytes):
        calls.append(nbytes)
        ws = np.empty(nbytes + 64, np.uint8)  # 64-byte aligned start, like a device allocation
        keep.append(ws)
        start = (-ws.ctypes.data) % 64
        return ws.ctypes.data + start, 0

    call(*_descs(kw, out), launch=launch)
    assert calls == [expected_ws] and expected_ws > 0
    np.testing.assert_array_equal(out.view(np.int16), ref.view(np.int16))  # bitwise
    assert ax.last_launch_stats()["workspace_bytes"] == expected_ws


@pytest.mark.requires_sim
def test_launch_callback_errors_free_the_executor_and_propagate():
    kw = _case()
    out = np.empty(kw["log_prob"].shape, kw["log_prob"].dtype)

    def boom(nbytes):
        raise RuntimeError("no device memory today")

    with pytest.raises(RuntimeError, match="no device memory today"):
        call(*_descs(kw, out), launch=boom)
    with pytest.raises(TypeError, match=r"launch: expected the callable to return \(workspace_ptr, stream\)"):
        call(*_descs(kw, out), launch=lambda n: 0)
    with pytest.raises(ValueError, match="launch: returned a null workspace"):
        call(*_descs(kw, out), launch=lambda n: (0, 0))
    with pytest.raises(TypeError, match="launch: expected None or a callable"):
        call(*_descs(kw, out), launch=42)
    # The executors of the failed calls were freed (phase 2 ran without a workspace) and
    # left no message behind: the next call works and reports nothing stale.
    res = ax.cross_entropy_loss_grad(**kw, out=out)
    np.testing.assert_allclose(res.astype(np.float64), golden_of(kw), rtol=2e-2,
                               atol=1e-5 * float(np.abs(golden_of(kw)).max()))


def test_privateuse1_registration_after_torch_npu_renamed_the_backend(torch):
    # torch_npu renames PrivateUse1 to "npu" when imported; registering after that
    # (ascend_xent imported after torch_npu) must still land on PrivateUse1.
    import subprocess

    code = ("import torch; torch.utils.rename_privateuse1_backend('npu'); "
            "import ascend_xent.torch_ops; "
            "print('PrivateUse1:' in torch._C._dispatch_dump('ascend_xent::cross_entropy_loss_grad'))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "True"
