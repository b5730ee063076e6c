#!/usr/bin/env bash
# dpclust: one entry point for a fresh Debian 12 machine.
#
#   ./run_all.sh           the main job: install missing Debian packages, build (Release), fetch the
#                          papers' datasets the paper configs read (`dpclust data fetch --for`; what
#                          cannot be fetched is listed with the command that fetches it), run every
#                          experiment on built-in data (configs/builtin/) and the paper reproductions
#                          whose data is present (configs/paper/); then the figures (each experiment's
#                          drawn beside the experiments at nice 19 as soon as its results are written)
#                          and the report.
#   ./run_all.sh --test    install, build, and run the whole suite through CTest, each test once: the engine's
#                          GoogleTest programs built with AddressSanitizer + UBSan (build-sanitize/, compiled
#                          in the background from the start); the Python suite against the package
#                          `pip install .` makes from the Release build and the figure scripts in the
#                          Release build (build/). --no-sanitize runs every test in
#                          the Release build instead. Ends with each phase's time and the slowest tests.
#   ./run_all.sh --quick   a smoke run in under a minute: built-in data only, 2 trials per cell,
#                          results in results-quick/.
#
# Options: --data-root DIR (default: $DPCLUST_DATA_ROOT, else ../shared/datasets if present, else
#          ~/.cache/dpclust/datasets), --mirror URL (fetch from a mirror of the upstream layout;
#          default $DPCLUST_MIRROR), --no-fetch (use only the data already there),
#          --out DIR (default results/), --threads N, --build-dir DIR (default build/),
#          --no-paper (built-in data only), --force (recompute instead of resuming; also redraws
#          every figure), --pdf (a PDF next to each PNG figure), --comparison-figures (also the report's
#          method comparison figures, one per experiment, dataset and metric), --no-sanitize (--test: no
#          sanitizer build; every test runs in the Release build).
set -euo pipefail
cd "$(dirname "$0")"
run_start=$(date +%s)

mode=run
quick=0
out=results
build=build
threads=0
paper=1
force=""
pdf=""
comparison=""
fetch=1
sanitize=1
mirror="${DPCLUST_MIRROR:-}"
data_root="${DPCLUST_DATA_ROOT:-}"
while [ $# -gt 0 ]; do
  case "$1" in
    --test) mode=test ;;
    --quick) quick=1; paper=0; out=results-quick ;;
    --data-root) data_root="$2"; shift ;;
    --mirror) mirror="$2"; shift ;;
    --no-fetch) fetch=0 ;;
    --out) out="$2"; shift ;;
    --threads) threads="$2"; shift ;;
    --build-dir) build="$2"; shift ;;
    --no-paper) paper=0 ;;
    --no-sanitize) sanitize=0 ;;
    --force) force="--force" ;;
    --pdf) pdf="--pdf" ;;
    --comparison-figures) comparison="--comparison" ;;
    -h|--help) sed -n '2,/^set -euo/{/^#/p}' "$0"; exit 0 ;;  # the comment block above
    *) echo "run_all.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

# --- 1. Debian packages -------------------------------------------------------------------------
packages=(g++ make cmake git pkg-config libyaml-cpp-dev nlohmann-json3-dev libboost-program-options-dev
          libboost-dev libeigen3-dev zlib1g-dev libgtest-dev libgmock-dev libbenchmark-dev
          libcurl4-openssl-dev libssl-dev libarchive-dev libmpfr-dev libgmp-dev ca-certificates
          python3 python3-matplotlib python3-numpy python3-yaml
          slurm-wlm munge
          python3-dev pybind11-dev python3-pybind11 python3-pytest python3-pandas python3-sklearn python3-jsonschema
          python3-venv python3-pip python3-setuptools python3-wheel python3-scipy
          ccache
          clang-format flake8)  # the form and lint checks (ctest source_format_check, tools/check_format.sh)
