"""ascend-xent model: the kernel's modelled NPU time from the simulator's timing model."""

import json

import numpy as np
import pytest

import ascend_xent as ax
from ascend_xent import perf_model, sim
from ascend_xent.cli import _model_table
from ascend_xent.cli import main as cli_main

PIPES = ("vec", "scalar", "mte2", "mte3")


def test_table_shapes_cover_the_benchmark_families():
    shapes = _model_table.shapes()
    for c in _model_table.CLASSES:
        assert (1, c) in shapes
        assert any(cc == c and abs(n * c - 2 ** 27) <= c for n, cc in shapes)
    assert (131073, 257) in shapes


def test_table_markdown_has_one_row_per_case():
    cell = {"seconds": 2e-6, "hbm_floor_seconds": 1e-6, "roofline_fraction": 0.5}
    rows = [{"n": 2, "c": 3, "dtype": "fp32", "tiling": "1 x 3", "cells": {v[0]: cell for v in _model_table.VARIANTS}}]
    lines = _model_table.markdown(rows).splitlines()
    assert lines[0].count("|") == lines[2].count("|") and lines[2].startswith("| fp32 2 x 3 |")
    assert "2.0 (50%)" in lines[2]


@pytest.mark.requires_sim
def test_timing_is_off_unless_asked():
    sim.set_timing(None)
    ax.cross_entropy_loss_grad(1.0, np.full((4, 64), -4.0, np.float32), np.arange(4))
    assert ax.last_launch_stats()["timing"] is None
    sim.set_timing(True)
    try:
        ax.cross_entropy_loss_grad(1.0, np.full((4, 64), -4.0, np.float32), np.arange(4))
    finally:
        sim.set_timing(None)
    assert ax.last_launch_stats()["timing"]["task_duration_us"] > 0


@pytest.mark.requires_sim
@pytest.mark.parametrize("n,c,dtype", [(64, 40000, "fp32"), (2000, 257, "bf16")])  # column split, row packed
def test_model_case_reports_the_kernels_pipes(n, c, dtype):
    res = perf_model.model_case(n, c, dtype)
    t = res["timing"]
    assert t["kernel"] == "cross_entropy_loss_grad" and t["block_dim"] == res["tiling"]["block_dim"]
    assert len(t["blocks"]) == t["block_dim"]
    slowest = max(b["aiv_time_us"] for b in t["blocks"])
    # Task Duration: the slowest block and the launch; aiv_time: the mean over blocks.
    assert t["task_duration_us"] > slowest >= t["aiv_time_us"] > 0
    # (the record's figures carry 9 significant digits)
    assert t["aiv_time_us"] == pytest.approx(sum(b["aiv_time_us"] for b in t["blocks"]) / len(t["blocks"]), rel=1e-6)
    for p in PIPES:
        assert 0 <= t[f"aiv_{p}_time_us"] <= slowest
        assert t[f"aiv_{p}_ratio"] == pytest.approx(t[f"aiv_{p}_time_us"] / t["aiv_time_us"], rel=1e-5)
    # The kernel streams log_prob in and the gradient out: both pipes busy, most bytes from HBM.
    assert t["aiv_mte2_time_us"] > 0 and t["aiv_mte3_time_us"] > 0 and t["aiv_vec_time_us"] > 0
    assert t["hbm_read_bytes"] >= n * c * perf_model.ELEM_BYTES[dtype]
    # Mean over 2000 rows: the sums launch (its own kernel) runs first; the call's time is both
    # (64 rows: every core of the main kernel sums them itself, one launch).
    timings = ax.last_launch_stats()["timings"]
    assert [x["kernel"] for x in timings] == (["cross_entropy_loss_grad"] if n <= 64 else
                                              ["cross_entropy_loss_grad_sums", "cross_entropy_loss_grad"])
    assert timings[-1] == t
    assert res["launches_us"] == [x["task_duration_us"] for x in timings]
    assert res["seconds"] == pytest.approx(sum(x["task_duration_us"] for x in timings) * 1e-6)
    # Both shapes fit in the L2: the floor is log_prob's read alone, which the model cannot beat.
    assert res["hbm_floor_seconds"] == pytest.approx(n * c * perf_model.ELEM_BYTES[dtype] / perf_model.hbm_bytes_per_second())
    assert 0 < res["roofline_fraction"] < 1


@pytest.mark.requires_sim
def test_more_cores_model_faster():
    big = perf_model.model_case(1024, 32000, "bf16")["seconds"]
    ax.set_cores(8)
    try:
        small = perf_model.model_case(1024, 32000, "bf16")["seconds"]
    finally:
        ax.set_cores(0)
    assert small > 2 * big


@pytest.mark.requires_sim
def test_cli_json_and_report(capsys):
    assert cli_main(["model", "--n", "48", "--c", "4096", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["label"].startswith("MODEL") and res["timing"]["task_duration_us"] > 0
    assert cli_main(["model", "--n", "48", "--c", "4096"]) == 0
    out = capsys.readouterr().out
    assert "Task Duration" in out and "docs/timing_model.md" in out and "mte2" in out


@pytest.mark.requires_sim
@pytest.mark.parametrize("command", ["model", "demo"])
@pytest.mark.parametrize("size", [["--n", str(10**12)], ["--c", str(2**40)]])
def test_cli_case_too_large_for_memory_is_an_error(command, size, capsys):
    assert cli_main([command, *size]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"ascend-xent {command}: error: the case does not fit in this host's memory (--n x --c)")
    assert "Traceback" not in err


@pytest.mark.requires_sim
def test_timing_params_are_the_simulators():
    p = sim.timing_params("ascend910b")
    assert p["clock_hz"] == 1.85e9 and p["l2_bytes"] == 201326592 and p["l2_line_bytes"] == 128
    with pytest.raises(TypeError, match="soc"):
        sim.timing_params(3)
    with pytest.raises(ValueError, match="^soc: unknown SoC profile 'ascend910'; expected one of .*ascend910b"):
        sim.timing_params("ascend910")


@pytest.mark.requires_sim
@pytest.mark.parametrize("n,reduction,launches", [(2000, "mean", 2), (64, "mean", 1), (2000, "sum", 1)])
def test_launch_wide_sums_run_as_their_own_launch(n, reduction, launches):
    # No core of the backward waits for another: sums over more than one chunk of rows are
    # a launch queued before the main kernel, not a SyncAll inside it.
    res = perf_model.model_case(n, 257, "fp32", reduction=reduction)
    stats = ax.last_launch_stats()
    assert stats["launches"] == launches and bool(stats["prologue"]) == (launches == 2)
    assert len(res["launches_us"]) == launches and all(x > 0 for x in res["launches_us"])
    # The call's GM traffic counts every launch: the sums launch reads each target once.
    main_reads = sum(pb["gm_read_bytes"] for pb in stats["per_block"])
    assert stats["gm_read_bytes"] - main_reads >= (n * 8 if launches == 2 else 0)
    # + the tiling, which each of its blocks (at most 48) reads once: under 512 bytes
    assert stats["gm_read_bytes"] - main_reads <= (n * 8 + 48 * 512 if launches == 2 else 0)
