#!/usr/bin/python3
"""Tables of Qiu & Yi, "Approximate DBSCAN under Differential Privacy", from dpclust results only (the figures are
plots/paper_dpdbscan.py's, whose helpers these share).

Called by plots/make_figures.py (FIGURES); each function takes (results_dir, out_dir), reads
results_dir/<experiment>/results.json and writes Markdown into out_dir, returning the written files.

  dpdbscan_table2.md       Table 2: ARI/AMI at eps = 1 next to the published values (dpdbscan_table2,
                           dpdbscan_har70)
  dpdbscan_table3.md       Table 3: running times (dpdbscan_table3, dpdbscan_crash, dpdbscan_cabs,
                           dpdbscan_har70) beside the published ones; rows of absent experiments say
                           "not run"

Published numbers come only from the project's reference/published.yaml ("tables" entries, matched by experiment;
Table 3's times from the top-level "timings" entries), read with PyYAML (Debian's python3-yaml).
Usage on its own: /usr/bin/python3 plots/paper_dpdbscan_tables.py --results results --out plots/out
"""
import json
import math
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import plot_results  # noqa: E402
from paper_dpdbscan import PUBLISHED, STYLE, _cell, _dname, _load, published_tables, published_value  # noqa: E402
from plot_results import datasets_in_order, error  # noqa: E402


def _fmt(agg, digits=2):
    if not agg or agg.get("mean") is None:
        return "—"
    s = f"{agg['mean']:.{digits}f}"
    e = error(agg)
    if e and not math.isnan(e):
        s += f" ± {e:.{digits}f}"
    return s


