#!/usr/bin/python3
"""Tables and figures of Oliveira & Zaiane, "Privacy Preserving Clustering by Data Transformation" (DRBT),
from dpclust results only.

Called by plots/make_figures.py (FIGURES); each function takes (results_dir, out_dir), reads
results_dir/<experiment>/results.json and writes into out_dir (Markdown tables, PNG figures; PDF too with --pdf),
returning the written files. A function whose experiment is absent prints which one and returns [].

  drbt_table4.md           Table 4: stress of RP1/RP2 on the Table 3 arrhythmia sample, k = 6..3
                           (drbt_table4_series, else drbt_table4_arrhythmia)
  drbt_table7.md           Table 7: the datasets' records and attributes, from the results' dataset
                           provenance (drbt_stress_fimi, drbt_of_fimi, drbt_partitioned_pumsb, the Accidents runs)
  drbt_table10.md          Table 10: Pumsb's split among 1-4 parties (drbt_partitioned_pumsb diagnostics)
  drbt_table11.md          Table 11: OF avg / std of RP2 over 1-4 parties, k = 2..5 (drbt_partitioned_pumsb)
  drbt_tables12_16.md      Appendix A, Tables 12-16: stress of RP1/RP2 against d_r per dataset (drbt_stress_fimi,
                           drbt_stress_accidents)
  drbt_tables8_17_20.md    Tables 8, 17-20 (and Table 9 when drbt_table9_iris is present): OF min / max / avg /
                           std of RP2, k = 2..5 (drbt_of_fimi, drbt_of_accidents)
  drbt_fig2_stress         Figure 2 (Pumsb, Chess) and the other Appendix A datasets: stress against d_r, RP1 and
                           RP2, ours (95% CI) with the paper's values as open markers (drbt_stress_fimi,
                           drbt_stress_accidents)
  drbt_fig3_partitioned    Figure 3: stress on Pumsb against the number of parties, RP1 and RP2
                           (drbt_partitioned_pumsb; the k = 2 cells, the stress does not depend on k)

Published averages come from reference/published.yaml ("tables" entries matched by experiment). The paper's
min / max / std of Tables 8-9 and 17-20, the std of Table 11 and the record counts of Table 7 are not values the
report checks; they are quoted here (PAPER_* below, with the table they come from).
Usage on its own: /usr/bin/python3 plots/paper_drbt.py --results results --out plots/out
"""
import math
import pathlib
import sys


HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import plot_results  # noqa: E402  (also sets the matplotlib backend and the shared style)
from plot_results import error, save  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402

PUBLISHED = HERE.parent / "reference" / "published.yaml"

DATASETS = ["accidents", "mushroom", "chess", "connect", "pumsb"]  # Table 7's order
NAMES = {"accidents": "Accidents", "mushroom": "Mushroom", "chess": "Chess", "connect": "Connect", "pumsb": "Pumsb",
         "iris": "Iris", "arrhythmia_table3": "Arrhythmia (Table 3)"}
STYLE = {"rp1": ("RP1", "#1f77b4", "o"), "rp2": ("RP2", "#d62728", "s"),
         "rp1_orthonormal": ("RP1 orthonormal", "#aec7e8", "v"), "rp2_orthonormal": ("RP2 orthonormal", "#ff9896", "^")}

# Table 7: records per dataset (the report checks the attributes, d_original; the record counts are quoted).
PAPER_RECORDS = {"accidents": 340183, "mushroom": 8124, "chess": 3196, "connect": 67557, "pumsb": 49046}
# Tables 8, 17-20 (and 9 for Iris): min, max, std of the OF of RP2 over 10 trials, k = 2..5 (avg: published.yaml).
PAPER_OF_SPREAD = {
    "accidents": {2: (0.931, 0.952, 0.014), 3: (0.903, 0.921, 0.009), 4: (0.870, 0.891, 0.010), 5: (0.878, 0.898, 0.006)},
    "chess": {2: (0.529, 0.873, 0.143), 3: (0.592, 0.752, 0.050), 4: (0.597, 0.770, 0.063), 5: (0.569, 0.761, 0.060)},
    "mushroom": {2: (0.972, 0.975, 0.001), 3: (0.689, 0.960, 0.105), 4: (0.727, 0.864, 0.058), 5: (0.747, 0.884, 0.051)},
    "pumsb": {2: (0.611, 0.994, 0.140), 3: (0.735, 0.991, 0.081), 4: (0.846, 0.925, 0.028), 5: (0.765, 0.992, 0.041)},
    "connect": {2: (0.596, 0.863, 0.066), 3: (0.486, 0.863, 0.103), 4: (0.618, 0.819, 0.069), 5: (0.572, 0.763, 0.069)},
    "iris": {2: (1.000, 1.000, 0.000), 3: (0.094, 0.096, 0.010), 4: (0.773, 0.973, 0.089), 5: (0.711, 0.960, 0.072)},
}
PAPER_OF_TABLE = {"accidents": "Table 8", "chess": "Table 17", "mushroom": "Table 18", "pumsb": "Table 19",
                  "connect": "Table 20", "iris": "Table 9"}
