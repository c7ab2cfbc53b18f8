"""The public entry points: argument checks (``_checks``), then the launch (``_launch``)."""

from __future__ import annotations

from . import _checks, _launch


def cross_entropy_loss_grad(grad_loss, log_prob, target, weight=None, grad_zloss=None,
                            lse_for_zloss=None, reduction="mean", ignore_index=-100,
                            label_smoothing=0.0, lse_square_scale_for_zloss=0.0, *, out=None):
    """Gradient of the cross-entropy loss with respect to the logits.

    The backward of ``aclnnCrossEntropyLoss`` / ``torch_npu.npu_cross_entropy_loss``,
    with the arguments of ``torch_npu.npu_cross_entropy_loss_backward``:

    grad_loss: the loss's upstream gradient: a Python number or a 0-D tensor under
        ``mean``/``sum``, an (N,) tensor under ``none``; dtype of ``log_prob``.
    log_prob: (N, C) log-softmax of the logits, float32/float16/bfloat16, C-contiguous.
    target: (N,) int32 or int64 class indices in [0, C) or ``ignore_index``.
    weight: optional (C,) class weights (used as float32).
    grad_zloss: optional upstream gradient of the separately returned z-loss
        (same shape rules as ``grad_loss``).
    lse_for_zloss: (N,) logsumexp of the logits; required when
        ``lse_square_scale_for_zloss`` != 0.
    reduction: "mean", "sum" or "none"; ignore_index: any int64;
    label_smoothing: in [0, 1]; lse_square_scale_for_zloss: >= 0.
    out: optional (N, C) C-contiguous output buffer of ``log_prob``'s dtype; may be
        ``log_prob`` itself (the gradient in place), must not overlap it otherwise. A torch
        ``out`` has its version counter bumped, as by torch's out= ops, and under grad mode
        no argument may require grad (RuntimeError).

    Takes NumPy arrays (returns NumPy; bfloat16 through ``ml_dtypes``) or torch
    tensors (returns a torch tensor). The kernel writes into ``out`` when given (else
    into a new array) and reads the caller's buffers directly, with the GIL released:
    on the simulator for host data, on the NPU (current torch_npu stream,
    asynchronously; CANN build; not yet run on hardware) for tensors on an 'npu'
    device (see _backends.py). Raises TypeError/ValueError naming the offending
    argument. Under torch.compile, call ``torch.ops.ascend_xent.cross_entropy_loss_grad``
    (the same function as a custom op, torch_ops.py).
    """
    p = _checks.prepare(grad_loss, log_prob, target, weight, grad_zloss, lse_for_zloss,
                        reduction, ignore_index, label_smoothing, lse_square_scale_for_zloss, out)
    if p.out is None:
        p.out = p.lib.empty((p.n, p.c), p.dtype, like=log_prob)
    return _launch.run(p)


def cross_entropy_loss(input, target, weight=None, reduction="mean", ignore_index=-100,
                       label_smoothing=0.0, lse_square_scale_for_zloss=0.0):
    """The forward kernel (``aclnnCrossEntropyLoss``): ``(loss, log_prob, zloss, lse_for_zloss)``.

    input: (N, C) logits, float32/float16/bfloat16, C-contiguous; target: (N,) int32 or
    int64 class indices in [0, C) or ``ignore_index``; weight: optional (C,) class weights
    (used as float32); reduction: "mean", "sum" or "none"; ignore_index: any int64;
    label_smoothing: in [0, 1]; lse_square_scale_for_zloss: >= 0.

    loss is ``F.cross_entropy``'s value plus the z-loss term; zloss is
    ``lse_square_scale_for_zloss * logsumexp(input_i)**2`` over the rows not ignored,
    reduced like the loss (under "mean" divided by their number, 0 when there is none);
    log_prob is ``log_softmax(input)`` and lse_for_zloss each row's logsumexp. loss and
    zloss have shape (N,) under "none", () otherwise; all four have ``input``'s dtype and
    are computed in float32. Every row ignored under "mean" gives a NaN loss, as PyTorch.

    Takes NumPy arrays (returns NumPy; bfloat16 through ``ml_dtypes``) or torch tensors
    (returns torch tensors, differentiable through ``ascend_xent.cross_entropy_loss``).
    Raises TypeError/ValueError naming the offending argument.
    """
    p = _checks.prepare_forward(input, target, weight, reduction, ignore_index, label_smoothing,
                                lse_square_scale_for_zloss)
    loss_shape = (p.n,) if p.reduction == "none" else ()
    outputs = (p.lib.empty(loss_shape, p.dtype, like=input), p.lib.empty((p.n, p.c), p.dtype, like=input),
               p.lib.empty(loss_shape, p.dtype, like=input), p.lib.empty((p.n,), p.dtype, like=input))
    return _launch.run_forward(p, outputs)


def cross_entropy_loss_with_grad(input, target, weight=None, reduction="mean", ignore_index=-100,
                                 label_smoothing=0.0, lse_square_scale_for_zloss=0.0, softcap=None, *,
                                 inplace=False):
    """The fused loss and gradient (``aclnnXentCrossEntropyLossWithGrad``):
    ``(loss, zloss, lse_for_zloss, grad)`` from one launch that reads the logits once
    (twice for rows too long for the on-chip buffer).

    The arguments and ``loss``, ``zloss``, ``lse_for_zloss`` are ``cross_entropy_loss``'s,
    plus ``softcap``: None (or 0), or a cap > 0 with which the logits are first capped to
    ``softcap * tanh(input / softcap)`` (the loss and logsumexp are then of the capped
    logits). ``grad`` is d loss / d input for an upstream gradient of 1 (the loss includes
    the z-loss term), through the cap; multiply it by the loss's upstream gradient (per row
    under "none") to get the input's gradient. It has ``input``'s dtype and is computed in
    float32, the true class's entry too, and rounded once.

    ``inplace=True`` writes the gradient over ``input`` (returned as ``grad``): no new
    (N, C) buffer. A torch ``input`` then has its version counter bumped (autograd refuses
    a backward through anything that saved it), and under grad mode it must not require grad.
    """
    p = _checks.prepare_forward(input, target, weight, reduction, ignore_index, label_smoothing,
                                lse_square_scale_for_zloss, softcap)
    if not isinstance(inplace, bool):
        raise TypeError(f"inplace: expected a bool, got {type(inplace).__name__}")
    if inplace and p.lib.records_grad(p.input):
        raise RuntimeError("input: inplace=True overwrites input, which requires grad, and autograd cannot "
                           "record that: pass input.detach() (the same memory), or use "
                           "ascend_xent.cross_entropy(..., fused=True, inplace=True)")
    loss_shape = (p.n,) if p.reduction == "none" else ()
    grad = p.input if inplace else p.lib.empty((p.n, p.c), p.dtype, like=input)
    outputs = (p.lib.empty(loss_shape, p.dtype, like=input), p.lib.empty(loss_shape, p.dtype, like=input),
               p.lib.empty((p.n,), p.dtype, like=input), grad)
    return _launch.run_forward(p, outputs, fused=True)
