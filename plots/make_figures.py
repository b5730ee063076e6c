#!/usr/bin/python3
"""Regenerate the figures from the JSON results (never reruns an experiment), in parallel, redrawing
only what changed.

  /usr/bin/python3 plots/make_figures.py --results results --out plots/out [--pdf] [--force] [--comparison]
                                         [--jobs N] [--timings [N]]

The figures:
1. Generic figures for every experiment (plot_results.py: metric against the swept parameter, or bars; one
   figure per experiment and metric), one job per experiment.
2. The papers' figures and tables (plots/paper_*.py) and the benchmark's (plots/benchmark_*.py: win regions,
   time against n and d): each module has FIGURES, a list of functions
   f(results_dir, out_dir) -> list of written files, one job each; a function whose experiment is
   absent returns [] and says so, or raises FileNotFoundError (reported as skipped).
3. On request (--comparison): the report's method comparison figures (plot_comparison.py, one per experiment,
   dataset and metric: two thirds of all the files, each showing what the experiment's generic figure of that
   metric shows, one dataset at a time), one job per experiment. Without --comparison, those already drawn
   stay while they are up to date (the report links them) and are removed once their results change.

Beside the experiments (run_all.sh): `--follow QUEUE` draws each experiment's generic figures as soon as its
name is appended to the file QUEUE, and each paper figure once every experiment its last drawing read is
finished, in one process (matplotlib imported once), until a line END; run_all.sh runs it at nice 19, so it
takes the cores the experiments leave idle (data loading, single-threaded configs). The run after the
experiments draws what is left, with --keep-drawn QUEUE.done, the jobs already drawn (kept when up to
date, even with --force).

Jobs run in worker processes (--jobs, default: one per core); a worker parses a results.json once for
all the jobs it draws from it (jobs that read the same large file go to the same worker). Figures are
PNG at a fixed DPI (matplotlib's Agg backend); --pdf adds a PDF of each. A job that fails is reported
with its traceback and the others are still drawn; the exit status is then 1.

Up to date: OUT/.figures-manifest.json records, per job, the hash of the plotting code (its module,
the plots/ modules it imports, and reference/published.yaml when it quotes it), the formats, every
input the job looked for (each results.json, skipped.json or audit.json, present or absent, with a
digest of its bytes) and the files it wrote. A job whose code, inputs and files are unchanged is not
redrawn; --force redraws everything. A file's digest is recomputed only when its size or mtime
changed (`dpclust run` leaves a complete results.json untouched when it has nothing to do). The
digest is of the whole file rather than of the cells' fingerprints because figures also show timings
and secure-mode draws, which a cell fingerprint does not cover.
"""
import argparse
import ast
import concurrent.futures
import hashlib
import importlib
import importlib.metadata
import json
import multiprocessing
import os
import pathlib
import re
import sys
import time
import traceback

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

# matplotlib and the figure modules are imported only when something is to be drawn (about a second), so
# that a run with every figure up to date takes a fraction of one; the workers, forked after the import,
# start with them loaded.

MANIFEST = ".figures-manifest.json"
SCHEMA = "dpclust.figures/1"
PUBLISHED = HERE.parent / "reference" / "published.yaml"
GROUP_BYTES = 4 << 20  # jobs sharing a results.json at least this large are drawn by one worker


# --- jobs ------------------------------------------------------------------------------------------

def _figure_names(module_file):
    """The function names of a paper module's FIGURES list, read from its source (no import); the module
    is imported when FIGURES is not a plain list of names."""
    for node in ast.parse(module_file.read_text()).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "FIGURES" for t in node.targets):
            if isinstance(node.value, ast.List) and all(isinstance(e, ast.Name) for e in node.value.elts):
                return [e.id for e in node.value.elts]
            break
    return [f.__name__ for f in getattr(importlib.import_module(module_file.stem), "FIGURES", [])]


