"""pip's own CMake step (setup.py), checked without compiling the engine a second time: the configure command
setup.py runs succeeds on this source tree in a clean folder, and its build command names exactly the two
things the package ships, the module dpclust._core and the
`dpclust` binary, with no test or benchmark target. tests/python/venv_install_test.sh then installs the
package from the module and binary the suite's own build made (python_install); python_pip_build (label
pip_build) runs pip's whole build when wanted."""
import importlib.machinery
import importlib.util
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def load_setup():
    spec = importlib.util.spec_from_file_location("dpclust_setup_under_test", ROOT / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # not __main__: setup() is not called
    return module


@pytest.fixture(scope="module")
def configured(tmp_path_factory):
    cmake = shutil.which("cmake")
    if cmake is None:
        pytest.skip("cmake is not installed (Debian: apt-get install cmake)")
    setup = load_setup()
    build_dir = tmp_path_factory.mktemp("pip_cmake")
    configure, build = setup.cmake_commands(cmake, str(build_dir), python=sys.executable)
    done = subprocess.run(configure, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return build_dir, build


def test_configure_takes_the_running_interpreter_and_builds_no_tests(configured):
    build_dir, _ = configured
    cache = (build_dir / "CMakeCache.txt").read_text()
    assert f"Python3_EXECUTABLE:FILEPATH={sys.executable}" in cache or f"Python3_EXECUTABLE:UNINITIALIZED={sys.executable}" in cache
    assert "DPCLUST_BUILD_TESTS:BOOL=OFF" in cache
    assert "DPCLUST_BUILD_BENCH:BOOL=OFF" in cache
    assert "CMAKE_BUILD_TYPE:STRING=Release" in cache


def test_build_command_makes_the_module_and_the_binary_only(configured):
    build_dir, build = configured
    # The build command names exactly the module and the binary, and the configured tree has them and no test
    # or benchmark target (a dry run of make cannot go further: it does not write the precompiled header the
    # engine's objects depend on).
    assert build[-4:-2] == ["dpclust_python_core", "dpclust"]
    done = subprocess.run(build[:3] + ["--target", "help"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    targets = {line[4:].strip() for line in done.stdout.splitlines() if line.startswith("... ")}
    assert {"dpclust_python_core", "dpclust", "dpclust_core"} <= targets
    assert not [t for t in targets if t.startswith(("test_", "bench_"))], sorted(targets)
    # The module is linked under this interpreter's extension name, the binary as experiments/dpclust.
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    module_link = (build_dir / "python" / "CMakeFiles" / "dpclust_python_core.dir" / "link.txt").read_text()
    assert f"dpclust/_core{suffix}" in module_link, module_link[-400:]
    binary_link = (build_dir / "experiments" / "CMakeFiles" / "dpclust.dir" / "link.txt").read_text()
    assert "-o dpclust " in binary_link, binary_link[-400:]


def test_ccache_is_the_launcher_when_installed_and_hashes_paths_from_the_source_tree(tmp_path, monkeypatch):
    """setup.py compiles through ccache when it is installed (CMAKE_CXX_COMPILER_LAUNCHER unset), and CMakeLists.txt
    hands ccache the source tree as CCACHE_BASEDIR: with pip's folder beside build/ at the same depth, the objects
    ./run_all.sh compiled are reused (docs/python.md "Installing")."""
    setup = load_setup()
    monkeypatch.delenv("CMAKE_CXX_COMPILER_LAUNCHER", raising=False)
    ccache = shutil.which("ccache")
    assert setup.compiler_launcher() == (ccache or "")
    monkeypatch.setenv("CMAKE_CXX_COMPILER_LAUNCHER", "")
    assert setup.compiler_launcher() == ""  # set and empty: no launcher
    if ccache is None or shutil.which("cmake") is None:
        pytest.skip("ccache or cmake is not installed")
    monkeypatch.delenv("CMAKE_CXX_COMPILER_LAUNCHER")
    configure, _ = setup.cmake_commands(shutil.which("cmake"), str(tmp_path), python=sys.executable)
    assert f"-DCMAKE_CXX_COMPILER_LAUNCHER={ccache}" in configure
    done = subprocess.run(configure, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    rules = (tmp_path / "engine" / "CMakeFiles" / "dpclust_core.dir" / "build.make").read_text()
    assert f"CCACHE_BASEDIR={ROOT}" in rules
