"""Every bad argument gives a TypeError or ValueError that names it and says what
was expected; never a crash or a hang."""

import numpy as np
import pytest

import ascend_xent as ax
from conftest import make_case


def _kw(**over):
    kw = make_case(6, 5, "float32", reduction="mean", weight=True, zloss="on_gz")
    kw.update(over)
    return kw


BAD = [
    # (overrides, exception, words that must appear in the message)
    (dict(reduction="avg"), ValueError, ["reduction", "'mean', 'sum', 'none'", "avg"]),
    (dict(reduction=1), TypeError, ["reduction", "str"]),
    (dict(ignore_index=1.5), TypeError, ["ignore_index", "int"]),
    (dict(ignore_index=2**64), ValueError, ["ignore_index", "int64"]),
    (dict(label_smoothing=1.5), ValueError, ["label_smoothing", "[0, 1]"]),
    (dict(label_smoothing=-0.1), ValueError, ["label_smoothing", "[0, 1]"]),
    (dict(label_smoothing="0.1"), TypeError, ["label_smoothing", "float"]),
    (dict(lse_square_scale_for_zloss=float("nan")), ValueError, ["lse_square_scale_for_zloss", "finite"]),
    (dict(lse_square_scale_for_zloss=-1.0), ValueError, ["lse_square_scale_for_zloss", ">= 0"]),
    (dict(lse_for_zloss=None), ValueError, ["lse_for_zloss", "required", "lse_square_scale_for_zloss"]),
    (dict(log_prob=np.zeros((6, 5), np.float64)), TypeError, ["log_prob", "float32, float16 or bfloat16", "float64"]),
    (dict(log_prob=np.zeros((6, 5, 1), np.float32)), ValueError, ["log_prob", "2-D", "(N, C)"]),
    (dict(log_prob=np.zeros((6, 10), np.float32)[:, ::2]), ValueError, ["log_prob", "contiguous"]),
    (dict(log_prob=[[0.0]]), TypeError, ["log_prob", "torch.Tensor or a NumPy array"]),
    (dict(target=np.zeros(6, np.float32)), TypeError, ["target", "int32 or int64", "float32"]),
    (dict(target=np.zeros(7, np.int64)), ValueError, ["target", "(6,)", "(7,)"]),
    (dict(target=np.array([0, 1, 2, 5, 1, 0])), ValueError, ["target", "target[3] = 5", "[0, 5)"]),
    (dict(target=np.array([0, 1, -1, 2, 1, 0])), ValueError, ["target[2] = -1", "ignore_index"]),
    (dict(target=None), TypeError, ["target"]),
    (dict(weight=np.ones(4, np.float32)), ValueError, ["weight", "(C,) = (5,)", "(4,)"]),
    (dict(weight=np.ones(5, np.int32)), TypeError, ["weight", "floating"]),
    (dict(grad_loss=np.ones(6, np.float32)), ValueError, ["grad_loss", "scalar", "'mean'"]),
    (dict(grad_loss=np.asarray(1.0, np.float16)), TypeError, ["grad_loss", "float32", "float16"]),
    (dict(grad_loss=None), TypeError, ["grad_loss"]),
    (dict(grad_loss=True), TypeError, ["grad_loss", "bool"]),
    (dict(grad_loss="1"), TypeError, ["grad_loss"]),
    (dict(grad_zloss=np.ones((2,), np.float32)), ValueError, ["grad_zloss", "scalar"]),
    (dict(lse_for_zloss=np.ones(6, np.float16)), TypeError, ["lse_for_zloss", "float32", "float16"]),
    (dict(lse_for_zloss=np.ones(3, np.float32)), ValueError, ["lse_for_zloss", "(6,)", "(3,)"]),
    (dict(out=np.empty((6, 5), np.float16)), TypeError, ["out", "float32", "float16"]),
    (dict(out=np.empty((5, 6), np.float32)), ValueError, ["out", "shape"]),
    (dict(out=np.empty((6, 10), np.float32)[:, ::2]), ValueError, ["out", "contiguous"]),
    (dict(out=[1]), TypeError, ["out", "NumPy array"]),
]


