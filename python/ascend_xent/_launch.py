"""Backend launch: hands a validated call (``_checks.Prepared``, or ``PreparedForward``
for the forward) to the backend chosen for its data (``_backends``): the simulator in
``_C``, or the NPU (``_npu``)."""

from __future__ import annotations

from . import _backends, _native, _npu


def run(p, shard=None):
    """Launch ``p`` (``p.out`` allocated) and return ``p.out``; ``shard``: see
    ``_native.call_prepared``."""
    if p.n == 0:
        return p.out
    if _backends.backend_for_device(p.lib.device(p.log_prob)) == _backends.NPU:
        _npu.run(p, shard)
    else:
        _native.call_prepared(p, shard=shard)
    p.lib.mark_written(p.out)
    return p.out


def run_forward(p, outputs, fused=False):
    """Launch the forward ``p`` into ``outputs`` = (loss, log_prob, zloss, lse_for_zloss), or
    fused into (loss, zloss, lse_for_zloss, grad), and return them. No rows under "none"
    writes nothing (as the kernel launches nothing)."""
    if p.n == 0 and p.reduction == "none":
        return outputs
    if _backends.backend_for_device(p.lib.device(p.input)) == _backends.NPU:
        _npu.run_forward(p, outputs, fused)
    else:
        _native.call_forward(p, *outputs, fused=fused)
    for o in outputs:
        p.lib.mark_written(o)
    return outputs