# Table 11: std of the OF of RP2 on Pumsb, parties -> k -> std (avg: published.yaml).
PAPER_T11_STD = {1: {2: 0.140, 3: 0.081, 4: 0.028, 5: 0.041}, 2: {2: 0.117, 3: 0.101, 4: 0.059, 5: 0.047},
                 3: {2: 0.168, 3: 0.095, 4: 0.081, 5: 0.073}, 4: {2: 0.155, 3: 0.117, 4: 0.088, 5: 0.078}}


# --- results and published values ---------------------------------------------------------------------

def _load(results_dir, names, figure):
    """(name, data) of the first present experiment, or (None, None) after saying which is missing."""
    name, data = plot_results.load_first(results_dir, names, required=False)
    if data is None:
        print(f"paper_drbt: {figure} not written: experiment {' / '.join(names)} not in {results_dir}", file=sys.stderr)
    return name, data


def _published(experiment):
    """[(params, values, tolerance)] of the reference file's tables for this experiment ("a+b": either)."""
    if not PUBLISHED.is_file():
        return []
    names = experiment.split("+")
    doc = plot_results.load_yaml(PUBLISHED) or {}
    return [(t.get("params") or {}, t.get("values") or {}, t.get("tolerance"))
            for t in doc.get("tables") or [] if isinstance(t, dict) and t.get("experiment") in names]


def _merged(results_dir, names, figure):
    """(joined name, data) with the cells and datasets of every present experiment of `names` (Accidents runs
    apart from the other FIMI sets: configs/paper/drbt_stress_accidents.yaml), or (None, None) after saying so."""
    found = [(n, d) for n in names for n, d in [plot_results.load_first(results_dir, [n], required=False)] if d is not None]
    if not found:
        print(f"paper_drbt: {figure} not written: experiment {' / '.join(names)} not in {results_dir}", file=sys.stderr)
        return None, None
    data = {"cells": [], "datasets": {}, "trials": found[0][1].get("trials")}
    for _, d in found:
        data["cells"] += d["cells"]
        data["datasets"].update(d.get("datasets") or {})
    return "+".join(n for n, _ in found), data


def _paper(tables, metric, dataset, series, **params):
    """The published number matching (metric, dataset, series, params), or None."""
    for tp, values, tol in tables:
        if any(float(tp.get(k, math.nan)) != float(v) for k, v in params.items()):
            continue
        v = ((values.get(metric) or {}).get(dataset) or {}).get(series)
        if isinstance(v, (int, float)):
            return float(v), tol
    return None, None


def _cells(data, dataset=None, series=None, **params):
    out = []
    for c in data["cells"]:
        if dataset is not None and c["dataset"] != dataset:
            continue
        if series is not None and c["series"] != series:
            continue
        if any(c["params"].get(k) != v for k, v in params.items()):
            continue
        out.append(c)
    return out


def _agg(cell, metric):
    if cell is None:
        return None
    for where in ("aggregates", "diagnostics_aggregates", "evaluation_aggregates"):
        if metric in (cell.get(where) or {}):
            return cell[where][metric]
    return None


def _fmt(agg, digits=3, ci=True):
    if not agg or agg.get("mean") is None:
        return "—"
    s = f"{agg['mean']:.{digits}f}"
    e = error(agg)
    if ci and e and not math.isnan(e):
        s += f" ± {e:.{digits}f}"
    return s


def _num(x, digits=3):
    return "—" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def _mark(agg, pub, tol):
    """' †' when the reproduced mean is farther from the paper than the reference file's tolerance."""
    if pub is None or not agg or agg.get("mean") is None or not isinstance(tol, (int, float)):
        return ""
    return " †" if abs(agg["mean"] - pub) > tol + 1e-12 else ""


