"""Vocab-parallel cross-entropy on torch.distributed (docs/vocab_parallel.md).

The vocabulary is sharded over the ranks of a process group: rank r holds the logits of
the classes [offset_r, offset_r + C_r) (consecutive ranges in rank order, any widths
>= 1). ``vocab_parallel_cross_entropy`` returns the loss of the whole (N, C) problem on
every rank; its backward gives each rank the gradient of its own shard.

Forward, per rank: one all_gather of this rank's call (C_r, N, dtype, the options, whether
there is a weight, the range and a checksum of the targets) to find the offsets and refuse,
on every rank alike, ranks that disagree or a target out of range; one of the
padded weight shards when there is a weight (O(C), so that every rank has w[t_i], W and
sum_k w_k of the whole vocabulary), an all_reduce(MAX) of the row maxima and one
all_reduce(SUM) of the (2 or 3, N) row sums: sum of exp, the target's logit (from the
rank that holds it, 0 elsewhere) and, with label smoothing, sum_j w_j x_ij. W and M need
no exchange: the target is the same on every rank (as in Megatron-LM), and so is the
gathered weight. Backward: no collective; ``cross_entropy_loss_grad_shard`` (the kernel,
aclnnXentCrossEntropyLossGradShard) on the local shard with the whole row's logsumexp.
"""

from __future__ import annotations

from typing import Optional

import torch
import torch.distributed as dist
from torch import Tensor

from . import _arrays, _checks, _launch, _torch_checks

__all__ = ["vocab_parallel_cross_entropy", "cross_entropy_loss_grad_shard"]


def _check_class_range(c: int, class_offset, class_count) -> tuple[int, int]:
    for name, v in (("class_offset", class_offset), ("class_count", class_count)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"{name}: expected an int, got {type(v).__name__}")
    if class_count < c:
        raise ValueError(f"class_count: expected >= C = {c} (the columns of log_prob), got {class_count}")
    if not 0 <= class_offset <= class_count - c:
        raise ValueError(f"class_offset: expected in [0, class_count - C] = [0, {class_count - c}], "
                         f"got {class_offset}")
    return class_offset, class_count


def cross_entropy_loss_grad_shard(grad_loss, log_prob, target, weight=None, grad_zloss=None,
                                  lse_for_zloss=None, reduction="mean", ignore_index=-100,
                                  label_smoothing=0.0, lse_square_scale_for_zloss=0.0, *,
                                  class_offset: int, class_count: int, out=None) -> Tensor:
    """``cross_entropy_loss_grad`` of the columns [class_offset, class_offset + C) of a
    ``class_count``-class problem, for torch tensors (CPU: the simulator; 'npu': the NPU).

    log_prob: (N, C) this shard's logits minus the whole row's logsumexp; target: (N,)
    indices into the whole vocabulary; weight: None or the whole vocabulary's (class_count,)
    class weights; lse_for_zloss: the whole row's logsumexp. Everything else as in
    ``ascend_xent.cross_entropy_loss_grad``. The result is exactly those columns of the
    whole problem's gradient.
    """
    p = _checks.prepare(grad_loss, log_prob, target, None, grad_zloss, lse_for_zloss, reduction,
                        ignore_index, label_smoothing, lse_square_scale_for_zloss, out,
                        check_values=False)
    class_offset, class_count = _check_class_range(p.c, class_offset, class_count)
    if weight is not None:
        if not isinstance(weight, Tensor):
            raise TypeError(f"weight: expected a torch.Tensor, got {type(weight).__name__}")
        weight = _checks.check_weight(p.lib, weight.detach(), class_count,
                                      f"the whole vocabulary's (class_count,) = ({class_count},)", True)
        _checks.check_weight_sum(p.lib, weight, p.label_smoothing)
    if p.out is None:
        p.out = p.lib.empty((p.n, p.c), p.dtype, like=log_prob)  # from the output cache, as the unsharded call
    p.weight = weight
    return _launch.run(p, shard=(class_offset, class_count))


def _check_inputs(logits, target, weight):
    if not isinstance(logits, Tensor) or logits.dim() != 2:
        raise ValueError("logits: expected this rank's (N, C_r) shard as a 2-D torch.Tensor")
    torch_lib = _arrays.lib_for(logits)
    for name, t in (("logits", logits), ("target", target), ("weight", weight)):
        if isinstance(t, Tensor):
            torch_lib.check_dense(t, name)
    dt = str(logits.dtype).replace("torch.", "")
    if dt not in _checks.FLOAT_DTYPES:
        raise TypeError(f"logits: expected dtype float32, float16 or bfloat16, got {dt}")
    n, c = logits.shape
    if not isinstance(target, Tensor) or tuple(target.shape) != (n,):
        raise ValueError(f"target: expected a torch.Tensor of shape (N,) = ({n},)")
    if str(target.dtype).replace("torch.", "") not in _checks.INDEX_DTYPES:
        raise TypeError(f"target: expected dtype int32 or int64, got {target.dtype}")
    if weight is not None:
        if not isinstance(weight, Tensor) or tuple(weight.shape) != (c,):
            raise ValueError(f"weight: expected this rank's (C_r,) = ({c},) shard of the class weights")
        if weight.dtype != logits.dtype:
            raise TypeError(f"weight: expected dtype {dt} (the dtype of logits, as in F.cross_entropy), "
                            f"got {weight.dtype}")
    _torch_checks.check_weight_not_differentiable(weight)


