"""PyTorch integration: torch.library custom ops and a differentiable cross_entropy.

Three custom ops are registered in the ``ascend_xent`` namespace:

``ascend_xent::cross_entropy_loss_grad`` (the kernel)
    Same arguments as ``torch_npu.npu_cross_entropy_loss_backward``; returns a new
    (N, C) tensor. It has a fake (meta) implementation so that it traces under
    ``torch.compile`` and passes ``torch.library.opcheck``, and a vmap rule.

``ascend_xent::cross_entropy_loss_grad_`` (the kernel in place)
    The same arguments; writes the gradient over ``log_prob`` and returns nothing.

``ascend_xent::cross_entropy_loss`` (the forward kernel)
    Like ``torch_npu.npu_cross_entropy_loss``: returns ``(loss, log_prob, zloss,
    lse_for_zloss)``, all from one launch of the forward kernel. Its autograd formula
    calls ``cross_entropy_loss_grad``.

``ascend_xent::cross_entropy_loss_with_grad`` (and ``..._with_grad_``, in place): the
fused loss and gradient, in ``_torch_fused``; ``cross_entropy(..., fused=True)`` runs it.

``ascend_xent.cross_entropy`` / ``cross_entropy_loss`` call the forward op through
``_CrossEntropyLoss``, an autograd.Function with the same backward in the form that
torch.func transforms take; they are differentiable, with our kernel as the backward,
also under ``torch.compile(fullgraph=True)``.

Both directions run on the kernels: the forward op launches the forward kernel and its
backward the gradient kernel. This module imports torch; the rest of the package does
not need it.
"""

from __future__ import annotations

from typing import Optional

import torch
from torch import Tensor

from . import _api, _checks, _torch_checks, _torch_fused
from ._torch_vmap import loop_rule

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


# ascend_xent::cross_entropy_loss_grad_: the same, writing the gradient over log_prob (the
# kernel reads each tile before writing it back; docs/reliability.md). The backward of
# cross_entropy(..., inplace_backward=True) calls it on the saved log_prob.
def _grad_in_place(grad_loss: Tensor, log_prob: Tensor, target: Tensor,
                    weight: Optional[Tensor] = None, grad_zloss: Optional[Tensor] = None,
                    lse_for_zloss: Optional[Tensor] = None, reduction: str = "mean",
                    ignore_index: int = -100, label_smoothing: float = 0.0,
                    lse_square_scale_for_zloss: float = 0.0) -> None:
    _check_not_recorded(log_prob)
    _api.cross_entropy_loss_grad(grad_loss, log_prob, target, weight, grad_zloss, lse_for_zloss,
                                 reduction, ignore_index, label_smoothing, lse_square_scale_for_zloss,
                                 out=log_prob)


def _check_not_recorded(log_prob) -> None:
    # Below the dispatcher's autograd layer grad mode always reads off, so this refuses a log_prob
    # that requires grad also under torch.no_grad(): autograd cannot record the overwrite (a leaf
    # would be changed behind its back, a graph through log_prob would go on as if it held
    # log-probabilities), and log_prob.detach() shares its memory.
    if isinstance(log_prob, Tensor) and log_prob.requires_grad:
        raise RuntimeError("log_prob: cross_entropy_loss_grad_ overwrites log_prob, which requires grad; "
                           "autograd cannot record that: pass log_prob.detach() (the same memory)")


_grad_inplace_op = torch.library.custom_op("ascend_xent::cross_entropy_loss_grad_", _grad_in_place,
                                           mutates_args=("log_prob",))
_grad_inplace_op.register_kernel(_PRIVATEUSE1)(_grad_in_place)


@_grad_inplace_op.register_fake
def _grad_inplace_fake(grad_loss, log_prob, *args, **kwargs):
    _check_not_recorded(log_prob)
    _checks.prepare(grad_loss, log_prob, *args, **kwargs, check_values=False)


# --------------------------------------------------------------------------------------
# ascend_xent::cross_entropy_loss (forward)
# --------------------------------------------------------------------------------------
@torch.library.custom_op("ascend_xent::cross_entropy_loss", mutates_args=())
def _fwd_op(input: Tensor, target: Tensor, weight: Optional[Tensor] = None,
            reduction: str = "mean", ignore_index: int = -100, label_smoothing: float = 0.0,
            lse_square_scale_for_zloss: float = 0.0) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    _torch_checks.check_forward(input, target, weight, reduction, ignore_index, label_smoothing,
                                lse_square_scale_for_zloss)
    return _api.cross_entropy_loss(input.contiguous(), target, weight, reduction, ignore_index,
                                   label_smoothing, lse_square_scale_for_zloss)


