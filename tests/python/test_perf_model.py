"""ascend-xent model: one figure per tiling, sourced figures, sensitivity, the table."""

import json

import pytest

import ascend_xent as ax
from ascend_xent import perf_model
from ascend_xent.cli import _model_table
from ascend_xent.cli import main as cli_main

PROFILE = {"name": "test", "hbm_bytes_per_sec": 1.6e12, "clock_hz": 1.8e9, "vector_bytes_per_cycle": 256.0,
           "vector_cores": 48}


def _stats(by_op, blocks=48, dma=100, prologue=0):
    block = {"gm_read_bytes": 1 << 20, "gm_write_bytes": 1 << 20, "dma_in": dma, "dma_out": dma,
             "vector_instructions": 10, "vector_repeats": sum(by_op.values()), "vector_repeats_by_op": by_op,
             "scalar_ub_reads": 5, "scalar_ub_writes": 5, "scalar_gm_reads": 1}
    return {"per_block": [block] * blocks, "prologue": prologue, "min_traffic_bytes": blocks << 21}


def test_every_figure_is_sourced_or_labelled_an_assumption():
    for name, (value, kind, source) in perf_model.FIGURES.items():
        assert kind in ("source", "derived", "assumption"), name
        assert value > 0 and source.strip(), name


def test_vector_time_uses_each_ops_published_rate():
    # Exp on float runs 32 elements per cycle, Muls 64: the same repeats take twice as long.
    exp = perf_model.estimate(_stats({"Exp": 10000}), PROFILE)["slowest_block"]["vector_s"]
    muls = perf_model.estimate(_stats({"Muls": 10000}), PROFILE)["slowest_block"]["vector_s"]
    start = 10 * perf_model.COSTS["VEC_START_CYCLES"] / PROFILE["clock_hz"]
    assert exp - start == pytest.approx(2 * (muls - start))


def test_sensitivity_halves_and_doubles_every_unpublished_figure():
    stats = _stats({"Muls": 1000}, prologue=1)
    sens = perf_model.sensitivity(stats, PROFILE)
    unpublished = {k for k, v in perf_model.FIGURES.items() if v[1] != "source"}
    assert set(sens) == unpublished
    base = perf_model.estimate(stats, PROFILE)["seconds"]
    for name in ("DMA_START_CYCLES", "LAUNCH_US", "SYNCALL_US"):  # costs: more is slower
        assert sens[name]["half"]["seconds"] < base < sens[name]["double"]["seconds"], name
    assert sens["clock_hz"]["half"]["seconds"] > base > sens["clock_hz"]["double"]["seconds"]


def test_table_shapes_cover_the_benchmark_families():
    shapes = _model_table.shapes()
    for c in _model_table.CLASSES:
        assert (1, c) in shapes
        assert any(cc == c and abs(n * c - 2 ** 27) <= c for n, cc in shapes)
    assert (131073, 257) in shapes


def test_table_markdown_has_one_row_per_case():
    m = perf_model.estimate(_stats({"Muls": 1000}), PROFILE)
    rows = [{"n": 2, "c": 3, "dtype": "fp32", "tiling": "1 x 3", "cells": {v[0]: m for v in _model_table.VARIANTS}}]
    lines = _model_table.markdown(rows).splitlines()
    assert lines[0].count("|") == lines[2].count("|") and lines[2].startswith("| fp32 2 x 3 |")


@pytest.mark.requires_sim  # runs the case on the simulator for its counters
@pytest.mark.parametrize("n,c", [(64, 40000), (2000, 257)])  # column split, row packed
def test_each_tiling_has_one_figure(n, c):
    res = perf_model.model_case(n, c, "fp32")
    t = res["tiling"]
    chosen = perf_model.analytic(n, c, "fp32", t["tile_rows"], t["tile_cols"],
                                 ax.current_profile()["vector_cores"])
    # The analytic model, scaled, gives the chosen tiling the counters' figure ...
    assert chosen["seconds"] * res["analytic_calibration"] == pytest.approx(res["model"]["seconds"])
    # ... and the chosen tiling is reported once per buffering, with the counters' figures.
    single = res["what_if"]["chosen, single-buffered"]
    assert single["seconds"] == res["model_single_buffer"]["seconds"]
    tile = f"{t['tile_rows']}x{t['tile_cols']}"
    assert [k for k, v in res["what_if"].items() if v["tile"] == tile] == ["chosen, single-buffered"]


@pytest.mark.requires_sim
def test_cli_json_reports_sensitivity_and_sources(capsys):
    assert cli_main(["model", "--n", "48", "--c", "4096", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert set(res["sensitivity"]) == {k for k, v in perf_model.FIGURES.items() if v[1] != "source"}
    assert all(f["source"] for f in res["figures"].values())
