#!/bin/sh
# Applies the C++ form of .clang-format to every tracked C++ file (the form the ctest source_format_check checks).
#   tools/format.sh            (CLANG_FORMAT=clang-format-14 tools/format.sh for another binary)
set -eu
cd "$(dirname "$0")/.."
format=${CLANG_FORMAT:-clang-format}
command -v "$format" >/dev/null 2>&1 || format=clang-format-14
git ls-files '*.cpp' '*.hpp' '*.h' | xargs "$format" -i
echo "formatted $(git ls-files '*.cpp' '*.hpp' '*.h' | wc -l) files"
