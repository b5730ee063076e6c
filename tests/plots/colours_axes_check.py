"""One colour per method in every figure, and a log epsilon axis: the generic (plot_results.py), comparison
(plot_comparison.py) and benchmark (benchmark_figures.py) figures of the committed fixture, drawn with save()
replaced by a capture, must colour each series by method_colours.method_colour and put epsilon on a log axis.

  /usr/bin/python3 tests/plots/colours_axes_check.py PROJECT_ROOT   (exit 1 on a failed check; one line per check)
"""
import json
import pathlib
import sys

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2])
sys.path.insert(0, str(ROOT / "plots"))
import plot_results  # noqa: E402
import plot_comparison  # noqa: E402
import benchmark_figures  # noqa: E402
import method_colours  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402

failed = 0


def check(ok, what):
    global failed
    print(("ok   " if ok else "FAIL ") + what)
    failed += not ok


captured = []


def capture(fig, out, stem, crop=True):
    captured.append((stem, fig))
    return []


plot_results.save = capture
plot_comparison.save = capture

data = json.loads((ROOT / "tests/fixtures/results/dpdbscan_fig10/results.json").read_text())
series = sorted({c.get("series") or c.get("method") for c in data["cells"]})
plot_comparison.plot_comparison(data, "/nonexistent")
plot_results.plot_experiment(data, "/nonexistent")
check(len(captured) >= 2, f"comparison and generic figures drawn ({len(captured)})")
for stem, fig in captured:
    for ax in fig.axes:
        if "epsilon" in ax.get_xlabel():
            check(ax.get_xscale() == "log", f"{stem}: epsilon axis is logarithmic")
        drawn = [(line.get_label(), line.get_color()) for line in ax.get_lines()]
        drawn += [(c.get_label(), c.lines[0].get_color()) for c in ax.containers if hasattr(c, "lines") and c.lines[0] is not None]
        for label, colour in drawn:
            name = next((s for s in series if label == s or label.startswith(s + " ")), None)
            if name is None or label.startswith("_"):
                continue
            check(to_hex(colour) == to_hex(method_colours.method_colour(name)),
                  f"{stem}: '{label}' drawn in {name}'s colour")
check(benchmark_figures._colours(["dpm", "eugkm", "my_method"]) ==
      {n: method_colours.method_colour(n) for n in ["dpm", "eugkm", "my_method"]}, "benchmark figures use the shared map")
check(method_colours.method_colour("my_method") == method_colours.method_colour("my_method")
      and method_colours.method_colour("kmeans") != method_colours.method_colour("dpm"), "colours are stable and distinct")
known = list(method_colours.KNOWN.values())
check(len(set(known)) == len(known), "every catalog method has a colour of its own")
check(not set(method_colours.OTHERS) & set(known), "a name outside the catalog never takes a catalog method's colour")
sys.exit(1 if failed else 0)