def _check_member(group) -> None:
    if dist.get_rank(group) < 0:
        raise ValueError(f"group: this process (global rank {dist.get_rank()}) is not a member of the group; "
                         "call vocab_parallel_cross_entropy on the group's ranks only")


# What every rank sends in the first all_gather, in this order; the ranks must agree on all
# but the width.
_CALL_FIELDS = ("width", "N", "dtype", "weight", "reduction", "ignore_index", "label_smoothing",
                "lse_square_scale_for_zloss", "target checksum", "lowest target", "highest target")


def _float_bits(v: float) -> int:
    return int(torch.tensor(v + 0.0, dtype=torch.float64).view(torch.int64))  # + 0.0: -0.0 is 0.0


def _bits_float(b: int) -> float:
    return float(torch.tensor(b, dtype=torch.int64).view(torch.float64))


def _target_summary(t64: Tensor, live: Tensor) -> tuple[int, int, int]:
    """(checksum, lowest, highest) of the targets not ignored ((0, 0, -1) if none): the checksum
    is exact (terms below 2^30) so that it is the same on every rank whatever the summation
    order, and catches targets that differ between ranks."""
    n = t64.shape[0]
    rows = torch.arange(n, device=t64.device).remainder(1021) + 1
    checksum = int((t64.remainder(1000003) * rows).sum()) if n else 0
    kept = t64[live]
    if kept.numel() == 0:
        return checksum, 0, -1
    return checksum, int(kept.min()), int(kept.max())


def _agree(logits: Tensor, t64: Tensor, live: Tensor, has_weight: bool, group, options) -> tuple[int, int, list[int]]:
    """(this rank's offset, C, every rank's width), from one all_gather of every rank's call; a
    ValueError on every rank alike (so none is left waiting in a collective) for an empty shard,
    ranks that disagree (N, dtype, options, weight on some ranks only, targets) or a target
    outside [0, C) that is not ignore_index."""
    reduction, ignore_index, label_smoothing, scale = options
    world = dist.get_world_size(group)
    mine = torch.tensor([logits.shape[1], logits.shape[0], _checks.FLOAT_DTYPES.index(
        str(logits.dtype).replace("torch.", "")), int(has_weight), _checks.REDUCTIONS.index(reduction),
        ignore_index, _float_bits(label_smoothing), _float_bits(scale), *_target_summary(t64, live)],
        dtype=torch.int64, device=logits.device)
    every = [torch.empty_like(mine) for _ in range(world)]
    dist.all_gather(every, mine, group=group)
    table = torch.stack(every).cpu().tolist()
    widths = [row[0] for row in table]
    if min(widths) < 1:
        raise ValueError(f"logits: every rank needs at least one class column; the widths are {widths}")
    for k, field in enumerate(_CALL_FIELDS[1:9], start=1):
        other = next((r for r, row in enumerate(table) if row[k] != table[0][k]), None)
        if other is not None:
            shown = {"N": lambda v: v, "dtype": lambda v: _checks.FLOAT_DTYPES[v], "weight": bool,
                     "reduction": lambda v: repr(_checks.REDUCTIONS[v]), "ignore_index": lambda v: v,
                     "label_smoothing": _bits_float, "lse_square_scale_for_zloss": _bits_float}.get(field)
            name = {"N": "logits", "dtype": "logits", "target checksum": "target"}.get(field, field)
            values = "" if shown is None else f": {shown(table[0][k])} and {shown(table[other][k])}"
            raise ValueError(f"{name}: the ranks of the group disagree on the {field} (rank 0 and rank {other}"
                             f"{values}); every rank must pass the same N, dtype, target, options and weight "
                             "(present or not)")
    rank = dist.get_rank(group)
    classes = sum(widths)
    if table[0][9] < 0 or table[0][10] >= classes:
        bad = (live & ((t64 < 0) | (t64 >= classes))).nonzero()
        i = int(bad[0, 0])
        raise ValueError(f"target: target[{i}] = {int(t64[i])} is out of range [0, {classes}) "
                         f"and is not ignore_index ({ignore_index})")
    return sum(widths[:rank]), classes, widths


def _gather_weight(weight: Tensor, widths: list[int], group) -> Tensor:
    """The whole vocabulary's weights (float32), from shards padded to the widest."""
    pad = max(widths)
    mine = torch.zeros(pad, dtype=torch.float32, device=weight.device)
    mine[: weight.shape[0]] = weight.float()
    every = [torch.empty_like(mine) for _ in widths]
    dist.all_gather(every, mine, group=group)
    return torch.cat([t[:w] for t, w in zip(every, widths)])


