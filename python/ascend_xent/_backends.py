"""Where a launch goes: the CPU simulator ("sim") or an Ascend NPU ("npu").

This is the single place that chooses the backend, from where the data lives:

* NumPy arrays and torch CPU tensors run on the simulator linked into
  ``ascend_xent._C`` (the default build).
* torch tensors on an ``npu`` device (torch_npu) run the same operator on the NPU
  through the aclnn two-phase API on the current NPU stream (``_npu.py``). This needs
  the CANN build of ``ascend_xent._C`` (``pip install .`` with CANN's set_env.sh
  sourced, see docs/npu_guide.md). **The NPU path has not yet run on hardware.**

``ASCEND_XENT_BACKEND`` (``sim`` or ``npu``) forces one of the two: with ``npu``,
host arrays are refused instead of being simulated (the test suite uses it to move
its tensors to the NPU); with ``sim``, NPU tensors are refused. Unset, the build
decides for host data: the simulator build simulates, the CANN build (which has no
simulator) refuses with a message saying to move the tensors to the NPU.
"""

from __future__ import annotations

import os
from typing import Optional

from ._native import native

SIM = "sim"
NPU = "npu"
ENV = "ASCEND_XENT_BACKEND"
BACKENDS = (SIM, NPU)


def env_backend() -> Optional[str]:
    """ASCEND_XENT_BACKEND when set (validated), else None."""
    value = os.environ.get(ENV, "").strip().lower()
    if not value:
        return None
    if value not in BACKENDS:
        raise ValueError(f"{ENV}={os.environ.get(ENV)!r}: expected 'sim' or 'npu'")
    return value


def build_backend() -> str:
    """What ``ascend_xent._C`` was built against: "sim" (the simulator) or "cann"."""
    return str(native().BACKEND)


def default_backend() -> str:
    """The backend used when nothing else decides: ASCEND_XENT_BACKEND, else the build's
    ("sim" for the simulator build, "npu" for the CANN build)."""
    env = env_backend()
    if env is not None:
        return env
    return SIM if build_backend() == SIM else NPU


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
    """The backend for data on ``device_type`` ("cpu" for NumPy too), or a ValueError."""
    env = env_backend()
    if device_type == "cpu":
        if env == NPU:
            raise ValueError(f"{ENV}='npu': host data (NumPy arrays, torch CPU tensors) does not run "
                             "on the NPU backend; move the tensors to an 'npu' device "
                             f"(e.g. tensor.npu()) or unset {ENV}")
        if build_backend() != SIM:
            raise ValueError("this ascend_xent was built with CANN and has no simulator: host data "
                             "(NumPy arrays, torch CPU tensors) cannot run; move the tensors to an "
                             "'npu' device, or install the simulator build "
                             "(pip install . -Ccmake.define.ASCEND_XENT_CANN=OFF)")
        return SIM
    if device_type == NPU:
        if env == SIM:
            raise ValueError(f"{ENV}='sim': tensors on an 'npu' device cannot run on the simulator "
                             f"(it reads host memory); move them to the CPU or unset {ENV}")
        return NPU
    raise ValueError(f"tensors on device {device_type!r} are not supported: expected NumPy arrays "
                     "or torch tensors on 'cpu' (simulator) or on 'npu' (an Ascend NPU via torch_npu)")


def checks_target_values(device_type: str) -> bool:
    """Whether the host-side check of target values runs for data on ``device_type``.

    It reads the targets, which for NPU tensors means waiting for the device (a stream
    synchronization per call). So on the NPU it is off unless ASCEND_XENT_NPU_CHECK_TARGETS=1:
    the kernel itself gives rows with an out-of-range target a zero gradient (and records
    them in the workspace, docs/cross_entropy_loss_grad.md), but raises nothing.
    """
    if device_type != NPU:
        return True
    return os.environ.get("ASCEND_XENT_NPU_CHECK_TARGETS", "0").strip() not in ("", "0")
