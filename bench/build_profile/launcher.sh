#!/bin/sh
# A compiler and linker launcher that records what each compile or link step costs (CPU seconds: user and
# system, wall seconds, peak memory) in $DPCLUST_BUILD_PROFILE_LOG, one line per step, then runs the step
# itself. bench/build_profile/summary.py reads the log (docs/performance.md, "Where the build time goes"):
#
#   cmake -S . -B build-prof -DCMAKE_BUILD_TYPE=Release \
#         -DCMAKE_CXX_COMPILER_LAUNCHER="$PWD/bench/build_profile/launcher.sh" \
#         -DCMAKE_CXX_LINKER_LAUNCHER="$PWD/bench/build_profile/launcher.sh"
#   DPCLUST_BUILD_PROFILE_LOG=$PWD/build-prof/profile.log cmake --build build-prof -j 2
#
# Without ccache: a cached object costs nothing and would say nothing about the code. The step's output
# (the argument after -o) names it; the log line is: user system wall max_rss_kb output.
log="${DPCLUST_BUILD_PROFILE_LOG:-/dev/null}"
out="?"
prev=""
for a in "$@"; do
  [ "$prev" = "-o" ] && out="$a"
  prev="$a"
done
exec /usr/bin/time -a -o "$log" -f "%U %S %e %M $out" "$@"
