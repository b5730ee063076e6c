"""setuptools' side of `pip install .` (pyproject.toml has the metadata): a build_ext that drives CMake.

CMake builds only what the package needs -- the extension dpclust._core and the `dpclust` binary (no tests,
no benchmarks) -- against the running interpreter, in a persistent folder (build-pip-<interpreter>, so a
second install is incremental), with -j from the core count (CMAKE_BUILD_PARALLEL_LEVEL overrides it) and
ccache as the compiler launcher when it is installed (CMAKE_CXX_COMPILER_LAUNCHER overrides it; empty: none).
The folder sits beside build/ at the same depth, and CMakeLists.txt hashes paths relative to the source tree
(CCACHE_BASEDIR), so after ./run_all.sh (whose Release build compiles through ccache) the engine's objects come
from the cache and only the Python module is compiled. The expected time is said first, on the terminal pip
runs in (pip shows the build's own output, one line per CMake step, with -v). With
DPCLUST_PIP_PREBUILT_DIR=<a CMake build folder of this tree> nothing is built: the module and binary already
built there are packaged (the test suite uses this; the folder must have been configured for this interpreter). The binary goes into the
package as dpclust/bin/dpclust, run by the `dpclust` console command (dpclust/_cli.py). Everything setuptools
writes goes under build-pip/ too: build/ is the CMake build of docs/building.md.
"""
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import time

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
WORK = os.path.join(ROOT, "build-pip")
# CPU seconds of a build of the package's two targets from nothing (docs/performance.md, "Where the build time
# goes"): the expected time said before the build.
BUILD_CPU_SECONDS = 480


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


def cmake_commands(cmake, build_dir, python=sys.executable):
    """The two commands pip's build runs: configure (the module and binary only, against `python`) and build.
    tests/python/test_pip_cmake.py runs the first and the second as a dry run (make -n), which checks the
    invocation without compiling the engine a second time."""
    args = [f"-DPython3_EXECUTABLE={python}", "-DCMAKE_BUILD_TYPE=Release", "-DDPCLUST_BUILD_PYTHON=ON",
            "-DDPCLUST_BUILD_TESTS=OFF", "-DDPCLUST_BUILD_BENCH=OFF", "-DDPCLUST_HANDOFF_PYTHONPATH="]
    try:  # pybind11 of this interpreter (Debian's python3-pybind11 or the build environment's)
        import pybind11
        args.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
    except ImportError:
        pass  # CMake's own search (Debian: pybind11-dev)
    launcher = compiler_launcher()
    if launcher:
        args.append(f"-DCMAKE_CXX_COMPILER_LAUNCHER={launcher}")
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
    return [[cmake, "-S", ROOT, "-B", build_dir, *args],
            [cmake, "--build", build_dir, "--target", "dpclust_python_core", "dpclust", "-j", jobs]]


def compiler_launcher():
    """CMAKE_CXX_COMPILER_LAUNCHER when set (empty: none), else ccache when installed."""
    if "CMAKE_CXX_COMPILER_LAUNCHER" in os.environ:
        return os.environ["CMAKE_CXX_COMPILER_LAUNCHER"]
    return shutil.which("ccache") or ""


def say(message):
    """A line on the terminal pip runs in (pip shows a build's output only with -v, or when it fails), and in the
    build's output."""
    print(message, flush=True)
    try:
        with open("/dev/tty", "w") as tty:
            tty.write(message + "\n")
    except OSError:
        pass  # no terminal (CI, a pipe): the line is in pip's log


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        prebuilt = os.environ.get("DPCLUST_PIP_PREBUILT_DIR")
        if prebuilt:
            # The test suite's shortcut (tests/python/venv_install_test.sh): package the module and binary a
            # CMake build of this source tree already made for this interpreter instead of building them again.
            return self.copy_built(ext, os.path.abspath(prebuilt))
        cmake = shutil.which("cmake")
        if cmake is None:
            sys.exit("dpclust: cmake (>= 3.20) is needed to build the package (Debian: apt-get install cmake)")
        tag = sysconfig.get_config_var("EXT_SUFFIX").split(".")[1]  # e.g. cpython-311-x86_64-linux-gnu
        build_dir = os.environ.get("DPCLUST_PIP_BUILD_DIR") or os.path.join(ROOT, "build-pip-" + tag)
        cores = int(os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or os.cpu_count() or 1)
        minutes = max(1, round(BUILD_CPU_SECONDS / cores / 60))
        cached = "with ccache, seconds for what an earlier build compiled (e.g. ./run_all.sh's)" if compiler_launcher() else \
            "without ccache (install it to reuse an earlier build's objects)"
        say(f"dpclust: building the C++ engine, the `dpclust` binary and the Python module with CMake in {build_dir}: "
            f"about {minutes} min on {cores} cores from scratch, {cached}; `pip install -v` shows each step")
        start = time.monotonic()
        for command in cmake_commands(cmake, build_dir):
            subprocess.run(command, check=True)
        say(f"dpclust: built in {time.monotonic() - start:.0f} s")
        self.copy_built(ext, build_dir)

    def copy_built(self, ext, build_dir):
        module = os.path.join(build_dir, "python", "dpclust", "_core" + sysconfig.get_config_var("EXT_SUFFIX"))
        if not os.path.isfile(module):
            sys.exit(f"dpclust: CMake did not build the Python module ({module}): is numpy importable by {sys.executable}, "
                     "and pybind11 and the Python headers installed (Debian: python3-dev python3-pybind11 python3-numpy)?")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(module, target)
        bin_dir = os.path.join(os.path.dirname(target), "bin")
        os.makedirs(bin_dir, exist_ok=True)
        binary = os.path.join(build_dir, "experiments", "dpclust")
        if not os.path.isfile(binary):
            sys.exit(f"dpclust: no dpclust binary in {build_dir} (build the target dpclust there)")
        shutil.copy2(binary, os.path.join(bin_dir, "dpclust"))


def check_build_tools():
    """`pip install --no-build-isolation .` builds with the interpreter's own packages: name the missing one and
    the interpreter, instead of setuptools' "invalid command 'bdist_wheel'" (a venv made by a pyenv or conda
    python3 that is first on the PATH does not see Debian's python3-wheel)."""
    missing = [name for name in ("wheel", "numpy") if importlib.util.find_spec(name) is None]
    commands = ("bdist_wheel", "dist_info", "build_ext", "install", "develop", "editable_wheel")  # dist_info needs wheel too
    if missing and any(arg in commands for arg in sys.argv[1:]):
        sys.exit(f"dpclust: {', '.join(missing)} not importable by {sys.executable}. On Debian make the environment "
                 "with Debian's interpreter, whose python3-wheel, python3-pybind11 and python3-numpy it then sees: "
                 "/usr/bin/python3 -m venv --system-site-packages .venv && .venv/bin/pip install --no-build-isolation . "
                 "(or, with the package index, plain `pip install .`, which builds in an isolated environment)")


# Run by pip (setuptools executes this file as __main__); imported by tests/python/test_pip_cmake.py for
# cmake_commands alone.
if __name__ == "__main__":
    check_build_tools()
    os.makedirs(WORK, exist_ok=True)
    setup(ext_modules=[CMakeExtension("dpclust._core")], cmdclass={"build_ext": CMakeBuild},
          options={"build": {"build_base": os.path.join(WORK, "setuptools")}, "egg_info": {"egg_base": WORK}})