def _write(out_dir, stem, lines):
    path = pathlib.Path(out_dir) / f"{stem}.md"
    path.write_text("\n".join(lines) + "\n")
    return [path]


def _trials(name, data):
    return f"`{name.replace('+', '`, `')}`: {data.get('trials', '?')} trials per cell"


# --- tables -------------------------------------------------------------------------------------------

def drbt_table4(results_dir, out_dir):
    name, data = _load(results_dir, ["drbt_table4_series", "drbt_table4_arrhythmia"], "drbt_table4.md")
    if data is None:
        return []
    tables = _published("drbt_table4_series")
    ks = sorted({c["params"]["k_dims"] for c in data["cells"]}, reverse=True)
    lines = ["# Table 4: stress of the arrhythmia sample (Table 3), 6 -> k dimensions", "",
             f"Reproduced ({_trials(name, data)}): mean ± 95% CI half-width of Eq. 6's stress^2 over the random draws, "
             "[min, max] of the single draws after it; paper: one draw per cell (Table 4, via `reference/published.yaml`). "
             "The paper's k = 6 column (0.0000, the untransformed data) is matched by the orthonormal series (a rotation).",
             "", "| Dataset | Transformation | " + " | ".join(f"k = {k} ours | k = {k} paper" for k in ks) + " |",
             "|---|---|" + "---|---|" * len(ks)]
    if name == "drbt_table4_series":
        rows = [(s, {}) for s in ("rp1", "rp2", "rp1_orthonormal", "rp2_orthonormal")]
    else:  # projection is a parameter of the series drbt / drbt_orthonormal
        rows = [(s, {"projection": p}) for s in ("drbt", "drbt_orthonormal") for p in ("rp1", "rp2")]
    for series, extra in rows:
        # The series names of drbt_table4_series (rp1, rp2_orthonormal, ...) are the published ones.
        pub_series = series if not extra else extra["projection"] + ("_orthonormal" if "orthonormal" in series else "")
        row = [NAMES["arrhythmia_table3"], STYLE[pub_series][0]]
        present = False
        for k in ks:
            cs = _cells(data, series=series, k_dims=k, **extra)
            agg = _agg(cs[0], "stress") if cs else None
            present = present or agg is not None
            pub, tol = _paper(tables, "stress", "arrhythmia_table3", pub_series, k_dims=k)
            ours = _fmt(agg, 4)
            if agg and agg.get("min") is not None:
                ours += f" [{agg['min']:.4f}, {agg['max']:.4f}]"
            row += [ours, _num(pub, 4)]
        if present:
            lines.append("| " + " | ".join(row) + " |")
    return _write(out_dir, "drbt_table4", lines)


def _dataset_sources(results_dir):
    found = []
    for n in ("drbt_stress_fimi", "drbt_of_fimi", "drbt_partitioned_pumsb", "drbt_stress_accidents", "drbt_of_accidents"):
        name, data = plot_results.load_first(results_dir, [n], required=False)
        if data is not None:
            found.append((name, data))
    return found


def drbt_table7(results_dir, out_dir):
    sources = _dataset_sources(results_dir)
    if not sources:
        print("paper_drbt: drbt_table7.md not written: none of the DRBT FIMI experiments "
              f"in {results_dir}", file=sys.stderr)
        return []
    info = {}
    for name, data in sources:
        for ds, d in (data.get("datasets") or {}).items():
            info.setdefault(ds, (name, d))
    tables = _published("drbt_of_fimi+drbt_of_accidents")
    lines = ["# Table 7: the datasets", "",
             "Reproduced: the records and attributes the runs loaded (results' dataset provenance); paper: Table 7 "
             "(attributes via `reference/published.yaml`, records quoted).", "",
             "| Dataset | #records ours | #records paper | #attributes ours | #attributes paper | file | experiment |",
             "|---|---|---|---|---|---|---|"]
    for ds in DATASETS + sorted(set(info) - set(DATASETS)):
        if ds not in info:
            lines.append(f"| {NAMES.get(ds, ds)} | not run | {PAPER_RECORDS.get(ds, '—'):,} | not run | — | — | — |")
            continue
        name, d = info[ds]
        pub_d, _ = _paper(tables, "d_original", ds, "rp2", k=2)
        files = (d.get("provenance") or {}).get("files") or []
        fname = pathlib.Path(files[0]["path"]).name if files and files[0].get("path") else "—"
        rec = PAPER_RECORDS.get(ds)
        lines.append(f"| {NAMES.get(ds, ds)} | {d.get('n', 0):,} | {'—' if rec is None else f'{rec:,}'} | {d.get('d', '—')} | "
                     f"{'—' if pub_d is None else int(pub_d)} | {fname} | `{name}` |")
    return _write(out_dir, "drbt_table7", lines)