@_fwd_op.register_fake
def _fwd_fake(input, target, weight=None, reduction="mean", ignore_index=-100,
              label_smoothing=0.0, lse_square_scale_for_zloss=0.0):
    _torch_checks.check_forward(input, target, weight, reduction, ignore_index, label_smoothing,
                                lse_square_scale_for_zloss)
    n = input.shape[0]
    loss_shape = (n,) if reduction == "none" else ()
    return (input.new_empty(loss_shape), torch.empty_like(input, memory_format=torch.contiguous_format),
            input.new_empty(loss_shape), input.new_empty((n,)))


def _fwd_setup_context(ctx, inputs, output, inplace_backward=False):
    input, target, weight, reduction, ignore_index, label_smoothing, scale = inputs
    _loss, log_prob, _zloss, lse = output
    ctx.save_for_backward(log_prob, target, weight, lse)
    ctx.params = (reduction, int(ignore_index), float(label_smoothing), float(scale))
    ctx.inplace_backward = inplace_backward
    ctx.log_prob_consumed = False
    ctx.set_materialize_grads(False)


def _claim_saved_log_prob(ctx):
    """inplace_backward: the gradient is written over the saved log_prob, which only one
    backward, not itself differentiated, can do."""
    if torch.is_grad_enabled():
        raise RuntimeError("inplace_backward: the gradient overwrites the saved log-probabilities, so it "
                           "cannot be differentiated again (create_graph=True); use inplace_backward=False")
    if ctx.log_prob_consumed:
        raise RuntimeError("inplace_backward: a backward through this graph already overwrote the saved "
                           "log-probabilities with the gradient; another one (retain_graph=True) needs "
                           "inplace_backward=False")
    ctx.log_prob_consumed = True


def _fwd_backward(ctx, g_loss, g_log_prob, g_zloss, g_lse):
    if ctx.inplace_backward:
        _claim_saved_log_prob(ctx)
    log_prob, target, weight, lse = ctx.saved_tensors
    reduction, ignore_index, label_smoothing, scale = ctx.params
    # Gradients through the auxiliary outputs (rarely used): d log_softmax and d lse.
    extra = None
    if g_log_prob is not None or g_lse is not None:
        p = log_prob.float().exp()
        extra = torch.zeros_like(p)
        if g_log_prob is not None:
            gl = g_log_prob.float()
            extra = extra + gl - p * gl.sum(dim=-1, keepdim=True)
        if g_lse is not None:
            extra = extra + p * g_lse.float().unsqueeze(-1)
    grad = None
    if g_loss is not None or (g_zloss is not None and scale != 0.0):
        if g_loss is None:
            shape = (log_prob.shape[0],) if reduction == "none" else ()
            g_loss = log_prob.new_zeros(shape)
        use_z = scale != 0.0
        args = (g_loss.to(log_prob.dtype), log_prob, target, weight,
                g_zloss.to(log_prob.dtype) if (use_z and g_zloss is not None) else None,
                lse if use_z else None, reduction, ignore_index, label_smoothing, scale)
        if ctx.inplace_backward:
            grad = log_prob.detach()
            torch.ops.ascend_xent.cross_entropy_loss_grad_(args[0], grad, *args[2:])
        elif torch._C._are_functorch_transforms_active():
            grad = _KernelGrad.apply(*args)
        else:
            grad = torch.ops.ascend_xent.cross_entropy_loss_grad(*args)
    if extra is not None:
        grad = extra.to(log_prob.dtype) if grad is None else (grad.float() + extra).to(log_prob.dtype)
    return grad, None, None, None, None, None, None


_fwd_op.register_autograd(_fwd_backward, setup_context=_fwd_setup_context)
for _op in (_grad_op, _fwd_op):
    torch.library.register_vmap(_op, loop_rule(_op))


