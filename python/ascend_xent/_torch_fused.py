"""The fused loss and gradient in PyTorch: two custom ops and the autograd.Function that
``ascend_xent.cross_entropy(..., fused=True)`` runs.

``ascend_xent::cross_entropy_loss_with_grad``
    ``(loss, zloss, lse_for_zloss, grad)`` from one launch of the fused kernel; a fake
    implementation (torch.compile, opcheck) and a vmap rule.

``ascend_xent::cross_entropy_loss_with_grad_``
    The same with the gradient written over ``input``; returns ``(loss, zloss,
    lse_for_zloss)``.

``_FusedCrossEntropy``: the forward computes the gradient for an upstream gradient of 1;
the backward multiplies it by the loss's upstream gradient, or hands it on as it is
when that is a host scalar equal to 1 (no N x C pass).
"""

from __future__ import annotations

from typing import Optional

import torch
from torch import Tensor

from . import _api, _torch_checks
from ._torch_vmap import loop_rule

_PRIVATEUSE1 = "privateuseone"  # torch_npu's device key, as in torch_ops


def _launch(input, target, weight, reduction, ignore_index, label_smoothing, scale, softcap, inplace):
    _torch_checks.check_forward(input, target, weight, reduction, ignore_index, label_smoothing, scale)
    return _api.cross_entropy_loss_with_grad(input if inplace else input.contiguous(), target, weight,
                                             reduction, ignore_index, label_smoothing, scale, softcap or None,
                                             inplace=inplace)


def _fused(input: Tensor, target: Tensor, weight: Optional[Tensor] = None, reduction: str = "mean",
           ignore_index: int = -100, label_smoothing: float = 0.0, lse_square_scale_for_zloss: float = 0.0,
           softcap: float = 0.0) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    return _launch(input, target, weight, reduction, ignore_index, label_smoothing,
                   lse_square_scale_for_zloss, softcap, False)


def _fused_in_place(input: Tensor, target: Tensor, weight: Optional[Tensor] = None, reduction: str = "mean",
                    ignore_index: int = -100, label_smoothing: float = 0.0,
                    lse_square_scale_for_zloss: float = 0.0,
                    softcap: float = 0.0) -> tuple[Tensor, Tensor, Tensor]:
    loss, zloss, lse, _grad = _launch(input, target, weight, reduction, ignore_index, label_smoothing,
                                      lse_square_scale_for_zloss, softcap, True)
    return loss, zloss, lse


_fused_op = torch.library.custom_op("ascend_xent::cross_entropy_loss_with_grad", _fused, mutates_args=())
_fused_op.register_kernel(_PRIVATEUSE1)(_fused)
_fused_inplace_op = torch.library.custom_op("ascend_xent::cross_entropy_loss_with_grad_", _fused_in_place,
                                            mutates_args=("input",))
_fused_inplace_op.register_kernel(_PRIVATEUSE1)(_fused_in_place)


def _reduced_shapes(input, reduction):
    n = input.shape[0]
    loss_shape = (n,) if reduction == "none" else ()
    return input.new_empty(loss_shape), input.new_empty(loss_shape), input.new_empty((n,))


@_fused_op.register_fake
def _fused_fake(input, target, weight=None, reduction="mean", ignore_index=-100, label_smoothing=0.0,
                lse_square_scale_for_zloss=0.0, softcap=0.0):
    _torch_checks.check_forward(input, target, weight, reduction, ignore_index, label_smoothing,
                                lse_square_scale_for_zloss)
    return (*_reduced_shapes(input, reduction), torch.empty_like(input, memory_format=torch.contiguous_format))


@_fused_inplace_op.register_fake
def _fused_inplace_fake(input, target, weight=None, reduction="mean", ignore_index=-100, label_smoothing=0.0,
                        lse_square_scale_for_zloss=0.0, softcap=0.0):
    _torch_checks.check_forward(input, target, weight, reduction, ignore_index, label_smoothing,
                                lse_square_scale_for_zloss)
    return _reduced_shapes(input, reduction)


torch.library.register_vmap(_fused_op, loop_rule(_fused_op))


def _is_host_one(g: Tensor) -> bool:
    # Only a host scalar is read (an NPU one would cost a stream sync), and never while
    # tracing (torch.compile) or under torch.func transforms, where a value is not a bool.
    return (g.numel() == 1 and g.device.type == "cpu" and not torch.compiler.is_compiling()
            and not torch._C._are_functorch_transforms_active() and bool(g == 1))


class _FusedCrossEntropy(torch.autograd.Function):
    """(loss, zloss, grad) from the fused op; d loss / d input = the upstream gradient times grad.
    zloss (already inside loss) and grad are not differentiable."""

    generate_vmap_rule = True

    @staticmethod
    def forward(input, target, weight, reduction, ignore_index, label_smoothing, scale, softcap, inplace):
        if inplace:
            grad = input.detach()  # the same memory and version counter: the op bumps it
            loss, zloss, _lse = torch.ops.ascend_xent.cross_entropy_loss_with_grad_(
                grad, target, weight, reduction, ignore_index, label_smoothing, scale, softcap)
            return loss, zloss, grad
        loss, zloss, _lse, grad = torch.ops.ascend_xent.cross_entropy_loss_with_grad(
            input, target, weight, reduction, ignore_index, label_smoothing, scale, softcap)
        return loss, zloss, grad

    @staticmethod
    def setup_context(ctx, inputs, output):
        _loss, zloss, grad = output
        ctx.mark_non_differentiable(zloss, grad)
        ctx.save_for_backward(grad)
        ctx.none = inputs[3] == "none"
        ctx.set_materialize_grads(False)

    @staticmethod
    def backward(ctx, g_loss, _g_zloss, _g_grad):
        (grad,) = ctx.saved_tensors
        if g_loss is None:
            return (None,) * 9
        if ctx.none:
            d = grad * g_loss.to(grad.dtype).unsqueeze(-1)
        elif _is_host_one(g_loss):
            d = grad
        else:
            d = grad * g_loss.to(grad.dtype)
        return (d,) + (None,) * 8


def fused_loss(input, target, weight, reduction, ignore_index, label_smoothing, scale, softcap, inplace):
    """``(loss, zloss)`` of ``_FusedCrossEntropy`` (arguments already checked)."""
    loss, zloss, _grad = _FusedCrossEntropy.apply(input, target, weight, reduction, ignore_index,
                                                  label_smoothing, scale, softcap, inplace)
    return loss, zloss
