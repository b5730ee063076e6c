#!/usr/bin/python3
"""Regenerate every figure from the JSON results (never reruns an experiment).

  /usr/bin/python3 plots/make_figures.py --results results --out plots/out

1. Generic figures for every experiment (plot_results.py: metric against the swept parameter, or bars).
2. The papers' figures and tables (plots/paper_*.py): each module has FIGURES, a list of functions
   f(results_dir, out_dir) -> list of written files; a function whose experiment is absent returns []
   and says so.
"""
import argparse
import importlib
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import plot_results  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default="results")
    ap.add_argument("--out", default="plots/out")
    args = ap.parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for data in plot_results.load(args.results):
        written += plot_results.plot_experiment(data, out)
    for module_file in sorted(HERE.glob("paper_*.py")):
        module = importlib.import_module(module_file.stem)
        for figure in getattr(module, "FIGURES", []):
            try:
                files = figure(pathlib.Path(args.results), out)
            except FileNotFoundError as e:
                print(f"skipped {module_file.stem}.{figure.__name__}: {e}", file=sys.stderr)
                continue
            written += files
    print(f"{len(written)} figure files in {out}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
