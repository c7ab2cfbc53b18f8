"""The ``npu`` backend: torch_npu tensors, the CANN build of ``ascend_xent._C``.

**Not yet run on hardware.** No machine ascend-xent is developed on has an NPU, CANN or
torch_npu; this module was written from torch_npu's public API and source and from
docs/npu_guide.md, and what CI can check of it is the code path it shares with the
simulator (the binding's ``launch`` callback, tests/python/test_backends.py).

Flow of one call (``run``, from ``_launch.run`` after ``_checks.prepare`` validated the
arguments):

1. torch_npu must be importable and ``_C`` must be the CANN build (else a clear error).
2. Every tensor must be on ``log_prob``'s device (type *and* index).
3. Under ``torch.npu.device(log_prob.device)`` (the current device: phase 1 asks
   PlatformAscendC about the current device's SoC, and the kernel is queued there),
   ``_C.cross_entropy_loss_grad`` wraps the tensors' ``data_ptr()`` in CANN aclTensors
   and runs phase 1 (checks, tiling) without the GIL; then it calls ``launch`` below,
   which
     a. allocates the workspace as ``torch.empty(n, dtype=torch.uint8, device=dev)``,
        from torch_npu's caching allocator, on the current stream;
     b. reads ``torch.npu.current_stream(dev).npu_stream`` *last*, after every torch op
        of this call was issued;
   and phase 2 queues the tiling copy and the kernel on that stream and returns (no
   synchronization). The workspace tensor is dropped when ``run`` returns: the caching
   allocator reuses a block only for later work on the same stream, which the stream
   orders after this kernel.

torch_npu's task queue (``TASK_QUEUE_ENABLE``, on by default) issues torch_npu's own
operators from a separate thread, so a kernel launched directly on the stream from this
thread could overtake operators still waiting in that queue (e.g. the one that computed
``log_prob``). Step 3b is what prevents it: in torch_npu's public source
(torch_npu/csrc/npu/Stream.cpp and csrc/core/npu/NPUStream.cpp), the Python
``Stream.npu_stream`` getter calls ``NPUStream::stream()``, the overload that first
empties the stream's task queue (``MakeSureQueueEmpty``: waits until every queued
operator has been issued to the stream, not until it has run) and then returns the
``aclrtStream``; C++ code would call ``stream(false)`` inside ``OpCommand`` instead. So
the flush is a property of that getter in the torch_npu versions read, not a documented
guarantee. If a torch_npu version stops flushing there, set ``TASK_QUEUE_ENABLE=0``
(torch_npu then issues its operators synchronously from the calling thread), or
``ASCEND_LAUNCH_BLOCKING=1`` while debugging.

Out-of-range targets: the kernel gives such rows a zero gradient and records them in
the workspace; it cannot raise without a synchronization, and so neither does the host
check unless ASCEND_XENT_NPU_CHECK_TARGETS=1 (``_backends.checks_target_values``).
"""

from __future__ import annotations

from ._native import call_forward, call_prepared, native


def require_torch_npu(device) -> None:
    """ImportError naming ``device`` when torch_npu cannot be imported."""
    try:
        import torch_npu  # noqa: F401  (registers the 'npu' device and torch.npu)
    except ImportError as e:
        raise ImportError(f"ascend_xent: tensors on device '{device}' need torch_npu, which is not "
                          "installed (or does not import); install the torch_npu release matching "
                          "your torch and CANN (docs/npu_guide.md)") from e


def require_cann_build() -> None:
    """RuntimeError when ``_C`` is the simulator build (it cannot launch on an NPU)."""
    backend = native().build_info().get("backend")
    if backend != "cann":
        raise RuntimeError(
            "ascend_xent: this ascend_xent._C was built for the simulator (CANN was not found at "
            f"build time; build backend {backend!r}), so it cannot launch on an NPU. Reinstall on "
            "the NPU host with CANN's set_env.sh sourced: pip install . "
            "-Ccmake.define.ASCEND_XENT_CANN=ON (docs/npu_guide.md)")


def stream_launch(dev):
    """The binding's ``launch`` callback for tensors on NPU ``dev`` (steps 3a and 3b above).
    The workspace lives as long as the callback: keep it until the call has returned."""
    import torch

    workspaces = []

    def launch(nbytes: int):
        ptr = 0
        if nbytes > 0:
            ws = torch.empty(int(nbytes), dtype=torch.uint8, device=dev)
            workspaces.append(ws)
            ptr = int(ws.data_ptr())
        # Last, after every torch op of this call was issued: this getter empties torch_npu's
        # task queue for the stream before returning its aclrtStream (see the module docstring).
        stream = int(torch.npu.current_stream(dev).npu_stream)
        return ptr, stream

    return launch


def _require_on(dev, like_name, named_tensors):
    for name, t in named_tensors:
        if t is not None and t.device != dev:  # _checks compares device types only
            raise ValueError(f"{name}: expected a tensor on {dev} like {like_name}, got one on {t.device}")


def run_forward(p, outputs, fused=False):
    """The forward ``p`` (torch tensors on an NPU) into ``outputs`` on the current NPU stream
    (fused: the loss and gradient, ``_launch.run_forward``)."""
    dev = p.input.device
    require_torch_npu(dev)
    require_cann_build()
    import torch

    _require_on(dev, "input", (("target", p.target), ("weight", p.weight)))
    with torch.npu.device(dev):
        call_forward(p, *outputs, launch=stream_launch(dev), fused=fused)
    return outputs


def run(p, shard=None):
    """Launch ``p`` (torch tensors on an NPU, ``p.out`` allocated) on the current NPU stream;
    ``shard``: see ``_native.call_prepared``."""
    dev = p.log_prob.device
    require_torch_npu(dev)
    require_cann_build()
    import torch

    names = ("grad_loss", "log_prob", "target", "weight", "grad_zloss", "lse_for_zloss", "out")
    tensors = (p.grad_loss, p.log_prob, p.target, p.weight, p.grad_zloss, p.lse_for_zloss, p.out)
    _require_on(dev, "log_prob", zip(names, tensors))

    with torch.npu.device(dev):
        call_prepared(p, launch=stream_launch(dev), shard=shard)
    return p.out
