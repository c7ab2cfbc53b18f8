"""Large outputs the package allocates come from here: a freed output stays resident
and the next call of the same size gets it back.

A fresh host buffer costs a page fault and a zeroed page per page the kernel then
writes anyway (bf16 4096 x 32000: 262 MB zeroed, as long as the kernel itself on some
hosts). A training step frees its gradient before the next step asks for one of the
same size, so one or two resident buffers remove that cost. PyTorch's own CPU
allocator does not keep them; its CUDA caching allocator does the same thing.

A buffer returns here when the array or tensor handed out (and every view of it) is
gone, and is handed out again only if nothing else refers to it. Its contents are
whatever the last kernel wrote: every call writes every element of its output.

``ASCEND_XENT_OUTPUT_CACHE_MB`` caps the bytes kept while unused (default 2048; 0 keeps
none, and every output is a fresh allocation); ``ascend_xent.release_output_cache()`` frees what is kept.
"""

from __future__ import annotations

import math
import os
import sys
import threading
import weakref

import numpy as np

from ._native import native

MIN_BYTES = 4 << 20  # smaller outputs are cheap to allocate (and NumPy's huge-page threshold)
KEEP_BLOCKS = 2      # a gradient in use and the one just freed, in a loop that allocates each step


def _cap_bytes() -> int:
    raw = os.environ.get("ASCEND_XENT_OUTPUT_CACHE_MB", "2048")
    try:
        mb = int(raw)
    except ValueError:
        raise ValueError(f"ASCEND_XENT_OUTPUT_CACHE_MB: expected a whole number of MiB, got {raw!r}") from None
    if mb < 0:
        raise ValueError(f"ASCEND_XENT_OUTPUT_CACHE_MB: expected >= 0, got {mb}")
    return mb << 20


# Re-entrant: a finalizer (a freed output coming back) may run on this thread while it
# holds the lock, if an allocation in between starts the garbage collector.
_lock = threading.RLock()
_free: list = []  # unused uint8 base arrays, most recently freed last


def _take(nbytes: int):
    with _lock:
        for i in range(len(_free) - 1, -1, -1):
            # Two references, the list's and getrefcount's argument: any other holder (a
            # view that outlived the array handed out, a buffer export) still uses the bytes.
            if _free[i].nbytes == nbytes and sys.getrefcount(_free[i]) == 2:
                return _free.pop(i)
    base = np.empty(nbytes, dtype=np.uint8)
    # Untouched yet: let its pages fault in 2 MiB at a time.
    native().advise_huge_pages(int(base.ctypes.data), nbytes)
    return base


def _give(base) -> None:
    cap = _cap_bytes()
    with _lock:
        _free.append(base)
        while _free and (len(_free) > KEEP_BLOCKS or sum(b.nbytes for b in _free) > cap):
            _free.pop(0)


def release() -> None:
    """Frees the buffers kept for reuse."""
    with _lock:
        _free.clear()


def _cached(shape, itemsize: int) -> bool:
    # math.prod: np.prod of a shape costs a small call ~3 us
    return math.prod(shape) * itemsize >= MIN_BYTES and _cap_bytes() > 0


def _from_cache(shape, dtype: np.dtype):
    base = _take(math.prod(shape) * dtype.itemsize)
    out = base.view(dtype).reshape(shape)
    weakref.finalize(out, _give, base)
    return out


def empty_numpy(shape, dtype: np.dtype):
    """An uninitialised C-contiguous array, from the cache when it is large enough."""
    return _from_cache(shape, dtype) if _cached(shape, dtype.itemsize) else np.empty(shape, dtype=dtype)


def empty_torch(torch, shape, dtype):
    """An uninitialised contiguous CPU tensor, from the cache when it is large enough."""
    if not _cached(shape, dtype.itemsize):
        return torch.empty(shape, dtype=dtype)
    # NumPy has no bfloat16: the tensor is made over an integer view of the same width.
    return torch.from_numpy(_from_cache(shape, np.dtype(f"int{8 * dtype.itemsize}"))).view(dtype)
