"""Every code block of README.md does what it says.

* python: run as written (a fresh namespace per block).
* cpp: is, byte for byte, examples/cross_entropy_loss_grad.cpp, which ctest builds and
  runs; when a build tree has it (BUILD_DIR, default build/, as scripts/run_tests.sh
  leaves it), it is also run here and its output compared with the float64 golden.
* cmake: names the package and target the install exports.
* bash: each command is checked without reinstalling anything: venv and pip arguments
  against pyproject.toml, scripts exist and parse (bash -n), cmake targets exist, and
  the ascend-xent commands run (the demo as written, the benchmark on one small case).
* text: the demo's output shown there is what `ascend-xent demo` prints today: the same
  lines, the same figures where they do not depend on the host (times and the host thread
  count are checked by their form).
"""

import functools
import importlib.util
import os
import pathlib
import re
import shlex
import subprocess
import sys
import tempfile

import numpy as np
import pytest

import ascend_xent as ax

ROOT = pathlib.Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
BLOCKS = [(m.group(1), m.group(2)) for m in re.finditer(r"^```(\w*)\n(.*?)^```", README, re.M | re.S)]
EXAMPLE = "cross_entropy_loss_grad"
SMALL_DEMO = ["--n", "256", "--c", "3000"]


def _blocks(lang):
    return [code for tag, code in BLOCKS if tag == lang]


def test_every_block_is_tagged_with_a_language_this_file_checks():
    assert BLOCKS
    assert {tag for tag, _ in BLOCKS} <= {"python", "cpp", "cmake", "bash", "text"}


@pytest.mark.requires_sim  # NumPy data runs on the simulator
@pytest.mark.parametrize("code", _blocks("python"), ids=lambda c: c.split("\n")[0])
def test_python_block_runs(code):
    if re.search(r"^import torch\b", code, re.M):
        pytest.importorskip("torch")
    ns = {"__name__": "__readme__"}
    exec(compile(code, "README.md", "exec"), ns)
    if "res" in ns:  # the NumPy block's comparison with the golden
        assert ns["res"]["ok"], ns["res"]


def test_cpp_block_is_the_example_ctest_runs():
    (code,) = _blocks("cpp")
    assert code == (ROOT / "examples" / f"{EXAMPLE}.cpp").read_text()
    assert f"xent_example({EXAMPLE}\n" in (ROOT / "examples" / "CMakeLists.txt").read_text()


def _example_inputs():
    """The C++ example's inputs, as it computes them."""
    n, c = 4, 5
    x = np.array([[0.5 * (i + 1) * j for j in range(c)] for i in range(n)])
    lse = np.log(np.exp(x).sum(axis=1))
    log_prob = (x - lse[:, None]).astype(np.float32)
    return (1.0, log_prob, np.array([1, -100, 4, 0]), np.array([1, 2, 0.5, 1, 1.5], np.float32), None,
            lse.astype(np.float32), "mean", -100, 0.1, 1e-4)


def test_cpp_example_prints_the_golden():
    exe = ROOT / os.environ.get("BUILD_DIR", "build") / "examples" / EXAMPLE
    if not exe.exists():
        pytest.skip(f"{exe} is not built (scripts/run_tests.sh builds it; ctest runs it against the same values)")
    r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    got = [float(v) for v in re.findall(r"result\[\d+\] is: (\S+)", r.stdout)]
    np.testing.assert_allclose(got, ax.golden.cross_entropy_loss_grad(*_example_inputs()).ravel(), atol=2e-6)


def test_cmake_block_names_what_the_install_exports():
    (code,) = _blocks("cmake")
    exported = (ROOT / "op_host" / "cmake" / "xent_targets.cmake").read_text()
    assert "find_package(ascend_xent CONFIG" in code and "ascend_xent::ascend_xent" in code
    assert "install(EXPORT ascend_xentTargets NAMESPACE ascend_xent::" in exported
    assert "ascend_xentConfig.cmake" in exported


# ----------------------------------------------------------------------------------------
# bash: one checker per program the README's commands use
# ----------------------------------------------------------------------------------------
def _pyproject_section(name):
    text = (ROOT / "pyproject.toml").read_text()
    m = re.search(rf"^\[{re.escape(name)}\]\n(.*?)(?=^\[|\Z)", text, re.M | re.S)
    return m.group(1) if m else ""


