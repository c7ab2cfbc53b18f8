"""cross_entropy_loss_grad for NumPy arrays and torch tensors.

Arrays cross into ``ascend_xent._C`` as plain descriptors
``(data_ptr, dtype_name, shape, strides_in_elements)``; the native layer wraps the
caller's buffers in aclTensors (no copies) and runs the operator with the GIL
released.
"""

from __future__ import annotations

import re
import threading

from . import _backends, _checks

_native_lock = threading.Lock()
_native_mod = None


def native():
    """The compiled extension. The simulator itself reads ASCEND_XENT_SOC, ASCEND_XENT_CORES
    and ASCEND_XENT_THREADS; ascend_xent.set_soc/set_cores/set_threads override them."""
    global _native_mod
    if _native_mod is None:
        with _native_lock:
            if _native_mod is None:
                from . import _C

                _native_mod = _C
    return _native_mod


def _desc(lib, a):
    if a is None:
        return None
    if lib.kind == "numpy":
        item = a.itemsize
        return (int(a.ctypes.data), a.dtype.name, tuple(int(s) for s in a.shape),
                tuple(int(s) // item for s in a.strides))
    return (int(a.data_ptr()), str(a.dtype).replace("torch.", ""), tuple(int(s) for s in a.shape),
            tuple(int(s) for s in a.stride()))


def run_prepared(p: _checks.Prepared):
    """Launch on the backend chosen for ``p`` (out must already be allocated)."""
    if p.n == 0:
        return p.out
    # NumPy / torch CPU -> the simulator; torch_npu tensors -> the NPU (_backends.py).
    backend = _backends.backend_for_device(p.lib.device(p.log_prob))
    if backend == _backends.NPU:
        return _backends.run_npu(p)
    lib = p.lib
    if lib.kind == "torch":
        # Plain data pointers: no autograd on this level.
        det = lambda t: None if t is None else t.detach()  # noqa: E731
        args = [det(t) for t in (p.grad_loss, p.log_prob, p.target, p.weight, p.grad_zloss,
                                 p.lse_for_zloss, p.out)]
    else:
        args = [p.grad_loss, p.log_prob, p.target, p.weight, p.grad_zloss, p.lse_for_zloss, p.out]
    d = [_desc(lib, a) for a in args]
    call_native(d[0], d[1], d[2], d[3], d[4], d[5], p.reduction, p.ignore_index,
                p.label_smoothing, p.lse_square_scale_for_zloss, d[6])
    return p.out


# aclnn argument names -> the Python API's, for messages from the native layer.
_ACLNN_NAMES = {
    "gradLoss": "grad_loss", "logProb": "log_prob", "target": "target",
    "weightOptional": "weight", "weight": "weight", "gradZlossOptional": "grad_zloss",
    "gradZloss": "grad_zloss", "lseForZlossOptional": "lse_for_zloss",
    "lseForZloss": "lse_for_zloss", "reductionOptional": "reduction",
    "ignoreIndex": "ignore_index", "labelSmoothing": "label_smoothing",
    "lseSquareScaleForZloss": "lse_square_scale_for_zloss", "out": "out",
}
_NATIVE_MSG = re.compile(r"^(?P<phase>\w+) failed with status (?P<status>\d+): "
                         r"(?:\w+: )?(?P<arg>[A-Za-z]+)(?P<rest>\b.*)$", re.S)


def python_message(msg: str) -> str:
    """'aclnnX failed with status 161002: aclnnX: logProb must ...' ->
    'log_prob: log_prob must ... [aclnnX, status 161002]'. Messages that name no argument
    stay as they are."""
    m = _NATIVE_MSG.match(msg)
    if not m or m.group("arg") not in _ACLNN_NAMES:
        return msg
    text = (m.group("arg") + m.group("rest")).strip()
    for c_name, py_name in _ACLNN_NAMES.items():
        text = re.sub(rf"\b{c_name}\b", py_name, text)
    return f"{_ACLNN_NAMES[m.group('arg')]}: {text} [{m.group('phase')}, status {m.group('status')}]"


def call_native(*descs_and_options, launch=None):
    """_C.cross_entropy_loss_grad with its TypeError/ValueError messages in Python names.

    ``launch``: None (the binding allocates the workspace and runs on the default stream;
    simulator build only) or ``launch(workspace_bytes) -> (workspace_ptr, stream)``, called
    between the two phases (the npu backend, ``_npu.py``)."""
    try:
        native().cross_entropy_loss_grad(*descs_and_options, launch=launch)
    except (TypeError, ValueError) as e:
        raise type(e)(python_message(str(e))) from None


def grad_impl(grad_loss, log_prob, target, weight=None, grad_zloss=None, lse_for_zloss=None,
              reduction="mean", ignore_index=-100, label_smoothing=0.0,
              lse_square_scale_for_zloss=0.0, out=None):
    """Validate, allocate ``out`` when absent, run. Works for NumPy and torch alike."""
    p = _checks.prepare(grad_loss, log_prob, target, weight, grad_zloss, lse_for_zloss,
                        reduction, ignore_index, label_smoothing, lse_square_scale_for_zloss, out)
    if p.out is None:
        p.out = p.lib.empty((p.n, p.c), p.dtype, like=log_prob)
    return run_prepared(p)


def cross_entropy_loss_grad(grad_loss, log_prob, target, weight=None, grad_zloss=None,
                            lse_for_zloss=None, reduction="mean", ignore_index=-100,
                            label_smoothing=0.0, lse_square_scale_for_zloss=0.0, *, out=None):
    """Gradient of the cross-entropy loss with respect to the logits.

    The backward of ``aclnnCrossEntropyLoss`` / ``torch_npu.npu_cross_entropy_loss``,
    with the arguments of ``torch_npu.npu_cross_entropy_loss_backward``:

    grad_loss: the loss's upstream gradient: a Python number or a 0-D tensor under
        ``mean``/``sum``, an (N,) tensor under ``none``; dtype of ``log_prob``.
    log_prob: (N, C) log-softmax of the logits, float32/float16/bfloat16, C-contiguous.
    target: (N,) int32 or int64 class indices in [0, C) or ``ignore_index``.
    weight: optional (C,) class weights (used as float32).
    grad_zloss: optional upstream gradient of the separately returned z-loss
        (same shape rules as ``grad_loss``).
    lse_for_zloss: (N,) logsumexp of the logits; required when
        ``lse_square_scale_for_zloss`` != 0.
    reduction: "mean", "sum" or "none"; ignore_index: any int64;
    label_smoothing: in [0, 1]; lse_square_scale_for_zloss: >= 0.
    out: optional (N, C) C-contiguous output buffer of ``log_prob``'s dtype.

    Takes NumPy arrays (returns NumPy; bfloat16 through ``ml_dtypes``) or torch
    tensors (returns a torch tensor). The kernel runs directly in the caller's buffers
    with the GIL released: on the simulator for host data, on the NPU (current
    torch_npu stream, asynchronously; CANN build; not yet run on hardware) for tensors
    on an 'npu' device (see _backends.py). Raises TypeError/ValueError naming the
    offending argument.
    """
    lib = _checks.lib_for(log_prob)
    if lib.kind == "torch" and out is None:
        from . import torch_ops

        return torch_ops.cross_entropy_loss_grad_torch(
            grad_loss, log_prob, target, weight, grad_zloss, lse_for_zloss, reduction,
            ignore_index, label_smoothing, lse_square_scale_for_zloss)
    return grad_impl(grad_loss, log_prob, target, weight, grad_zloss, lse_for_zloss, reduction,
                     ignore_index, label_smoothing, lse_square_scale_for_zloss, out)