def _reduce(rows: Tensor, weight_sum: Tensor, reduction: str) -> Tensor:
    if reduction == "none":
        return rows
    total = rows.sum()
    return total / weight_sum if reduction == "mean" else total


class _VocabParallelCrossEntropy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, logits, target, weight, group, reduction, ignore_index, label_smoothing, scale):
        width = logits.shape[1]
        t64 = target.long()
        live = t64 != ignore_index
        offset, classes, widths = _agree(logits, t64, live, weight is not None, group,
                                         (reduction, ignore_index, label_smoothing, scale))
        full_weight = None if weight is None else _gather_weight(weight, widths, group)

        # Row-major (the kernel's log_prob is): a column-major shard is copied once, here.
        x = logits.detach().float().contiguous()
        copied = x.data_ptr() != logits.data_ptr()  # else the caller's memory: never modified in place
        row_max = x.amax(dim=1)
        dist.all_reduce(row_max, op=dist.ReduceOp.MAX, group=group)

        local = t64 - offset
        mine = live & (local >= 0) & (local < width)
        picked = x.gather(1, local.clamp(0, width - 1).unsqueeze(1)).squeeze(1)
        sums = [None, torch.where(mine, picked, torch.zeros_like(picked))]
        if label_smoothing > 0.0:
            w_local = None if full_weight is None else full_weight[offset: offset + width]
            sums.append(x.sum(dim=1) if w_local is None else x @ w_local)
        shifted = x.sub_(row_max.unsqueeze(1)) if copied else x - row_max.unsqueeze(1)
        sums[0] = shifted.exp().sum(dim=1)
        stats = torch.stack(sums)
        dist.all_reduce(stats, op=dist.ReduceOp.SUM, group=group)
        log_sum = stats[0].log()
        lse = row_max + log_sum

        # The whole problem's loss, as F.cross_entropy (+ the z-loss of ascend_xent.cross_entropy).
        safe = torch.where(live, t64, torch.zeros_like(t64))
        w_t = torch.ones_like(lse) if full_weight is None else full_weight[safe]
        w_t = torch.where(live, w_t, torch.zeros_like(w_t))
        rows = (1.0 - label_smoothing) * w_t * (lse - stats[1])
        if label_smoothing > 0.0:
            weight_total = float(classes) if full_weight is None else full_weight.sum()
            smooth = weight_total * lse - stats[2]
            rows = rows + (label_smoothing / classes) * torch.where(live, smooth, torch.zeros_like(smooth))
        loss = _reduce(rows, w_t.sum(), reduction)
        if scale != 0.0:
            z_rows = torch.where(live, scale * lse * lse, torch.zeros_like(lse))
            loss = loss + _reduce(z_rows, live.sum().clamp_min(1).to(lse.dtype), reduction)

        log_prob = shifted.sub_(log_sum.unsqueeze(1)).to(logits.dtype)
        ctx.save_for_backward(log_prob, target, full_weight, lse.to(logits.dtype) if scale != 0.0 else None)
        ctx.params = dict(reduction=reduction, ignore_index=ignore_index, label_smoothing=label_smoothing,
                          lse_square_scale_for_zloss=scale, class_offset=offset, class_count=classes)
        return loss.to(logits.dtype)

    @staticmethod
    def backward(ctx, grad_loss):
        log_prob, target, full_weight, lse = ctx.saved_tensors
        grad = cross_entropy_loss_grad_shard(grad_loss.to(log_prob.dtype).contiguous(), log_prob, target,
                                             full_weight, None, lse, **ctx.params)
        return grad, None, None, None, None, None, None, None


def vocab_parallel_cross_entropy(logits: Tensor, target: Tensor, *, group=None,
                                 weight: Optional[Tensor] = None, ignore_index: int = -100,
                                 reduction: str = "mean", label_smoothing: float = 0.0,
                                 lse_square_scale_for_zloss: float = 0.0) -> Tensor:
    """Cross-entropy of logits whose classes are sharded over the ranks of ``group``.

    logits: this rank's (N, C_r) shard (float32/float16/bfloat16), the ranks holding
    consecutive class ranges in rank order; target: (N,) global class indices, the same on
    every rank; weight: None or this rank's (C_r,) shard of the class weights (logits'
    dtype), on every rank or on none. Returns what ``ascend_xent.cross_entropy`` returns
    for the concatenated logits (F.cross_entropy plus, when lse_square_scale_for_zloss != 0,
    the z-loss), equal on every rank. Differentiable in ``logits``: each rank's backward
    gives the gradient of its shard, with no collective. Every rank must call it.
    """
    _check_member(group)
    reduction = _checks.check_reduction(reduction)
    ignore_index = _checks.check_ignore_index(ignore_index)
    label_smoothing = _checks.check_label_smoothing(label_smoothing)
    scale = _checks.check_zloss_scale(lse_square_scale_for_zloss)
    _check_inputs(logits, target, weight)
    return _VocabParallelCrossEntropy.apply(logits, target, weight, group, reduction, ignore_index,
                                            label_smoothing, scale)
