#!/bin/sh
# `pip install .` into a fresh virtual environment, offline, with Debian 12's packages, then the
# package from that environment: `import dpclust`, the `dpclust` console command, and the Python test suite
# run against the installed package and its installed binary (not a build tree).
#
#   tests/python/venv_install_test.sh [SOURCE_DIR]      the whole `pip install .`: pip drives a CMake build
#   CLEAN=1 tests/python/venv_install_test.sh [SOURCE_DIR]
#                                                       the same from a clean, temporary CMake build folder
#                                                       (CTest: python_pip_build, label pip_build, with NO_SUITE)
#   PIP_BUILD_DIR=DIR tests/python/venv_install_test.sh [SOURCE_DIR]
#                                                       the same in DIR, emptied before and removed after
#   PREBUILT=BUILD_DIR tests/python/venv_install_test.sh [SOURCE_DIR]
#                                                       (CTest: python_install)
#   NO_SUITE=1 ...                                      install and import checks only, not tests/python
#
# With PREBUILT, pip packages the module and binary that build already made (setup.py's
# DPCLUST_PIP_PREBUILT_DIR) instead of compiling the engine a second time in pip: the test then checks the
# packaging, the install and the installed package, but not pip's CMake step.
#
# PYTHON (default /usr/bin/python3, whose Debian packages numpy, pybind11, setuptools, wheel, scikit-learn,
# pandas and pytest the environment sees through --system-site-packages); VENV (default: a temporary folder,
# removed afterwards); CMAKE_CXX_COMPILER_LAUNCHER=ccache is passed on when set. The CMake build is kept in
# SOURCE_DIR/build-pip-<interpreter>/ between runs, so a second run rebuilds only what changed; with CLEAN=1 it goes to a
# temporary folder (setup.py's DPCLUST_PIP_BUILD_DIR), removed afterwards, so the whole engine is configured
# and compiled by pip's CMake step as on a fresh clone.
set -eu
src=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
python=${PYTHON:-/usr/bin/python3}
venv=${VENV:-}
cleanup=""
if [ -z "$venv" ]; then
  venv=$(mktemp -d "${TMPDIR:-/tmp}/dpclust_venv.XXXXXX")
  cleanup=$venv
fi
if [ -n "${PIP_BUILD_DIR:-}" ] && [ -z "${PREBUILT:-}" ]; then
  rm -rf "$PIP_BUILD_DIR"
  mkdir -p "$PIP_BUILD_DIR"
  DPCLUST_PIP_BUILD_DIR=$(cd "$PIP_BUILD_DIR" && pwd)
  export DPCLUST_PIP_BUILD_DIR
  cleanup="$cleanup $DPCLUST_PIP_BUILD_DIR"
  echo "venv_install_test: pip drives CMake in the clean folder $DPCLUST_PIP_BUILD_DIR${CMAKE_CXX_COMPILER_LAUNCHER:+ (compiler launcher $CMAKE_CXX_COMPILER_LAUNCHER)}"
elif [ -n "${CLEAN:-}" ] && [ -z "${PREBUILT:-}" ]; then
  DPCLUST_PIP_BUILD_DIR=$(mktemp -d "${TMPDIR:-/tmp}/dpclust_pip_build.XXXXXX")
  export DPCLUST_PIP_BUILD_DIR
  cleanup="$cleanup $DPCLUST_PIP_BUILD_DIR"
  echo "venv_install_test: pip drives CMake in the clean folder $DPCLUST_PIP_BUILD_DIR"
fi
trap '[ -n "$cleanup" ] && rm -rf $cleanup' EXIT

start=$(date +%s)
"$python" -m venv --system-site-packages --clear "$venv"
# Offline: --no-index (nothing downloaded), --no-build-isolation (the build uses the system's setuptools and pybind11).
if [ -n "${PREBUILT:-}" ]; then
  DPCLUST_PIP_PREBUILT_DIR=$(cd "$PREBUILT" && pwd)
  export DPCLUST_PIP_PREBUILT_DIR
  echo "venv_install_test: packaging the build in $DPCLUST_PIP_PREBUILT_DIR (no compilation)"
fi
(cd "$src" && "$venv/bin/pip" install --no-index --no-build-isolation --no-cache-dir --quiet .)
installed=$(date +%s)
echo "venv_install_test: installed in $((installed - start)) s"

cd "$venv"  # away from the source tree: `import dpclust` must find the installed package
"$venv/bin/python" - "$venv" <<'PY'
import importlib.metadata, os, sys
import dpclust
where = os.path.realpath(dpclust.__file__)
assert where.startswith(os.path.realpath(sys.argv[1])), f"dpclust imported from {where}, not from the environment"
assert importlib.metadata.version("dpclust") == dpclust.__version__, (importlib.metadata.version("dpclust"), dpclust.__version__)
assert os.access(os.path.join(os.path.dirname(where), "bin", "dpclust"), os.X_OK)
print(f"venv_install_test: import dpclust -> {where} (version {dpclust.__version__}, {len(dpclust.methods())} methods)")
PY
"$venv/bin/dpclust" --help | head -3
"$venv/bin/dpclust" --version
"$venv/bin/dpclust" list >/dev/null
# The package version is the CMake project's.
grep -q "project(dpclust VERSION $("$venv/bin/python" -c 'import dpclust; print(dpclust.__version__)')" "$src/CMakeLists.txt"

if [ -n "${NO_SUITE:-}" ]; then
  echo "venv_install_test: install $((installed - start)) s, total $(($(date +%s) - start)) s (NO_SUITE: tests/python not run)"
  exit 0
fi
binary=$("$venv/bin/python" -c 'import dpclust._cli as c; print(c.binary())')
env -u PYTHONPATH DPCLUST_BINARY="$binary" PYTHONDONTWRITEBYTECODE=1 \
  "$venv/bin/python" -m pytest -q -p no:cacheprovider "$src/tests/python"
echo "venv_install_test: install $((installed - start)) s, total $(($(date +%s) - start)) s"