def drbt_table10(results_dir, out_dir):
    name, data = _load(results_dir, ["drbt_partitioned_pumsb"], "drbt_table10.md")
    if data is None:
        return []
    lines = ["# Table 10: partitioning Pumsb among parties", "",
             f"Reproduced ({_trials(name, data)}): the split of every run (diagnostics); paper: Table 10 and Sec. 6.4 "
             "(37, 25, 24, 19 and 18 attributes reduced to 19, 13, 12, 10 and 9).", "",
             "| No. of parties | attributes per party (ours) | dimensions per party (ours) | attributes in the merged dataset |",
             "|---|---|---|---|"]
    for p in sorted({c["params"]["parties"] for c in data["cells"]}):
        cs = _cells(data, parties=p)
        c = cs[0]

        def val(m):
            a = _agg(c, m)
            return None if not a else int(round(a["mean"]))
        amax, amin, dmax, dmin = (val(m) for m in ("party_attributes_max", "party_attributes_min", "party_dims_max", "party_dims_min"))
        if amax is None:
            attrs = dims = "— (results without party diagnostics)"
        else:
            attrs = f"{amax}" if amax == amin else f"{amax} / {amin}"
            dims = f"{dmax}" if dmax == dmin else f"{dmax} / {dmin}"
        lines.append(f"| {p} | {attrs} | {dims} | {val('d_reduced')} |")
    return _write(out_dir, "drbt_table10", lines)