@pytest.mark.parametrize("over,exc,words", BAD, ids=[f"{i}-{next(iter(b[0]))}" for i, b in enumerate(BAD)])
def test_bad_argument(over, exc, words):
    with pytest.raises(exc) as ei:
        ax.cross_entropy_loss_grad(**_kw(**over))
    msg = str(ei.value)
    for w in words:
        assert w in msg, f"{w!r} not in {msg!r}"


def test_none_reduction_needs_vectors():
    kw = make_case(6, 5, "float32", reduction="none")
    kw["grad_loss"] = 1.0
    with pytest.raises(ValueError, match=r"grad_loss: expected an array of shape \(N,\) = \(6,\)"):
        ax.cross_entropy_loss_grad(**kw)
    kw = make_case(6, 5, "float32", reduction="none")
    kw["grad_loss"] = np.ones(5, np.float32)
    with pytest.raises(ValueError, match=r"grad_loss.*\(6,\).*\(5,\)"):
        ax.cross_entropy_loss_grad(**kw)


def test_out_aliasing_an_input():
    big = np.zeros((12, 5), np.float32)
    kw = _kw(log_prob=big[:6])
    with pytest.raises(ValueError, match="out: must not overlap log_prob"):
        ax.cross_entropy_loss_grad(**kw, out=big[1:7])


def test_read_only_out():
    kw = _kw()
    out = np.empty((6, 5), np.float32)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="out: the array is read-only"):
        ax.cross_entropy_loss_grad(**kw, out=out)


def test_zero_classes():
    kw = _kw(log_prob=np.zeros((6, 0), np.float32), weight=None)
    with pytest.raises(ValueError, match=r"log_prob: expected at least one class"):
        ax.cross_entropy_loss_grad(**kw)


def test_mixed_numpy_and_torch(torch):
    kw = _kw(target=torch.zeros(6, dtype=torch.int64))
    with pytest.raises(TypeError, match="target: got a torch tensor, but log_prob is a NumPy array"):
        ax.cross_entropy_loss_grad(**kw)
    kw = _kw()
    kw["log_prob"] = torch.from_numpy(kw["log_prob"])
    with pytest.raises(TypeError, match="target: got a NumPy array, but log_prob is a torch tensor"):
        ax.cross_entropy_loss_grad(**kw)


def test_torch_errors(torch):
    lp = torch.log_softmax(torch.randn(4, 3), -1)
    t = torch.tensor([0, 1, 3, 2])
    with pytest.raises(ValueError, match=r"target\[2\] = 3 is out of range \[0, 3\)"):
        ax.cross_entropy_loss_grad(1.0, lp, t)
    with pytest.raises(ValueError, match="log_prob: expected a C-contiguous"):
        ax.cross_entropy_loss_grad(1.0, lp.t(), torch.tensor([0, 1, 2]))
    with pytest.raises(TypeError, match="log_prob: expected dtype float32, float16 or bfloat16, got float64"):
        ax.cross_entropy_loss_grad(1.0, lp.double(), torch.tensor([0, 1, 2, 2]))
    buf = torch.cat([lp.flatten(), lp.flatten()])
    with pytest.raises(ValueError, match="out: must not overlap log_prob other than being log_prob exactly"):
        ax.cross_entropy_loss_grad(1.0, buf[:12].view(4, 3), torch.tensor([0, 1, 2, 2]), out=buf[1:13].view(4, 3))
    with pytest.raises(ValueError, match="target: target\\[0\\] = 7"):
        ax.cross_entropy(torch.randn(2, 3, requires_grad=True), torch.tensor([7, 0]))
    with pytest.raises(TypeError, match="weight: expected dtype float32"):
        ax.cross_entropy(torch.randn(2, 3), torch.tensor([1, 0]), weight=torch.ones(3, dtype=torch.float64))
    with pytest.raises(ValueError, match=r"target: expected shape \(N, d1, \.\.\.\) = \(2, 4\) to match input"):
        ax.cross_entropy(torch.randn(2, 3, 4), torch.tensor([1, 0]))
    with pytest.raises(ValueError, match="reduction: expected one of 'mean', 'sum', 'none', got 'avg'"):
        ax.cross_entropy(torch.randn(2, 3), torch.tensor([1, 0]), reduction="avg")


