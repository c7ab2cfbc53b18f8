"""NumPy arrays and torch tensors behind one interface, so that the argument checks
and the launch are written once for both. torch is imported only when a torch tensor
is seen."""

from __future__ import annotations

import numpy as np

from . import _output_cache
from ._native import native


def _is_torch_tensor(x) -> bool:
    t = type(x)
    return t.__module__.startswith("torch") and hasattr(x, "data_ptr") and hasattr(x, "stride")


class _NumpyLib:
    kind = "numpy"

    @staticmethod
    def is_array(x) -> bool:
        return isinstance(x, np.ndarray)

    @staticmethod
    def coerce(x, name):
        """``x`` as an array the kernel can read as it is; a TypeError naming ``name`` if not."""
        if isinstance(x, np.ndarray):
            if not x.dtype.isnative:  # the kernel reads raw bytes: '>f4' would be garbage
                raise TypeError(f"{name}: expected native byte order, got dtype {x.dtype.str!r} "
                                f"({x.dtype.name} stored byte-swapped); convert it with "
                                f"x.astype(x.dtype.newbyteorder('='))")
            return x
        if _is_torch_tensor(x):
            raise TypeError(f"{name}: got a torch tensor, but log_prob is a NumPy array; "
                            "pass all tensor arguments as NumPy arrays or all as torch tensors")
        if isinstance(x, (list, tuple)) or np.isscalar(x):
            return np.asarray(x)
        raise TypeError(f"{name}: expected a NumPy array, got {type(x).__name__}")

    @staticmethod
    def dtype(x) -> str:
        return x.dtype.name

    @staticmethod
    def shape(x):
        return tuple(x.shape)

    @staticmethod
    def is_contiguous(x) -> bool:
        return bool(x.flags.c_contiguous)

    @staticmethod
    def contiguous(x):
        return np.ascontiguousarray(x)

    @staticmethod
    def astype(x, dtype: str):
        return np.ascontiguousarray(x.astype(numpy_dtype(dtype)))

    @staticmethod
    def scalar(value: float, dtype: str):
        return np.asarray(value, dtype=numpy_dtype(dtype))

    @staticmethod
    def empty(shape, dtype: str, like=None):
        return _output_cache.empty_numpy(shape, numpy_dtype(dtype))

    @staticmethod
    def overlaps(a, b) -> bool:
        return bool(np.may_share_memory(a, b))

    @staticmethod
    def same_buffer(a, b) -> bool:
        return (a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
                and a.shape == b.shape and a.strides == b.strides and a.dtype == b.dtype)

    @staticmethod
    def records_grad(x) -> bool:
        return False

    @staticmethod
    def mark_written(x) -> None:
        pass

    @staticmethod
    def first_bad_target(t, c: int, ignore_index: int):
        if t.flags.c_contiguous and t.dtype.isnative:
            return native().first_bad_target(int(t.ctypes.data), t.itemsize, t.size, c, ignore_index)
        t64 = t.astype(np.int64, copy=False)
        bad = (t64 != ignore_index) & ((t64 < 0) | (t64 >= c))
        if not bad.any():
            return None
        i = int(np.flatnonzero(bad)[0])
        return i, int(t64[i])

    @staticmethod
    def device(x) -> str:
        return "cpu"