def drbt_table11(results_dir, out_dir):
    name, data = _load(results_dir, ["drbt_partitioned_pumsb"], "drbt_table11.md")
    if data is None:
        return []
    tables = _published(name)
    ks = sorted({c["params"]["k"] for c in data["cells"]})
    head = ["No. of parties"] + [f"k = {k} {h}" for k in ks for h in ("avg ours", "std ours", "avg paper", "std paper")]
    lines = ["# Table 11: overall F-measure of RP2 on Pumsb over vertically partitioned data", "",
             f"Reproduced ({_trials(name, data)}): mean and standard deviation over the trials; paper: Table 11 "
             "(averages via `reference/published.yaml`). † marks a mean farther from the paper than its tolerance.", "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for p in sorted({c["params"]["parties"] for c in data["cells"]}):
        row = [str(p)]
        for k in ks:
            cs = _cells(data, series="rp2", parties=p, k=k)
            agg = _agg(cs[0], "of") if cs else None
            pub, tol = _paper(tables, "of", "pumsb", "rp2", parties=p, k=k)
            row += [_fmt(agg, ci=False) + _mark(agg, pub, tol), _num(agg.get("std") if agg else None),
                    _num(pub), _num(PAPER_T11_STD.get(p, {}).get(k))]
        lines.append("| " + " | ".join(row) + " |")
    return _write(out_dir, "drbt_table11", lines)


def drbt_tables12_16(results_dir, out_dir):
    name, data = _merged(results_dir, ["drbt_stress_fimi", "drbt_stress_accidents"], "drbt_tables12_16.md")
    if data is None:
        return []
    tables = _published(name)
    number = {"chess": 12, "mushroom": 13, "pumsb": 14, "connect": 15, "accidents": 16}
    series = [s for s in ("rp1", "rp2", "rp1_orthonormal", "rp2_orthonormal") if _cells(data, series=s)]
    lines = ["# Appendix A, Tables 12-16: the error (stress) against the reduced dimension d_r", "",
             f"Reproduced ({_trials(name, data)}): mean ± 95% CI half-width of Eq. 6's stress^2; paper: Tables 12-16 "
             "(via `reference/published.yaml`; its d_r = d_o column, 0.000, is the untransformed data, matched by the "
             "orthonormal series). † marks a mean farther from the paper than its tolerance.", ""]
    for ds in sorted({c["dataset"] for c in data["cells"]}, key=lambda d: number.get(d, 99)):
        drs = sorted({c["params"]["k_dims"] for c in _cells(data, dataset=ds)}, reverse=True)
        title = f"Table {number[ds]}: {NAMES.get(ds, ds)}" if ds in number else NAMES.get(ds, ds)
        lines += [f"## {title} (d_o = {data['datasets'].get(ds, {}).get('d', '?')})", "",
                  "| Transformation | " + " | ".join(f"d_r = {d}" for d in drs) + " |", "|---|" + "---|" * len(drs)]
        for s in series:
            ours, paper = [STYLE[s][0] + " ours"], [STYLE[s][0] + " paper"]
            for d in drs:
                cs = _cells(data, dataset=ds, series=s, k_dims=d)
                agg = _agg(cs[0], "stress") if cs else None
                pub, tol = _paper(tables, "stress", ds, s, k_dims=d)
                ours.append(_fmt(agg) + _mark(agg, pub, tol))
                paper.append(_num(pub))
            lines.append("| " + " | ".join(ours) + " |")
            if any(x != "—" for x in paper[1:]):
                lines.append("| " + " | ".join(paper) + " |")
        lines.append("")
    return _write(out_dir, "drbt_tables12_16", lines)


def drbt_tables8_17_20(results_dir, out_dir):
    name, data = _merged(results_dir, ["drbt_of_accidents", "drbt_of_fimi"], "drbt_tables8_17_20.md")
    sources = [(name, data, "rp2")] if data is not None else []
    iname, idata = plot_results.load_first(results_dir, ["drbt_table9_iris"], required=False)
    if idata is not None:
        sources.append((iname, idata, "drbt"))
    if not sources:
        return []
    lines = ["# Tables 8, 17-20 (and 9): overall F-measure of K-means on RP2-disguised data", "",
             "Reproduced (" + "; ".join(_trials(n, d) for n, d, _ in sources) + "): min / max / avg / std of OF over the "
             "trials; paper: the same four numbers (averages via `reference/published.yaml`, the rest quoted). "
             "† marks an average farther from the paper than its tolerance.", ""]
    for src_name, src, series in sources:
        tables = _published(src_name)
        for ds in sorted({c["dataset"] for c in src["cells"]}, key=lambda d: int(PAPER_OF_TABLE.get(d, "Table 99").split()[1])):
            cs = _cells(src, dataset=ds, series=series)
            if not cs:
                continue
            ks = sorted({c["params"]["k"] for c in cs})
            d_r = cs[0]["params"].get("k_dims")
            lines += [f"## {PAPER_OF_TABLE.get(ds, '')}: {NAMES.get(ds, ds)} (d_o = {_d_o(src, ds, cs[0])}, d_r = {d_r})", "",
                      "| k | Min ours | Max ours | Avg ours | Std ours | Min paper | Max paper | Avg paper | Std paper |",
                      "|---|---|---|---|---|---|---|---|---|"]
            for k in ks:
                agg = _agg(_cells(src, dataset=ds, series=series, k=k)[0], "of")
                pub, tol = _paper(tables, "of", ds, series, k=k)
                if pub is None and src_name == "drbt_table9_iris":
                    pub, tol = _paper_value_entry(ds, k)
                spread = PAPER_OF_SPREAD.get(ds, {}).get(k, (None, None, None))
                lines.append(f"| {k} | {_num(agg.get('min') if agg else None)} | {_num(agg.get('max') if agg else None)} | "
                             f"{_fmt(agg, ci=False)}{_mark(agg, pub, tol)} | {_num(agg.get('std') if agg else None)} | "
                             f"{_num(spread[0])} | {_num(spread[1])} | {_num(pub)} | {_num(spread[2])} |")
            lines.append("")
    return _write(out_dir, "drbt_tables8_17_20", lines)


def _d_o(data, ds, cell):
    a = _agg(cell, "d_original")
    return int(round(a["mean"])) if a else data["datasets"].get(ds, {}).get("d", "?")


def _paper_value_entry(dataset, k):
    """Table 9's averages live in `values:` entries (drbt.t9.of.k*) of the reference file."""
    if not PUBLISHED.is_file():
        return None, None
    doc = plot_results.load_yaml(PUBLISHED) or {}
    for v in doc.get("values") or []:
        q = v.get("query") or {}
        if q.get("experiment") == "drbt_table9_iris" and q.get("dataset") == dataset and q.get("series") == "drbt" \
                and (q.get("params") or {}).get("k") == k:
            return float(v["value"]), v.get("tolerance")
    return None, None


# --- figures ------------------------------------------------------------------------------------------

def _line(ax, xs, ys, es, series, paper=None):
    lab, col, mk = STYLE.get(series, (series, None, "o"))
    # Stress is >= 0 (Eq. 6): the bars are cut there (plot_results.errorbar).
    plot_results.errorbar(ax, "stress", xs, ys, es, color=col, marker=mk, ms=3.5, lw=1.2, capsize=2, elinewidth=0.8,
                          label=f"{lab} ours")
    if paper:
        px, py = zip(*paper)
        ax.plot(px, py, ls="--", lw=0.8, color=col, marker=mk, mfc="none", ms=5, label=f"{lab} paper")


def drbt_fig2_stress(results_dir, out_dir):
    name, data = _merged(results_dir, ["drbt_stress_fimi", "drbt_stress_accidents"], "drbt_fig2_stress")
    if data is None:
        return []
    tables = _published(name)
    order = ["pumsb", "chess", "mushroom", "connect", "accidents"]  # Fig. 2 (a), (b), then Appendix A
    datasets = [d for d in order if _cells(data, dataset=d)] + \
        sorted({c["dataset"] for c in data["cells"]} - set(order))
    cols = min(3, len(datasets))
    rows = (len(datasets) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3 * rows), squeeze=False)
    for ax, ds in zip(axes.flat, datasets):
        for s in ("rp1", "rp2"):
            cs = sorted(_cells(data, dataset=ds, series=s), key=lambda c: c["params"]["k_dims"])
            if not cs:
                continue
            xs = [c["params"]["k_dims"] for c in cs]
            aggs = [_agg(c, "stress") for c in cs]
            paper = [(x, p) for x in xs for p in [_paper(tables, "stress", ds, s, k_dims=x)[0]] if p is not None]
            _line(ax, xs, [a["mean"] if a else math.nan for a in aggs], [error(a) for a in aggs], s, paper)
        d_o = data["datasets"].get(ds, {}).get("d")
        tag = {"pumsb": "Fig. 2(a) ", "chess": "Fig. 2(b) "}.get(ds, "")
        ax.set_title(f"{tag}{NAMES.get(ds, ds)} (d_o = {d_o})")
        ax.set_xlabel("reduced dimension d_r")
        ax.set_ylabel("error (stress$^2$, Eq. 6)")
        ax.invert_xaxis()  # as the paper: from no reduction to the largest
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(datasets):]:
        ax.axis("off")
    fig.suptitle(f"DRBT Figure 2 / Tables 12-16: error against d_r ({data.get('trials', '?')} trials per point)")
    plot_results.tight_grid(fig, rect=(0, 0, 1, 0.95))
    return save(fig, pathlib.Path(out_dir), "drbt_fig2_stress")


