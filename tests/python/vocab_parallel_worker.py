"""One rank of tests/python/test_vocab_parallel.py (gloo on 127.0.0.1).

Every rank builds the same whole problem from a seed, takes its columns, and checks
``vocab_parallel_cross_entropy`` against F.cross_entropy (+ the z-loss) in float64 on the
concatenated logits: the loss (and that it is bitwise equal on every rank) and this rank's
columns of the gradient. Failures are returned as text, never raised, so every rank runs
every case and no collective is left waiting.

Tolerances, |got - ref| <= rtol * |ref| + atol * max|ref|: the loss is rounded once to the
dtype (rtol of half its ulp, 2x); the gradient starts from log_prob rounded to the dtype, so
p = exp(log_prob) carries |log_prob| * half an ulp (log_prob down to ~-12 here) on top of the
output's rounding.
"""

from __future__ import annotations

import datetime
import traceback

import torch
import torch.distributed as dist
import torch.nn.functional as F

LOSS_RTOL = {torch.float32: 2e-6, torch.float16: 1e-3, torch.bfloat16: 8e-3}
GRAD_TOL = {torch.float32: (2e-5, 1e-6), torch.float16: (2e-2, 1e-3), torch.bfloat16: (1e-1, 8e-3)}


def reference(logits, target, weight, reduction, ignore_index, ls, scale):
    """Loss and gradient of the whole problem in float64: F.cross_entropy + the z-loss of
    ascend_xent.cross_entropy (scale * lse^2 over non-ignored rows, mean over their count)."""
    x = logits.double().requires_grad_(True)
    w = None if weight is None else weight.double()
    loss = F.cross_entropy(x, target.long(), weight=w, reduction=reduction, ignore_index=ignore_index,
                           label_smoothing=ls)
    if scale != 0.0:
        live = target.long() != ignore_index
        lse = torch.logsumexp(x, dim=1)
        z = torch.where(live, scale * lse * lse, torch.zeros_like(lse))
        if reduction == "none":
            loss = loss + z
        elif reduction == "sum":
            loss = loss + z.sum()
        else:
            loss = loss + z.sum() / live.sum().clamp_min(1)
    # Upstream gradients exact in every dtype: 1.5 (mean/sum), or -1 .. 1 in steps of 0.5 per row.
    up = torch.full((), 1.5, dtype=torch.float64) if loss.dim() == 0 else \
        (torch.arange(loss.numel(), dtype=torch.float64) % 5 - 2) * 0.5
    (loss * up).sum().backward()
    return loss.detach(), x.grad, up


def close(got, ref, rtol, atol_of_max):
    got, ref = got.double(), ref.double()
    if got.shape != ref.shape:
        return f"shape {tuple(got.shape)} != {tuple(ref.shape)}"
    if ref.numel() == 0:
        return None
    atol = atol_of_max * float(ref.nan_to_num(0.0).abs().max())
    both_nan = torch.isnan(got) & torch.isnan(ref)  # PyTorch's mean over no rows
    bad = ~(both_nan | ((got - ref).abs() <= rtol * ref.abs() + atol))
    if bad.any():
        i = int(bad.flatten().nonzero()[0])
        return (f"{int(bad.sum())} of {ref.numel()} outside tolerance; first at {i}: "
                f"{float(got.flatten()[i])!r} vs {float(ref.flatten()[i])!r}")
    return None


def bits(t):
    return t.reshape(-1).view(torch.int16 if t.element_size() == 2 else torch.int32)


def run_case(case, widths, rank, group):
    import ascend_xent.parallel as vp

    dtype = getattr(torch, case["dtype"])
    n, c = case["n"], sum(widths)
    gen = torch.Generator().manual_seed(case["seed"])
    logits = (3.0 * torch.randn(n, c, generator=gen)).to(dtype)
    target = torch.randint(0, case.get("target_classes", c), (n,), generator=gen)
    ignore = case["ignore_index"]
    target[torch.rand(n, generator=gen) < 0.2] = ignore
    weight = (0.2 + 2.0 * torch.rand(c, generator=gen)).to(dtype) if case["weight"] else None
    args = (case["reduction"], ignore, case["ls"], case["z"])

    ref_loss, ref_grad, up = reference(logits, target, weight, *args)
    lo = sum(widths[:rank])
    mine = logits[:, lo: lo + widths[rank]].clone().requires_grad_(True)
    loss = vp.vocab_parallel_cross_entropy(
        mine, target, group=group, weight=None if weight is None else weight[lo: lo + widths[rank]],
        reduction=args[0], ignore_index=ignore, label_smoothing=args[2], lse_square_scale_for_zloss=args[3])
    (loss * up.to(dtype)).sum().backward()

    errors = []
    every = [torch.empty_like(loss) for _ in widths]
    dist.all_gather(every, loss.detach().contiguous(), group=group)
    if any(not torch.equal(bits(e), bits(loss.detach())) for e in every):
        errors.append("loss differs between ranks")
    if loss.dtype != dtype:
        errors.append(f"loss dtype {loss.dtype}")
    e = close(loss.detach(), ref_loss, LOSS_RTOL[dtype], LOSS_RTOL[dtype])
    if e:
        errors.append("loss: " + e)
    e = close(mine.grad, ref_grad[:, lo: lo + widths[rank]], *GRAD_TOL[dtype])
    if e:
        errors.append("grad: " + e)
    return errors


def worker(rank, world, port, widths, cases, results):
    try:
        dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                                world_size=world, timeout=datetime.timedelta(seconds=60))
        failures = []
        for case in cases:
            try:
                for e in run_case(case, widths, rank, None):
                    failures.append(f"rank {rank} {case}: {e}")
            except Exception:
                failures.append(f"rank {rank} {case}: {traceback.format_exc()}")
        dist.destroy_process_group()
        results.put((rank, failures))
    except Exception:
        results.put((rank, [traceback.format_exc()]))