def list_jobs(results_dir):
    """[(job id, module, name)]: the generic figures of every experiment, its comparison figures, then every
    paper figure and the benchmark's."""
    jobs = []
    for p in sorted(pathlib.Path(results_dir).glob("*/results.json")):
        jobs.append((f"plot_results:{p.parent.name}", "plot_results", p.parent.name))
        jobs.append((f"plot_comparison:{p.parent.name}", "plot_comparison", p.parent.name))
    # The papers' figures, then the benchmark's (benchmark_figures.py: win regions, time against n and d).
    for module_file in sorted(HERE.glob("paper_*.py")) + sorted(HERE.glob("benchmark_*.py")):
        for name in _figure_names(module_file):
            jobs.append((f"{module_file.stem}.{name}", module_file.stem, name))
    return jobs


def _import_figure_modules(jobs):
    import plot_results  # noqa: F401  (sets the Agg backend before pyplot is imported anywhere)
    for module in sorted({m for _, m, _ in jobs}):
        importlib.import_module(module)


def _matplotlib_version():
    try:
        return importlib.metadata.version("matplotlib")
    except importlib.metadata.PackageNotFoundError:
        import matplotlib
        return matplotlib.__version__


def _local_imports(source):
    names = set()
    for m in re.finditer(r"^\s*(?:import|from)\s+(\w+)", source, re.M):
        if (HERE / f"{m.group(1)}.py").is_file():
            names.add(m.group(1))
    return names


_CODE = {}


def code_hash(module):
    """Digest of what draws a job of `module`: its source and the plots/ modules it imports (transitively),
    reference/published.yaml when one of them reads it, and matplotlib's version (the DPI and style are
    in plot_results.py, which every figure module imports)."""
    if module not in _CODE:
        todo, seen = [module], set()
        while todo:
            m = todo.pop()
            if m not in seen:
                seen.add(m)
                todo += _local_imports((HERE / f"{m}.py").read_text())
        h = hashlib.sha256()
        texts = {m: (HERE / f"{m}.py").read_bytes() for m in sorted(seen)}
        for m, text in texts.items():
            h.update(m.encode() + b"\0" + text + b"\0")
        if any(b"published.yaml" in t for t in texts.values()) and PUBLISHED.is_file():
            h.update(b"published.yaml\0" + PUBLISHED.read_bytes())
        h.update(f"matplotlib {_matplotlib_version()}".encode())
        _CODE[module] = h.hexdigest()[:32]
    return _CODE[module]


def draw(job, results_dir, out_dir, formats):
    """Runs one job in this process: a record (status ok / skipped / error, message, outputs, inputs,
    seconds). Never raises: a failure is the record's error."""
    import plot_results  # first: it selects the Agg backend
    import matplotlib.pyplot as plt
    job_id, module, name = job
    plot_results.FORMATS = formats
    plot_results.begin_tracking()
    t0 = time.perf_counter()
    status, message, files = "ok", "", []
    try:
        if module == "plot_results":
            _, data = plot_results.load_first(results_dir, [name])
            files = plot_results.plot_experiment(data, out_dir)
        elif module == "plot_comparison":
            import plot_comparison
            _, data = plot_results.load_first(results_dir, [name])
            files = plot_comparison.plot_comparison(data, out_dir)
        else:
            files = getattr(importlib.import_module(module), name)(results_dir, out_dir) or []
    except FileNotFoundError as e:
        status, message = "skipped", str(e)
    except Exception:  # noqa: BLE001  (any figure's failure is reported, the others go on)
        status, message = "error", traceback.format_exc()
    finally:
        plt.close("all")
    inputs = plot_results.end_tracking()
    out_dir = pathlib.Path(out_dir).absolute()
    outputs = sorted({os.path.relpath(pathlib.Path(f).absolute(), out_dir) for f in files})
    return {"id": job_id, "status": status, "message": message, "outputs": outputs, "inputs": inputs,
            "seconds": round(time.perf_counter() - t0, 3)}


def draw_group(group, results_dir, out_dir, formats):
    """The jobs of one group, in order, in one worker (their shared results are parsed once)."""
    return [draw(job, results_dir, out_dir, formats) for job in group]


