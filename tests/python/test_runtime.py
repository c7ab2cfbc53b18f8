"""Runtime behaviour: environment variables, the GIL, no N x C copies, no torch needed
for NumPy, and the command line."""

import argparse
import os
import re
import subprocess
import sys
import threading
import time
import tracemalloc

import numpy as np
import pytest

import ascend_xent as ax
from conftest import make_case, run_grad


def _py(code, env=None, timeout=600):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=e,
                          timeout=timeout)


@pytest.mark.requires_sim
def test_env_selects_soc_and_cores():
    names = [p["name"] for p in ax.profiles()]
    other = names[-1]
    r = _py("import ascend_xent as ax; p = ax.current_profile(); print(p['name'], p['vector_cores'])",
            env={"ASCEND_XENT_SOC": other, "ASCEND_XENT_CORES": "5"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [other, "5"]


_THREAD_LIMIT_CHILD = """
import resource, sys
import numpy as np
import ascend_xent as ax
rng = np.random.default_rng(0)
N, C = 2048, 3001
x = rng.standard_normal((N, C), dtype=np.float32)
lp = (x - np.log(np.exp(x).sum(1, keepdims=True))).astype(np.float32)
t = rng.integers(0, C, N)
ref = ax.golden.cross_entropy_loss_grad(1.0, lp, t, None, None, None, "mean", -100, 0.0, 0.0)
out = np.empty_like(lp)
ax.set_threads(1)
ax.cross_entropy_loss_grad(1.0, lp, t, out=out)  # everything but the host threads allocated
vm = int([l for l in open("/proc/self/status") if l.startswith("VmSize")][0].split()[1]) * 1024
ax.set_threads(48)
for headroom_mib in (32, 64, 128):
    out[:] = 0
    resource.setrlimit(resource.RLIMIT_AS, (vm + (headroom_mib << 20), resource.RLIM_INFINITY))
    try:
        ax.cross_entropy_loss_grad(1.0, lp, t, out=out)
        err = None
    except Exception as e:
        err = e
    resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    if err is None:
        ok = ax.golden.compare(out, ref)["ok"]
        print("ok" if ok else "WRONG", ax.last_launch_stats()["host_threads"], flush=True)
    else:
        print("error", type(err).__name__, str(err).replace(chr(10), " "), flush=True)
"""


@pytest.mark.requires_sim
def test_host_threads_that_cannot_be_created():
    """An address-space limit leaves room for a few of 48 host threads (8 MiB stacks) and
    little else: the launch runs on the threads that started, with the right result, or
    raises; it never leaves started threads running the blocks of a launch that has
    returned (which crashed the process)."""
    def limits():
        import resource

        resource.setrlimit(resource.RLIMIT_STACK, (8 << 20, 8 << 20))  # the threads' stack size

    r = subprocess.run([sys.executable, "-c", _THREAD_LIMIT_CHILD], capture_output=True, text=True,
                       timeout=300, preexec_fn=limits)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.split("\n")[:-1]
    assert len(lines) == 3, r.stdout
    ran = [int(line.split()[1]) for line in lines if line.startswith("ok ")]
    errors = [line for line in lines if line.startswith("error ")]
    assert len(ran) + len(errors) == 3, r.stdout  # no WRONG result
    assert all("thread" in e or "MemoryError" in e or "bad_alloc" in e for e in errors), errors
    assert ran and min(ran) < 48, r.stdout  # the limit did stop some threads


@pytest.mark.requires_sim
def test_set_soc_none_restores_default():
    before = ax.current_profile()["name"]
    other = [p["name"] for p in ax.profiles() if p["name"] != before]
    if not other:
        pytest.skip("one profile only")
    ax.set_soc(other[0])
    assert ax.current_profile()["name"] == other[0]
    ax.set_soc(None)
    assert ax.current_profile()["name"] == before


@pytest.mark.requires_sim
def test_numpy_path_needs_no_torch():
    code = r"""
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith("torch."):
            raise ImportError("torch is blocked in this test")
sys.meta_path.insert(0, Block())
import numpy as np, ml_dtypes
import ascend_xent as ax
lp = np.log(np.full((4, 8), 1 / 8, dtype=np.float32)).astype(ml_dtypes.bfloat16)
out = ax.cross_entropy_loss_grad(1.0, lp, np.array([0, 1, -100, 7]), reduction="sum")
ref = ax.golden.cross_entropy_loss_grad(1.0, lp, np.array([0, 1, -100, 7]), reduction="sum")
assert out.dtype == lp.dtype and ax.golden.compare(out, ref)["ok"]
assert "torch" not in sys.modules
print("ok")
"""
    r = _py(code)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"


@pytest.mark.requires_sim
def test_gil_is_released_while_the_kernel_runs():
    # One simulator thread, so that a core is left for this (main) Python thread.
    kw = make_case(2048, 8192, "float32", reduction="mean", weight=True, label_smoothing=0.1,
                   zloss="on_gz")
    out = np.empty_like(kw["log_prob"])
    ax.set_threads(1)
    try:
        t0 = time.perf_counter()
        ax.cross_entropy_loss_grad(**kw, out=out)
        launch = ax.last_launch_stats()["wall_seconds"]  # the part that runs without the GIL
        done = threading.Event()

        def work():
            for _ in range(4):
                ax.cross_entropy_loss_grad(**kw, out=out)
            done.set()

        th = threading.Thread(target=work)
        ticks, max_gap = 0, 0.0
        last = time.perf_counter()
        th.start()
        while not done.is_set():
            now = time.perf_counter()
            max_gap = max(max_gap, now - last)
            last = now
            ticks += 1
            time.sleep(0.001)
        th.join()
    finally:
        ax.set_threads(0)
    # Were the GIL held during a launch, this thread would stall for a whole launch
    # (gap >= launch). The margin absorbs scheduler delays of a loaded 2-core host.
    assert ticks > 20, ticks
    assert max_gap < 0.75 * launch, (max_gap, launch)


@pytest.mark.requires_sim
def test_no_n_by_c_copies():
    n, c = 1024, 4096
    kw = make_case(n, c, "float32", reduction="none", weight=True, label_smoothing=0.1, zloss="on_gz")
    out = np.empty_like(kw["log_prob"])
    ax.cross_entropy_loss_grad(**kw, out=out)  # warm up (imports, first-call state)
    tracemalloc.start()
    try:
        ax.cross_entropy_loss_grad(**kw, out=out)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < n * c * 4 / 16, peak  # NumPy-side allocations stay O(N + C)


def test_threads_concurrent_calls_share_inputs(torch):
    # Two Python threads using the same weight/log_prob at once must both succeed.
    from conftest import assert_close_scaled, golden_of

    kw = make_case(500, 3000, "bfloat16", reduction="mean", weight=True, label_smoothing=0.1,
                   zloss="on")
    ref = golden_of(kw)
    results, errors = [], []

    def work():
        try:
            results.append(run_grad(**kw))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    ths = [threading.Thread(target=work) for _ in range(3)]
    for t in ths:
        t.start()
    for t in ths:
        t.join()
    assert not errors, errors
    for r in results:
        assert_close_scaled(r, ref, "bfloat16")


def _cli(*args, timeout=600):
    return subprocess.run([sys.executable, "-m", "ascend_xent", *args], capture_output=True, text=True,
                          timeout=timeout)


@pytest.mark.requires_sim  # lists the simulator's profiles
def test_cli_info():
    r = _cli("info")
    assert r.returncode == 0, r.stderr
    assert ax.__version__ in r.stdout
    for p in ax.profiles():
        assert p["name"] in r.stdout
    r = _cli("info", "--json")
    assert r.returncode == 0, r.stderr
    import json

    info = json.loads(r.stdout)
    assert info["backend"] == "sim" and info["build"]["version"]


@pytest.mark.requires_sim
def test_cli_demo_small():
    r = _cli("demo", "--n", "256", "--c", "3000")
    assert r.returncode == 0, r.stdout + r.stderr
    for word in ("backend", "SoC", "tiling", "blockDim", "prologue", "accuracy", "PASS", "first call",
                 "warm median", "GM traffic", "minimum", "repeats"):
        assert word in r.stdout, word
    # Every figure comes with what it means: a label, the figure, then a colon and words.
    for line in r.stdout.splitlines()[2:]:
        assert ": " in line, line


@pytest.mark.requires_sim
def test_cli_demo_tiny_problem_says_one_thread_and_counts_bytes():
    r = _cli("demo", "--n", "8", "--c", "10")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "1 host thread (a problem this small runs on one)" in r.stdout
    assert re.search(r"GM traffic read \d+ bytes \+ write \d+ bytes", r.stdout), r.stdout
    assert " 0.0 MB" not in r.stdout and " 0.000 s" not in r.stdout


@pytest.mark.requires_sim
@pytest.mark.parametrize("argv,option", [(["demo", "--soc", "bogus"], "--soc"), (["model", "--soc", "bogus"], "--soc"),
                                         (["demo", "--cores", "-1"], "--cores"),
                                         (["demo", "--threads", "-2"], "--threads")])
def test_cli_simulator_options_blame_the_option(argv, option, capsys):
    from ascend_xent.cli import main

    assert main([*argv, "--n", "8", "--c", "10"]) == 1
    err = capsys.readouterr().err
    assert f"error: {option}: " in err, err


def test_cli_demo_and_model_take_the_same_dtypes_with_the_same_default():
    from ascend_xent.cli import build_parser

    p = build_parser()
    for cmd in ("demo", "model"):
        assert p.parse_args([cmd]).dtype == "bf16"
        for spelling in ("bf16", "bfloat16", "fp16", "float16", "fp32", "float32", "BFloat16"):
            p.parse_args([cmd, "--dtype", spelling])


@pytest.mark.requires_sim
def test_cli_model_runs_with_a_long_dtype_name(capsys):
    from ascend_xent.cli import main

    assert main(["model", "--n", "48", "--c", "4096", "--dtype", "bfloat16", "--json"]) == 0
    assert '"dtype": "bf16"' in capsys.readouterr().out


def test_cli_every_option_has_help():
    from ascend_xent.cli import build_parser

    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    for name, p in sub.choices.items():
        for action in p._actions:
            if action.option_strings and action.help != argparse.SUPPRESS:
                assert action.help, (name, action.option_strings)


def test_console_script():
    import shutil
    from pathlib import Path

    script = Path(sys.executable).parent / "ascend-xent"
    if not script.exists():
        script = shutil.which("ascend-xent")
    if not script:
        pytest.skip("ascend-xent is not on this interpreter's PATH")
    r = subprocess.run([str(script), "info"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "ascend-xent" in r.stdout


def test_cli_help_lists_subcommands():
    r = _cli("--help")
    assert r.returncode == 0
    assert "demo" in r.stdout and "info" in r.stdout
    r = _cli()
    assert r.returncode == 2


@pytest.mark.requires_sim
def test_cli_bad_option_is_an_error_not_a_crash():
    r = _cli("demo", "--n", "8", "--c", "4", "--label-smoothing", "2")
    assert r.returncode == 1
    assert "label_smoothing" in r.stderr


def _thp_mode():
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            return f.read().split("[")[1].split("]")[0]
    except (OSError, IndexError):
        return None


@pytest.mark.requires_sim
def test_outputs_the_package_allocates_are_advised_huge_pages(torch):
    from ascend_xent import _C
    # Nothing 2 MiB-aligned inside a small range: nothing to advise.
    small = torch.empty(1024, dtype=torch.float32)
    assert _C.advise_huge_pages(small.data_ptr(), 4096) is False
    big = torch.empty(8 << 20, dtype=torch.uint8)
    advised = _C.advise_huge_pages(big.data_ptr(), big.numel())
    if sys.platform.startswith("linux") and _thp_mode() in ("always", "madvise"):
        assert advised is True
    # The op's own torch output (out=None) goes through the same call; its values are
    # those of the preallocated path.
    kw = make_case(512, 4096, "bfloat16", reduction="mean", weight=False)
    args = {k: (torch.from_numpy(v.view(np.uint16)).view(torch.bfloat16) if isinstance(v, np.ndarray)
                and v.dtype.name == "bfloat16" else torch.from_numpy(v) if isinstance(v, np.ndarray) else v)
            for k, v in kw.items()}
    got = ax.cross_entropy_loss_grad(**args)
    out = torch.empty_like(got)
    ax.cross_entropy_loss_grad(**args, out=out)
    assert torch.equal(got.view(torch.int16), out.view(torch.int16))
