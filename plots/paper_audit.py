#!/usr/bin/python3
"""The privacy audit figure (`dpclust audit`, docs/privacy.md "Privacy audit"): for every audited cell, the
empirical lower bound eps_lower (the largest over its neighbouring pairs) against the epsilon it claims.
Points above the diagonal are violations. Reads RESULTS_DIR/<experiment>/audit.json only.
"""
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import plot_results  # noqa: E402  (also sets the matplotlib backend and the shared style)
from plot_results import save  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402


def _load_audits(results_dir):
    audits = []
    plot_results.track(pathlib.Path(results_dir) / "*" / "audit.json")  # a new audit redraws the figure
    for f in sorted(pathlib.Path(results_dir).glob("*/audit.json")):
        plot_results.track(f)
        with open(f) as fh:
            doc = json.load(fh)
        if doc.get("schema") == "dpclust.audit/1":
            audits.append(doc)
    return audits


def _label(cell):
    keep = ("histogram", "noise", "variant", "sensitivity", "em_upper", "resampling_budget")
    extra = ", ".join(f"{k}={cell['params'][k]}" for k in keep if k in cell.get("params", {}))
    return cell["series"] + (f" ({extra})" if extra else "")


def audit_figure(results_dir, out_dir):
    audits = _load_audits(results_dir)
    if not audits:
        print("paper_audit: no audit.json under", results_dir, "(run `dpclust audit configs/audit/*.yaml`)")
        return []
    rows = []
    for doc in audits:
        for cell in doc["cells"]:
            # The claim of the pair with the largest bound (a local guarantee's claim depends on the pair).
            best = max(cell["pairs"], key=lambda p: p["eps_lower"] - p["eps_claimed"])
            rows.append((_label(cell), best["eps_claimed"], best["eps_lower"], cell["verdict"] == "violation"))
    fig, ax = plt.subplots(figsize=(7.5, 0.32 * len(rows) + 1.8))
    y = list(range(len(rows)))
    for i, (label, claimed, lower, violation) in enumerate(rows):
        ax.plot([0, claimed], [i, i], color="0.85", lw=6, solid_capstyle="butt")
        ax.plot(lower, i, "o", color="tab:red" if violation else "tab:blue")
        ax.plot(claimed, i, "|", color="black", ms=14, mew=2)
    ax.set_yticks(y)
    ax.set_yticklabels([r[0] for r in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("epsilon: claimed (bar end) and empirical lower bound (dot; red = violation)")
    ax.set_title("Privacy audit: eps_lower vs configured epsilon")
    ax.set_xlim(left=0)
    fig.tight_layout()
    return save(fig, pathlib.Path(out_dir), "privacy_audit")


FIGURES = [audit_figure]
