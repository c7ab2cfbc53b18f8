"""Outputs the package allocates itself (no out=): a freed large output is reused by the
next call of its size, never while anything still refers to it, and the values are
those of a fresh buffer."""

import numpy as np
import pytest

import ascend_xent
from ascend_xent import _output_cache, golden

from conftest import make_case

pytestmark = pytest.mark.requires_sim

N, C = 64, 32768  # fp32: 8 MiB, above the cache's 4 MiB threshold


def _grad(kw):
    return ascend_xent.cross_entropy_loss_grad(**kw)


def _case(dtype="float32", seed=0):
    return make_case(N, C, dtype, label_smoothing=0.1, seed=seed)


def _check(got, kw):
    ref = golden.cross_entropy_loss_grad(**kw)
    res = golden.compare(got, ref)
    assert res["ok"], res


@pytest.fixture(autouse=True)
def _empty_cache(monkeypatch):
    monkeypatch.delenv("ASCEND_XENT_OUTPUT_CACHE_MB", raising=False)
    _output_cache.release()
    yield
    _output_cache.release()


def test_a_freed_output_is_reused_and_holds_the_new_values():
    kw0, kw1 = _case(seed=0), _case(seed=1)
    g = _grad(kw0)
    addr = g.ctypes.data
    _check(g, kw0)
    del g
    g = _grad(kw1)
    assert g.ctypes.data == addr
    _check(g, kw1)


def test_a_surviving_view_keeps_its_bytes_out_of_reuse():
    kw0, kw1 = _case(seed=0), _case(seed=1)
    g = _grad(kw0)
    row = g[3]  # a view: the output's buffer is still in use
    kept = row.copy()
    addr = g.ctypes.data
    del g
    g = _grad(kw1)
    assert g.ctypes.data != addr
    np.testing.assert_array_equal(row, kept)
    _check(g, kw1)


def test_switched_off_every_output_is_fresh(monkeypatch):
    monkeypatch.setenv("ASCEND_XENT_OUTPUT_CACHE_MB", "0")
    kw = _case()
    outs = [_grad(kw) for _ in range(2)]
    del outs[0]
    g = _grad(kw)
    assert not _output_cache._free
    _check(g, kw)


def test_a_bad_cap_names_the_variable(monkeypatch):
    monkeypatch.setenv("ASCEND_XENT_OUTPUT_CACHE_MB", "lots")
    with pytest.raises(ValueError, match="ASCEND_XENT_OUTPUT_CACHE_MB"):
        _grad(_case())


def test_at_most_two_unused_buffers_are_kept():
    kw = _case()
    outs = [_grad(kw) for _ in range(4)]
    del outs[:]
    assert len(_output_cache._free) == 2
    _output_cache.release()
    assert not _output_cache._free


def test_torch_outputs_are_reused_only_once_every_view_is_gone(torch):
    kw0, kw1 = _case("bfloat16", seed=0), _case("bfloat16", seed=1)

    def as_torch(kw):
        return {k: torch.from_numpy(v.view(np.uint16)).view(torch.bfloat16)
                if isinstance(v, np.ndarray) and v.dtype.name == "bfloat16"
                else torch.from_numpy(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}

    t0, t1 = as_torch(kw0), as_torch(kw1)
    g = ascend_xent.cross_entropy_loss_grad(**t0)
    assert g.dtype == torch.bfloat16 and g.shape == (N, C) and g.is_contiguous()
    addr = g.data_ptr()
    view = g[:, 5]
    kept = view.clone()
    del g
    g = ascend_xent.cross_entropy_loss_grad(**t1)
    assert g.data_ptr() != addr
    assert torch.equal(view, kept)
    del g
    del view  # the first buffer is free now, and the most recently freed
    g = ascend_xent.cross_entropy_loss_grad(**t0)
    assert g.data_ptr() == addr
    _check(g, kw0)


def test_a_shards_output_comes_from_the_cache_too(torch):
    from ascend_xent.parallel import cross_entropy_loss_grad_shard

    kw = _case(seed=2)
    full = golden.cross_entropy_loss_grad(**kw)
    shard = C // 2  # columns [C/2, C) of the whole problem, 4 MiB of fp32
    lp = torch.from_numpy(np.ascontiguousarray(kw["log_prob"][:, shard:]))
    args = dict(grad_loss=torch.from_numpy(kw["grad_loss"]), log_prob=lp, target=torch.from_numpy(kw["target"]),
                weight=torch.from_numpy(kw["weight"]), reduction=kw["reduction"], ignore_index=kw["ignore_index"],
                label_smoothing=kw["label_smoothing"], class_offset=shard, class_count=C)
    g = cross_entropy_loss_grad_shard(**args)
    addr = g.data_ptr()
    del g
    g = cross_entropy_loss_grad_shard(**args)
    assert g.data_ptr() == addr
    assert golden.compare(g.numpy(), full[:, shard:])["ok"]
