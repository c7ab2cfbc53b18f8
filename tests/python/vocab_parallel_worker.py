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
    mine = logits[:, lo: lo + widths[rank]].clone()
    if case.get("column_major"):
        mine = mine.t().contiguous().t()
    mine.requires_grad_(True)
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


def run_refused(case, widths, rank, group):
    """A call every rank of the group must refuse with the same exception (no rank left waiting
    in a collective): case["expect"] = (exception name, text the message starts with), and
    case["rank_args"][rank] changes this rank's arguments. Checked against the reference
    rank by rank (expect[rank], else expect["all"]; None: accepted), then a barrier shows that
    every rank is still in step."""
    import ascend_xent.parallel as vp

    n, c = 5, sum(widths)
    args = dict(n=n, dtype=torch.float32, weight=False, reduction="mean", ignore_index=-100,
                label_smoothing=0.0, lse_square_scale_for_zloss=0.0, target=[0, 1, 2, 3, c - 1])
    args.update(case.get("all_args", {}))
    args.update(case.get("rank_args", {}).get(rank, {}))
    gen = torch.Generator().manual_seed(1)
    logits = torch.randn(args["n"], widths[rank], generator=gen).to(args["dtype"]).requires_grad_(True)
    target = torch.tensor(args["target"][: args["n"]] + [0] * (args["n"] - len(args["target"])))
    weight = None
    if args["weight"]:
        weight = torch.rand(widths[rank], generator=gen).to(args["dtype"]) + 0.5
        weight.requires_grad_(args.get("weight_requires_grad", False))
    if case.get("group_of_rank_0"):
        group = dist.new_group([0])  # every rank creates it; rank 0 alone is a member
    want = case["expect"].get(rank, case["expect"].get("all"))
    errors = []
    try:
        vp.vocab_parallel_cross_entropy(logits, target, group=group, weight=weight, reduction=args["reduction"],
                                        ignore_index=args["ignore_index"], label_smoothing=args["label_smoothing"],
                                        lse_square_scale_for_zloss=args["lse_square_scale_for_zloss"])
        if want is not None:
            errors.append(f"accepted; expected {want[0]}: {want[1]}")
    except Exception as e:
        got = f"{type(e).__name__}: {e}"
        if want is None or type(e).__name__ != want[0] or not str(e).startswith(want[1]):
            errors.append(f"got {got!r}; expected {want}")
    dist.barrier()
    return errors


def worker(rank, world, port, widths, cases, results):
    try:
        dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                                world_size=world, timeout=datetime.timedelta(seconds=60))
        failures = []
        for case in cases:
            try:
                run = run_refused if "expect" in case else run_case
                for e in run(case, widths, rank, None):
                    failures.append(f"rank {rank} {case}: {e}")
            except Exception:
                failures.append(f"rank {rank} {case}: {traceback.format_exc()}")
        dist.destroy_process_group()
        results.put((rank, failures))
    except Exception:
        results.put((rank, [traceback.format_exc()]))
