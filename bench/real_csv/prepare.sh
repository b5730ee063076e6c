#!/bin/sh
# Places the eight public CSV files of configs/examples/real_csv/ under DATA_ROOT/real_csv/ (docs/datasets.md,
# "Files as researchers have them"). The files are not part of this repository. Sources:
#   SEABORN: a clone of https://github.com/mwaskom/seaborn-data at commit 71e2436a092d714350de0fc409ca8a8714e7e78f
#            taxis (two timestamps, text columns with empty values), titanic (True/False columns, a text
#            column named class), brain_networks (names in three rows, then a blank row; 63 columns),
#            diamonds (53,940 rows, quoted text columns), dowjones (a date and a value);
#   PENGUINS: a clone of https://github.com/allisonhorst/palmerpenguins at commit 8957207b78d6ccd1b4654a9dd9c9041b657478ab
#            inst/extdata/penguins_raw.csv (NA values, a date, quoted text holding commas, free-text comments);
#   LETTER:  letter-recognition.data with a header line, the letter (the class) in the first column: UCI's Letter
#            Recognition as `dpclust data fetch letter` places it (uci/letter-recognition.data under a data root);
#   scikit-learn's digits.csv.gz (no header, 64 pixel columns and the digit last), from the installed package
#            (python3 -c "import sklearn, os; print(os.path.dirname(sklearn.__file__))")/datasets/data/.
#   usage: bench/real_csv/prepare.sh SEABORN PENGUINS LETTER_FILE SKLEARN_DATA_DIR DATA_ROOT
# then:  dpclust run configs/examples/real_csv/*.yaml --data-root DATA_ROOT --out results-csv --keep-going
set -eu
dst=$5/real_csv
mkdir -p "$dst"
for f in taxis titanic brain_networks diamonds dowjones; do
  (cd "$1" && git show 71e2436a092d714350de0fc409ca8a8714e7e78f:$f.csv) > "$dst/$f.csv"
done
(cd "$2" && git show 8957207b78d6ccd1b4654a9dd9c9041b657478ab:inst/extdata/penguins_raw.csv) > "$dst/penguins_raw.csv"
cp "$3" "$dst/letter-recognition.data"
cp "$4/digits.csv.gz" "$dst/digits.csv.gz"
sha256sum "$dst"/*
