#!/usr/bin/env bash
# The whole test suite on a fresh machine (what the README's test command and CI run):
#   1. a virtual environment (.venv in the repo, reused when present; VENV=... to change),
#   2. pip install ".[test]"  (builds the extension through scikit-build-core, on a fresh
#      checkout in build/ together with the C++ tests and examples; skipped for the
#      package when the venv has an up-to-date install of this tree, see below),
#   3. the C++ tree in build/ with tests and examples (already built in the first case),
#      then ctest,
#   4. pytest tests/python, including the tests marked "large".
# Needs only Python >= 3.10, a C++ compiler and the package registries: cmake and
# ninja come from PyPI into the venv, and so do CANN's ACL headers for the CANN syntax
# checks (scripts/fetch_cann_headers.py, run by ctest). Exits non-zero when anything fails.
#
# Environment: VENV (venv path), PYTHON (interpreter that creates it), JOBS (parallel
# jobs), BUILD_DIR (C++ build tree, default build/), SKIP_CPP=1 (Python only),
# PYTEST_ARGS (extra pytest arguments, e.g. "-x"), SANITIZE=1 (also run scripts/sanitize.sh;
# CI=true does by default, SANITIZE=0 skips it).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
VENV=${VENV:-$ROOT/.venv}
PYTHON=${PYTHON:-python3}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
BUILD_DIR=${BUILD_DIR:-build}

log() { printf '\n==> %s\n' "$*"; }
start=$(date +%s)

if [ ! -x "$VENV/bin/python" ]; then
  log "creating $VENV"
  if ! "$PYTHON" -m venv "$VENV"; then
    # Debian/Ubuntu ship venv separately.
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
      apt-get update -qq && apt-get install -y -qq python3-venv
      rm -rf "$VENV"
      "$PYTHON" -m venv "$VENV"
    else
      echo "cannot create a venv: install python3-venv" >&2
      exit 1
    fi
  fi
fi
PY="$VENV/bin/python"
export PATH="$VENV/bin:$PATH"

# Build tools for the C++ tree, from PyPI when the machine has none.
need=()
command -v cmake >/dev/null 2>&1 || need+=("cmake>=3.18")
command -v ninja >/dev/null 2>&1 || need+=("ninja")
if [ ${#need[@]} -gt 0 ]; then "$PY" -m pip install --quiet "${need[@]}"; fi

# The package: built and installed by pip (scikit-build-core) unless the venv already
# holds a regular install of this tree that no source file is newer than, as the README's
# first command leaves it; then only the test extras are installed (a rebuild costs 1-2
# minutes on 2 cores).
up_to_date=$("$PY" scripts/installed_package.py "$ROOT" test 2>/dev/null || true)
newer=""
if [ -n "$up_to_date" ]; then
  record=${up_to_date%%$'\n'*}
  newer=$(find CMakeLists.txt pyproject.toml cmake acl_compat op_host op_kernel sim python -type f \
            -not -path '*/__pycache__/*' -newer "$record" -print -quit)
fi
if [ -n "$up_to_date" ] && [ -z "$newer" ]; then
  log "ascend_xent is installed from this tree and up to date: pip install of the test extras only"
  mapfile -t extras < <(printf '%s\n' "$up_to_date" | tail -n +2)
  if [ ${#extras[@]} -gt 0 ]; then "$PY" -m pip install --quiet "${extras[@]}"; fi
elif [ "${SKIP_CPP:-0}" != 1 ] && [ ! -e "$BUILD_DIR/CMakeCache.txt" ]; then
  # One build for both: pip builds the extension in $BUILD_DIR with the C++ tests and
  # examples beside it, so the simulator and the kernels are compiled once, and the ctest
  # stage below finds that tree built. No build isolation, so that the tree's pybind11
  # (from this venv) is still there when the stage reconfigures it.
  log "pip install .[test] (builds ascend_xent._C and the C++ tests in $BUILD_DIR)"
  "$PY" -m pip install --quiet "scikit-build-core>=0.10" "pybind11>=2.12"
  "$PY" -m pip install --quiet --no-build-isolation -Cbuild-dir="$BUILD_DIR" \
    -Ccmake.define.ASCEND_XENT_BUILD_TESTS=ON -Ccmake.define.ASCEND_XENT_BUILD_EXAMPLES=ON \
    -Ccmake.define.ASCEND_XENT_BUILD_BENCHMARKS=ON ".[test]"
else
  log "pip install .[test] (builds ascend_xent._C)"
  "$PY" -m pip install --quiet ".[test]"
fi
# ctest's cann_acl_headers downloads CANN's ACL headers (torch-npu wheel, PyPI) for the
# CANN syntax checks: here an unreachable PyPI fails the run instead of skipping them.
export ASCEND_XENT_REQUIRE_CANN_HEADERS=1

rc=0
if [ "${SKIP_CPP:-0}" != 1 ]; then
  log "C++: configure, build and ctest in $BUILD_DIR"
  gen=()
  if command -v ninja >/dev/null 2>&1 && [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then gen=(-G Ninja); fi
  if cmake -S . -B "$BUILD_DIR" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
       -DASCEND_XENT_BUILD_TESTS=ON -DASCEND_XENT_BUILD_EXAMPLES=ON \
     && cmake --build "$BUILD_DIR" -j "$JOBS"; then
    (cd "$BUILD_DIR" && ctest --output-on-failure -j "$JOBS") || rc=1
  else
    echo "C++ build failed" >&2
    rc=1
  fi
fi

log "Python: pytest tests/python (with the large shapes)"
# shellcheck disable=SC2086
"$PY" -m pytest tests/python -q -p no:cacheprovider --run-large --durations=15 ${PYTEST_ARGS:-} || rc=1

# AddressSanitizer + UBSan build, its ctest and a Python slice (scripts/sanitize.sh, about
# 13 minutes on 2 idle cores): with SANITIZE=1, and in CI (CI=true) unless SANITIZE=0.
if [ "${SANITIZE:-}" = 1 ] || { [ "${CI:-}" = true ] && [ "${SANITIZE:-}" != 0 ]; }; then
  log "sanitizers: scripts/sanitize.sh"
  PY="$PY" JOBS="$JOBS" bash scripts/sanitize.sh || rc=1
fi

log "done in $(( $(date +%s) - start )) s, exit code $rc"
exit $rc
