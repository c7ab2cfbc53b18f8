"""Arrays whose memory does not hold their values as the kernel reads them: NumPy arrays in
non-native byte order, unaligned NumPy buffers, torch negated views (torch._neg_view),
sparse and mkldnn tensors. The kernel reads raw memory, so each is refused with an error
naming the argument and out is left unwritten; the same data in a plain array runs."""

import warnings

import numpy as np
import pytest

import ascend_xent as ax
from conftest import golden_of, make_case

N, C = 6, 5
ARRAYS = ("log_prob", "target", "weight", "grad_loss", "grad_zloss", "lse_for_zloss")


def _kw(reduction="none"):
    return make_case(N, C, "float32", reduction=reduction, weight=True, zloss="on_gz", seed=3)


@pytest.mark.requires_sim
@pytest.mark.parametrize("arg", ARRAYS + ("out",))
def test_numpy_non_native_byte_order_is_refused(arg):
    kw = _kw()
    out = np.full((N, C), 7.0, np.float32)
    swapped = lambda a: a.astype(a.dtype.newbyteorder("S"))  # same values, bytes swapped  # noqa: E731
    if arg == "out":
        out = swapped(out)
    else:
        kw[arg] = swapped(kw[arg])
        assert np.array_equal(kw[arg], _kw()[arg])  # NumPy still sees the same values
    with pytest.raises(TypeError, match=rf"^{arg}: expected native byte order, got dtype '[<>]"):
        ax.cross_entropy_loss_grad(**kw, out=out)
    assert (out == 7.0).all()


@pytest.mark.requires_sim
def test_numpy_native_byte_order_spelled_explicitly_runs():
    kw = _kw()
    for arg in ARRAYS:
        kw[arg] = kw[arg].astype(kw[arg].dtype.newbyteorder("="))
    np.testing.assert_allclose(ax.cross_entropy_loss_grad(**kw), golden_of(_kw()), rtol=1e-5, atol=1e-6)


def _unaligned(a):
    """A copy of ``a`` at an address one byte past its dtype's alignment."""
    raw = np.zeros(a.nbytes + 1, np.uint8)
    b = np.frombuffer(raw.data, dtype=a.dtype, count=a.size, offset=1).reshape(a.shape)
    b[...] = a
    assert not b.flags.aligned
    return b


@pytest.mark.requires_sim
@pytest.mark.parametrize("bad_value", [None, 7, -3])
def test_numpy_unaligned_int64_target(bad_value):
    """The target range check reads the targets before the aclnn checks refuse the alignment:
    that read must be defined (UBSan's build checks it), and either error names target."""
    kw = _kw()
    if bad_value is not None:
        kw["target"][2] = bad_value
    kw["target"] = _unaligned(kw["target"])
    out = np.full((N, C), 7.0, np.float32)
    with pytest.raises(ValueError, match="^target: ") as ei:
        ax.cross_entropy_loss_grad(**kw, out=out)
    if bad_value is not None:
        assert f"target[2] = {bad_value} is out of range" in str(ei.value)
    else:
        assert "not aligned" in str(ei.value)
    assert (out == 7.0).all()


@pytest.mark.parametrize("arg", ARRAYS)
def test_torch_negated_views_are_refused(torch, arg):
    kw = {k: (torch.from_numpy(v) if isinstance(v, np.ndarray) else v) for k, v in _kw().items()}
    kw[arg] = torch._neg_view(-kw[arg])  # reads as the original values, stores their negation
    assert kw[arg].is_neg()
    out = torch.full((N, C), 7.0)
    with pytest.raises(TypeError, match=rf"^{arg}: a negated view \(torch._neg_view\)"):
        ax.cross_entropy_loss_grad(**kw, out=out)
    assert bool((out == 7.0).all())
    kw[arg] = kw[arg].resolve_neg()
    want = torch.from_numpy(golden_of(_kw())).float()
    torch.testing.assert_close(ax.cross_entropy_loss_grad(**kw), want, rtol=1e-5, atol=1e-6)


def _non_dense(torch, t):
    """``t`` as every non-strided layout that can hold it."""
    yield t.to_sparse()
    if t.dim() == 2:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # "Sparse CSR tensor support is in beta state"
            yield t.to_sparse_csr()
    if torch.backends.mkldnn.is_available() and t.dtype == torch.float32:
        yield t.to_mkldnn()


@pytest.mark.parametrize("arg", ("log_prob", "target", "weight", "lse_for_zloss"))
def test_torch_sparse_and_mkldnn_tensors_are_refused(torch, arg):
    kw = {k: (torch.from_numpy(v) if isinstance(v, np.ndarray) else v) for k, v in _kw().items()}
    for other in _non_dense(torch, kw[arg]):
        with pytest.raises(TypeError, match=rf"^{arg}: expected a dense \(strided\) tensor, got layout"):
            ax.cross_entropy_loss_grad(**dict(kw, **{arg: other}))


def test_torch_forward_refuses_sparse_and_mkldnn_tensors(torch):
    x, t, w = torch.randn(4, 3), torch.tensor([0, 2, 1, 0]), torch.rand(3)
    for name, k in (("input", 0), ("target", 1), ("weight", 2)):
        for other in _non_dense(torch, (x, t, w)[k]):
            args = [x, t, w]
            args[k] = other
            with pytest.raises(TypeError, match=rf"^{name}: expected a dense \(strided\) tensor"):
                ax.cross_entropy(*args)
