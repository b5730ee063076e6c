"""``python3 -m dpclust run|validate|audit|report``: the commands of the ``dpclust`` binary that read
configs, for configs naming a Python method (``method: python``), which the binary hands over to this
module. The options are those of ``dpclust`` (a subset: sharding and dry runs stay with the binary)."""
import argparse
import sys

from . import experiment


def _run(args):
    for config in args.config:
        r = experiment.run(config, out=args.out, threads=args.threads, trials=args.trials, force=args.force,
                           progress=not args.no_progress, data_root=args.data_root)
        if r["up_to_date"]:
            print(f"{r['experiment']}: nothing to do, results up to date ({r['cells_total']} cells on disk)")
        else:
            print(f"{r['experiment']}: {r['cells_run']} cells run ({r['trials_run']} trials), {r['cells_reused']} reused, "
                  f"{r['wall_seconds']:.2f} s")
        if r["results_file"]:
            print(f"  results: {r['results_file']}")
    return 0


def _validate(args):
    """Every config checked, each problem of every config printed (as `dpclust validate` does), exit 2 if any."""
    failed = False
    for config in args.config:
        try:
            r = experiment.validate(config, load_data=not args.no_load_data, data_root=args.data_root, threads=args.threads)
        except ValueError as e:
            print(f"error: {e}", file=sys.stderr)
            failed = True
            continue
        for note in r["notes"]:
            print(f"{config}: note: {note}")
        print(f"{config}: ok ({r['cells']} cells x {r['trials']} trials; {r['cost']})")
    return 2 if failed else 0


def _audit(args):
    violations = 0
    for config in args.config:
        r = experiment.audit(config, out=args.out, threads=args.threads, runs=args.runs, pilot_runs=args.pilot_runs,
                             progress=not args.no_progress, data_root=args.data_root)
        print(f"{r['experiment']}: {len(r['cells'])} private cells audited in {r['wall_seconds']:.3g} s, "
              f"{r['violations']} violation{'' if r['violations'] == 1 else 's'}")
        for c in r["cells"]:
            print(f"  {c['series']} on {c['dataset']}: eps {c['epsilon']:.6g}, eps_lower {c['eps_lower']:.6g} -> "
                  f"{'VIOLATION' if c['verdict'] == 'violation' else 'consistent'}")
        print(f"  results: {r['file']}")
        violations += r["violations"]
    return 1 if violations and args.fail_on_violation else 0


def _report(args):
    r = experiment.report(args.results, out=args.out, published=args.published, figures=args.figures)
    print(f"{r['file']}: {r['published_values']} published values ({r['holds']} hold, {r['within_seed_variance']} within seed "
          f"variance, {r['differs']} differ, {r['not_run']} not run), {r['claims']} claims")
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m dpclust", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run", help="run experiment configs")
    p.add_argument("config", nargs="+")
    p.add_argument("-o", "--out", default="results")
    p.add_argument("-t", "--threads", type=int, default=0)
    p.add_argument("--trials", type=int)
    p.add_argument("--force", action="store_true")
    p.add_argument("--resume", action="store_true", help="the default")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--data-root")
    # The binary's sharding and planning options stay with it: named here to refuse them clearly.
    for option in ("--shard", "--shard-by", "--dry-run", "--skip-missing-data", "--max-cells", "--max-memory", "--max-work"):
        p.add_argument(option, nargs="?", const=True, help=argparse.SUPPRESS)
    p.set_defaults(fn=_run)
    p = sub.add_parser("validate", help="check configs without running")
    p.add_argument("config", nargs="+")
    p.add_argument("--load-data", action="store_true", help="(the default) read the data files and check every cell against them")
    p.add_argument("--no-load-data", action="store_true", help="check only what the config says of each dataset (misses file problems)")
    p.add_argument("--data-root")
    p.add_argument("-t", "--threads", type=int, default=0)
    p.set_defaults(fn=_validate)
    p = sub.add_parser("audit", help="empirical privacy audit")
    p.add_argument("config", nargs="+")
    p.add_argument("-o", "--out", default="results")
    p.add_argument("-t", "--threads", type=int, default=0)
    p.add_argument("--runs", type=int)
    p.add_argument("--pilot-runs", type=int)
    p.add_argument("--data-root")
    p.add_argument("--fail-on-violation", action="store_true")
    p.add_argument("--no-progress", action="store_true")
    p.set_defaults(fn=_audit)
    p = sub.add_parser("report", help="REPORT.md of a results directory")
    p.add_argument("results")
    p.add_argument("--published")
    p.add_argument("--figures")
    p.add_argument("-o", "--out")
    p.set_defaults(fn=_report)
    args = parser.parse_args(argv)
    if args.command == "run":
        for option in ("shard", "shard_by", "dry_run", "skip_missing_data", "max_cells", "max_memory", "max_work"):
            if getattr(args, option) is not None:
                parser.error(f"--{option.replace('_', '-')} is not supported for configs run from Python (method: python): "
                             "run the config whole, without it")
    if getattr(args, "force", False) and getattr(args, "resume", False):
        parser.error("--resume and --force exclude each other")
    try:
        return args.fn(args)
    except ValueError as e:  # bad input: the engine's message, exit code 2 as `dpclust`
        print(f"error: {e}", file=sys.stderr)
        return 2
    except RuntimeError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