# --- inputs and the manifest ---------------------------------------------------------------------

class Inputs:
    """Fingerprints of input paths (relative to the results directory when under it): 'absent', the
    digest of a file's bytes, or for a glob pattern a digest of its matches and their fingerprints.
    `known` holds [size, mtime_ns, digest] per file from the last manifest: the digest is reused while
    the file's size and mtime are unchanged."""

    def __init__(self, results_dir, known):
        self.root = pathlib.Path(results_dir).absolute()
        self.known = known
        self.files = {}  # the new manifest's [size, mtime_ns, digest] of every file fingerprinted
        self.memo = {}

    def rel(self, path):
        p = pathlib.Path(path).absolute()
        try:
            return p.relative_to(self.root).as_posix()
        except ValueError:
            return str(p)

    def path(self, rel):
        return pathlib.Path(rel) if os.path.isabs(rel) else self.root / rel

    def __call__(self, rel):
        if rel not in self.memo:
            self.memo[rel] = self._fingerprint(rel)
        return self.memo[rel]

    def _fingerprint(self, rel):
        if "*" in rel or "?" in rel:
            base = self.root if not os.path.isabs(rel) else pathlib.Path("/")
            pattern = rel if not os.path.isabs(rel) else rel.lstrip("/")
            matches = sorted(self.rel(p) for p in base.glob(pattern))
            h = hashlib.blake2b(digest_size=16)
            for m in matches:
                h.update(f"{m}={self(m)}\n".encode())
            return "glob:" + h.hexdigest()
        p = self.path(rel)
        try:
            st = p.stat()
        except OSError:
            return "absent"
        old = self.known.get(rel)
        if old and old[:2] == [st.st_size, st.st_mtime_ns]:
            digest = old[2]
        else:
            h = hashlib.blake2b(digest_size=16)
            with open(p, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    h.update(block)
            digest = h.hexdigest()
        self.files[rel] = [st.st_size, st.st_mtime_ns, digest]
        return digest


def read_manifest(out_dir, results_dir):
    try:
        doc = json.loads((pathlib.Path(out_dir) / MANIFEST).read_text())
    except (OSError, ValueError):
        return {}, {}
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        return {}, {}
    same_results = doc.get("results") == str(pathlib.Path(results_dir).absolute())
    return doc.get("figures") or {}, (doc.get("files") or {}) if same_results else {}


def write_manifest(out_dir, results_dir, figures, files):
    doc = {"schema": SCHEMA, "results": str(pathlib.Path(results_dir).absolute()),
           "meaning": "make_figures.py: per figure job, the code hash, formats, inputs (fingerprints) and outputs of "
                      "its last drawing; a job whose code, inputs and outputs are unchanged is not redrawn",
           "figures": dict(sorted(figures.items())), "files": dict(sorted(files.items()))}
    tmp = pathlib.Path(out_dir) / (MANIFEST + f".tmp.{os.getpid()}")
    tmp.write_text(json.dumps(doc, indent=1, sort_keys=False) + "\n")
    os.replace(tmp, pathlib.Path(out_dir) / MANIFEST)


def up_to_date(record, code, formats, inputs, out_dir):
    if not record or record.get("status") not in ("ok", "skipped") or record.get("code") != code:
        return False
    if not set(formats) <= set(record.get("formats") or ()):
        return False
    if any(inputs(rel) != fp for rel, fp in (record.get("inputs") or {}).items()):
        return False
    return all((pathlib.Path(out_dir) / o).is_file() for o in record.get("outputs") or ())


def plan_groups(jobs, records, results_dir):
    """Jobs grouped so that the jobs reading one large results.json (by their last recorded inputs; a
    generic job reads its own experiment's) run in one worker; the groups largest first."""
    root = pathlib.Path(results_dir)
    parent = {j[0]: j[0] for j in jobs}

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    owner = {}  # large input -> a job reading it
    size = {}
    for job_id, module, name in jobs:
        reads = list((records.get(job_id) or {}).get("inputs") or ())
        if module in ("plot_results", "plot_comparison"):
            reads.append(f"{name}/results.json")
        total = 0
        for rel in reads:
            try:
                n = (root / rel).stat().st_size if "*" not in rel else 0
            except OSError:
                n = 0
            total += n
            if n >= GROUP_BYTES:
                if rel in owner:
                    parent[find(job_id)] = find(owner[rel])
                else:
                    owner[rel] = job_id
        size[job_id] = total + 1e6 * (records.get(job_id) or {}).get("seconds", 0.0)
    groups = {}
    for job in jobs:
        groups.setdefault(find(job[0]), []).append(job)
    return sorted(groups.values(), key=lambda g: -sum(size[j[0]] for j in g))


# --- main ------------------------------------------------------------------------------------------

def _workers(requested):
    if requested:
        return max(1, requested)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def on_request(job):
    """Jobs drawn only with --comparison."""
    return job[1] == "plot_comparison"


def run(results_dir, out_dir, pdf=False, force=False, jobs=0, log=sys.stderr, comparison=False, only=None, keep_drawn=()):
    """Draws what is out of date (the comparison figures only when `comparison`); returns (counts by outcome,
    {job id: record}). `only`: a set of job ids; then only those are looked at and every other job's record
    stays as it is. `keep_drawn`: job ids drawn from their current inputs already (by a --follow process
    beside the experiments): kept when up to date, even with `force`."""
    results_dir, out_dir = pathlib.Path(results_dir), pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    formats = ("png", "pdf") if pdf else ("png",)
    records, known = read_manifest(out_dir, results_dir)
    inputs = Inputs(results_dir, known)
    all_jobs = list_jobs(results_dir)
    todo, kept, dropped = [], {}, set()
    skipped_jobs = {}  # message -> job ids: said once per message at the end (16 paper figures of a sweep of one's own)
    keep_drawn = set(keep_drawn)
    for job in all_jobs:
        record = records.get(job[0])
        if only is not None and job[0] not in only:
            if record:
                kept[job[0]] = record  # not looked at: stays as it is
            continue
        forced = force and job[0] not in keep_drawn
        if not forced and up_to_date(record, code_hash(job[1]), formats, inputs, out_dir):
            kept[job[0]] = record
            if record["status"] == "skipped":
                skipped_jobs.setdefault(record["message"], []).append(job[0])
        elif on_request(job) and not comparison:
            dropped.add(job[0])  # not requested and not up to date: its old files go (below), nothing is drawn
        else:
            todo.append(job)

    drawn = {}
    groups = plan_groups(todo, records, results_dir)
    workers = min(_workers(jobs), max(1, len(groups)))
    if groups:
        _import_figure_modules(todo)
        if workers == 1:
            for g in groups:
                for r in draw_group(g, results_dir, out_dir, formats):
                    drawn[r["id"]] = r
        else:
            # fork: the workers start with matplotlib and the figure modules already imported.
            ctx = multiprocessing.get_context("fork")
            lost = []
            with concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
                futures = {pool.submit(draw_group, g, results_dir, out_dir, formats): g for g in groups}
                for fut in concurrent.futures.as_completed(futures):
                    try:
                        for r in fut.result():
                            drawn[r["id"]] = r
                    except Exception:  # noqa: BLE001  (a worker that died: its group is retried below)
                        lost.append(futures[fut])
            # A worker process that died (a crash, out of memory) takes its pool down: each job not yet
            # drawn runs again in a process of its own, so the one that kills its process is the only loss.
            for g in lost:
                for job in g:
                    if job[0] in drawn:
                        continue
                    with concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=ctx) as solo:
                        try:
                            drawn[job[0]] = solo.submit(draw, job, results_dir, out_dir, formats).result()
                        except Exception as e:  # noqa: BLE001
                            drawn[job[0]] = {"id": job[0], "status": "error", "outputs": [], "inputs": [],
                                             "message": f"the worker process died: {e!r}", "seconds": 0.0}

    # The new manifest: kept records, and the drawn ones with their inputs' fingerprints.
    figures = dict(kept)
    claimed = {o for r in kept.values() for o in r.get("outputs") or ()}
    for job in todo:
        r = drawn[job[0]]
        rec = {"status": r["status"], "message": r["message"], "code": code_hash(job[1]), "formats": list(formats),
               "inputs": {inputs.rel(p): inputs(inputs.rel(p)) for p in r["inputs"]}, "outputs": r["outputs"],
               "seconds": r["seconds"]}
        figures[job[0]] = rec
        claimed.update(r["outputs"])
        if r["status"] == "skipped":
            skipped_jobs.setdefault(r["message"], []).append(job[0])
        elif r["status"] == "error":
            print(f"FAILED {job[0]}:\n{r['message']}", file=log)
    # A paper figure whose experiment is absent says so in its own words; those are one reason, said once.
    grouped = {}
    for message, ids in skipped_jobs.items():
        key = "their experiments are not in these results" if re.match(r"^experiment .+ not in results$", message) else message
        grouped.setdefault(key, []).extend(ids)
    for message, ids in grouped.items():
        names = ", ".join(ids[:6]) + (f" and {len(ids) - 6} more" if len(ids) > 6 else "")
        print(f"skipped {names}: {message}" if len(ids) == 1 else f"skipped {len(ids)} figures ({names}): {message}", file=log)
    # Files a job wrote last time and no job wrote now (an older PDF, a metric gone, an experiment removed)
    # would be stale. A job that failed keeps its old files (and is retried next time).
    for job_id, old in records.items():
        if ((job_id in drawn and drawn[job_id]["status"] != "error") or job_id in dropped
                or job_id not in {j[0] for j in all_jobs}):
            for o in old.get("outputs") or ():
                if o not in claimed:
                    (out_dir / o).unlink(missing_ok=True)
    # The digests of the files not looked at this time are kept for the next run (a --follow pass looks at few).
    files = {**(known if only is not None else {}), **inputs.files}
    write_manifest(out_dir, results_dir, {k: v for k, v in figures.items() if v["status"] != "error"}, files)
    counts = {"drawn": sum(r["status"] == "ok" for r in drawn.values()),
              "up_to_date": len(kept),
              "skipped": sum(r["status"] == "skipped" for r in drawn.values()),
              "failed": sum(r["status"] == "error" for r in drawn.values()),
              "files": len({o for r in figures.values() for o in r.get("outputs") or ()}),
              "workers": workers if groups else 0,
              # (seconds, files, job) of each job drawn now, slowest first (--timings)
              "timings": sorted(((r["seconds"], len(r["outputs"]), r["id"]) for r in drawn.values()), reverse=True)}
    return counts, figures


