"""The bad-input matrix for the Python API, beyond test_errors.py:
every argument wrong in type, dtype, rank, shape, device or None; odd reduction
strings; label smoothing / z-loss scale out of range, NaN or infinite; N = 0 and
C = 0; non-contiguous tensors (an error for log_prob/out, a documented copy for
the small vectors); out aliasing each input. Each raises TypeError/ValueError
whose message starts with the argument's name, and leaves out untouched."""

import math

import numpy as np
import pytest

import ascend_xent as ax
from conftest import golden_of, make_case

# NumPy inputs and simulator settings (cores, threads, counters): the sim backend only.
pytestmark = pytest.mark.requires_sim

N, C = 6, 5


def _kw(dtype="float32", **over):
    kw = make_case(N, C, dtype, reduction="mean", weight=True, zloss="on_gz", seed=1)
    kw.update(over)
    return kw


def _expect(exc, name, over, extra=()):
    """The call raises exc, the message starts with 'name:' and out is not written."""
    kw = _kw(**over) if not callable(over) else over()
    out = np.full((N, C), 7.0, np.float32) if "out" not in kw else kw.pop("out")
    if isinstance(out, np.ndarray) and out.flags.writeable and out.dtype == np.float32:
        out[...] = 7.0
    elif isinstance(out, np.ndarray) and out.dtype == np.float32:
        out.flags.writeable = True
        out[...] = 7.0
        out.flags.writeable = False
    with pytest.raises(exc) as ei:
        ax.cross_entropy_loss_grad(**kw, out=out)
    msg = str(ei.value)
    assert msg.startswith(f"{name}:"), msg
    for w in extra:
        assert w in msg, (w, msg)
    if isinstance(out, np.ndarray) and out.dtype == np.float32 and out.shape == (N, C):
        assert np.all(out == 7.0), "out was written although the call failed"


# (argument, bad value, exception, extra words)
TYPE_CASES = [
    ("log_prob", None, TypeError, []),
    ("log_prob", 3.0, TypeError, ["torch.Tensor or a NumPy array"]),
    ("log_prob", "x", TypeError, []),
    ("target", "abc", TypeError, ["int32 or int64"]),
    ("target", 3.5, TypeError, ["int32 or int64"]),
    ("target", object(), TypeError, ["NumPy array"]),
    ("weight", "abc", TypeError, ["floating"]),
    ("weight", object(), TypeError, ["NumPy array"]),
    ("weight", np.ones(C, bool), TypeError, ["floating", "bool"]),
    ("grad_zloss", "1", TypeError, []),
    ("grad_zloss", np.asarray(1.0, np.float64), TypeError, ["float32", "float64"]),
    ("grad_zloss", True, TypeError, ["bool"]),
    ("lse_for_zloss", "abc", TypeError, []),
    ("lse_for_zloss", np.ones(N, np.int64), TypeError, ["float32", "int64"]),
    ("reduction", None, TypeError, ["str"]),
    ("reduction", b"mean", TypeError, ["str"]),
    ("ignore_index", None, TypeError, ["int"]),
    ("ignore_index", True, TypeError, ["int"]),
    ("ignore_index", "3", TypeError, ["int"]),
    ("label_smoothing", None, TypeError, ["float"]),
    ("label_smoothing", True, TypeError, ["float"]),
    ("label_smoothing", 0.1j, TypeError, ["float"]),
    ("lse_square_scale_for_zloss", None, TypeError, ["float"]),
    ("lse_square_scale_for_zloss", "1e-4", TypeError, ["float"]),
    ("target", np.zeros(N, np.int16), TypeError, ["int32 or int64", "int16"]),
    ("target", np.zeros(N, np.uint64), TypeError, ["int32 or int64", "uint64"]),
    ("target", np.zeros(N, bool), TypeError, ["int32 or int64", "bool"]),
    ("log_prob", np.zeros((N, C), np.int32), TypeError, ["float32, float16 or bfloat16", "int32"]),
    ("log_prob", np.zeros((N, C), np.complex64), TypeError, ["complex64"]),
    ("grad_loss", np.asarray(1.0, np.float64), TypeError, ["float32", "float64"]),
    ("grad_loss", np.asarray(1, np.int32), TypeError, ["float32", "int32"]),
]