class _CrossEntropyLoss(torch.autograd.Function):
    """The forward op with the same backward, as an autograd.Function of the form that
    torch.func transforms (grad, vmap, jacrev) take: setup_context, and a vmap rule
    generated from the ops' own (``_torch_vmap``)."""

    generate_vmap_rule = True

    @staticmethod
    def forward(input, target, weight, reduction, ignore_index, label_smoothing, scale, inplace_backward):
        return torch.ops.ascend_xent.cross_entropy_loss(input, target, weight, reduction, ignore_index,
                                                        label_smoothing, scale)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _fwd_setup_context(ctx, inputs[:-1], output, inputs[-1])

    @staticmethod
    def backward(ctx, *grads):
        return _fwd_backward(ctx, *grads) + (None,)


class _KernelGrad(torch.autograd.Function):
    """The kernel call of the backward as an autograd.Function that torch.func takes (the op's
    own autograd kernel is refused under its transforms); vmap reaches the op's loop rule."""

    generate_vmap_rule = True

    @staticmethod
    def forward(*args):
        return torch.ops.ascend_xent.cross_entropy_loss_grad(*args)

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("cross_entropy: the gradient of its gradient (a second derivative) is not "
                           "implemented")


def _float32_under_autocast(x):
    # F.cross_entropy is on autocast's float32 list: under autocast it runs in float32.
    return x.float() if isinstance(x, Tensor) and x.dtype in (torch.float16, torch.bfloat16) else x


def _checked_inputs(input, target, weight, reduction, ignore_index, label_smoothing, scale):
    _torch_checks.check_weight_not_differentiable(weight)
    # torch.is_autocast_enabled raises a RuntimeError for a device type without autocast
    # (meta): such an input gets the argument checks' error instead.
    if isinstance(input, Tensor) and input.device.type in ("cpu", "npu") and torch.is_autocast_enabled(input.device.type):
        input, weight = _float32_under_autocast(input), _float32_under_autocast(weight)
    _torch_checks.check_forward(input, target, weight, reduction, ignore_index, label_smoothing, scale)
    return input, weight


def _loss_outputs(input, target, weight, reduction, ignore_index, label_smoothing, scale,
                  inplace_backward=False):
    input, weight = _checked_inputs(input, target, weight, reduction, ignore_index, label_smoothing, scale)
    return _CrossEntropyLoss.apply(input, target, weight, reduction, int(ignore_index),
                                   float(label_smoothing), float(scale), inplace_backward)


def _fused_step(input, target, weight, reduction, ignore_index, label_smoothing, scale, softcap, inplace):
    cap = _checks.check_softcap(softcap)
    if inplace:
        if isinstance(input, Tensor) and input.is_leaf and input.requires_grad:
            raise RuntimeError("inplace: input is a leaf that requires grad; its values would be replaced by "
                               "their gradient behind autograd's back. Use inplace=True on logits computed "
                               "in the graph (e.g. the output of the LM head), or inplace=False")
        if not torch.compiler.is_compiling() and torch._C._are_functorch_transforms_active():
            raise RuntimeError("inplace: not supported under torch.func transforms; use inplace=False")
    input, weight = _checked_inputs(input, target, weight, reduction, ignore_index, label_smoothing, scale)
    return _torch_fused.fused_loss(input, target, weight, reduction, int(ignore_index), float(label_smoothing),
                                   float(scale), cap, inplace)


def cross_entropy_loss(input, target, weight=None, reduction="mean", ignore_index=-100,
                       label_smoothing=0.0, lse_square_scale_for_zloss=0.0):
    """Like ``torch_npu.npu_cross_entropy_loss``: ``(loss, log_prob, zloss, lse_for_zloss)``.

    Differentiable in ``input``; the backward runs ``cross_entropy_loss_grad``.
    """
    return _loss_outputs(input, target, weight, reduction, ignore_index, label_smoothing,
                         lse_square_scale_for_zloss)


