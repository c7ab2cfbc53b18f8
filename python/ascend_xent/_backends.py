"""Where a launch goes: the CPU simulator ("sim") or a real NPU ("npu").

This is the single place that chooses the backend. Today only "sim" exists:
NumPy arrays and torch CPU tensors run the Ascend C kernel on the simulator linked
into ``ascend_xent._C``.

TODO(issue #7): the "npu" backend. torch tensors whose device type is "npu"
(torch_npu) are meant to run the same operator on the device through the aclnn
two-phase API on the current NPU stream. Until that lands such tensors are
rejected with a clear error rather than silently copied to the host.
"""

from __future__ import annotations

import os

SIM = "sim"
NPU = "npu"


def default_backend() -> str:
    """The backend used for inputs that live in host memory (NumPy, torch CPU)."""
    return os.environ.get("ASCEND_XENT_BACKEND", SIM) or SIM


def npu_available() -> bool:
    """True when torch_npu is importable and reports a device (never imports it eagerly)."""
    try:
        import importlib.util

        if importlib.util.find_spec("torch_npu") is None:
            return False
        import torch
        import torch_npu  # noqa: F401

        return bool(torch.npu.is_available())
    except Exception:
        return False


def backend_for_device(device_type: str) -> str:
    if device_type == "cpu":
        backend = default_backend()
        if backend != SIM:
            raise ValueError(f"ASCEND_XENT_BACKEND={backend!r}: only 'sim' runs host tensors")
        return SIM
    if device_type == "npu":
        return NPU
    raise ValueError(f"tensors on device {device_type!r} are not supported "
                     "(expected cpu tensors or NumPy arrays; npu with torch_npu is issue #7)")


def run_npu(prepared) -> None:
    """Run on an Ascend NPU through torch_npu. Not implemented yet (issue #7)."""
    raise NotImplementedError(
        "ascend_xent: the torch_npu backend is not implemented yet (issue #7); "
        "move the tensors to the CPU to run on the simulator")