@pytest.mark.parametrize("arg,value,exc,words", TYPE_CASES,
                         ids=[f"{i}-{c[0]}" for i, c in enumerate(TYPE_CASES)])
def test_wrong_type_or_dtype(arg, value, exc, words):
    _expect(exc, arg, {arg: value}, words)


RANK_CASES = [
    ("log_prob", np.zeros(N * C, np.float32), ["2-D"]),
    ("log_prob", np.zeros((), np.float32), ["2-D"]),
    ("log_prob", np.zeros((1, N, C), np.float32), ["2-D"]),
    ("target", np.zeros((N, 1), np.int64), ["(6,)", "(6, 1)"]),
    ("target", np.zeros((), np.int64), ["(6,)", "()"]),
    ("target", np.zeros(0, np.int64), ["(6,)", "(0,)"]),
    ("weight", np.ones((C, 1), np.float32), ["(C,) = (5,)"]),
    ("weight", np.ones((), np.float32), ["(C,) = (5,)"]),
    ("weight", np.ones(C + 1, np.float32), ["(C,) = (5,)", "(6,)"]),
    ("grad_loss", np.ones((1, 1), np.float32), ["scalar"]),
    ("grad_loss", np.ones(2, np.float32), ["scalar"]),
    ("grad_zloss", np.ones((1, 1), np.float32), ["scalar"]),
    ("lse_for_zloss", np.ones((N, 1), np.float32), ["(6,)"]),
    ("lse_for_zloss", np.ones((), np.float32), ["(6,)"]),
    ("out", np.empty((N, C, 1), np.float32), ["shape"]),
    ("out", np.empty(N * C, np.float32), ["shape"]),
    ("out", np.empty((N, C + 1), np.float32), ["shape"]),
]


@pytest.mark.parametrize("arg,value,words", RANK_CASES, ids=[f"{i}-{c[0]}" for i, c in enumerate(RANK_CASES)])
def test_wrong_rank_or_shape(arg, value, words):
    _expect(ValueError, arg, {arg: value}, words)


def test_none_reduction_shapes():
    kw = make_case(N, C, "float32", reduction="none", zloss="on_gz", seed=2)
    for arg, value in (("grad_loss", np.ones((), np.float32)), ("grad_loss", np.ones((N, 1), np.float32)),
                       ("grad_zloss", np.ones(N + 1, np.float32)), ("grad_zloss", 1.0)):
        with pytest.raises(ValueError) as ei:
            ax.cross_entropy_loss_grad(**dict(kw, **{arg: value}))
        assert str(ei.value).startswith(f"{arg}:"), str(ei.value)


@pytest.mark.parametrize("red", ["", " mean", "mean ", "Mean", "SUM", "None", "batchmean", "elementwise_mean",
                                 "mean\0", "avg"])
def test_reduction_strings(red):
    _expect(ValueError, "reduction", {"reduction": red}, ["'mean', 'sum', 'none'"])


@pytest.mark.parametrize("ls", [-1e-12, -0.1, 1.0 + 1e-12, 2.0, math.nan, math.inf, -math.inf])
def test_label_smoothing_out_of_range(ls):
    _expect(ValueError, "label_smoothing", {"label_smoothing": ls}, ["[0, 1]"])