def print_timings(counts, n, out=sys.stdout):
    """The n slowest jobs drawn by this run (wall seconds in their worker, which shares the cores), with their files."""
    drawn = counts["timings"]
    total = sum(s for s, _, _ in drawn)
    print(f"slowest {min(n, len(drawn))} of {len(drawn)} jobs (sum of job seconds {total:.1f} over "
          f"{counts['workers'] or 1} workers):", file=out)
    for seconds, files, job in drawn[:n]:
        print(f"  {seconds:7.2f} s {files:4d} files  {job}", file=out)


def ready_paper_jobs(out_dir, results_dir, finished):
    """The papers' (and benchmark's) figure jobs whose last drawing read only the results of experiments in
    `finished` (their recorded inputs, manifest paths relative to the results folder: the experiment is the
    first part). A job never drawn, or one that read a glob or a file outside the results, is not ready: it
    is drawn after the experiments. Ready is a guess about what is worth drawing early, not about what is up
    to date: the run after the experiments redraws any job whose inputs changed since."""
    records, _ = read_manifest(out_dir, results_dir)
    ready = set()
    for job_id, record in records.items():
        if job_id.startswith(("plot_results:", "plot_comparison:")) or record.get("status") != "ok":
            continue
        paths = list((record.get("inputs") or {}).keys())
        if paths and all(not os.path.isabs(p) and "*" not in p and "?" not in p and p.split("/")[0] in finished
                         for p in paths):
            ready.add(job_id)
    return ready


