"""Float64 NumPy references ("goldens"), written directly from the formulas.

They are part of the package so that users can check the kernel themselves::

    from ascend_xent import golden
    ref = golden.cross_entropy_loss_grad(grad_loss, log_prob, target, weight, ...)

Gradient of the loss with respect to the logits x (p = exp(log_prob)); with
``ignored_i = target_i == ignore_index`` (any int64, negative included),
``W = sum of weight[target_i]`` over non-ignored rows (1 per row without a weight)
and ``M`` the number of non-ignored rows::

    mean:     nll_i = g (1-ls) w[t_i] / W    smooth_i = g ls / (C W)    z_i = (g + gz) / M
    sum/none: nll_i = g_i (1-ls) w[t_i]      smooth_i = g_i ls / C      z_i = g_i + gz_i
    lse_i   = 2 * lse_square_scale_for_zloss * lse_for_zloss_i * z_i    (0 without z-loss)
    grad_ij = p_ij (nll_i + smooth_i * sum_k w_k + lse_i) - smooth_i w_j - [j == t_i] nll_i

Ignored rows get 0, also when every row is ignored under ``mean`` (0, not NaN).
Everything is computed in float64 whatever the input dtypes are; bfloat16 inputs
(``ml_dtypes.bfloat16``) are widened exactly.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["cross_entropy_loss_grad", "iter_blocks", "check", "cross_entropy", "cross_entropy_with_grad", "log_softmax",
           "TOLERANCES", "compare", "max_scaled_error"]

#: torch.testing.assert_close defaults (rtol, atol) per output dtype; the comparisons
#: here apply them after dividing both sides by max |golden|.
TOLERANCES = {
    "float32": (1.3e-6, 1e-5),
    "float16": (1e-3, 1e-5),
    "bfloat16": (1.6e-2, 1e-5),
    "float64": (1e-7, 1e-7),
}
#: Smallest subnormal per dtype: a correctly rounded float16 result can differ from the
#: golden by that much, which exceeds atol after scaling when max |golden| < ~6e-3.
SUBNORMAL = {"float32": 2.0**-149, "float16": 2.0**-24, "bfloat16": 2.0**-133, "float64": 0.0}

_REDUCTIONS = ("mean", "sum", "none")


def _ieee():
    """Special inputs (NaN/Inf) give NaN/Inf gradients by IEEE arithmetic: that is the
    reference the kernel is held to, not an accident worth a warning."""
    return np.errstate(invalid="ignore", over="ignore")


def _f64(x) -> np.ndarray:
    if hasattr(x, "detach") and hasattr(x, "cpu"):  # a torch tensor, without importing torch
        import torch

        x = x.detach().cpu()
        if x.dtype == torch.bfloat16:
            x = x.float()
        x = x.numpy()
    return np.asarray(x).astype(np.float64)


def _i64(x) -> np.ndarray:
    if hasattr(x, "detach") and hasattr(x, "cpu"):
        x = x.detach().cpu().numpy()
    return np.asarray(x).astype(np.int64)


def _row_vector(x, n: int, name: str) -> np.ndarray:
    """A scalar (or 1-element) value broadcast to (n,), or an (n,) vector."""
    if x is None:
        return np.zeros(n)
    a = _f64(x)
    if a.size == 1 and a.ndim <= 1:
        return np.full(n, a.reshape(()).item())
    if a.shape != (n,):
        raise ValueError(f"{name}: expected a scalar or shape ({n},), got {a.shape}")
    return a


def _host_array(x) -> np.ndarray:
    """``x`` as a NumPy array; a torch tensor is first detached into float64 on the host."""
    if hasattr(x, "detach") and hasattr(x, "cpu"):
        x = _f64(x)
    return np.asarray(x)


def _valid_targets(t, ignore_index, c):
    """``(valid, tc)``: the rows not ignored, and the targets with ignored rows sent to class 0.

    Raises ValueError for a non-ignored target outside ``[0, c)``.
    """
    valid = t != int(ignore_index)
    bad = valid & ((t < 0) | (t >= c))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"target[{i}] = {int(t[i])} is out of range [0, {c}) and is not ignore_index")
    return valid, np.where(valid, t, 0)


def _row_coefficients(grad_loss, target, weight, grad_zloss, lse_for_zloss, reduction,
                      ignore_index, label_smoothing, lse_square_scale_for_zloss, n, c):
    """Per-row coefficients (valid, safe target, w, sum_w, nll, smooth, lse)."""
    if reduction not in _REDUCTIONS:
        raise ValueError(f"reduction must be one of {_REDUCTIONS}, got {reduction!r}")
    t = _i64(target).reshape(-1)
    if t.shape != (n,):
        raise ValueError(f"target: expected shape ({n},), got {t.shape}")
    valid, tc = _valid_targets(t, ignore_index, c)
    w = np.ones(c) if weight is None else _f64(weight).reshape(-1)
    if w.shape != (c,):
        raise ValueError(f"weight: expected shape ({c},), got {w.shape}")
    sum_w = float(w.sum())
    wt = np.where(valid, w[tc], 0.0)
    ls = float(label_smoothing)
    s = float(lse_square_scale_for_zloss)

    g = _row_vector(grad_loss, n, "grad_loss")
    gz = _row_vector(grad_zloss, n, "grad_zloss")
    with np.errstate(divide="ignore", invalid="ignore"):
        if reduction == "mean":
            big_w = float(wt.sum())
            m = int(valid.sum())
            nll = g * (1.0 - ls) * wt / big_w
            smooth = g * ls / (c * big_w) if ls != 0.0 else np.zeros(n)
            z = (g + gz) / m if m else np.zeros(n)
        else:
            nll = g * (1.0 - ls) * wt
            smooth = g * ls / c if ls != 0.0 else np.zeros(n)
            z = g + gz
    if lse_for_zloss is None or s == 0.0:
        lse = np.zeros(n)
    else:
        lse = 2.0 * s * _row_vector(lse_for_zloss, n, "lse_for_zloss") * z
    zero = np.zeros(n)
    nll = np.where(valid, nll, zero)
    smooth = np.where(valid, smooth, zero)
    lse = np.where(valid, lse, zero)
    return valid, tc, w, sum_w, nll, smooth, lse


def _as_log_prob(log_prob) -> np.ndarray:
    lp = log_prob
    if hasattr(lp, "detach") and hasattr(lp, "cpu"):
        lp = _f64(lp)
    lp = np.asarray(lp)
    if lp.ndim != 2:
        raise ValueError(f"log_prob: expected a 2-D (N, C) array, got shape {lp.shape}")
    return lp


def iter_blocks(grad_loss, log_prob, target, weight=None, grad_zloss=None, lse_for_zloss=None,
                reduction="mean", ignore_index=-100, label_smoothing=0.0,
                lse_square_scale_for_zloss=0.0, *, chunk_rows: int = 256):
    """Yield ``(r0, r1, block)``: the float64 golden of rows [r0, r1), one block at a time.

    The same two buffers are reused for every block (bounded memory for LLM-sized
    inputs): use or copy a block before asking for the next one.
    """
    lp = _as_log_prob(log_prob)
    n, c = lp.shape
    valid, tc, w, sum_w, nll, smooth, lse = _row_coefficients(
        grad_loss, target, weight, grad_zloss, lse_for_zloss, reduction, ignore_index,
        label_smoothing, lse_square_scale_for_zloss, n, c)
    # Without label smoothing there is no smoothing term at all (as in PyTorch), so a
    # NaN/Inf weight of a class nobody targets, or an infinite grad_loss, cannot leak in
    # through 0 * NaN.
    smoothing = float(label_smoothing) != 0.0
    with _ieee():
        coef = nll + smooth * sum_w + lse if smoothing else nll + lse
    step = max(1, min(int(chunk_rows), n)) if n else 1
    buf = np.empty((step, c), dtype=np.float64)
    tmp = np.empty((step, c), dtype=np.float64)
    for r0 in range(0, n, step):
        r1 = min(n, r0 + step)
        k = r1 - r0
        blk, t = buf[:k], tmp[:k]
        with _ieee():
            np.copyto(blk, lp[r0:r1], casting="unsafe")
            np.exp(blk, out=blk)
            blk *= coef[r0:r1, None]
            if smoothing:
                np.multiply(smooth[r0:r1, None], w[None, :], out=t)
                blk -= t
            blk[np.arange(k), tc[r0:r1]] -= nll[r0:r1]
            dead = ~valid[r0:r1]
            if dead.any():  # ignored rows: exp(log_prob) * 0, i.e. 0, or NaN where p is NaN/+Inf
                blk[dead] = np.exp(np.asarray(lp[r0:r1][dead], dtype=np.float64)) * 0.0
        yield r0, r1, blk


def cross_entropy_loss_grad(grad_loss, log_prob, target, weight=None, grad_zloss=None,
                            lse_for_zloss=None, reduction="mean", ignore_index=-100,
                            label_smoothing=0.0, lse_square_scale_for_zloss=0.0,
                            *, chunk_rows: int = 256) -> np.ndarray:
    """Float64 golden of ``ascend_xent.cross_entropy_loss_grad`` (same arguments).

    Accepts NumPy arrays, torch tensors or Python numbers; returns a float64 (N, C)
    array (computed ``chunk_rows`` rows at a time; see ``check`` to compare an
    LLM-sized result without materialising the golden).
    """
    lp = _as_log_prob(log_prob)
    out = np.empty(lp.shape, dtype=np.float64)
    for r0, r1, blk in iter_blocks(grad_loss, lp, target, weight, grad_zloss, lse_for_zloss,
                                   reduction, ignore_index, label_smoothing,
                                   lse_square_scale_for_zloss, chunk_rows=chunk_rows):
        out[r0:r1] = blk
    return out


def check(actual, grad_loss, log_prob, target, weight=None, grad_zloss=None, lse_for_zloss=None,
          reduction="mean", ignore_index=-100, label_smoothing=0.0,
          lse_square_scale_for_zloss=0.0, *, dtype=None, chunk_rows: int = 256) -> dict:
    """``compare(actual, golden)`` computed block by block, never holding the golden.

    Same criterion and result keys as ``compare``; ``mismatches`` is counted in a
    second pass only when the check fails.
    """
    dt = dtype or _dtype_name(actual)
    rtol, atol = TOLERANCES[dt]
    a_all = _host_array(actual)
    args = (grad_loss, log_prob, target, weight, grad_zloss, lse_for_zloss, reduction,
            ignore_index, label_smoothing, lse_square_scale_for_zloss)
    emax = dmax = excess = 0.0
    worst_idx = None
    nan = False
    bufs = None  # |a - e| and a scratch block, reused: at LLM sizes this pass takes seconds
    for r0, r1, e in iter_blocks(*args, chunk_rows=chunk_rows):
        if e.size == 0:
            continue
        if bufs is None:
            bufs = [np.empty(e.shape) for _ in range(2)]
        d, tmp = (b[:e.shape[0]] for b in bufs)
        np.copyto(d, a_all[r0:r1], casting="unsafe")
        with _ieee():
            np.subtract(d, e, out=d)
        np.abs(d, out=d)
        np.abs(e, out=tmp)
        emax = max(emax, float(tmp.max()))
        tmp *= -rtol
        tmp += d  # |a - e| - rtol |e|
        blk_nan = bool(np.isnan(d.max()))
        nan = nan or blk_nan
        k = int(np.nanargmax(d) if blk_nan and not np.all(np.isnan(d)) else np.argmax(d))
        if float(d.reshape(-1)[k]) > dmax:
            dmax = float(d.reshape(-1)[k])
            i, j = np.unravel_index(k, d.shape)
            worst_idx = (int(i) + r0, int(j))
        excess = max(excess, float(np.nanmax(tmp) if blk_nan else tmp.max()))
    scale = emax if emax > 0 and math.isfinite(emax) else 1.0
    atol_eff = max(atol, SUBNORMAL[dt] / scale)
    ok = (not nan) and excess <= atol_eff * scale
    res = _result(ok, dmax, scale, worst_idx, rtol, atol, 0, dt)
    if not ok:
        bad = 0
        for r0, r1, e in iter_blocks(*args, chunk_rows=chunk_rows):
            a = a_all[r0:r1].astype(np.float64) / scale
            bad += int((~(np.abs(a - e / scale) <= atol_eff + rtol * np.abs(e / scale))).sum())
        res["mismatches"] = bad
    return res


def logsumexp(x, axis: int = -1) -> np.ndarray:
    """Float64 log-sum-exp (stable), torch.logsumexp's: +inf for a row with a +inf
    value, -inf for a row of -inf only."""
    a = _f64(x)
    mx = a.max(axis=axis, keepdims=True)
    shift = np.where(np.isfinite(mx), mx, 0.0)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        lse = np.log(np.exp(a - shift).sum(axis=axis, keepdims=True)) + shift
    return np.squeeze(np.where(np.isinf(mx), mx, lse), axis=axis)


def log_softmax(x, axis: int = -1) -> np.ndarray:
    """Float64 log-softmax (stable)."""
    a = _f64(x)
    mx = a.max(axis=axis, keepdims=True)
    if not np.all(np.isfinite(mx)):
        mx = np.where(np.isfinite(mx), mx, 0.0)
    lse = np.log(np.exp(a - mx).sum(axis=axis, keepdims=True)) + mx
    return a - lse


def cross_entropy(input, target, weight=None, reduction="mean", ignore_index=-100,
                  label_smoothing=0.0, lse_square_scale_for_zloss=0.0):
    """Float64 golden of the forward, as ``torch_npu.npu_cross_entropy_loss``.

    Returns ``(loss, log_prob, zloss, lse_for_zloss)``. ``loss`` is PyTorch's
    ``F.cross_entropy`` value (NaN under ``mean`` when every row is ignored, as in
    PyTorch) plus the z-loss term; ``zloss`` = ``lse_square_scale_for_zloss *
    lse_i**2`` over non-ignored rows, reduced like the loss but under ``mean``
    divided by the number of non-ignored rows M (0 when M = 0), never weighted.
    """
    x = _f64(input)
    if x.ndim != 2:
        raise ValueError(f"input: expected a 2-D (N, C) array, got shape {x.shape}")
    n, c = x.shape
    t = _i64(target).reshape(-1)
    valid, tc = _valid_targets(t, ignore_index, c)
    w = np.ones(c) if weight is None else _f64(weight).reshape(-1)
    lp = log_softmax(x)
    lse = logsumexp(x) if c else np.zeros(n)
    wt = np.where(valid, w[tc], 0.0)
    ls = float(label_smoothing)
    nll = -np.where(valid, lp[np.arange(n), tc], 0.0) * wt
    smooth = -np.where(valid, (lp * w[None, :]).sum(axis=1), 0.0)
    per_row = (1.0 - ls) * nll + ls / c * smooth
    z_rows = np.where(valid, float(lse_square_scale_for_zloss) * lse * lse, 0.0)
    if reduction == "none":
        loss, zloss = per_row, z_rows
    elif reduction == "sum":
        loss, zloss = per_row.sum(), z_rows.sum()
    elif reduction == "mean":
        with np.errstate(divide="ignore", invalid="ignore"):
            loss = per_row.sum() / wt.sum()
        m = int(valid.sum())
        zloss = z_rows.sum() / m if m else 0.0
    else:
        raise ValueError(f"reduction must be one of {_REDUCTIONS}, got {reduction!r}")
    loss = np.asarray(loss, dtype=np.float64) + np.asarray(zloss, dtype=np.float64)
    return loss, lp, np.asarray(zloss, dtype=np.float64), lse


def cross_entropy_with_grad(input, target, weight=None, reduction="mean", ignore_index=-100,
                            label_smoothing=0.0, lse_square_scale_for_zloss=0.0, softcap=None):
    """Float64 golden of ``ascend_xent.cross_entropy_loss_with_grad``: ``(loss, zloss,
    lse_for_zloss, grad)``, the forward golden of the capped logits ``softcap *
    tanh(input / softcap)`` (the logits themselves for None) and the backward golden for an
    upstream gradient of 1, times the cap's slope ``1 - tanh(input / softcap)**2``."""
    x = _f64(input)
    capped = x if not softcap else softcap * np.tanh(x / softcap)
    loss, lp, zloss, lse = cross_entropy(capped, target, weight, reduction, ignore_index, label_smoothing,
                                         lse_square_scale_for_zloss)
    grad = cross_entropy_loss_grad(1.0 if reduction != "none" else np.ones(x.shape[0]), lp, target, weight,
                                   None, lse, reduction, ignore_index, label_smoothing, lse_square_scale_for_zloss)
    if softcap:
        grad *= 1.0 - np.tanh(x / softcap) ** 2
    return loss, zloss, lse, grad


