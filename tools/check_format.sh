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
# One clang-format process over all the files (in xargs' batches): it goes on past a file out of form and names each
# one in its messages ("FILE:LINE:COL: error: code should be clang-formatted"). A process a file spent 20 s on
# starting 650 processes against 2 s of formatting.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  list_files() { git ls-files -z '*.cpp' '*.hpp' '*.h'; }
  scope="every tracked C++ file"
else
  list_files() {
    find engine experiments python tests bench \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) \
      -not -path 'tests/fixtures/*' -print0
  }
  scope="every C++ file"
fi
report=$(mktemp "${TMPDIR:-/tmp}/dpclust_format.XXXXXX") || exit 2
trap 'rm -f "$report"' EXIT
# A tracked file deleted in the work tree is skipped, as git would not format it either.
if ! list_files | xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
  xargs -0 -r "$format" --dry-run --Werror >/dev/null 2>"$report"; then
  status=1
  out_of_form=$(sed -n 's/^\(.*\):[0-9][0-9]*:[0-9][0-9]*: error: code should be clang-formatted.*/\1/p' "$report" | uniq)
  if [ -n "$out_of_form" ]; then
    printf '%s\n' "$out_of_form" | while IFS= read -r f; do
      echo "$f: not in the form of .clang-format (run: $format -i $f)"
    done
  else
    echo "$format failed:"
    cat "$report"
  fi
fi
"$flake8" python plots bench tests/python tools || status=1
[ $status -eq 0 ] && echo "C++ form ($scope) and Python lint: clean"
exit $status