class _TorchLib:
    kind = "torch"

    def __init__(self):
        import torch

        self.torch = torch

    def is_array(self, x) -> bool:
        return isinstance(x, self.torch.Tensor)

    def coerce(self, x, name):
        """``x`` as a tensor the kernel can read as it is; a TypeError naming ``name`` if not."""
        if isinstance(x, self.torch.Tensor):
            self.check_dense(x, name)
            if x.is_neg():  # the kernel reads raw memory, which holds -x
                raise TypeError(f"{name}: a negated view (torch._neg_view) is not read through its "
                                f"negative bit; pass {name}.resolve_neg()")
            return x
        if isinstance(x, np.ndarray):
            raise TypeError(f"{name}: got a NumPy array, but log_prob is a torch tensor; "
                            "pass all tensor arguments as torch tensors or all as NumPy arrays")
        raise TypeError(f"{name}: expected a torch.Tensor, got {type(x).__name__}")

    def check_dense(self, x, name) -> None:
        if x.layout != self.torch.strided:
            raise TypeError(f"{name}: expected a dense (strided) tensor, got layout "
                            f"{str(x.layout).replace('torch.', '')}; convert it with .to_dense()")

    @staticmethod
    def dtype(x) -> str:
        return str(x.dtype).replace("torch.", "")

    @staticmethod
    def shape(x):
        return tuple(x.shape)

    @staticmethod
    def is_contiguous(x) -> bool:
        return bool(x.is_contiguous())

    @staticmethod
    def contiguous(x):
        return x.contiguous()

    def astype(self, x, dtype: str):
        return x.to(getattr(self.torch, dtype)).contiguous()

    def scalar(self, value: float, dtype: str, device="cpu"):
        return self.torch.tensor(value, dtype=getattr(self.torch, dtype), device=device)

    def empty(self, shape, dtype: str, like=None):
        dev = like.device if like is not None else self.torch.device("cpu")
        if self.torch.device(dev).type == "cpu":
            return _output_cache.empty_torch(self.torch, shape, getattr(self.torch, dtype))
        return self.torch.empty(shape, dtype=getattr(self.torch, dtype), device=dev)

    def overlaps(self, a, b) -> bool:
        # Meta tensors own no memory (every one reports address 0): nothing can overlap.
        if a.numel() == 0 or b.numel() == 0:
            return False
        device = a.device
        if device != b.device or device.type == "meta":
            return False
        # Byte ranges, not storages: views of one buffer made through NumPy or DLPack
        # have different storages but the same memory.
        a0 = a.data_ptr()
        b0 = b.data_ptr()
        return a0 < b0 + _span_bytes(b) and b0 < a0 + _span_bytes(a)

    @staticmethod
    def same_buffer(a, b) -> bool:
        return (a.device == b.device and a.data_ptr() == b.data_ptr() and a.shape == b.shape
                and a.stride() == b.stride() and a.dtype == b.dtype)

    def records_grad(self, x) -> bool:
        """Autograd would record an operation on ``x`` (grad mode on and ``x`` requires grad)."""
        return bool(x.requires_grad) and self.torch.is_grad_enabled()

    def mark_written(self, x) -> None:
        # The kernel wrote through a raw pointer: bump the version counter as torch's own
        # in-place and out= ops do, so that autograd refuses to use the overwritten values.
        self.torch.autograd.graph.increment_version(x)

    def first_bad_target(self, t, c: int, ignore_index: int):
        if t.device.type == "cpu" and t.is_contiguous():
            return native().first_bad_target(t.data_ptr(), t.element_size(), t.numel(), c, ignore_index)
        t64 = t.to(self.torch.int64)
        bad = (t64 != ignore_index) & ((t64 < 0) | (t64 >= c))
        idx = self.torch.nonzero(bad)
        if idx.numel() == 0:
            return None
        i = int(idx[0, 0])
        return i, int(t64[i])

    @staticmethod
    def device(x) -> str:
        return x.device.type


def _span_bytes(t) -> int:
    n = t.numel()
    if n == 0:
        return 0
    if t.is_contiguous():  # the usual case (every argument prepare hands on but log_prob may be)
        return n * t.element_size()
    last = sum((s - 1) * st for s, st in zip(t.shape, t.stride()) if s > 0)
    return (last + 1) * t.element_size()


_numpy_lib = _NumpyLib()
_torch_lib = None


def lib_for(log_prob):
    """The adapter for ``log_prob``'s kind (NumPy or torch)."""
    global _torch_lib
    if _is_torch_tensor(log_prob):
        if _torch_lib is None:
            _torch_lib = _TorchLib()
        return _torch_lib
    if isinstance(log_prob, np.ndarray):
        return _numpy_lib
    raise TypeError("log_prob: expected a torch.Tensor or a NumPy array of shape (N, C), "
                    f"got {type(log_prob).__name__}")


def numpy_dtype(name: str):
    if name == "bfloat16":
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)