def cross_entropy(input, target, weight=None, reduction="mean", ignore_index=-100,
                  label_smoothing=0.0, lse_square_scale_for_zloss=0.0, return_zloss=False,
                  inplace_backward=False, fused=False, softcap=None, inplace=False):
    """Differentiable cross-entropy whose backward is the ascend_xent kernel.

    ``input``: (N, C) or (N, C, d1, ...) logits (float32/float16/bfloat16); ``target``:
    (N,) or (N, d1, ...) int32/int64; ``weight``: optional (C,) of ``input``'s dtype, not
    differentiable. The value equals ``F.cross_entropy(input, target, weight,
    ignore_index=..., reduction=..., label_smoothing=...)`` plus, when
    ``lse_square_scale_for_zloss`` != 0, the z-loss ``scale * logsumexp(input_i)**2`` over
    non-ignored rows (reduced like the loss, but under "mean" divided by the number of
    non-ignored rows, never weighted). With ``return_zloss=True`` returns ``(loss, zloss)``;
    the z-loss is then also differentiable on its own (its gradient reaches the kernel as
    ``grad_zloss``). Under autocast it runs in float32, as F.cross_entropy does.

    K-dimensional logits are made (N * d1 * ..., C) rows: one copy of the logits
    (movedim + contiguous), and one of the gradient back to their layout.

    ``inplace_backward=True``: the backward writes the gradient over the saved
    log-probabilities instead of allocating it (one N x C buffer less at the backward's
    peak). The saved values are then consumed: one backward per forward, not
    differentiable again (both refused with a RuntimeError), not under torch.func transforms.

    ``fused=True`` (recommended for training): one launch of the fused kernel computes the
    loss and, at once, its gradient for an upstream gradient of 1; the backward only
    multiplies that by the upstream gradient (or hands it on when that is a host 1.0). The
    logits are read once, no log-probabilities are kept, and the gradient is the one
    (N, C) buffer alive between forward and backward. The returned z-loss is then for
    reading only (not differentiable: it is part of ``loss`` already), and the gradient is
    computed at the forward, before any upstream gradient exists: a second-order gradient
    is not available. ``softcap`` (fused only): None, or a cap > 0 with which the logits
    are first capped to ``softcap * tanh(input / softcap)`` (Gemma 2 style), the gradient
    taken through it. ``inplace=True`` (fused only, opt-in): the gradient is written over
    ``input`` itself, so the step needs no (N, C) buffer beyond the logits; ``input``'s
    values are gone after the forward (its version counter is bumped, so autograd refuses a
    backward through anything else that saved it, e.g. a second loss on the same logits),
    and ``input`` must not be a leaf that requires grad.
    """
    if not isinstance(inplace_backward, bool):
        raise TypeError(f"inplace_backward: expected a bool, got {type(inplace_backward).__name__}")
    for name, flag in (("fused", fused), ("inplace", inplace)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name}: expected a bool, got {type(flag).__name__}")
    if not fused:
        if softcap is not None:
            raise ValueError("softcap: only the fused path caps the logits: pass fused=True")
        if inplace:
            raise ValueError("inplace: only the fused path writes the gradient over the logits: pass fused=True "
                             "(inplace_backward=True is the unfused path's in-place backward)")
    elif inplace_backward:
        raise ValueError("inplace_backward: the fused path has no separate backward kernel; use inplace=True")
    if inplace_backward and not torch.compiler.is_compiling() and torch._C._are_functorch_transforms_active():
        raise RuntimeError("inplace_backward: not supported under torch.func transforms (grad, vmap, "
                           "jacrev, ...), which may run the backward more than once; use "
                           "inplace_backward=False")
    rows_shape = None
    if isinstance(input, Tensor) and input.dim() > 2:
        if inplace:  # (N, C, d1, ...) goes to (N*d1*..., C) through a copy, not a view
            raise ValueError(f"inplace: needs a 2-D (N, C) input, got {input.dim()} dims: the class dim is "
                             "moved last by a copy, which the gradient would overwrite instead of input; "
                             "use inplace=False")
        _torch_checks.check_k_dims(input, target)
        rows_shape = target.shape
        input = input.movedim(1, -1).reshape(-1, input.shape[1])
        target = target.reshape(-1)
    if fused:
        loss, zloss = _fused_step(input, target, weight, reduction, ignore_index, label_smoothing,
                                  lse_square_scale_for_zloss, softcap, inplace)
    else:
        loss, _log_prob, zloss, _lse = _loss_outputs(input, target, weight, reduction, ignore_index,
                                                     label_smoothing, lse_square_scale_for_zloss,
                                                     inplace_backward)
    if rows_shape is not None and reduction == "none":
        loss, zloss = loss.reshape(rows_shape), zloss.reshape(rows_shape)
    return (loss, zloss) if return_zloss else loss
