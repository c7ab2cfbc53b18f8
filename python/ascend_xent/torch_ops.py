"""PyTorch integration: torch.library custom ops and a differentiable cross_entropy.

Two custom ops are registered in the ``ascend_xent`` namespace:

``ascend_xent::cross_entropy_loss_grad`` (the kernel)
    Same arguments as ``torch_npu.npu_cross_entropy_loss_backward``; returns a new
    (N, C) tensor. It has a fake (meta) implementation so that it traces under
    ``torch.compile`` and passes ``torch.library.opcheck``.

``ascend_xent::cross_entropy_loss`` (the forward, in plain torch ops)
    Like ``torch_npu.npu_cross_entropy_loss``: returns ``(loss, log_prob, zloss,
    lse_for_zloss)``. Its autograd formula calls ``cross_entropy_loss_grad``, so
    ``ascend_xent.cross_entropy`` is differentiable, with our kernel as its backward,
    also under ``torch.compile(fullgraph=True)``.

This module imports torch; the rest of the package does not need it.
"""

from __future__ import annotations

from typing import Optional

import torch
import torch.nn.functional as F
from torch import Tensor

from . import _api, _arrays, _backends, _checks

__all__ = ["cross_entropy", "cross_entropy_loss"]


# --------------------------------------------------------------------------------------
# ascend_xent::cross_entropy_loss_grad
# --------------------------------------------------------------------------------------
@torch.library.custom_op("ascend_xent::cross_entropy_loss_grad", mutates_args=())
def _grad_op(grad_loss: Tensor, log_prob: Tensor, target: Tensor,
             weight: Optional[Tensor] = None, grad_zloss: Optional[Tensor] = None,
             lse_for_zloss: Optional[Tensor] = None, reduction: str = "mean",
             ignore_index: int = -100, label_smoothing: float = 0.0,
             lse_square_scale_for_zloss: float = 0.0) -> Tensor:
    return _api.cross_entropy_loss_grad(grad_loss, log_prob, target, weight, grad_zloss,
                                        lse_for_zloss, reduction, ignore_index, label_smoothing,
                                        lse_square_scale_for_zloss)


# The NPU implementation (DispatchKey PrivateUse1, the key torch_npu's 'npu' device maps to),
# next to the default one above (CompositeExplicitAutograd, which serves CPU tensors).
# Both are the public function, whose launch sends npu tensors to the current NPU stream and
# host tensors to the simulator. "privateuseone" names that key whether or not torch_npu is
# loaded (torch_npu renames the backend to "npu" but the name stays valid), so registering
# it on a machine without torch_npu only adds an entry no tensor reaches.
_PRIVATEUSE1 = "privateuseone"
_grad_op.register_kernel(_PRIVATEUSE1)(_api.cross_entropy_loss_grad)


@_grad_op.register_fake
def _grad_fake(grad_loss, log_prob, target, weight=None, grad_zloss=None, lse_for_zloss=None,
               reduction="mean", ignore_index=-100, label_smoothing=0.0,
               lse_square_scale_for_zloss=0.0):
    _checks.prepare(grad_loss, log_prob, target, weight, grad_zloss, lse_for_zloss, reduction,
                    ignore_index, label_smoothing, lse_square_scale_for_zloss,
                    check_values=False)
    return torch.empty_like(log_prob, memory_format=torch.contiguous_format)


# --------------------------------------------------------------------------------------
# ascend_xent::cross_entropy_loss (forward)
# --------------------------------------------------------------------------------------
def _check_forward(input, target, weight, reduction, ignore_index, label_smoothing, scale):
    if not isinstance(input, Tensor):
        raise TypeError(f"input: expected a torch.Tensor of shape (N, C), got {type(input).__name__}")
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


@torch.library.custom_op("ascend_xent::cross_entropy_loss", mutates_args=())
def _fwd_op(input: Tensor, target: Tensor, weight: Optional[Tensor] = None,
            reduction: str = "mean", ignore_index: int = -100, label_smoothing: float = 0.0,
            lse_square_scale_for_zloss: float = 0.0) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    _check_forward(input, target, weight, reduction, ignore_index, label_smoothing,
                   lse_square_scale_for_zloss)
    n, c = input.shape
    if n > 0 and _backends.checks_target_values(input.device.type):
        bad = _arrays.lib_for(input).first_bad_target(target, c, int(ignore_index))
        if bad is not None:
            i, v = bad
            raise ValueError(f"target: target[{i}] = {v} is out of range [0, {c}) "
                             f"and is not ignore_index ({ignore_index})")
    t64 = target.long()
    ce = F.cross_entropy(input, t64, weight=weight, reduction=reduction,
                         ignore_index=int(ignore_index), label_smoothing=float(label_smoothing))
    log_prob = torch.log_softmax(input, dim=-1)
    lse32 = torch.logsumexp(input.float(), dim=-1)
    scale = float(lse_square_scale_for_zloss)
    if scale != 0.0:
        valid = t64 != int(ignore_index)
        z_rows = torch.where(valid, scale * lse32 * lse32, torch.zeros_like(lse32))
        if reduction == "none":
            z32 = z_rows
        elif reduction == "sum":
            z32 = z_rows.sum()
        else:
            z32 = z_rows.sum() / valid.sum().clamp_min(1).to(z_rows.dtype)
        loss = (ce.float() + z32).to(input.dtype)
        zloss = z32.to(input.dtype)
    else:
        loss = ce
        zloss = torch.zeros_like(ce)
    return loss, log_prob, zloss, lse32.to(input.dtype)