def _dtype_name(x) -> str:
    if hasattr(x, "detach") and hasattr(x, "cpu"):
        return str(x.dtype).replace("torch.", "")
    return np.asarray(x).dtype.name


def _result(ok, max_abs, scale, worst_index, rtol, atol, mismatches, dtype) -> dict:
    return {"ok": ok, "max_abs_error": max_abs, "max_scaled_error": max_abs / scale,
            "scale": scale, "worst_index": worst_index,
            "rtol": rtol, "atol": atol, "mismatches": mismatches, "dtype": dtype}


def compare(actual, expected, dtype=None, *, chunk_rows: int = 4096) -> dict:
    """Compare ``actual`` with a float64 golden as the tests do.

    Both sides are divided by ``max |expected|`` (1 when that is 0), then checked
    elementwise with ``|a - e| <= atol + rtol * |e|`` using ``TOLERANCES[dtype]``
    (``dtype`` defaults to ``actual``'s), atol raised to ``SUBNORMAL[dtype] / scale``
    when that is larger (float16 only). Row blocks keep memory bounded. Returns

    * ``ok``: every element within tolerance; ``mismatches``: how many are not;
    * ``max_abs_error``: max |actual - expected|, in the data's units, at ``worst_index``;
    * ``max_scaled_error``: the same divided by ``scale`` = max |expected| (what the
      tolerance is applied to);
    * ``rtol``, ``atol``, ``dtype``: the tolerance used.
    """
    dt = dtype or _dtype_name(actual)
    rtol, atol = TOLERANCES[dt]
    a_all = _host_array(actual)
    e_all = np.asarray(expected, dtype=np.float64)
    if a_all.shape != e_all.shape:
        raise ValueError(f"shape mismatch: actual {a_all.shape} vs expected {e_all.shape}")
    scale = float(np.max(np.abs(e_all))) if e_all.size else 0.0
    if scale == 0.0 or not math.isfinite(scale):
        scale = 1.0
    if a_all.size == 0:
        return _result(True, 0.0, scale, None, rtol, atol, 0, dt)
    atol = max(atol, SUBNORMAL[dt] / scale)
    a2 = a_all.reshape(a_all.shape[0], -1) if a_all.ndim >= 1 else a_all.reshape(1, 1)
    e2 = e_all.reshape(a2.shape)
    worst, worst_idx, mismatches = 0.0, None, 0
    for r0 in range(0, a2.shape[0], max(1, chunk_rows)):
        a = a2[r0:r0 + chunk_rows].astype(np.float64) / scale
        e = e2[r0:r0 + chunk_rows] / scale
        diff = np.abs(a - e)
        diff = np.where(np.isnan(a) & np.isnan(e), 0.0, diff)
        bad = ~(diff <= atol + rtol * np.abs(e))
        mismatches += int(bad.sum())
        if diff.size:
            k = int(np.nanargmax(diff)) if not np.all(np.isnan(diff)) else 0
            d = float(diff.reshape(-1)[k])
            if np.isnan(d) or d > worst:
                worst = d
                worst_idx = np.unravel_index(k, diff.shape)
                worst_idx = (int(worst_idx[0]) + r0,) + tuple(int(i) for i in worst_idx[1:])
    return _result(mismatches == 0, worst * scale, scale, worst_idx, rtol, atol, mismatches, dt)


def max_scaled_error(actual, expected) -> float:
    """max |actual - expected| / max |expected| (plain max error when expected is all 0)."""
    return compare(actual, expected, "float64")["max_scaled_error"]
