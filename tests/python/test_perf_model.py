"""ascend-xent model: one figure per tiling."""

import pytest

import ascend_xent as ax
from ascend_xent import perf_model


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
