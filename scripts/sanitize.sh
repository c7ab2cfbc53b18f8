#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer run:
#   1. configures a separate build tree with -DASCEND_XENT_SANITIZE=ON (simulator, host
#      code, kernel, tests and the Python extension all instrumented) and runs ctest;
#   2. runs a slice of the Python tests against the instrumented extension, with
#      libasan/libubsan preloaded into the interpreter (CPython itself is not
#      instrumented; detect_leaks=0 because CPython leaks by design).
# Any sanitizer report fails the run (halt_on_error, -fno-sanitize-recover=undefined).
#
# Environment: PY (interpreter with numpy, ml_dtypes, pytest, hypothesis, torch and
# pybind11; default .venv/bin/python, else python3), SAN_BUILD_DIR (default
# build-sanitize/), JOBS, SAN_SKIP_CPP=1 / SAN_SKIP_PY=1, SAN_PYTEST (the pytest
# selection, default: the slice below), SAN_CTEST_ARGS (extra ctest arguments).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
if [ -z "${PY:-}" ]; then
  if [ -x "${VENV:-$ROOT/.venv}/bin/python" ]; then PY="${VENV:-$ROOT/.venv}/bin/python"; else PY=python3; fi
fi
BUILD=${SAN_BUILD_DIR:-$ROOT/build-sanitize}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
log() { printf '\n==> [sanitize] %s\n' "$*"; }
start=$(date +%s)

CXX_BIN=${CXX:-c++}
LIBASAN=$("$CXX_BIN" -print-file-name=libasan.so)
LIBUBSAN=$("$CXX_BIN" -print-file-name=libubsan.so)
if [ ! -e "$LIBASAN" ] || [ ! -e "$LIBUBSAN" ]; then
  echo "sanitize.sh: $CXX_BIN has no libasan.so/libubsan.so" >&2
  exit 1
fi
# allocator_may_return_null: an allocation too large for the host fails as it does
# uninstrumented (MemoryError, std::bad_alloc), not as an ASan abort.
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=0:detect_leaks=0:strict_string_checks=1:check_initialization_order=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

# pybind11 for the extension (run_tests.sh's venv has it only inside pip's build isolation).
if ! "$PY" -c "import pybind11" >/dev/null 2>&1; then
  log "pip install pybind11 (for the instrumented extension)"
  "$PY" -m pip install --quiet "pybind11>=2.12"
fi
gen=()
if command -v ninja >/dev/null 2>&1 && [ ! -f "$BUILD/CMakeCache.txt" ]; then gen=(-G Ninja); fi
log "configure $BUILD (ASCEND_XENT_SANITIZE=ON)"
# -O1 -g1 (line tables: the reports keep file:line): a test program compiles in about
# half the CPU time of -O2 -g; the simulator keeps its own -O3 (sim/CMakeLists.txt).
# No benchmarks: ctest does not run them.
cmake -S . -B "$BUILD" "${gen[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DASCEND_XENT_SANITIZE=ON \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
  -DASCEND_XENT_BUILD_TESTS=ON -DASCEND_XENT_BUILD_EXAMPLES=ON -DASCEND_XENT_BUILD_PYTHON=ON \
  -DASCEND_XENT_BUILD_BENCHMARKS=OFF \
  -DASCEND_XENT_CANN=OFF -DPython_EXECUTABLE="$("$PY" -c 'import sys; print(sys.executable)')" >/dev/null
log "build"
cmake --build "$BUILD" -j "$JOBS"

rc=0
if [ "${SAN_SKIP_CPP:-0}" != 1 ]; then
  log "ctest (instrumented)"
  # Not the tests labelled "uninstrumented" (compile checks and out-of-tree builds with
  # their own flags) or "model_accuracy" (the timing model against published
  # measurements): they are the plain build's, and run there.
  # shellcheck disable=SC2086
  (cd "$BUILD" && ctest --output-on-failure -j "$JOBS" -LE 'uninstrumented|model_accuracy' ${SAN_CTEST_ARGS:-}) || rc=1
fi

if [ "${SAN_SKIP_PY:-0}" != 1 ]; then
  ext=$(find "$BUILD/python" -maxdepth 2 -name '_C*.so' | head -n 1)
  if [ -z "$ext" ]; then
    echo "sanitize.sh: the instrumented extension was not built" >&2
    exit 1
  fi
  # The package sources plus the instrumented _C, in an overlay directory first on the path.
  overlay="$BUILD/pyoverlay"
  rm -rf "$overlay"
  mkdir -p "$overlay"
  cp -r "$ROOT/python/ascend_xent" "$overlay/"
  find "$overlay/ascend_xent" -name '_C*.so' -delete
  find "$overlay/ascend_xent" -name '__pycache__' -type d -prune -exec rm -rf {} +
  cp "$ext" "$overlay/ascend_xent/"
  # The native layer's error paths, special values, threads and launches; the arrays the
  # kernel cannot read raw; the forward kernel; the timing model; the torch paths (not
  # torch.compile and opcheck: their time goes to compiling, not to this extension). Not
  # test_runtime's host-thread limit: under an address-space limit ASan itself cannot map.
  SLICE=${SAN_PYTEST:-"tests/python/test_errors.py tests/python/test_bad_inputs.py tests/python/test_out_of_range.py tests/python/test_special_values.py tests/python/test_concurrency.py tests/python/test_determinism.py tests/python/test_property.py tests/python/test_kernel_golden.py::test_shapes tests/python/test_input_representations.py tests/python/test_shard_grad.py tests/python/test_forward.py tests/python/test_perf_model.py tests/python/test_torch_out.py tests/python/test_torch_contract.py -k not(compile)and(not(opcheck))"}
  log "pytest slice against $ext (LD_PRELOAD libasan + libubsan)"
  # An editable install's import hook would win over PYTHONPATH: drop it, then check
  # that the instrumented module is the one imported.
  # shellcheck disable=SC2086
  PYTHONPATH="$overlay:$ROOT/tests/python" LD_PRELOAD="$LIBASAN $LIBUBSAN" \
    ASCEND_XENT_SANITIZED_OVERLAY="$overlay" "$PY" - $SLICE <<'EOF' || rc=1
import os, sys
sys.meta_path[:] = [f for f in sys.meta_path if not type(f).__name__.startswith("ScikitBuild")]
import ascend_xent, ascend_xent._C as C
overlay = os.environ["ASCEND_XENT_SANITIZED_OVERLAY"]
assert C.__file__.startswith(overlay), f"imported {C.__file__}, not the instrumented module"
print(f"instrumented extension: {C.__file__}", flush=True)
import pytest
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", "-x", *sys.argv[1:]]))
EOF
fi

log "done in $(( $(date +%s) - start )) s, exit code $rc"
exit $rc
