"""The torch cases of scripts/fuzz.py: the PyTorch contract of ascend_xent, each class
checked against PyTorch's own behaviour.

  cross_entropy         ax.cross_entropy vs F.cross_entropy: (N, C) or (N, C, d1, ...),
                        every reduction, weight, label smoothing, ignored positions,
                        inplace_backward, autocast (bf16, float32 or bf16 weight); values
                        vs F.cross_entropy's, gradients vs torch.autograd of it in float64
  torch_func            torch.func.grad (sometimes vmap of it) vs the same of F.cross_entropy
  in_place              cross_entropy_loss_grad(..., out=log_prob): bitwise the out-of-place
                        result, log_prob's version counter bumped
  partial_overlap       out overlapping log_prob other than exactly: ValueError, nothing written
  out_version           out= saved by an autograd graph: its backward raises as after a
                        torch out= op
  out_requires_grad     out (leaf or not) that requires grad: RuntimeError naming out, as torch
  weight_requires_grad  RuntimeError naming weight, as F.cross_entropy
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

import ascend_xent as ax

CLASSES = {"cross_entropy": 0.45, "torch_func": 0.1, "in_place": 0.15, "partial_overlap": 0.08,
           "out_version": 0.08, "out_requires_grad": 0.07, "weight_requires_grad": 0.07}
DTYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
RTOL = {"float32": 1.3e-6, "float16": 1e-3, "bfloat16": 1.6e-2}
GRAD_ATOL = {"float32": 1e-5, "float16": 2 * 2.0**-10, "bfloat16": 2 * 2.0**-7}  # as tests/python/test_torch.py


def draw(rng) -> dict:
    cls = str(rng.choice(list(CLASSES), p=list(CLASSES.values())))
    dtype = str(rng.choice(list(DTYPES)))
    n, c = int(rng.integers(1, 48)), int(rng.integers(1, 400))
    extra = tuple(int(d) for d in rng.integers(1, 5, size=int(rng.choice([0, 0, 1, 2]))))
    case = dict(kind=f"torch:{cls}", dtype=dtype, n=n, c=c, extra=extra, seed=int(rng.integers(2**31)),
                reduction=str(rng.choice(["mean", "sum", "none"])), weight=bool(rng.random() < 0.5),
                label_smoothing=float(rng.choice([0.0, 0.1, 0.5, 1.0, rng.random()])),
                ignore_frac=float(rng.choice([0.0, 0.2, 0.7])), inplace_backward=bool(rng.random() < 0.5),
                autocast=str(rng.choice(["off", "off", "off", "bf16_weight", "fp32_weight"])),
                vmap=bool(rng.random() < 0.3))
    case["cats"] = [f"dtype={dtype}", f"reduction={case['reduction']}"]
    if cls == "cross_entropy":
        case["cats"] += [f"kdim={len(extra)}", f"autocast={case['autocast']}"] + \
            (["inplace_backward"] if case["inplace_backward"] else [])
    return case


def _logits(case, k_dims=True):
    g = torch.Generator().manual_seed(case["seed"])
    n, c = case["n"], case["c"]
    extra = case["extra"] if k_dims else ()
    x = (torch.randn((n, c) + extra, generator=g, dtype=torch.float64) * 3).to(DTYPES[case["dtype"]])
    t = torch.randint(0, c, (n,) + extra, generator=g)
    ignored = torch.rand(t.shape, generator=g) < case["ignore_frac"]
    ignored.view(-1)[0] = False  # one kept position: under mean PyTorch's gradient is NaN otherwise
    t[ignored] = -100
    w = (torch.rand(c, generator=g, dtype=torch.float64) * 1.8 + 0.2).to(x.dtype) if case["weight"] else None
    return x, t, w


def _close(actual, expected, dtype, atol):
    a, e = actual.detach().double(), expected.detach().double()
    scale = float(e.abs().max()) if e.numel() else 1.0
    scale = scale or 1.0
    try:
        torch.testing.assert_close(a / scale, e / scale, rtol=RTOL[dtype], atol=atol, equal_nan=True)
    except AssertionError as err:
        return str(err).splitlines()[0]
    return None


def _check_cross_entropy(case):
    x, t, w = _logits(case)
    dtype, red, ls = case["dtype"], case["reduction"], case["label_smoothing"]
    if case["autocast"] == "fp32_weight" and w is not None:
        w = w.float()
    autocast = torch.autocast("cpu", torch.bfloat16, enabled=case["autocast"] != "off")
    xa, xr = x.clone().requires_grad_(), x.clone().requires_grad_()
    with autocast:
        loss = ax.cross_entropy(xa, t, w, red, label_smoothing=ls, inplace_backward=case["inplace_backward"])
        ref = F.cross_entropy(xr, t, w, reduction=red, label_smoothing=ls)
    if loss.dtype != ref.dtype or loss.shape != ref.shape:
        return f"loss {loss.dtype} {tuple(loss.shape)}, F.cross_entropy {ref.dtype} {tuple(ref.shape)}"
    computed = "float32" if case["autocast"] != "off" else dtype
    err = _close(loss, ref, computed, GRAD_ATOL[computed])
    if err:
        return f"loss: {err}"
    upstream = torch.randn(loss.shape, generator=torch.Generator().manual_seed(1), dtype=torch.float64)
    loss.backward(upstream.to(loss.dtype))
    xd = x.double().requires_grad_()
    F.cross_entropy(xd, t, None if w is None else w.double(), reduction=red, label_smoothing=ls).backward(upstream)
    if xa.grad.dtype != x.dtype:
        return f"gradient dtype {xa.grad.dtype}, input {x.dtype}"
    err = _close(xa.grad, xd.grad, dtype, GRAD_ATOL[dtype])
    return f"gradient: {err}" if err else None


def _check_torch_func(case):
    x, t, w = _logits(dict(case, dtype="float32"), k_dims=False)
    red = "sum" if case["reduction"] == "sum" else "mean"
    kw = dict(weight=w, reduction=red, label_smoothing=case["label_smoothing"])
    if case["vmap"]:
        xs = torch.stack([x, -0.5 * x])
        ours = torch.func.vmap(torch.func.grad(lambda a: ax.cross_entropy(a, t, **kw)))(xs)
        ref = torch.func.vmap(torch.func.grad(lambda a: F.cross_entropy(a, t, **kw)))(xs)
    else:
        ours = torch.func.grad(lambda a: ax.cross_entropy(a, t, **kw))(x)
        ref = torch.func.grad(lambda a: F.cross_entropy(a, t, **kw))(x)
    return _close(ours, ref, "float32", 1e-5)


def _grad_args(case):
    x, t, w = _logits(case, k_dims=False)
    return torch.ones((), dtype=x.dtype), torch.log_softmax(x.float(), -1).to(x.dtype), t, w


def _check_in_place(case):
    g, lp, t, w = _grad_args(case)
    expected = ax.cross_entropy_loss_grad(g, lp, t, w, label_smoothing=case["label_smoothing"])
    version = lp._version
    ax.cross_entropy_loss_grad(g, lp, t, w, label_smoothing=case["label_smoothing"], out=lp)
    if lp._version <= version:
        return "log_prob's version counter not bumped"
    return None if torch.equal(lp.view(torch.uint8), expected.view(torch.uint8)) else "in place differs"


def _check_partial_overlap(case):
    g, lp, t, w = _grad_args(case)
    n, c = lp.shape
    shift = 1 + case["seed"] % max(1, n * c - 1) if n * c > 1 else 1
    buf = torch.cat([lp.flatten(), lp.flatten()])
    before = buf.clone()
    try:
        ax.cross_entropy_loss_grad(g, buf[:n * c].view(n, c), t, w, out=buf[shift:shift + n * c].view(n, c))
    except ValueError as e:
        if not str(e).startswith("out: must not overlap log_prob"):
            return f"message {e}"
        return None if torch.equal(buf.view(torch.uint8), before.view(torch.uint8)) else "written although refused"
    return "no ValueError for a partial overlap"


def _check_out_version(case):
    g, lp, t, w = _grad_args(case)
    buf = torch.rand(lp.shape).to(lp.dtype)
    x = torch.rand(lp.shape, dtype=lp.dtype, requires_grad=True)
    y = (buf * x).sum()
    ax.cross_entropy_loss_grad(g, lp, t, w, out=buf)
    try:
        y.backward()
    except RuntimeError as e:
        return None if "modified by an inplace operation" in str(e) else f"message {e}"
    return "backward used the overwritten out= values"


def _check_out_requires_grad(case):
    g, lp, t, w = _grad_args(case)
    out = torch.zeros(lp.shape, dtype=lp.dtype, requires_grad=True)
    if case["vmap"]:
        out = out * 1  # not a leaf
    try:
        ax.cross_entropy_loss_grad(g, lp, t, w, out=out)
    except RuntimeError as e:
        ok = str(e).startswith("out: ") and "requires grad" in str(e) and not out.detach().any()
        return None if ok else f"message {e}"
    return "no RuntimeError for out that requires grad"


def _check_weight_requires_grad(case):
    x, t, _ = _logits(case)
    w = torch.rand(case["c"], dtype=x.dtype).requires_grad_()
    try:
        ax.cross_entropy(x.requires_grad_(), t, w)
    except RuntimeError as e:
        return None if str(e).startswith("weight: ") else f"message {e}"
    return "no RuntimeError for a weight that requires grad"


_CHECKS = {"cross_entropy": _check_cross_entropy, "torch_func": _check_torch_func, "in_place": _check_in_place,
           "partial_overlap": _check_partial_overlap, "out_version": _check_out_version,
           "out_requires_grad": _check_out_requires_grad, "weight_requires_grad": _check_weight_requires_grad}


def check(case) -> str | None:
    return _CHECKS[case["kind"].split(":", 1)[1]](case)
