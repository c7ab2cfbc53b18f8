"""Backend launch: hands a validated call (``_checks.Prepared``) to the backend chosen
for its data (``_backends``): the simulator in ``_C``, or the NPU (``_npu``)."""

from __future__ import annotations

from . import _backends, _native, _npu


def run(p):
    """Launch ``p`` (``p.out`` allocated) and return ``p.out``."""
    if p.n == 0:
        return p.out
    if _backends.backend_for_device(p.lib.device(p.log_prob)) == _backends.NPU:
        return _npu.run(p)
    _native.call_prepared(p)
    return p.out