def follow(queue, results_dir, out_dir, pdf=False, force=False, log=sys.stderr):
    """Draws the figures of each experiment named in the file `queue` as its name is appended (one per line;
    run_all.sh appends each experiment once its results are written), in this process, one experiment at a
    time, until a line END: then it stops at once, and the run after the experiments draws what it did not
    reach, with all the cores. For each experiment: its generic figures, and the papers' figures that read
    only experiments finished by then (ready_paper_jobs). Each job it drew is appended to `queue`.done (that
    run's --keep-drawn). Returns (jobs drawn, jobs failed, CPU seconds spent drawing)."""
    queue = pathlib.Path(queue)
    done_file = queue.with_name(queue.name + ".done")
    done_file.write_text("")
    seen, drawn, failed, busy = 0, 0, 0, 0.0
    finished, handled = set(), set()
    while True:
        try:
            lines = [ln.strip() for ln in queue.read_text().splitlines()]
        except OSError:
            lines = []
        if "END" in lines:
            return drawn, failed, busy
        if seen >= len(lines):
            time.sleep(0.5)
            continue
        name = lines[seen]
        seen += 1
        if not name:
            continue
        finished.add(name)
        t0 = time.process_time()
        ids = ({f"plot_results:{name}"} | ready_paper_jobs(out_dir, results_dir, finished)) - handled
        counts, figures = run(results_dir, out_dir, pdf=pdf, force=force, jobs=1, log=log, only=ids)
        busy += time.process_time() - t0
        drawn += counts["drawn"]
        failed += counts["failed"]
        handled |= ids
        with open(done_file, "a") as f:
            f.writelines(job_id + "\n" for job_id in sorted(ids) if job_id in figures)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default="results")
    ap.add_argument("--out", default="plots/out")
    ap.add_argument("--pdf", action="store_true", help="write a PDF next to each PNG")
    ap.add_argument("--force", action="store_true", help="redraw every figure, up to date or not")
    ap.add_argument("--comparison", action="store_true",
                    help="also draw the report's method comparison figures (one per experiment, dataset and metric)")
    ap.add_argument("--jobs", type=int, default=0, help="worker processes (default: one per core)")
    ap.add_argument("--timings", type=int, nargs="?", const=10, default=0, metavar="N",
                    help="print the N slowest jobs drawn (default 10): seconds, files, job")
    ap.add_argument("--follow", metavar="QUEUE",
                    help="draw the generic figures of each experiment named in the file QUEUE as lines are appended, "
                         "until a line END (run_all.sh: beside the experiments, at low priority)")
    ap.add_argument("--keep-drawn", default="", metavar="FILE",
                    help="a file of job ids (one per line) a --follow process drew from their current inputs: kept "
                         "when up to date, even with --force")
    args = ap.parse_args()
    t0 = time.perf_counter()
    if args.follow:
        drawn, failed, busy = follow(args.follow, args.results, args.out, pdf=args.pdf, force=args.force)
        print(f"drawn beside the experiments: {drawn} jobs, {failed} failed, {busy:.1f} CPU seconds at nice 19")
        return 1 if failed else 0
    keep = []
    if args.keep_drawn:
        try:
            keep = pathlib.Path(args.keep_drawn).read_text().split()
        except OSError:
            pass
    counts, _ = run(args.results, args.out, pdf=args.pdf, force=args.force, jobs=args.jobs, comparison=args.comparison,
                    keep_drawn=keep)
    if args.timings:
        print_timings(counts, args.timings)
    print(f"{counts['files']} figure files in {args.out}/: {counts['drawn']} jobs drawn, {counts['up_to_date']} up to date, "
          f"{counts['skipped']} skipped, {counts['failed']} failed ({counts['workers']} workers, "
          f"{time.perf_counter() - t0:.1f} s)")
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