def _cli(*args):
    r = subprocess.run([sys.executable, "-m", "ascend_xent", *args], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def _check_venv(argv):
    assert argv[1:3] == ["-m", "venv"] and len(argv) == 4, argv


def _check_pip(argv):
    assert argv[1] == "install" and len(argv) == 3, argv
    m = re.fullmatch(r"\.(?:\[(\w+)\])?", argv[2])
    assert m, f"installs {argv[2]!r}, not this source tree"
    if m.group(1):
        assert re.search(rf"^{m.group(1)} = \[", _pyproject_section("project.optional-dependencies"), re.M)


def _check_ascend_xent(argv):
    assert 'ascend-xent = "ascend_xent.cli:main"' in _pyproject_section("project.scripts")
    args = argv[1:]
    from ascend_xent.cli import build_parser

    build_parser().parse_args(args)  # the subcommand and its options exist
    if args == ["demo"]:
        assert "PASS" in _demo_output()
    elif args[:1] == ["demo"]:
        assert "PASS" in _cli(*args, *SMALL_DEMO)
    elif args[:1] == ["info"]:
        _cli(*args)
    elif args[:1] == ["bench"]:  # one small case of the same run
        pytest.importorskip("torch")
        with tempfile.TemporaryDirectory() as out:
            text = _cli(*args, "--only", "fp32 1x32000", "--no-rss", "--out-dir", out)
            assert "fp32 1x32000" in text and "Columns:" in text, text
            written = sorted(os.listdir(out))
            plotted = importlib.util.find_spec("matplotlib") is not None
            assert written == (["quick.json", "quick.png"] if plotted else ["quick.json"]), written
    else:
        pytest.fail(f"no cheap way to run ascend-xent {' '.join(args)}: add one here")


def _check_bash(argv):
    script = ROOT / argv[1]
    assert script.is_file(), script
    subprocess.run(["bash", "-n", str(script)], check=True)


def _check_cmake(argv):
    if "--target" in argv:
        target = argv[argv.index("--target") + 1]
        assert f"xent_example({target}\n" in (ROOT / "examples" / "CMakeLists.txt").read_text()
    else:
        assert argv[1:] == ["-S", ".", "-B", "build"], argv
        assert (ROOT / "CMakeLists.txt").is_file()


def _check_built_example(argv):
    # Runs in test_cpp_example_prints_the_golden when built; here: it is the README's example.
    assert argv == [f"./build/examples/{EXAMPLE}"], argv


CHECKERS = {"python3": _check_venv, "pip": _check_pip, "ascend-xent": _check_ascend_xent,
            "bash": _check_bash, "cmake": _check_cmake, EXAMPLE: _check_built_example}


def _commands():
    for code in _blocks("bash"):
        for line in code.splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                for command in line.split("&&"):
                    argv = shlex.split(command)
                    while argv and re.fullmatch(r"[A-Z_]+=\S*", argv[0]):  # VAR=value prefixes
                        argv = argv[1:]
                    yield argv


@pytest.mark.requires_sim  # runs the demo
@pytest.mark.parametrize("argv", list(_commands()), ids=lambda a: " ".join(a)[:60])
def test_bash_command(argv):
    program = pathlib.PurePosixPath(argv[0]).name
    assert program in CHECKERS, f"README runs {argv[0]}, which this test does not know how to check"
    CHECKERS[program](argv)


@functools.lru_cache(maxsize=None)
def _demo_output():
    """`ascend-xent demo` as the README runs it (the full default case, about 15 s), once."""
    return _cli("demo")


# What may differ from run to run or host to host, and the form it must have.
_VARIABLE = re.compile(r"(\d+\.\d+ m?s\b|\d\.\d{3}e[-+]\d+|\d+ host threads?)")
_FORMS = ((r"host", r"\d+ host threads?"), (r"e[-+]", r"\d\.\d{3}e[-+]\d+"), (r"m?s\b", r"\d+\.\d+ m?s\b"))


def _line_pattern(line):
    """The shown line as a regex: literal, except for its times, the host thread count and
    the accuracy figures (which depend on the host's NumPy), each matched by its form."""
    parts = _VARIABLE.split(line)
    for i in range(1, len(parts), 2):
        parts[i] = next(form for key, form in _FORMS if re.search(key, parts[i]))
    for i in range(0, len(parts), 2):
        parts[i] = re.escape(parts[i])
    return "".join(parts)


@pytest.mark.requires_sim
def test_demo_output_shown_is_what_the_demo_prints():
    (shown,) = [code for code in _blocks("text") if re.match(r"ascend-xent \S+ demo:", code)]
    shown, printed = shown.splitlines(), _demo_output().splitlines()
    assert [line[:13] for line in shown] == [line[:13] for line in printed]  # the same lines, in order
    for want, got in zip(shown, printed):
        assert re.fullmatch(_line_pattern(want), got), f"README shows\n  {want}\nthe demo prints\n  {got}"
    stable = [line for line in shown if not _VARIABLE.search(line)]
    assert len(stable) >= 8  # header, SoC, tiling, blockDim, prologue, UB peak, GM traffic, vector: exact