# --test compiles its AddressSanitizer + UBSan build with clang (and clang's OpenMP runtime): it compiles that build
# in about 70% of GCC's CPU time (docs/testing.md); the Release build stays GCC's.
[ "$mode" = test ] && [ "$sanitize" = 1 ] && packages+=(clang libomp-dev)
missing=()
for p in "${packages[@]}"; do
  [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "== installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "Missing Debian packages. Install them as root with:" >&2
    echo "  apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

packages_done=$(date +%s)

# --- 2. Build -------------------------------------------------------------------------------------
jobs=$(nproc 2>/dev/null || echo 2)
sbuild="${build}-sanitize"
# The Release build compiles through ccache (a Debian package above): a rebuild after a checkout or a branch
# switch takes seconds instead of minutes. The sanitizer build, whose flags no other build shares, compiles
# without it.
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# --test runs more processes than cores (two builds, ctest -j twice the cores), and an OpenMP thread that has
# finished its share spins for its next region by default, on a core another test could use: OpenMP threads
# sleep at once instead (measured in docs/testing.md; no result depends on it). The main job keeps the default:
# one experiment at a time, where spinning shortens the waits.
[ "$mode" = test ] && export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-passive}"
if [ "$mode" = test ] && [ "$sanitize" = 1 ]; then
  # --test: the AddressSanitizer + UBSan build (3a) compiles in the background from the start, next to the
  # Release build and then the Release tests: the two builds and the tests leave cores idle on their own
  # (linking, precompiled headers, tests waiting on servers and the local Slurm scheduler). Only the test
  # programs and `dpclust` (no benchmarks, no Python module), the test programs' own files at -O0
  # (tests/CMakeLists.txt: DPCLUST_TEST_CODE_FLAGS); -O1 -g1 (the line tables the sanitizers' stack traces need)
  # for the numeric rooms.
  # With clang (installed above; GCC when clang++ is missing): the same tests and sanitizers, compiled in 70% of
  # GCC's CPU time, and clang's UBSan adds checks GCC's lacks (an offset added to a null pointer). The rooms that
  # read, write and orchestrate (JSON, YAML, files, the run: DPCLUST_UNOPTIMISED_ROOMS) at -O0: 150 CPU seconds
  # less to compile, and the tests take the same time (docs/testing.md). A folder configured for another compiler
  # is configured anew.
  sanitize_cxx=$(command -v clang++ || command -v g++)
  if [ -f "$sbuild/CMakeCache.txt" ] && ! grep -q "^CMAKE_CXX_COMPILER:[A-Z]*=$sanitize_cxx\$" "$sbuild/CMakeCache.txt"; then
    rm -rf "$sbuild"
  fi
  echo "== building ($sbuild, AddressSanitizer + UndefinedBehaviorSanitizer, $(basename "$sanitize_cxx")) in the background"
  # The -O0 rooms with clang only, where they were measured (they get their own -O0 precompiled header,
  # engine/CMakeLists.txt); GCC, the fallback when clang is missing, keeps every room at -O1.
  unoptimised=()
  case "$sanitize_cxx" in
    *clang*) unoptimised=(-DDPCLUST_UNOPTIMISED_ROOMS="io;catalog;config;loading;store;scaleout;run;report;datasources;experiments") ;;
  esac
  cmake -S . -B "$sbuild" -DCMAKE_CXX_COMPILER="$sanitize_cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DDPCLUST_SANITIZE=ON -DDPCLUST_BUILD_BENCH=OFF \
        -DDPCLUST_BUILD_PYTHON=OFF -DDPCLUST_TEST_CODE_FLAGS=-O0 "${unoptimised[@]}" >/dev/null
  sanitize_log=$(mktemp "${TMPDIR:-/tmp}/dpclust_sanitize_build.XXXXXX")
  sanitize_ctest_log=$(mktemp "${TMPDIR:-/tmp}/dpclust_ctest_sanitize.XXXXXX")
  sanitize_start=$(date +%s)
  [ -n "$data_root" ] && export DPCLUST_DATA_ROOT="$data_root"
  # The sanitizer build and then its tests are the longest chain of --test: they run in the background from
  # the start, at normal priority, while the Release build and its tests fill the cores they leave idle (at
  # nice 10; linking, the tests waiting on servers and on the local Slurm scheduler). The engine's GoogleTest
  # programs under AddressSanitizer + UndefinedBehaviorSanitizer: a failing assertion, a memory error or
  # undefined behaviour anywhere the tests reach fails CI. Left to the Release pass (tests/CMakeLists.txt says
  # why for each): plots (Python only) and no_engine_code (scripts over the sources). ctest -j twice the cores:
  # the Slurm tests and the time-bounded fuzz tests mostly wait. --no-sanitize runs every GoogleTest program in
  # the Release pass instead.
  (rc=0; cmake --build "$sbuild" -j "$jobs" --target dpclust_tests || rc=$?
   echo "sanitizer build end $(date +%s) rc $rc"
   [ "$rc" -eq 0 ] || exit "$rc"
   cd "$sbuild" && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
     ctest --output-on-failure -j "$((jobs * 2))" --timeout 1800 -LE 'plots|no_engine_code' >"$sanitize_ctest_log" 2>&1
   echo "sanitizer tests end $(date +%s)") >"$sanitize_log" 2>&1 &
  sanitize_pid=$!
  trap 'kill "$sanitize_pid" 2>/dev/null || true; rm -f "$sanitize_log" "$sanitize_ctest_log"' EXIT
