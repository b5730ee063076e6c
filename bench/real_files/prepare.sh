#!/bin/sh
# Places the eight public ARFF files of configs/examples/real_files/ under DATA_ROOT/real_files/.
# Source: the GitHub repository renatopp/arff-datasets at commit c59f172882592bb58982cc54d2d3c8a2b57e9b73
# (Weka/UCI benchmark files: labor, hepatitis and colic with nominal attributes and missing values, anneal with
# 33 nominal attributes, spambase with 57 and optdigits with 64 numeric columns, breast.w with missing values,
# vehicle). The files are not part of this repository.
#   usage: bench/real_files/prepare.sh CHECKOUT DATA_ROOT
#   CHECKOUT: a clone of https://github.com/renatopp/arff-datasets (git checkout c59f172)
# then:  dpclust run configs/examples/real_files/*.yaml --data-root DATA_ROOT --out results-real --keep-going
set -eu
src=$1/classification
dst=$2/real_files
mkdir -p "$dst"
for f in labor hepatitis colic spambase optdigits breast.w vehicle anneal; do
  cp "$src/$f.arff" "$dst/$f.arff"
done
sha256sum "$dst"/*.arff