@pytest.mark.parametrize("ls", [0.0, 1.0, np.float32(0.5), np.float64(1.0), 1])
def test_label_smoothing_edges_and_numpy_scalars(ls):
    kw = _kw(label_smoothing=ls)
    out = ax.cross_entropy_loss_grad(**kw)
    assert np.all(np.isfinite(out))
    np.testing.assert_allclose(out, golden_of(kw), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("s", [math.nan, math.inf, -math.inf, -1e-30])
def test_zloss_scale_not_finite_or_negative(s):
    _expect(ValueError, "lse_square_scale_for_zloss", {"lse_square_scale_for_zloss": s}, ["finite float >= 0"])


@pytest.mark.parametrize("value, becomes", [(1e300, "inf"), (-1e39, "-inf"), (1e-300, "0.0")])
def test_float64_weight_that_does_not_fit_float32(value, becomes):
    w = np.ones(C, np.float64)
    w[3] = value
    _expect(ValueError, "weight", {"weight": w}, [f"weight[3] = {value!r} does not fit float32", becomes])


def test_float64_weight_special_values_and_torch(torch):
    # inf/NaN stay what they are in float32: special values, not refused here.
    w = np.ones(C, np.float64)
    w[1], w[2] = math.inf, math.nan
    ax.cross_entropy_loss_grad(**_kw(weight=w))
    kw = {k: (torch.from_numpy(v) if isinstance(v, np.ndarray) else v) for k, v in _kw().items()}
    kw["weight"] = torch.full((C,), 1e300, dtype=torch.float64)
    with pytest.raises(ValueError, match=r"^weight: weight\[0\] = 1e\+300 does not fit float32"):
        ax.cross_entropy_loss_grad(**kw)


def test_ignore_index_numpy_integers_and_range():
    for ii in (np.int64(-100), np.int32(3), np.uint8(2)):
        kw = make_case(N, C, "float32", ignore_index=int(ii), seed=6)
        kw["ignore_index"] = ii
        ref = golden_of(dict(kw, ignore_index=int(ii)))
        np.testing.assert_allclose(ax.cross_entropy_loss_grad(**kw), ref, rtol=1e-5, atol=1e-6)
    _expect(ValueError, "ignore_index", {"ignore_index": -(2**63) - 1}, ["int64"])


def test_zero_classes_and_empty_batch():
    _expect(ValueError, "log_prob", {"log_prob": np.zeros((N, 0), np.float32), "weight": None},
            ["at least one class"])
    for red in ("mean", "sum", "none"):
        for dt in ("float32", "bfloat16"):
            kw = make_case(0, 7, dt, reduction=red, weight=True, zloss="on_gz")
            out = ax.cross_entropy_loss_grad(**kw)
            assert out.shape == (0, 7) and out.dtype == kw["log_prob"].dtype
    with pytest.raises(ValueError, match="^log_prob: expected at least one class"):
        ax.cross_entropy_loss_grad(1.0, np.zeros((0, 0), np.float32), np.zeros(0, np.int64))


def test_non_contiguous_log_prob_and_out_are_errors():
    base = _kw()
    lp = base["log_prob"]
    for bad in (np.asfortranarray(lp), lp[::-1], np.broadcast_to(lp[:1], (N, C)),
                np.lib.stride_tricks.as_strided(lp, (N, C), (0, 4))):
        _expect(ValueError, "log_prob", {"log_prob": bad}, ["contiguous"])
    for bad in (np.empty((C, N), np.float32).T, np.empty((N, 2 * C), np.float32)[:, ::2],
                np.empty((2 * N, C), np.float32)[::2]):
        _expect(ValueError, "out", {"out": bad}, ["contiguous"])


def test_non_contiguous_small_vectors_are_copied():
    # Documented: target, weight, grad_loss/grad_zloss (none) and lse_for_zloss are made contiguous.
    kw = make_case(N, C, "float32", reduction="none", weight=True, label_smoothing=0.1, zloss="on_gz", seed=4)
    ref = ax.cross_entropy_loss_grad(**kw)

    def strided(a):
        b = np.empty((a.shape[0], 3), a.dtype)
        b[:, 1] = a
        return b[:, 1]

    def reversed_copy(a):
        return a[::-1].copy()[::-1]

    for make in (strided, reversed_copy):
        kw2 = dict(kw)
        for k in ("target", "weight", "grad_loss", "grad_zloss", "lse_for_zloss"):
            kw2[k] = make(kw[k])
            assert not kw2[k].flags.c_contiguous
        assert ax.cross_entropy_loss_grad(**kw2).tobytes() == ref.tobytes()


def test_out_aliasing_each_input():
    kw = make_case(N, C, "float32", reduction="none", weight=True, zloss="on_gz", seed=5)
    for name in ("grad_loss", "target", "weight", "grad_zloss", "lse_for_zloss", "log_prob"):
        buf = np.zeros(N * C + 64, np.float32)
        out = buf[:N * C].reshape(N, C)
        src = kw[name]
        if name == "log_prob":
            view = buf[8:8 + N * C].reshape(N, C)  # partial overlap
        else:
            view = buf[N * C - 2:].view(src.dtype)[:src.size].reshape(src.shape)  # straddles out's end
        view[...] = src
        before = buf.copy()
        with pytest.raises(ValueError, match=f"^out: must not overlap {name}"):
            ax.cross_entropy_loss_grad(**dict(kw, **{name: view}), out=out)
        assert buf.tobytes() == before.tobytes(), "out was written"
    # Touching but not overlapping is fine.
    buf = np.zeros(2 * N * C, np.float32)
    lp = buf[N * C:].reshape(N, C)
    lp[...] = kw["log_prob"]
    res = ax.cross_entropy_loss_grad(**dict(kw, log_prob=lp), out=buf[:N * C].reshape(N, C))
    assert res.tobytes() == ax.cross_entropy_loss_grad(**kw).tobytes()


def test_read_only_and_wrong_kind_out():
    kw = _kw()
    ro = np.empty((N, C), np.float32)
    ro.flags.writeable = False
    _expect(ValueError, "out", dict(out=ro), ["read-only"])
    _expect(TypeError, "out", dict(out=[[0.0] * C] * N), ["NumPy array"])
    _expect(TypeError, "out", dict(out=np.empty((N, C), np.float64)), ["float32", "float64"])
    del kw


def test_torch_devices_and_kinds(torch):
    lp = torch.log_softmax(torch.randn(N, C), -1)
    t = torch.randint(0, C, (N,))
    meta = torch.device("meta")
    with pytest.raises(ValueError, match="^target: expected a tensor on cpu like log_prob, got one on meta"):
        ax.cross_entropy_loss_grad(1.0, lp, t.to(meta))
    with pytest.raises(ValueError, match="^weight: expected a tensor on cpu"):
        ax.cross_entropy_loss_grad(1.0, lp, t, torch.ones(C, device=meta))
    with pytest.raises(ValueError, match="^lse_for_zloss: expected a tensor on cpu"):
        ax.cross_entropy_loss_grad(1.0, lp, t, None, None, torch.ones(N, device=meta), "mean", -100, 0.0, 1e-3)
    with pytest.raises(ValueError, match="^out: expected a tensor on cpu"):
        ax.cross_entropy_loss_grad(1.0, lp, t, out=torch.empty(N, C, device=meta))
    # All on meta: the custom op's fake implementation (shape propagation). This module
    # imported ascend_xent before torch, so the ops are registered here, not at import.
    import ascend_xent.torch_ops  # noqa: F401

    r = torch.ops.ascend_xent.cross_entropy_loss_grad(torch.tensor(1.0, device=meta), lp.to(meta), t.to(meta))
    assert r.device == meta and r.shape == (N, C)
    with pytest.raises(TypeError, match="^target: expected dtype int32 or int64, got uint8"):
        ax.cross_entropy_loss_grad(1.0, lp, t.to(torch.uint8))
    with pytest.raises(ValueError, match="^log_prob: expected a C-contiguous"):
        ax.cross_entropy_loss_grad(1.0, lp.expand(2, N, C)[0].t().contiguous().t(), t)
    with pytest.raises(ValueError, match="^out: must not overlap log_prob"):
        big = torch.cat([lp.flatten(), lp[0]])  # one row longer: out one element past log_prob
        ax.cross_entropy_loss_grad(1.0, big[:N * C].view(N, C), t, out=big[1:N * C + 1].view(N, C))
    with pytest.raises(TypeError, match="^out: expected a torch.Tensor"):
        ax.cross_entropy_loss_grad(1.0, lp, t, out=np.empty((N, C), np.float32))
    # Non-contiguous small vectors: copied (documented), same result.
    w = torch.rand(C) + 0.5
    ref = ax.cross_entropy_loss_grad(1.0, lp, t, w)
    w2 = torch.stack([w, w], 1)[:, 0]
    t2 = torch.stack([t, t], 1)[:, 1]
    assert not w2.is_contiguous() and not t2.is_contiguous()
    assert torch.equal(ax.cross_entropy_loss_grad(1.0, lp, t2, w2), ref)


def test_forward_on_meta_tensors_propagates_shapes(torch):
    meta = torch.device("meta")
    x, t = torch.randn(N, C, device=meta), torch.zeros(N, dtype=torch.long, device=meta)
    loss, lp, zloss, lse = ax.cross_entropy_loss(x, t, reduction="none")
    assert {o.device for o in (loss, lp, zloss, lse)} == {meta}
    assert (loss.shape, lp.shape, zloss.shape, lse.shape) == ((N,), (N, C), (N,), (N,))
    assert ax.cross_entropy(x, t).shape == ()
    with pytest.raises(ValueError, match="^target: expected a tensor on meta like input, got cpu"):
        ax.cross_entropy_loss(x, torch.zeros(N, dtype=torch.long))


def test_native_layer_rejects_malformed_descriptors():
    # What only a caller bypassing the Python checks can send; clear errors, no crash.
    from ascend_xent._native import descriptor as d
    from ascend_xent._native import native

    lp = np.zeros((4, 3), np.float32)
    t = np.array([0, 1, 2, 0])
    out = np.empty((4, 3), np.float32)
    g = d(np.asarray(1.0, np.float32))
    cases = [
        ((5, d(lp), d(t), None, None, None, "mean", -100, 0.0, 0.0, d(out)), TypeError, "descriptor"),
        (((1, 2), d(lp), d(t), None, None, None, "mean", -100, 0.0, 0.0, d(out)), TypeError, "descriptor"),
        ((g, (lp.ctypes.data, "float64", (4, 3), (3, 1)), d(t), None, None, None, "mean", -100, 0.0, 0.0, d(out)),
         TypeError, "unsupported dtype"),
        ((g, (0, "float32", (4, 3), (3, 1)), d(t), None, None, None, "mean", -100, 0.0, 0.0, d(out)),
         ValueError, "null data pointer"),
        ((g, (lp.ctypes.data, "float32", (-4, 3), (3, 1)), d(t), None, None, None, "mean", -100, 0.0, 0.0, d(out)),
         ValueError, "negative dimension"),
        ((g, (lp.ctypes.data, "float32", (4, 3), (3,)), d(t), None, None, None, "mean", -100, 0.0, 0.0, d(out)),
         ValueError, "differ in length"),
        ((g, (lp.ctypes.data + 1, "float32", (4, 3), (3, 1)), d(t), None, None, None, "mean", -100, 0.0, 0.0,
          d(out)), ValueError, "not aligned"),
        ((g, (lp.ctypes.data, "float32", (2**62, 3), (3, 1)), d(t), None, None, None, "mean", -100, 0.0, 0.0,
          d(out)), ValueError, "too large"),
        ((g, d(lp), d(t), None, None, None, "mean", -100, 0.0, 0.0, None), ValueError, "required"),
        ((g, d(lp), d(t), None, None, None, "mean", -100, math.nan, 0.0, d(out)), ValueError, "labelSmoothing"),
        ((g, d(lp), d(t), None, None, None, None, -100, 0.0, 0.0, d(out)), TypeError, "incompatible"),
    ]
    for args, exc, word in cases:
        out[...] = 7.0
        with pytest.raises(exc) as ei:
            native().cross_entropy_loss_grad(*args)
        assert word in str(ei.value), (word, str(ei.value))
        assert np.all(out == 7.0)