fi
# The Release side of --test yields to the sanitizer chain above.
release_nice=()
[ "$mode" = test ] && [ "$sanitize" = 1 ] && release_nice=(nice -n 10)
echo "== building ($build, Release)"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
# With ccache, files compiled with the precompiled headers are cached only with this sloppiness (CMakeLists.txt
# hands it to the compiler launcher too).
export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}"
# What each mode runs, and nothing else: the main job runs the `dpclust` binary (the figures read only the JSON
# results, with matplotlib; the Python module is built by `pip install .` or `cmake --build build --target
# dpclust_python_core`). --test with the sanitizer pass: the engine's GoogleTest programs run once, in that pass
# (3a); the Release build makes what the rest of the suite runs (dpclust_release_checks: the binary and the
# Python module the installed-package test packages). --test --no-sanitize: everything.
release_target=(--target dpclust)
if [ "$mode" = test ]; then
  release_target=()
  [ "$sanitize" = 1 ] && release_target=(--target dpclust_release_checks)
fi
"${release_nice[@]}" cmake --build "$build" -j "$jobs" "${release_target[@]}" 2>&1 | grep -E "error:|warning:|Linking CXX executable" || true
[ -x "$build/experiments/dpclust" ] || { echo "build failed; rerun: cmake --build $build" >&2; exit 1; }
build_done=$(date +%s)