def drbt_fig3_partitioned(results_dir, out_dir):
    name, data = _load(results_dir, ["drbt_partitioned_pumsb"], "drbt_fig3_partitioned")
    if data is None:
        return []
    ks = sorted({c["params"]["k"] for c in data["cells"]})
    k0 = ks[0]
    fig, ax = plt.subplots(figsize=(4.5, 3.2))
    for s in ("rp1", "rp2"):
        cs = sorted(_cells(data, series=s, k=k0), key=lambda c: c["params"]["parties"])
        if not cs:
            continue
        aggs = [_agg(c, "stress") for c in cs]
        _line(ax, [c["params"]["parties"] for c in cs], [a["mean"] if a else math.nan for a in aggs],
              [error(a) for a in aggs], s)
    ax.set_xlabel("number of parties")
    ax.set_ylabel("error (stress$^2$, Eq. 6)")
    ax.set_xticks(sorted({c["params"]["parties"] for c in data["cells"]}))
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    ax.set_title(f"Fig. 3: Pumsb over vertically partitioned data (74 -> 38; k = {k0} cells)")
    return save(fig, pathlib.Path(out_dir), "drbt_fig3_partitioned")


FIGURES = [drbt_table4, drbt_table7, drbt_table10, drbt_table11, drbt_tables12_16, drbt_tables8_17_20,
           drbt_fig2_stress, drbt_fig3_partitioned]


def main():
    return plot_results.run_figures(FIGURES, __doc__)


if __name__ == "__main__":
    sys.exit(main())
