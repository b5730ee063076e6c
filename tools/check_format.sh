#!/bin/sh
# The form the tools keep, checked by the ctest source_format_check:
#   - C++: clang-format --dry-run --Werror (.clang-format) over every tracked C++ file (tools/format.sh puts them in
#     form).
#   - Python: flake8 (.flake8) over python/, plots/, bench/, tests/python/ and tools/.
# Debian's packages: clang-format, flake8 (run_all.sh installs them).
#   tools/check_format.sh [SOURCE_DIR]
set -u
cd "${1:-$(dirname "$0")/..}" || exit 2
format=${CLANG_FORMAT:-clang-format}
command -v "$format" >/dev/null 2>&1 || format=clang-format-14
command -v "$format" >/dev/null 2>&1 || { echo "clang-format not found (Debian: apt-get install clang-format)"; exit 1; }
flake8=$(command -v flake8 || echo /usr/bin/flake8)
[ -x "$flake8" ] || { echo "flake8 not found (Debian: apt-get install flake8)"; exit 1; }
status=0
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  files=$(git ls-files '*.cpp' '*.hpp' '*.h')
  scope="every tracked C++ file"
else
  files=$(find engine experiments python tests bench \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) | grep -v '^tests/fixtures/')
  scope="every C++ file"
fi
for f in $files; do
  [ -e "$f" ] || continue
  if ! "$format" --dry-run --Werror "$f" >/dev/null 2>&1; then
    echo "$f: not in the form of .clang-format (run: $format -i $f)"
    status=1
  fi
done
"$flake8" python plots bench tests/python tools || status=1
[ $status -eq 0 ] && echo "C++ form ($scope) and Python lint: clean"
exit $status
