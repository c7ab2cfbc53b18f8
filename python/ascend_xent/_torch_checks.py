"""Argument checks of the torch forward (``ascend_xent.cross_entropy``/``cross_entropy_loss``
and the ``ascend_xent::cross_entropy_loss`` op), in the style of ``_checks``: each error
names the argument."""

from __future__ import annotations

import torch
from torch import Tensor

from . import _arrays, _checks


def check_forward(input, target, weight, reduction, ignore_index, label_smoothing, scale):
    if not isinstance(input, Tensor):
        raise TypeError(f"input: expected a torch.Tensor of shape (N, C), got {type(input).__name__}")
    torch_lib = _arrays.lib_for(input)
    for name, t in (("input", input), ("target", target), ("weight", weight)):
        if isinstance(t, Tensor):
            torch_lib.check_dense(t, name)
    _checks.check_reduction(reduction)
    _checks.check_ignore_index(ignore_index)
    _checks.check_label_smoothing(label_smoothing)
    _checks.check_zloss_scale(scale)
    dt = str(input.dtype).replace("torch.", "")
    if dt not in _checks.FLOAT_DTYPES:
        raise TypeError(f"input: expected dtype float32, float16 or bfloat16, got {dt}")
    if input.dim() != 2:
        raise ValueError(f"input: expected a 2-D tensor of shape (N, C), got shape {tuple(input.shape)}")
    n, c = input.shape
    if c < 1:
        raise ValueError(f"input: expected at least one class (C >= 1), got shape {tuple(input.shape)}")
    if not isinstance(target, Tensor):
        raise TypeError(f"target: expected a torch.Tensor of shape (N,), got {type(target).__name__}")
    tdt = str(target.dtype).replace("torch.", "")
    if tdt not in _checks.INDEX_DTYPES:
        raise TypeError(f"target: expected dtype int32 or int64, got {tdt}")
    if tuple(target.shape) != (n,):
        raise ValueError(f"target: expected shape (N,) = ({n},) to match input {tuple(input.shape)}, "
                         f"got {tuple(target.shape)}")
    if target.device != input.device:
        raise ValueError(f"target: expected a tensor on {input.device} like input, got {target.device}")
    if weight is not None:
        if not isinstance(weight, Tensor):
            raise TypeError(f"weight: expected a torch.Tensor of shape (C,), got {type(weight).__name__}")
        if weight.dtype != input.dtype:
            raise TypeError(f"weight: expected dtype {dt} (the dtype of input, as in "
                            f"F.cross_entropy), got {str(weight.dtype).replace('torch.', '')}")
        if tuple(weight.shape) != (c,):
            raise ValueError(f"weight: expected shape (C,) = ({c},) to match input "
                             f"{tuple(input.shape)}, got {tuple(weight.shape)}")
        if weight.device != input.device:
            raise ValueError(f"weight: expected a tensor on {input.device} like input, got {weight.device}")


def check_k_dims(input, target) -> None:
    """(N, C, d1, ...) logits need (N, d1, ...) targets, as in F.cross_entropy."""
    if not isinstance(target, Tensor):
        raise TypeError(f"target: expected a torch.Tensor of shape (N, d1, ...), got {type(target).__name__}")
    want = (input.shape[0],) + tuple(input.shape[2:])
    if tuple(target.shape) != want:
        raise ValueError(f"target: expected shape (N, d1, ...) = {want} to match input "
                         f"{tuple(input.shape)}, got {tuple(target.shape)}")


def check_weight_not_differentiable(weight) -> None:
    # F.cross_entropy refuses it too (nll_loss has no derivative for the weight); accepting
    # it would leave weight.grad silently None.
    if isinstance(weight, Tensor) and weight.requires_grad and torch.is_grad_enabled():
        raise RuntimeError("weight: the function 'cross_entropy' is not differentiable with respect to "
                           "argument 'weight'. This input cannot have requires_grad True (as in "
                           "F.cross_entropy); pass weight.detach()")
