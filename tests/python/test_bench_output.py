"""ascend-xent bench writes where the user says, by default into a new directory, and
never over an existing file (such as the committed benchmarks/results/)."""

import importlib.util
import json
import pathlib

import pytest

from ascend_xent.cli import build_parser

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _script():
    spec = importlib.util.spec_from_file_location("bench_xent", ROOT / "benchmarks" / "bench_xent.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_default_is_a_new_directory_under_the_current_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    json_path, png_path = _script().output_paths(None, "quick", [".json", ".png"])
    out = pathlib.Path(json_path).parent
    assert out.parent == tmp_path and out.name.startswith("ascend-xent-bench-") and out.is_dir()
    assert pathlib.Path(png_path) == out / "quick.png"


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
