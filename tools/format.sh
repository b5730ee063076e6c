#!/bin/sh
# Applies the C++ form of .clang-format to every tracked C++ file and deletes tools/formatted_files.txt (the list of
# the files in form so far), so that the ctest source_format_check checks every tracked C++ file from then on.
# Run once, at the top of the source tree, when no branch with C++ changes is open; then commit the result.
#   tools/format.sh            (CLANG_FORMAT=clang-format-14 tools/format.sh for another binary)
set -eu
cd "$(dirname "$0")/.."
format=${CLANG_FORMAT:-clang-format}
command -v "$format" >/dev/null 2>&1 || format=clang-format-14
git ls-files '*.cpp' '*.hpp' '*.h' | xargs "$format" -i
git rm -q --cached --ignore-unmatch tools/formatted_files.txt
rm -f tools/formatted_files.txt
echo "formatted $(git ls-files '*.cpp' '*.hpp' '*.h' | wc -l) files; tools/formatted_files.txt removed: commit both"
