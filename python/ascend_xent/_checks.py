"""Argument validation shared by the NumPy and torch paths.

Every error names the Python argument and says what was expected. The checks run
before anything reaches the native layer; the native layer (op_host) checks again
and its messages surface through ``_C`` only for what Python cannot see.

``prepare_forward(...)`` validates the forward's arguments (``cross_entropy_loss``) the
same way into a ``PreparedForward``.

``prepare(...)`` returns a ``Prepared`` record with the arrays/tensors that will be
handed to the kernel: the caller's ``log_prob`` and ``out`` buffers untouched (no
N x C copy is ever made), small (N,)/(C,) vectors made contiguous, a Python number
``grad_loss`` turned into a 0-D array of ``log_prob``'s dtype and the weight widened
to float32.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from ._arrays import lib_for
from ._backends import checks_target_values

REDUCTIONS = ("mean", "sum", "none")
FLOAT_DTYPES = ("float32", "float16", "bfloat16")
INDEX_DTYPES = ("int32", "int64")
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def is_number(x) -> bool:
    """A real Python/NumPy number that is not a bool."""
    if type(x) is float or type(x) is int:  # the usual case, without the ABC check's cost
        return True
    return isinstance(x, numbers.Real) and not isinstance(x, (bool, np.bool_))


# --------------------------------------------------------------------------------------
# Scalar arguments
# --------------------------------------------------------------------------------------
def check_reduction(reduction) -> str:
    if not isinstance(reduction, str):
        raise TypeError(f"reduction: expected one of 'mean', 'sum', 'none' (a str), "
                        f"got {type(reduction).__name__}")
    if reduction not in REDUCTIONS:
        raise ValueError(f"reduction: expected one of 'mean', 'sum', 'none', got {short_repr(reduction)}")
    return reduction


def is_symbolic(x) -> bool:
    """A torch.SymInt/SymFloat: a number traced symbolically by torch.compile(dynamic=True)."""
    t = type(x)
    return t.__name__ in ("SymInt", "SymFloat") and t.__module__.startswith("torch")


def check_ignore_index(ignore_index) -> int:
    if is_symbolic(ignore_index) and type(ignore_index).__name__ == "SymInt":
        return ignore_index  # its value is checked when the compiled code runs it eagerly
    if type(ignore_index) is not int and (isinstance(ignore_index, (bool, np.bool_))
                                          or not isinstance(ignore_index, numbers.Integral)):
        raise TypeError(f"ignore_index: expected an int, got {type(ignore_index).__name__}")
    v = int(ignore_index)
    if not (_INT64_MIN <= v <= _INT64_MAX):
        raise ValueError(f"ignore_index: expected a value that fits in int64, got {v}")
    return v


def _require_float32_weight(lib, w64, w32) -> None:
    """The weight is used as float32: a float64 value that becomes inf or 0 there is refused."""
    lost = ((abs(w64) < math.inf) & (abs(w32) == math.inf)) | ((w64 != 0) & (w32 == 0))
    idx = np.flatnonzero(lost.cpu().numpy() if lib.kind == "torch" else lost)
    if idx.size:
        i = int(idx[0])
        raise ValueError(f"weight: weight[{i}] = {float(w64[i])!r} does not fit float32 (the weight is used as "
                         f"float32, where it would become {float(w32[i])!r})")


def short_repr(x, limit: int = 80) -> str:
    """repr(x) cut to ``limit`` characters: a message must not echo a huge argument."""
    r = repr(x)
    return r if len(r) <= limit else f"{r[:limit - 25]}... ({len(r)} characters)"


def _as_float(value, name: str, expected: str) -> float:
    """float(value), with an integer too large for a float (10**400) a ValueError naming ``name``."""
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"{name}: expected {expected}, got a number too large for a float "
                         f"(about 2**{abs(int(value)).bit_length()})") from None


def check_weight(lib, weight, c: int, expected_shape: str, check_values: bool):
    """weight: (C,) of a floating dtype, returned as a contiguous float32 array; a float64 value
    that float32 cannot hold is refused (with ``check_values``)."""
    weight = lib.coerce(weight, "weight")
    wdt = lib.dtype(weight)
    if wdt not in FLOAT_DTYPES + ("float64",):
        raise TypeError(f"weight: expected a floating dtype (used as float32), got {wdt}")
    if lib.shape(weight) != (c,):
        raise ValueError(f"weight: expected {expected_shape}, got {lib.shape(weight)}")
    if wdt != "float32" or not lib.is_contiguous(weight):
        with np.errstate(over="ignore"):  # reported below as a ValueError naming the entry
            wide, weight = weight, lib.astype(weight, "float32")
        if wdt == "float64" and check_values and lib.device(wide) != "meta":
            _require_float32_weight(lib, wide, weight)
    return weight


def check_label_smoothing(label_smoothing) -> float:
    if not is_number(label_smoothing):
        raise TypeError(f"label_smoothing: expected a float in [0, 1], "
                        f"got {type(label_smoothing).__name__}")
    v = _as_float(label_smoothing, "label_smoothing", "a float in [0, 1]")
    if not (0.0 <= v <= 1.0):
        raise ValueError(f"label_smoothing: expected a float in [0, 1], got {v!r}")
    return v


def check_zloss_scale(scale) -> float:
    if not is_number(scale):
        raise TypeError("lse_square_scale_for_zloss: expected a finite float >= 0, "
                        f"got {type(scale).__name__}")
    v = _as_float(scale, "lse_square_scale_for_zloss", "a finite float >= 0")
    if not (0.0 <= v < math.inf):  # a comparison, not math.isfinite: torch.compile traces it
        raise ValueError(f"lse_square_scale_for_zloss: expected a finite float >= 0, got {v!r}")
    return v


def check_softcap(softcap) -> float:
    """None or 0: no capping; else a finite float > 0."""
    if softcap is None:
        return 0.0
    if not is_number(softcap):
        raise TypeError(f"softcap: expected None or a finite float > 0, got {type(softcap).__name__}")
    v = _as_float(softcap, "softcap", "None or a finite float > 0")
    if not (0.0 <= v < math.inf):
        raise ValueError(f"softcap: expected None or a finite float > 0, got {v!r}")
    return v


# --------------------------------------------------------------------------------------
# Arguments both operators take
# --------------------------------------------------------------------------------------
def _rows_by_classes(lib, x, name):
    """(dtype, shape) of an (N, C) float32/float16/bfloat16 C-contiguous array, C >= 1."""
    dtype = lib.dtype(x)
    if dtype not in FLOAT_DTYPES:
        raise TypeError(f"{name}: expected dtype float32, float16 or bfloat16, got {dtype}")
    shp = lib.shape(x)
    if len(shp) != 2:
        raise ValueError(f"{name}: expected a 2-D tensor of shape (N, C), got shape {shp}")
    if shp[1] < 1:
        raise ValueError(f"{name}: expected at least one class (C >= 1), got shape {shp}")
    if not lib.is_contiguous(x):
        raise ValueError(f"{name}: expected a C-contiguous (row-major) tensor; it is not, and "
                         "an N x C copy is not made silently (call .contiguous() / "
                         "np.ascontiguousarray first)")
    return dtype, shp


def _target(lib, target, n, what, same_device):
    """(N,) int32/int64 class indices, made contiguous."""
    if target is None:
        raise TypeError("target: expected an integer tensor of shape (N,), got None")
    target = lib.coerce(target, "target")
    same_device(target, "target")
    tdt = lib.dtype(target)
    if tdt not in INDEX_DTYPES:
        raise TypeError(f"target: expected dtype int32 or int64, got {tdt}")
    if lib.shape(target) != (n,):
        raise ValueError(f"target: expected shape (N,) = ({n},) to match {what}, got {lib.shape(target)}")
    return target if lib.is_contiguous(target) else lib.contiguous(target)


def _weight(lib, weight, c, what, same_device, check_values):
    """None, or the (C,) class weights as a contiguous float32 array."""
    if weight is None:
        return None
    weight = check_weight(lib, weight, c, f"shape (C,) = ({c},) to match {what}", check_values)
    same_device(weight, "weight")
    return weight


# With label smoothing the gradient takes sum_k w_k in float32 (its smoothing term); a sum of
# |weight| this large or more could reach inf there, and the gradient inf/NaN.
WEIGHT_SUM_LIMIT = 2.0**127


def check_weight_sum(lib, weight, label_smoothing) -> None:
    """ValueError naming weight when, with label smoothing, sum |weight| >= 2**127 while
    every weight is finite (an inf or NaN weight is a special value, left to the kernel)."""
    if weight is None or not label_smoothing or lib.device(weight) == "meta":
        return
    w = weight.detach().abs().double().cpu().numpy() if lib.kind == "torch" else np.abs(weight, dtype=np.float64)
    total = float(w.sum())
    if total >= WEIGHT_SUM_LIMIT and math.isfinite(float(w.max())):
        raise ValueError(f"weight: the sum of |weight| is {total:.6g} >= 2**127 (half float32's range); with "
                         "label_smoothing > 0 the gradient takes the sum of the weights in float32, which could "
                         "overflow: scale the weights down (under reduction 'mean' the result does not change)")


def _check_target_values(lib, target, n, c, ignore_index, device):
    """ValueError for the first target neither ignore_index nor in [0, c) (data is read)."""
    if n > 0 and device != "meta" and checks_target_values(device):
        bad = lib.first_bad_target(target, c, ignore_index)
        if bad is not None:
            i, v = bad
            raise ValueError(f"target: target[{i}] = {v} is out of range [0, {c}) "
                             f"and is not ignore_index ({ignore_index})")


def lib_for_or_none(x):
    """The adapter of a NumPy array or torch tensor, None for anything else."""
    try:
        return lib_for(x)
    except TypeError:
        return None


def _same_device_as(lib, like, like_name):
    device = lib.device(like)

    def same_device(x, name):
        if x is not None and lib.kind == "torch" and lib.device(x) != device:
            raise ValueError(f"{name}: expected a tensor on {device} like {like_name}, "
                             f"got one on {lib.device(x)}")

    return same_device


# --------------------------------------------------------------------------------------
# The forward's argument list
# --------------------------------------------------------------------------------------
@dataclass
class PreparedForward:
    lib: Any
    input: Any
    target: Any
    weight: Optional[Any]
    reduction: str
    ignore_index: int
    label_smoothing: float
    lse_square_scale_for_zloss: float
    n: int
    c: int
    dtype: str
    softcap: float = 0.0  # the fused loss and gradient only


def prepare_forward(input, target, weight=None, reduction="mean", ignore_index=-100,
                    label_smoothing=0.0, lse_square_scale_for_zloss=0.0, softcap=None, *,
                    check_values=True) -> PreparedForward:
    """Validate the forward's arguments: ``input`` (N, C) float32/float16/bfloat16 and
    C-contiguous (no N x C copy is made silently), ``target`` (N,) int32/int64, ``weight``
    (C,) (used as float32), the options as in ``prepare``."""
    try:
        lib = lib_for(input)
    except TypeError:
        raise TypeError("input: expected a torch.Tensor or a NumPy array of shape (N, C), "
                        f"got {type(input).__name__}") from None
    for name, x in (("target", target), ("weight", weight)):
        if x is not None and lib_for_or_none(x) not in (None, lib):
            kinds = {"numpy": "a NumPy array", "torch": "a torch tensor"}
            raise TypeError(f"{name}: got {kinds[lib_for_or_none(x).kind]}, but input is "
                            f"{kinds[lib.kind]}; pass all tensor arguments as one kind")
    reduction = check_reduction(reduction)
    ignore_index = check_ignore_index(ignore_index)
    label_smoothing = check_label_smoothing(label_smoothing)
    scale = check_zloss_scale(lse_square_scale_for_zloss)
    cap = check_softcap(softcap)
    input = lib.coerce(input, "input")
    dtype, shp = _rows_by_classes(lib, input, "input")
    n, c = shp
    same_device = _same_device_as(lib, input, "input")
    target = _target(lib, target, n, f"input {shp}", same_device)
    weight = _weight(lib, weight, c, f"input {shp}", same_device, check_values)
    if check_values:
        check_weight_sum(lib, weight, label_smoothing)
        _check_target_values(lib, target, n, c, ignore_index, lib.device(input))
    return PreparedForward(lib, input, target, weight, reduction, ignore_index, label_smoothing,
                           scale, n, c, dtype, cap)


# --------------------------------------------------------------------------------------
# The whole argument list
# --------------------------------------------------------------------------------------
@dataclass
class Prepared:
    lib: Any
    grad_loss: Any
    log_prob: Any
    target: Any
    weight: Optional[Any]
    grad_zloss: Optional[Any]
    lse_for_zloss: Optional[Any]
    reduction: str
    ignore_index: int
    label_smoothing: float
    lse_square_scale_for_zloss: float
    out: Optional[Any]
    n: int
    c: int
    dtype: str


def _upstream(lib, value, name, reduction, n, dtype, like):
    """grad_loss / grad_zloss: a number or 0-D/(1,) array under mean/sum, (N,) under none."""
    if is_number(value):
        if reduction == "none":
            raise ValueError(f"{name}: expected an array of shape (N,) = ({n},) under "
                             f"reduction='none', got a Python number")
        v = _as_float(value, name, "a number or an array")
        if lib.kind == "torch":
            return lib.scalar(v, dtype, device=like.device)
        return lib.scalar(v, dtype)
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name}: expected a number or an array, got bool")
    a = lib.coerce(value, name)
    dt = lib.dtype(a)
    if dt != dtype:
        raise TypeError(f"{name}: expected dtype {dtype} (the dtype of log_prob), got {dt}")
    shp = lib.shape(a)
    if reduction == "none":
        if shp != (n,):
            raise ValueError(f"{name}: expected shape (N,) = ({n},) under reduction='none', got {shp}")
        return a if lib.is_contiguous(a) else lib.contiguous(a)
    if shp not in ((), (1,)):
        raise ValueError(f"{name}: expected a scalar (shape () or (1,)) under "
                         f"reduction={reduction!r}, got shape {shp}")
    return a if len(shp) == 0 else a.reshape(())


def prepare(grad_loss, log_prob, target, weight=None, grad_zloss=None, lse_for_zloss=None,
            reduction="mean", ignore_index=-100, label_smoothing=0.0,
            lse_square_scale_for_zloss=0.0, out=None, *, check_values=True) -> Prepared:
    """Validate every argument; see the module docstring for what is returned.

    ``check_values=False`` skips the checks that read tensor data (the target range),
    for fake/meta tensors under torch.compile.
    """
    lib = lib_for(log_prob)
    log_prob = lib.coerce(log_prob, "log_prob")
    reduction = check_reduction(reduction)
    ignore_index = check_ignore_index(ignore_index)
    label_smoothing = check_label_smoothing(label_smoothing)
    scale = check_zloss_scale(lse_square_scale_for_zloss)

    dtype, shp = _rows_by_classes(lib, log_prob, "log_prob")
    n, c = shp
    device = lib.device(log_prob)
    same_device = _same_device_as(lib, log_prob, "log_prob")

    target = _target(lib, target, n, f"log_prob {shp}", same_device)

    weight = _weight(lib, weight, c, f"log_prob {shp}", same_device, check_values)

    # upstream gradients
    if grad_loss is None:
        raise TypeError("grad_loss: expected a number or a tensor, got None")
    grad_loss = _upstream(lib, grad_loss, "grad_loss", reduction, n, dtype, log_prob)
    same_device(grad_loss, "grad_loss")
    if grad_zloss is not None:
        grad_zloss = _upstream(lib, grad_zloss, "grad_zloss", reduction, n, dtype, log_prob)
        same_device(grad_zloss, "grad_zloss")

    # z-loss
    if lse_for_zloss is not None:
        lse_for_zloss = lib.coerce(lse_for_zloss, "lse_for_zloss")
        same_device(lse_for_zloss, "lse_for_zloss")
        ldt = lib.dtype(lse_for_zloss)
        if ldt != dtype:
            raise TypeError(f"lse_for_zloss: expected dtype {dtype} (the dtype of log_prob), got {ldt}")
        if lib.shape(lse_for_zloss) != (n,):
            raise ValueError(f"lse_for_zloss: expected shape (N,) = ({n},), "
                             f"got {lib.shape(lse_for_zloss)}")
        if not lib.is_contiguous(lse_for_zloss):
            lse_for_zloss = lib.contiguous(lse_for_zloss)
    elif scale != 0.0:
        raise ValueError("lse_for_zloss: required when lse_square_scale_for_zloss != 0 "
                         f"(got scale {scale!r} and lse_for_zloss=None)")

    # out
    if out is not None:
        if not lib.is_array(out):
            raise TypeError(f"out: expected a {'torch.Tensor' if lib.kind == 'torch' else 'NumPy array'}"
                            f" like log_prob, got {type(out).__name__}")
        out = lib.coerce(out, "out")
        same_device(out, "out")
        odt = lib.dtype(out)
        if odt != dtype:
            raise TypeError(f"out: expected dtype {dtype} (the dtype of log_prob), got {odt}")
        if lib.shape(out) != shp:
            raise ValueError(f"out: expected shape {shp} like log_prob, got {lib.shape(out)}")
        if not lib.is_contiguous(out):
            raise ValueError("out: expected a C-contiguous (row-major) tensor")
        if lib.kind == "numpy" and not out.flags.writeable:
            raise ValueError("out: the array is read-only")
        arrays = (("out", out), ("grad_loss", grad_loss), ("log_prob", log_prob), ("target", target),
                  ("weight", weight), ("grad_zloss", grad_zloss), ("lse_for_zloss", lse_for_zloss))
        for nm, arr in arrays:  # as torch's out= functions
            if arr is not None and lib.records_grad(arr):
                raise RuntimeError(f"{nm}: cross_entropy_loss_grad(): functions with out=... arguments "
                                   f"don't support automatic differentiation, but {nm} requires grad "
                                   "(call it under torch.no_grad() or pass detached tensors)")
        for nm, arr in arrays[1:]:
            # out = log_prob exactly is the in-place gradient (the kernel reads each tile
            # before writing it back, docs/reliability.md); any other overlap is refused.
            if nm == "log_prob" and lib.same_buffer(out, arr):
                continue
            if arr is not None and lib.overlaps(out, arr):
                raise ValueError(f"out: must not overlap {nm}" + (
                    " other than being log_prob exactly (same data pointer, shape and strides: "
                    "the gradient in place)" if nm == "log_prob" else ""))

    elif lib.kind == "torch":
        # The result is computed outside autograd: a graph through it would silently stop here.
        for nm, arr in (("grad_loss", grad_loss), ("log_prob", log_prob), ("grad_zloss", grad_zloss),
                        ("lse_for_zloss", lse_for_zloss), ("weight", weight)):
            if arr is not None and lib.records_grad(arr):
                raise RuntimeError(f"{nm}: cross_entropy_loss_grad() is not differentiable (the result would "
                                   f"have no grad_fn), but {nm} requires grad; call it under torch.no_grad() "
                                   "or pass detached tensors")

    if check_values:
        check_weight_sum(lib, weight, label_smoothing)
        _check_target_values(lib, target, n, c, ignore_index, device)

    return Prepared(lib, grad_loss, log_prob, target, weight, grad_zloss, lse_for_zloss,
                    reduction, ignore_index, label_smoothing, scale, out, n, c, dtype)
