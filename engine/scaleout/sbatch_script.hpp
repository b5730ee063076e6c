#pragma once
// The two batch scripts of `dpclust submit --scheduler slurm`: a job array with one task per shard, every
// task running `dpclust run CONFIG... --shard auto` into the same --out directory on a shared filesystem
// (runs of the same config share a directory safely: each cell is claimed with flock(2), which NFSv4 and
// Lustre mounted with `-o flock` provide), and a merge job that starts when every task succeeded
// (`--dependency=afterok:<array>`), assembles results.json, and fails when any cell is missing.
//
// The task ids are the shard numbers 1..N and the script exports DPCLUST_SHARD_COUNT=N, so that the
// same script resubmitted for a subset of tasks (`sbatch --array=3,7 array.sbatch`) runs shards 3 and 7
// of the same plan (array_task.hpp). The text depends only on these options (no date, no host), so a
// test can compare it and a rerun of `submit` rewrites the same file.
#include <cstddef>
#include <string>
#include <vector>

namespace dpclust {

struct SbatchOptions {
  std::string dpclust;                  // absolute path of the dpclust binary the tasks run
  std::string workdir;                  // absolute: the directory relative config paths were given from
  std::vector<std::string> configs;     // as given (relative to workdir, or absolute)
  std::string out;                      // absolute --out, on a filesystem every node sees
  std::size_t tasks = 1;                // shards = array tasks
  std::string shard_by = "cost";        // "cost" or "index"
  int cpus_per_task = 1;                // also the run's --threads
  std::string time;                     // --time (Slurm's format), empty: the partition's default
  std::string merge_time = "00:30:00";  // the merge job's --time
  std::string partition, account, mem;  // empty: not written
  std::string job_name = "dpclust";
  std::vector<std::string> extra_sbatch;  // further "#SBATCH" options, each "--name=value" as given
  std::vector<std::string> run_args;      // further `dpclust run` arguments (--trials 3, --data-root D, ...)
  std::string version;                    // "dpclust 0.2.0 (git abc123)", for the header comment
};

// Quotes one shell word: 'text', with ' written as '\''.
std::string shell_quote(const std::string& word);
// Checks the options that end up in the scripts (InputError naming the option): no newlines or NULs
// anywhere, a --time Slurm accepts, names without spaces.
void check_sbatch_options(const SbatchOptions& o);
std::string array_script(const SbatchOptions& o);
std::string merge_script(const SbatchOptions& o);
// Where submit writes them: OUT/slurm/array.sbatch, OUT/slurm/merge.sbatch, logs in OUT/slurm/logs/.
std::string slurm_dir(const std::string& out);

}  // namespace dpclust