@_fwd_op.register_fake
def _fwd_fake(input, target, weight=None, reduction="mean", ignore_index=-100,
              label_smoothing=0.0, lse_square_scale_for_zloss=0.0):
    _check_forward(input, target, weight, reduction, ignore_index, label_smoothing,
                   lse_square_scale_for_zloss)
    n = input.shape[0]
    loss_shape = (n,) if reduction == "none" else ()
    return (input.new_empty(loss_shape), torch.empty_like(input, memory_format=torch.contiguous_format),
            input.new_empty(loss_shape), input.new_empty((n,)))


def _fwd_setup_context(ctx, inputs, output):
    input, target, weight, reduction, ignore_index, label_smoothing, scale = inputs
    _loss, log_prob, _zloss, lse = output
    ctx.save_for_backward(log_prob, target, weight, lse)
    ctx.params = (reduction, int(ignore_index), float(label_smoothing), float(scale))
    ctx.set_materialize_grads(False)


def _fwd_backward(ctx, g_loss, g_log_prob, g_zloss, g_lse):
    log_prob, target, weight, lse = ctx.saved_tensors
    reduction, ignore_index, label_smoothing, scale = ctx.params
    grad = None
    if g_loss is not None or (g_zloss is not None and scale != 0.0):
        if g_loss is None:
            shape = (log_prob.shape[0],) if reduction == "none" else ()
            g_loss = log_prob.new_zeros(shape)
        use_z = scale != 0.0
        grad = torch.ops.ascend_xent.cross_entropy_loss_grad(
            g_loss.to(log_prob.dtype), log_prob, target, weight,
            g_zloss.to(log_prob.dtype) if (use_z and g_zloss is not None) else None,
            lse if use_z else None, reduction, ignore_index, label_smoothing, scale)
    # Gradients through the auxiliary outputs (rarely used): d log_softmax and d lse.
    if g_log_prob is not None or g_lse is not None:
        p = log_prob.float().exp()
        extra = torch.zeros_like(p)
        if g_log_prob is not None:
            gl = g_log_prob.float()
            extra = extra + gl - p * gl.sum(dim=-1, keepdim=True)
        if g_lse is not None:
            extra = extra + p * g_lse.float().unsqueeze(-1)
        grad = extra.to(log_prob.dtype) if grad is None else (grad.float() + extra).to(log_prob.dtype)
    return grad, None, None, None, None, None, None


_fwd_op.register_autograd(_fwd_backward, setup_context=_fwd_setup_context)


def cross_entropy_loss(input, target, weight=None, reduction="mean", ignore_index=-100,
                       label_smoothing=0.0, lse_square_scale_for_zloss=0.0):
    """Like ``torch_npu.npu_cross_entropy_loss``: ``(loss, log_prob, zloss, lse_for_zloss)``.

    Differentiable in ``input``; the backward runs ``cross_entropy_loss_grad``.
    """
    _check_forward(input, target, weight, reduction, ignore_index, label_smoothing,
                   lse_square_scale_for_zloss)
    return torch.ops.ascend_xent.cross_entropy_loss(
        input, target, weight, reduction, int(ignore_index), float(label_smoothing),
        float(lse_square_scale_for_zloss))


def cross_entropy(input, target, weight=None, reduction="mean", ignore_index=-100,
                  label_smoothing=0.0, lse_square_scale_for_zloss=0.0, return_zloss=False):
    """Differentiable cross-entropy whose backward is the ascend_xent kernel.

    ``input``: (N, C) logits (float32/float16/bfloat16); ``target``: (N,) int32/int64;
    ``weight``: optional (C,) of ``input``'s dtype. The value equals
    ``F.cross_entropy(input, target, weight, ignore_index=..., reduction=...,
    label_smoothing=...)`` plus, when ``lse_square_scale_for_zloss`` != 0, the z-loss
    ``scale * logsumexp(input_i)**2`` over non-ignored rows (reduced like the loss,
    but under "mean" divided by the number of non-ignored rows, never weighted).
    With ``return_zloss=True`` returns ``(loss, zloss)``; the z-loss is then also
    differentiable on its own (its gradient reaches the kernel as ``grad_zloss``).
    """
    loss, _log_prob, zloss, _lse = cross_entropy_loss(
        input, target, weight, reduction, ignore_index, label_smoothing,
        lse_square_scale_for_zloss)
    if return_zloss:
        return loss, zloss
    return loss