def dpdbscan_table2(results_dir, out_dir):
    name, data = _load(results_dir, ["dpdbscan_table2"])
    series = ["dp_dbscan", "dp_kmeans", "dbscan", "kmeans"]
    sources = [(name, data)]
    hname, hdata = _load(results_dir, ["dpdbscan_har70"], required=False)
    if hdata:
        sources.append((hname, hdata))
    trials_text = ", ".join(f"`{n}`: {d.get('trials', '?')} trials" for n, d in sources)
    lines = ["# Table 2: ARI and AMI (eps = 1 for the private methods)", "",
             "Reproduced: mean ± 95% CI half-width over the trials "
             f"({trials_text}); "
             "paper: Qiu & Yi Table 2, from `reference/published.yaml`. "
             "† marks a reproduced mean farther from the paper than the tolerance given there.", ""]
    for metric in ("ari", "ami"):
        head = ["Dataset"] + [f"{STYLE[s][0]} {h}" for s in series for h in ("ours", "paper")]
        lines += [f"## {metric.upper()}", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for src_name, src in sources:
            tables = published_tables(src_name)
            for ds in datasets_in_order(src):
                row = [_dname(ds)]
                for s in series:
                    c = _cell(src, ds, series=s)
                    agg = c["aggregates"].get(metric) if c else None
                    pub, t = published_value(tables, metric, ds, s)
                    ours = _fmt(agg)
                    if pub is not None and agg and agg.get("mean") is not None:
                        tol = t.get("tolerance")
                        if isinstance(tol, (int, float)) and abs(agg["mean"] - pub) > tol + 1e-12:
                            ours += " †"
                    row += [ours, "—" if pub is None else f"{pub:.2f}"]
                lines.append("| " + " | ".join(row) + " |")
        lines.append("")
    path = pathlib.Path(out_dir) / "dpdbscan_table2.md"
    path.write_text("\n".join(lines))
    return [path]


def _fmt_time(sec):
    if sec is None or (isinstance(sec, float) and math.isnan(sec)):
        return "—"
    if sec < 1e-3:
        return f"{1e6 * sec:.3g} µs"
    if sec < 1:
        return f"{1e3 * sec:.3g} ms"
    return f"{sec:.3g} s"


T3_EXPERIMENTS = ["dpdbscan_table3", "dpdbscan_crash", "dpdbscan_cabs", "dpdbscan_har70"]
T3_COLUMNS = {"dp_dbscan_naive": "DP-DBSCAN O(\\|X\\|)", "dp_dbscan_linear": "DP-DBSCAN O(n)", "dp_kmeans": "DP-k-means",
              "dbscan": "DBSCAN", "kmeans": "k-means"}


def published_timings(experiments):
    """The `timings:` entries of reference/published.yaml for these experiments, in the file's order ([] when none)."""
    if not PUBLISHED.is_file():
        return []
    doc = plot_results.load_yaml(PUBLISHED) or {}
    return [t for t in doc.get("timings") or [] if isinstance(t, dict) and t.get("experiment") in experiments]


def _t3_column(cell):
    """The Table 3 column of one of our cells: dp_dbscan placed by the histogram it used."""
    if cell["method"] == "dp_dbscan":
        lin = (cell.get("diagnostics_aggregates") or {}).get("histogram_linear", {}).get("mean")
        if lin is None:
            lin = 1.0 if "linear" in cell["series"] else 0.0
        return "dp_dbscan_linear" if lin >= 0.5 else "dp_dbscan_naive"
    return cell["method"] if cell["method"] in ("dp_kmeans", "dbscan", "kmeans") else None


def _t3_cell(data, dataset, column, series):
    """Our cell of a published (dataset, column): the named series, else the one the column's method placed."""
    if data is None:
        return None
    c = _cell(data, dataset, series=series)
    if c is not None:
        return c
    for c in data["cells"]:
        if c["dataset"] == dataset and _t3_column(c) == column:
            return c
    return None


def _skip_reason(results_dir, experiment):
    path = pathlib.Path(results_dir) / experiment / "skipped.json"
    plot_results.track(path)
    try:
        return (json.loads(path.read_text()) or {}).get("reason") if path.is_file() else None
    except (OSError, ValueError, AttributeError):
        return None


def dpdbscan_table3(results_dir, out_dir):
    """Table 3 from the `timings:` of reference/published.yaml: per dataset and column our mean
    timing.method_seconds, the paper's time (or its remark, e.g. "- (out of memory)") and paper / ours."""
    loaded = {}
    for exp in T3_EXPERIMENTS:
        n_, d_ = _load(results_dir, [exp], required=False)
        if d_:
            loaded[exp] = d_
    timings = published_timings(T3_EXPERIMENTS)
    if not loaded and not timings:
        raise FileNotFoundError("experiment " + " / ".join(T3_EXPERIMENTS) + " not in results, and no Table 3 timings in "
                                "reference/published.yaml")
    rows, used = [], set()

    def ours_of(data, c, metric):
        agg = ((c or {}).get("timing") or {}).get(metric) or {}
        return agg.get("mean"), agg.get("n")

    def n_points(data, ds):
        info = ((data or {}).get("datasets") or {}).get(ds) or {}
        return f"{info['n']:,}" if isinstance(info.get("n"), int) else "—"

    for t in timings:
        exp = t["experiment"]
        data = loaded.get(exp)
        metric = t.get("metric") or "method_seconds"
        series_for = t.get("series_for") or {}
        for ds, cols in (t.get("seconds") or {}).items():
            for col, pub in (cols or {}).items():
                series = series_for.get(col, col)
                c = _t3_cell(data, ds, col, series)
                if c is not None:
                    used.add((exp, id(c)))
                mean, n = ours_of(data, c, metric)
                if data is None:
                    ours = f"not run (`{exp}` not in the results)"
                elif c is None:
                    ours = "not run (no cell)"
                else:
                    ours = _fmt_time(mean)
                if isinstance(pub, (int, float)) and not isinstance(pub, bool):
                    paper = _fmt_time(float(pub))
                    ratio = f"{pub / mean:.3g}" if mean else "—"
                else:
                    paper, ratio = str(pub).replace("|", "\\|"), "—"
                rows.append([_dname(ds), n_points(data, ds), T3_COLUMNS.get(col, col), f"`{c['series'] if c else series}`", ours,
                             str(n) if n else "—", paper, ratio])
    # Our cells that no published time covers (another dataset or series of the same experiments).
    for exp, data in loaded.items():
        for c in data["cells"]:
            col = _t3_column(c)
            if col is None or (exp, id(c)) in used:
                continue
            mean, n = ours_of(data, c, "method_seconds")
            rows.append([_dname(c["dataset"]), n_points(data, c["dataset"]), T3_COLUMNS.get(col, col), f"`{c['series']}`",
                         _fmt_time(mean), str(n) if n else "—", "—", "—"])

    machines = sorted({t["machine"] for t in timings if t.get("machine")})
    missing = [e for e in dict.fromkeys([t["experiment"] for t in timings] + T3_EXPERIMENTS) if e not in loaded]
    head = ["Dataset", "n", "Method", "Series", "ours (mean)", "trials", "paper", "paper / ours"]
    lines = ["# Table 3: running time", "",
             "Reproduced: mean over the trials of `timing.method_seconds` (the method alone; DP-DBSCAN includes "
             "extracting the point labels for evaluation), C++ Release build on this machine, experiments "
             f"{', '.join('`' + n + '`' for n in loaded) or '(none)'}. O(\\|X\\|) = naive histogram, O(n) = linear-time "
             "histogram (Alg. 2); a series run with `histogram: auto` is placed by the histogram it used.", ""]
    if timings:
        lines += ["Paper: Qiu & Yi Table 3, the `timings:` of `reference/published.yaml` (" + "; ".join(machines) +
                  "); a remark such as \"- (out of memory)\" is the paper's. *paper / ours* is how many times faster "
                  "we are; the times are not comparable in absolute terms (other language, other machine).", ""]
    else:
        lines += ["`reference/published.yaml` holds no Table 3 timings (top-level `timings:` entries for these "
                  "experiments), so only the reproduced times are shown.", ""]
    if missing:
        notes = []
        for e in missing:
            why = _skip_reason(results_dir, e)
            notes.append(f"`{e}` (`configs/paper/{e}.yaml`" + (f"; skipped: {why}" if why else "") + ")")
        lines += ["Not in the results, so their rows say *not run*: " + ", ".join(notes) + ".", ""]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    lines.append("")
    path = pathlib.Path(out_dir) / "dpdbscan_table3.md"
    path.write_text("\n".join(lines))
    return [path]


FIGURES = [dpdbscan_table2, dpdbscan_table3]


def main():
    return plot_results.run_figures(FIGURES, __doc__)


if __name__ == "__main__":
    sys.exit(main())
