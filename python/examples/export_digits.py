"""scikit-learn's digits (UCI optdigits' test set: 1,797 images of 8 x 8 pixels, grey levels 0..16) as a CSV file
for a dpclust config: 64 pixel columns p0..p63 and the digit as the label column `digit`.

    /usr/bin/python3 python/examples/export_digits.py [FOLDER]     # writes FOLDER/digits.csv (default: here)

The data come with scikit-learn (sklearn.datasets.load_digits reads its bundled copy: no download). The
public domain is [0, 16] per pixel, a fact of the format (4-bit grey levels), not of these images: the
bounds the config gives every method (digits_sweep.yaml, docs/researcher.md).
"""
import os
import sys

import numpy as np
from sklearn.datasets import load_digits


def main(folder="."):
    X, y = load_digits(return_X_y=True)
    path = os.path.join(folder, "digits.csv")
    header = ",".join([f"p{i}" for i in range(X.shape[1])] + ["digit"])
    np.savetxt(path, np.column_stack([X, y]).astype(np.int64), delimiter=",", fmt="%d", header=header, comments="")
    print(f"{path}: {X.shape[0]} rows, {X.shape[1]} pixel columns and the label 'digit'")
    return path


if __name__ == "__main__":
    main(*sys.argv[1:2])
