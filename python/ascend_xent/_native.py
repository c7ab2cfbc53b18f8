"""The compiled extension ``ascend_xent._C`` and the one call into it.

Arrays cross into ``_C`` as plain descriptors
``(data_ptr, dtype_name, shape, strides_in_elements)``; the native layer wraps the
caller's buffers in aclTensors (no copies) and runs the operator with the GIL
released. Its messages name the aclnn arguments; ``call`` renames them to the
Python ones.
"""

from __future__ import annotations

import re
import threading

import numpy as np

_lock = threading.Lock()
_mod = None


def native():
    """The compiled extension, imported on first use. The simulator itself reads
    ASCEND_XENT_SOC, ASCEND_XENT_CORES and ASCEND_XENT_THREADS; ascend_xent.set_soc /
    set_cores / set_threads override them."""
    global _mod
    if _mod is None:
        with _lock:
            if _mod is None:
                from . import _C

                _mod = _C
    return _mod


_TORCH_DTYPE_NAMES = {}  # torch.dtype -> its name without "torch."


def descriptor(a):
    """``(data_ptr, dtype, shape, strides in elements)`` of a NumPy array or a torch tensor,
    or None. A small call builds seven of these, so no temporaries: torch's shape and
    strides are tuples of ints already, and data_ptr() needs no detached alias."""
    if a is None:
        return None
    if isinstance(a, np.ndarray):
        item = a.itemsize
        return (int(a.ctypes.data), a.dtype.name, a.shape, tuple(s // item for s in a.strides))
    dt = a.dtype
    name = _TORCH_DTYPE_NAMES.get(dt)
    if name is None:
        name = _TORCH_DTYPE_NAMES[dt] = str(dt).replace("torch.", "")
    return (a.data_ptr(), name, a.shape, a.stride())


# aclnn argument names -> the Python API's, for messages from the native layer.
_ACLNN_NAMES = {
    "gradLoss": "grad_loss", "logProb": "log_prob", "target": "target",
    "weightOptional": "weight", "weight": "weight", "gradZlossOptional": "grad_zloss",
    "gradZloss": "grad_zloss", "lseForZlossOptional": "lse_for_zloss",
    "lseForZloss": "lse_for_zloss", "reductionOptional": "reduction",
    "ignoreIndex": "ignore_index", "labelSmoothing": "label_smoothing",
    "lseSquareScaleForZloss": "lse_square_scale_for_zloss", "out": "out",
    # the forward's
    "input": "input", "lossOut": "loss", "logProbOut": "log_prob", "zlossOut": "zloss",
    "lseForZlossOut": "lse_for_zloss", "softcap": "softcap", "gradOut": "grad",
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


_ARRAYS = ("grad_loss", "log_prob", "target", "weight", "grad_zloss", "lse_for_zloss")


def call_prepared(p, launch=None, shard=None):
    """``call`` with the arrays and options of a validated call (``_checks.Prepared``).
    ``shard``: None, or ``(class_offset, class_count)`` for one vocabulary shard (``p.weight``
    is then the whole vocabulary's)."""
    d = [descriptor(getattr(p, name)) for name in _ARRAYS]
    options = (p.reduction, p.ignore_index, p.label_smoothing, p.lse_square_scale_for_zloss)
    if shard is None:
        call(*d, *options, descriptor(p.out), launch=launch)
    else:
        call(*d, *options, *shard, descriptor(p.out), launch=launch, entry="cross_entropy_loss_grad_shard")


def call_forward(p, *outputs, launch=None, fused=False):
    """The forward (``_C.cross_entropy_loss``) of a validated call (``_checks.PreparedForward``)
    into its four output arrays (loss, log_prob, zloss, lse_for_zloss); fused
    (``_C.cross_entropy_loss_with_grad``), into (loss, zloss, lse_for_zloss, grad)."""
    head = (descriptor(p.input), descriptor(p.target), descriptor(p.weight), p.reduction, p.ignore_index,
            p.label_smoothing, p.lse_square_scale_for_zloss)
    outs = tuple(descriptor(o) for o in outputs)
    if fused:
        call(*head, p.softcap, *outs, launch=launch, entry="cross_entropy_loss_with_grad")
    else:
        call(*head, *outs, launch=launch, entry="cross_entropy_loss")


def call(*descs_and_options, launch=None, entry="cross_entropy_loss_grad"):
    """_C.<entry> with its TypeError/ValueError messages in Python names.

    ``launch``: None (the binding allocates the workspace and runs on the default stream;
    simulator build only) or ``launch(workspace_bytes) -> (workspace_ptr, stream)``, called
    between the two phases (the npu backend, ``_npu.py``)."""
    try:
        getattr(native(), entry)(*descs_and_options, launch=launch)
    except (TypeError, ValueError) as e:
        raise type(e)(python_message(str(e))) from None
