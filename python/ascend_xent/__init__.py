"""ascend-xent: aclnnCrossEntropyLoss and its backward, CrossEntropyLossGrad, as Ascend C
kernels, run on a CPU simulator of the Ascend C API when no NPU is present.

Public API::

    cross_entropy_loss_grad(grad_loss, log_prob, target, weight=None, grad_zloss=None,
                            lse_for_zloss=None, reduction="mean", ignore_index=-100,
                            label_smoothing=0.0, lse_square_scale_for_zloss=0.0, *, out=None)
    cross_entropy(input, target, ...)        # torch, differentiable; forward and backward = the kernels;
                                             # fused=True: the loss and its gradient in one launch
    cross_entropy_loss_with_grad(input, target, ..., softcap=None, *, inplace=False)
                                             # the fused kernel: (loss, zloss, lse_for_zloss, grad)
    cross_entropy_loss(input, target, ...)   # the forward kernel: (loss, log_prob, zloss, lse_for_zloss);
                                             # NumPy, or torch (differentiable)
    last_launch_stats(), profiles(), current_profile(), set_soc(), set_cores(), set_threads()
    build_info(), golden (float64 NumPy references)

torch is imported only when a torch function is used (or torch tensors are passed).
"""

from __future__ import annotations

from . import _api, golden
from ._api import cross_entropy_loss_grad, cross_entropy_loss_with_grad
from ._arrays import _is_torch_tensor
from ._output_cache import release as release_output_cache
from .sim import (current_profile, host_threads, last_launch_stats, profiles, set_cores,
                  set_soc, set_threads, set_timing)


def _read_version() -> str:
    try:
        from importlib.metadata import version

        return version("ascend-xent")
    except Exception:
        return "0+unknown"


__version__ = _read_version()


def build_info() -> dict:
    """Compiler, flags, native (-march=native) and version of the compiled extension."""
    from ._native import native

    return dict(native().build_info())


def cross_entropy_loss(input, target, weight=None, reduction="mean", ignore_index=-100,
                       label_smoothing=0.0, lse_square_scale_for_zloss=0.0):
    """The forward kernel: ``(loss, log_prob, zloss, lse_for_zloss)`` (``_api.cross_entropy_loss``
    documents the arguments). NumPy arrays in, NumPy out; torch tensors in, torch tensors out,
    differentiable in ``input`` (``torch_ops.cross_entropy_loss``: the backward is the gradient
    kernel)."""
    if _is_torch_tensor(input):
        from .torch_ops import cross_entropy_loss as torch_cross_entropy_loss

        return torch_cross_entropy_loss(input, target, weight, reduction, ignore_index, label_smoothing,
                                        lse_square_scale_for_zloss)
    return _api.cross_entropy_loss(input, target, weight, reduction, ignore_index, label_smoothing,
                                   lse_square_scale_for_zloss)


def __getattr__(name):
    # torch-dependent API, loaded on first use so that NumPy users need no torch.
    if name in ("cross_entropy", "torch_ops"):
        import importlib

        mod = importlib.import_module(".torch_ops", __name__)
        return mod if name == "torch_ops" else getattr(mod, name)
    raise AttributeError(f"module 'ascend_xent' has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + ["cross_entropy", "torch_ops"])


__all__ = ["cross_entropy_loss_grad", "cross_entropy", "cross_entropy_loss", "cross_entropy_loss_with_grad", "golden",
           "last_launch_stats", "profiles", "current_profile", "set_soc", "set_cores",
           "set_threads", "set_timing", "host_threads", "release_output_cache", "build_info", "__version__"]


def _register_torch_ops_if_loaded() -> None:
    import sys

    if "torch" in sys.modules:  # torch already paid for: make torch.ops.ascend_xent.* available
        import importlib

        importlib.import_module(".torch_ops", __name__)


_register_torch_ops_if_loaded()
