"""ascend-xent bench writes where the user says, by default into a new directory under the
user's cache directory (outside any source tree), and never over an existing file (such as
the committed benchmarks/results/); what it prints explains itself."""

import importlib.util
import io
import json
import pathlib
import re
import shutil

import pytest

from ascend_xent.cli import build_parser

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _script():
    spec = importlib.util.spec_from_file_location("bench_xent", ROOT / "benchmarks" / "bench_xent.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_default_is_a_new_directory_under_the_users_cache(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # run from the checkout: nothing may land in it
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    json_path, png_path = _script().output_paths(None, "quick", [".json", ".png"])
    out = pathlib.Path(json_path).parent
    assert out.parent == tmp_path / "cache" / "ascend-xent" / "bench" and re.fullmatch(r"\d{8}-\d{6}", out.name)
    assert out.is_dir() and pathlib.Path(png_path) == out / "quick.png"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert pathlib.Path(_script().default_out_dir()).parent == tmp_path / "home" / ".cache" / "ascend-xent" / "bench"


def test_help_says_where_results_go_and_how_many_cases_each_kind_runs(capsys):
    script = _script()
    with pytest.raises(SystemExit):
        build_parser().parse_args(["bench", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "~/.cache/ascend-xent/bench" in text and '.[bench]' in text
    for kind, option in (("quick", "--quick"), ("headline", "--headline")):
        n = len(script.build_cases(kind))
        assert re.search(rf"{option}\s.*?\b{n} cases", text), (kind, n)
    assert f"all {len(script.build_cases('full'))} cases" in text
    assert len(script.build_cases("quick")) == 4 + 9  # the help's "4096 x 32000 ... and nine other"


def test_progress_counts_one_kind_of_step_and_has_no_estimate_before_the_first(monkeypatch):
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    prog = _script().Progress(13, "cases")
    prog.show("starting")
    prog.step("fp32 4096x32000")
    first, second = err.getvalue().splitlines()
    assert "0/13 cases" in first and "eta    ?" in first and "nan" not in first
    assert "1/13 cases" in second and re.search(r"eta +\d+s", second)


def _result(script, name, **kw):
    case = next(c for c in script.build_cases("full") if c["name"] == name)
    times = {"ours_alloc": 0.01, "ours_fresh": 0.02, "torch_backward": 0.05, "torch_backward_thp": 0.03,
             "ours": 0.009, "ours_gap": 0.01, "torch_backward_gap": 0.04, "exp": 0.005, "exp_alloc": 0.008,
             "copy": 0.004}
    r = dict(case, median_s=times, ratios={"torch/ours_alloc": 5.0, "torch_thp/ours_alloc": 3.0,
                                           "torch/ours_fresh": 2.5, "torch/ours": 5.5, "torch_gap/ours_gap": 4.0,
                                           "ours/exp": 1.8, "ours_alloc/exp_alloc": 1.25},
             ours_gbps=20.0, copy_gbps=40.0, traffic_ratio=1.0001, traffic_ratio_incl_unavoidable=1.0)
    r.update(kw)
    return r


def test_the_table_has_a_legend_for_every_column_and_grades_nothing():
    script = _script()
    out = io.StringIO()
    script.print_table([_result(script, "fp32 4096x32000", rss={"extra_mib": 11.2}),
                        _result(script, "bf16 4096x32000 w+ls0.1")], file=out)
    text = out.getvalue()
    header = text.splitlines()[0].split()
    legend = {line[2:12].strip() for line in text.splitlines() if line.startswith("  ")}
    headings = [h for h, *_ in script._COLUMNS]
    assert " ".join(header) == "case " + " ".join(headings)
    assert set(headings) <= legend, set(headings) - legend
    assert not re.search(r"MISSED|\bok\b|>=|<=", text)


def test_existing_files_are_never_overwritten():
    results = ROOT / "benchmarks" / "results"
    with pytest.raises(ValueError, match=r"quick.json and .*quick.png exist already"):
        _script().output_paths(str(results), "quick", [".json", ".png"])


def test_cli_takes_the_scripts_options():
    args = build_parser().parse_args(["bench", "--quick", "--out-dir", "somewhere"])
    assert args.quick and args.out_dir == "somewhere"


def test_outside_a_checkout_the_cli_says_where_the_script_is_missing(tmp_path, monkeypatch, capsys):
    # An installed package without its source tree: the script's options still parse,
    # and the error names the missing script instead of rejecting them.
    from ascend_xent.cli import bench, main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(bench, "_script", lambda: None)
    assert main(["bench", "--headline", "--no-rss"]) == 1
    assert "benchmarks/bench_xent.py not found" in capsys.readouterr().err


def test_the_script_is_found_through_a_symlinked_package_directory(tmp_path, monkeypatch):
    # site-packages/ascend_xent -> <checkout>/python/ascend_xent: the script lies above
    # the link's target, not above the link.
    from ascend_xent.cli import bench

    checkout = tmp_path / "checkout"
    (checkout / "python" / "ascend_xent" / "cli").mkdir(parents=True)
    (checkout / "benchmarks").mkdir()
    (checkout / "benchmarks" / "bench_xent.py").write_text("")
    site = tmp_path / "site"
    site.mkdir()
    (site / "ascend_xent").symlink_to(checkout / "python" / "ascend_xent", target_is_directory=True)
    monkeypatch.delenv("ASCEND_XENT_BENCH_SCRIPT", raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(bench, "__file__", str(site / "ascend_xent" / "cli" / "bench.py"))
    assert bench._script() == str(checkout / "benchmarks" / "bench_xent.py")


def test_replot_draws_beside_its_json(tmp_path):
    pytest.importorskip("matplotlib")
    results = tmp_path / "results"
    results.mkdir()
    shutil.copy(ROOT / "benchmarks/results/quick.json", results / "mine.json")
    for _ in range(2):  # the second replaces the first one's plot
        args = build_parser().parse_args(["bench", "--replot", str(results / "mine.json")])
        assert args._run(args) == 0
        assert sorted(p.name for p in results.iterdir()) == ["mine.json", "mine.png"]
    assert (results / "mine.png").stat().st_size > 10_000


def test_without_matplotlib_the_message_names_the_extra(tmp_path, monkeypatch, capsys):
    import builtins

    plot = _script()._sibling("bench_plot")
    real_import = builtins.__import__

    def no_matplotlib(name, *a, **kw):
        if name.split(".")[0] == "matplotlib":
            raise ImportError(name)
        return real_import(name, *a, **kw)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    assert plot.plot([], str(tmp_path / "x.png")) is None
    assert '.[bench]' in capsys.readouterr().err


def test_replot_draws_every_case_into_the_chosen_directory(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "plots"
    args = build_parser().parse_args(["bench", "--replot", str(ROOT / "benchmarks/results/quick.json"),
                                      "--out-dir", str(out)])
    assert args._run(args) == 0
    assert (out / "quick.png").stat().st_size > 10_000
    assert json.loads((ROOT / "benchmarks/results/quick.json").read_text())["cases"]


def test_headline_cases_are_full_cases_and_cover_the_table():
    script = _script()
    full = {c["name"] for c in script.build_cases("full")}
    headline = [c["name"] for c in script.build_cases("headline")]
    assert sorted(headline) == sorted(script.HEADLINE) and set(headline) <= full
    args = build_parser().parse_args(["bench", "--headline"])
    assert args.headline and not args.quick
    with pytest.raises(SystemExit):
        build_parser().parse_args(["bench", "--headline", "--quick"])


def test_the_thp_worker_times_a_backward_with_the_setting_in_its_environment():
    pytest.importorskip("torch")
    spec = importlib.util.spec_from_file_location("bench_torch_worker", ROOT / "benchmarks" / "bench_torch_worker.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    worker = mod.Worker(_script().THP_ENV)
    try:
        case = _script()._case(4, 16, "fp32", 0.1, weight=True)
        assert worker.start_case(case)["ready"]
        assert worker.rep() > 0
        assert worker.start_case(_script()._case(4, 16, "fp32"))["ready"]
        assert worker.rep() > 0
    finally:
        worker.close()
    assert worker.proc.returncode == 0


def test_the_plot_sets_cases_at_nearly_the_same_size_side_by_side():
    import math

    plot = _script()._sibling("bench_plot")
    cases = {c["name"]: c for c in _script().build_cases("full")}
    panel = [cases[n] for n in ("bf16 4096x32000", "bf16 4096x32000 w+ls0.1", "bf16 4096x32000 z",
                                "bf16 1024x151936", "bf16 64x32000")]
    shift = plot._dodge(panel)
    at = {name: math.log10(cases[name]["n"] * cases[name]["c"] * f) for name, f in shift.items()}
    crowded = sorted(at[n] for n in at if n != "bf16 64x32000")
    gaps = [b - a for a, b in zip(crowded, crowded[1:])]
    assert min(gaps) == pytest.approx(plot.DODGE)  # four cases within 0.08 decades, now apart
    assert shift["bf16 64x32000"] == 1.0  # alone at its size: where it is