# --- 3a. Tests ------------------------------------------------------------------------------------
if [ "$mode" = test ]; then
  [ -n "$data_root" ] && export DPCLUST_DATA_ROOT="$data_root"
  echo "== tests (ctest); data root: ${DPCLUST_DATA_ROOT:-auto (../shared/datasets if present, else ~/.cache/dpclust/datasets)}"
  status=0
  release_log=$(mktemp "${TMPDIR:-/tmp}/dpclust_ctest.XXXXXX")
  trap 'kill "${sanitize_pid:-}" 2>/dev/null || true; rm -f "${sanitize_log:-}" "$release_log" "${sanitize_ctest_log:-}"' EXIT
  # pip's whole build (label pip_build, a second Release build of the engine) is left to `ctest -L pip_build`:
  # the suite checks pip's CMake step without compiling (tests/python/test_pip_cmake.py) and installs the
  # package from this build (python_install). With the sanitizer pass the Release pass runs what that pass
  # cannot: the Python suite against the installed package, the figure scripts, the benchmark smoke test and the
  # checks over the sources; each test of the suite runs once.
  release_labels=()
  [ "$sanitize" = 1 ] && release_labels=(-L 'python_install|plots|bench|no_engine_code')
  (cd "$build" && "${release_nice[@]}" ctest --output-on-failure -j "$jobs" --timeout 900 -LE pip_build "${release_labels[@]}") 2>&1 |
    tee "$release_log" || status=1
  grep -q "tests passed, 0 tests failed out of" "$release_log" || status=1
  release_tests_done=$(date +%s)
  if [ "$sanitize" = 1 ]; then
    echo "== waiting for the sanitizer build and tests ($sbuild, ctest -LE 'plots|no_engine_code')"
    wait "$sanitize_pid" || true
    grep -E "error:|warning:" "$sanitize_log" || true
    sanitize_built=$(sed -n 's/^sanitizer build end \([0-9]*\).*/\1/p' "$sanitize_log" | tail -1)
    if [ -z "$sanitize_built" ] || grep -q "^sanitizer build end [0-9]* rc [1-9]" "$sanitize_log"; then
      echo "the sanitizer build failed (errors above); rerun: cmake --build $sbuild --target dpclust_tests" >&2
      exit 1
    fi
    cat "$sanitize_ctest_log"
    grep -q "tests passed, 0 tests failed out of" "$sanitize_ctest_log" || status=1
  fi
  # Where the time went: each phase, and the slowest tests of each pass (ctest's own times).
  end=$(date +%s)
  echo
  echo "== phase times (wall seconds; the sanitizer build and tests run beside the Release build and tests)"
  printf '  %-44s %6d\n' "Debian packages" $((packages_done - run_start))
  printf '  %-44s %6d\n' "Release build ($build)" $((build_done - packages_done))
  printf '  %-44s %6d\n' "Release tests (ctest)" $((release_tests_done - build_done))
  if [ "$sanitize" = 1 ]; then
    printf '  %-44s %6d\n' "sanitizer build ($sbuild, in the background)" $((sanitize_built - sanitize_start))
    sanitize_tested=$(sed -n 's/^sanitizer tests end //p' "$sanitize_log" | tail -1)
    printf '  %-44s %6d\n' "sanitizer tests (ctest, in the background)" $((${sanitize_tested:-$end} - sanitize_built))
    printf '  %-44s %6d\n' "waiting for them after the Release tests" $((end - release_tests_done))
  fi
  printf '  %-44s %6d\n' "total" $((end - run_start))
  for log in "$release_log" "${sanitize_ctest_log:-}"; do
    [ -s "$log" ] || continue
    echo "  slowest tests of the $([ "$log" = "$release_log" ] && echo Release || echo sanitizer) pass:"
    grep -E "Test +#[0-9]+: " "$log" | sed -E 's/.*Test +#[0-9]+: ([^ ]+) .* ([0-9.]+) sec.*/\2 \1/' | sort -rn |
      awk 'NR <= 8 {printf "    %8.1f s  %s\n", $1, $2}'
  done
  exit $status
fi