@pytest.mark.requires_sim
def test_sim_api_errors():
    with pytest.raises(ValueError, match="ascend910"):  # the message lists / names profiles
        ax.set_soc("no-such-soc")
    with pytest.raises(TypeError, match="name"):
        ax.set_soc(3)
    for bad in (-1, 2**32, 2**63):
        with pytest.raises(ValueError, match=r"^n: expected an int in \[0, 4294967295\], got "):
            ax.set_cores(bad)
        with pytest.raises(ValueError, match=r"^n: expected an int in \[0, 4294967295\], got "):
            ax.set_threads(bad)
    with pytest.raises(TypeError, match="n: expected an int"):
        ax.set_threads(1.5)
    assert ax.current_profile()["name"]


NATIVE = [
    # bypassing the Python checks: what the native layer says, in Python names
    (dict(out="float16"), TypeError, ["out:", "log_prob's dtype", "status 161002"]),
    (dict(target_len=3), ValueError, ["target:", "(4,)", "(3,)", "status 161002"]),
    (dict(reduction="avg"), ValueError, ["reduction:", "avg"]),
    (dict(target_bad=True), ValueError, ["target:", "target[2] = 5", "ignore_index"]),
    (dict(ls=2.0), ValueError, ["label_smoothing:", "[0, 1]"]),
]


@pytest.mark.requires_sim  # host buffers straight into the native layer
@pytest.mark.parametrize("case,exc,words", NATIVE, ids=[next(iter(c[0])) for c in NATIVE])
def test_native_errors_name_the_python_argument(case, exc, words):
    from ascend_xent._native import call, descriptor

    lp = np.zeros((4, 3), np.float32)
    t = np.array([0, 1, 5, 0]) if case.get("target_bad") else np.array([0, 1, 2, 0])
    if "target_len" in case:
        t = t[:3]
    out = np.empty((4, 3), np.float16 if case.get("out") == "float16" else np.float32)
    args = (np.asarray(1.0, np.float32), lp, t, None, None, None, case.get("reduction", "mean"), -100,
            case.get("ls", 0.0), 0.0, out)
    descs = [descriptor(a) if isinstance(a, np.ndarray) else a for a in args]
    with pytest.raises(exc) as ei:
        call(*descs)
    for w in words:
        assert w in str(ei.value), (w, str(ei.value))


@pytest.mark.requires_sim
def test_numbers_too_large_for_a_float_name_the_argument():
    kw = make_case(4, 5, "float32", reduction="mean", zloss="on", seed=0)
    for arg in ("grad_loss", "grad_zloss", "label_smoothing", "lse_square_scale_for_zloss"):
        with pytest.raises(ValueError, match=rf"^{arg}: expected .*, got a number too large for a float "
                                             r"\(about 2\*\*1329\)"):
            ax.cross_entropy_loss_grad(**dict(kw, **{arg: 10**400}))


@pytest.mark.requires_sim
def test_messages_do_not_echo_a_huge_argument():
    kw = make_case(4, 5, "float32", seed=0)
    with pytest.raises(ValueError) as ei:
        ax.cross_entropy_loss_grad(**dict(kw, reduction="x" * (1 << 20)))
    assert str(ei.value).startswith("reduction: expected one of 'mean', 'sum', 'none', got 'xxx")
    assert str((1 << 20) + 2) in str(ei.value) and len(str(ei.value)) < 200
    with pytest.raises(ValueError) as ei:
        ax.set_soc("y" * (1 << 20))
    assert str(ei.value).startswith("name: unknown SoC profile 'yyy") and len(str(ei.value)) < 400