# --- 3b. The main job -----------------------------------------------------------------------------
dpclust="$build/experiments/dpclust"
root_args=()
[ -n "$data_root" ] && root_args=(--data-root "$data_root")
[ -n "$mirror" ] && export DPCLUST_MIRROR="$mirror"
configs=(configs/builtin/*.yaml)
start=$(date +%s)
if [ "$paper" = 1 ]; then
  configs+=(configs/paper/*.yaml)
  if [ "$fetch" = 1 ]; then
    # The papers' data from its public sources (or the mirror); files already there are only verified.
    # A failed download never stops the job: the configs that need the missing data are skipped below.
    echo "== data: dpclust data fetch --for configs/paper/*.yaml${mirror:+ --mirror $mirror}"
    if ! "$dpclust" data fetch --for configs/paper/*.yaml "${root_args[@]}"; then
      echo "-- some datasets could not be fetched (listed above); the configs that read them are skipped."
      echo "   When the network (or a mirror: --mirror URL) is reachable, fetch them with:"
      echo "     $dpclust data fetch --for configs/paper/*.yaml${data_root:+ --data-root $data_root}"
    fi
  fi
fi
# validate's messages, removed however the job ends (also when interrupted).
validate_err=$(mktemp "${TMPDIR:-/tmp}/dpclust_validate.XXXXXX")
figures=plots/out
[ "$quick" = 1 ] && figures=plots/out-quick
mkdir -p "$figures"
# Each experiment's generic figures are drawn as soon as its results are written, by one process at nice 19
# beside the experiments (make_figures.py --follow): it takes the core the experiments leave idle (loading
# data, single-threaded configs such as Table 3's timings) and gives it back to them at once. The queue
# lists the experiments finished so far; END stops it at once (what it did not reach is drawn after the
# experiments with both cores, as are the papers' figures, which read several experiments each).
figure_queue="$figures/.follow-queue"
: > "$figure_queue"
nice -n 19 /usr/bin/python3 plots/make_figures.py --results "$out" --out "$figures" --follow "$figure_queue" ${pdf} ${force} \
  > "$figures/.follow-log" 2>&1 &
follow_pid=$!
trap 'rm -f "$validate_err"; kill "$follow_pid" 2>/dev/null || true' EXIT
# Configs whose data files are absent (e.g. Gowalla, Crash, HAR70+ when they could not be fetched) are
# reported and skipped; any other failure stops the job. Results already written stay on disk and a
# rerun resumes.
# The single-threaded configs (`threads: 1`: Table 3's running times) last: the figures of the experiments
# before them are drawn on the core they leave idle.
single=() multi=()
for cfg in "${configs[@]}"; do
  if grep -qE '^threads:[[:space:]]*1([[:space:]]|#|$)' "$cfg"; then single+=("$cfg"); else multi+=("$cfg"); fi
done
configs=("${multi[@]}" "${single[@]}")
for cfg in "${configs[@]}"; do
  # --no-load-data: the run loads each dataset once and checks every cell against it before its first trial.
  if ! "$dpclust" validate --no-load-data "$cfg" "${root_args[@]}" >/dev/null 2>"$validate_err"; then
    if ! grep -q "file not found" "$validate_err"; then
      cat "$validate_err" >&2; exit 2
    fi
    echo "-- skipped $cfg: $(head -1 "$validate_err")"
  else
    echo "== $cfg"
  fi
  trial_args=()
  [ "$quick" = 1 ] && trial_args=(--trials 2)
  # --skip-missing-data records why a config did not run (OUT/<experiment>/skipped.json), for the report.
  "$dpclust" run "$cfg" --out "$out" --threads "$threads" --skip-missing-data ${force} "${trial_args[@]}" "${root_args[@]}"
  sed -n "s/^experiment:[[:space:]]*[\"']\{0,1\}\([A-Za-z0-9_.-]*\).*/\1/p" "$cfg" | awk 'NR == 1' >> "$figure_queue"
done
echo END >> "$figure_queue"

# --- 4. Figures (from the JSON results only) ------------------------------------------------------
# In parallel worker processes; only the figures whose results (or plotting code) changed since the last
# run are redrawn (plots/out/.figures-manifest.json). PNG, and PDF with --pdf. One figure per experiment and
# metric, and the papers' figures; the report's comparison figures (one per dataset too) with --comparison-figures.
echo "== figures"
figures_start=$(date +%s)
wait "$follow_pid" || true
cat "$figures/.follow-log"
# A figure that fails is listed with its traceback; the others, and the report, are still written.
/usr/bin/python3 plots/make_figures.py --results "$out" --out "$figures" ${pdf} ${force} ${comparison} \
  --keep-drawn "$figure_queue.done" ||
  echo "-- some figures failed (listed above); the report links the ones that were drawn" >&2
echo "figures: $(( $(date +%s) - figures_start )) s after the experiments"

# --- 5. The reproduction report (published numbers vs the results) ----------------------------------
"$dpclust" report "$out" --figures "$figures"
echo
echo "done in $(( $(date +%s) - start )) s: results in $out/<experiment>/results.json, figures in $figures/, report $out/REPORT.md"
