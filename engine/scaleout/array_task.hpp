#pragma once
// `dpclust run --shard auto`: which shard this process is, read from the batch scheduler's job-array
// variables, so one array script serves every task.
//
//   scheduler     task id               range of ids                                         count
//   Slurm         SLURM_ARRAY_TASK_ID   SLURM_ARRAY_TASK_MIN .. _MAX, step _STEP (default 1)  SLURM_ARRAY_TASK_COUNT
//   SGE / UGE     SGE_TASK_ID           SGE_TASK_FIRST .. SGE_TASK_LAST, SGE_TASK_STEPSIZE    (from the range)
//   LSF           LSB_JOBINDEX          (the first index is not exported)                      --
//   PBS Pro       PBS_ARRAY_INDEX       (not exported)                                         --
//   Torque        PBS_ARRAYID           (not exported)                                         --
//
// The shard count N comes, in this order, from `--shard auto/N`, from DPCLUST_SHARD_COUNT, or from the
// scheduler's range. With an explicit N the task ids must be the shard numbers 1..N themselves (arrays
// written `1-N`), which is what lets a subset of tasks be resubmitted (`sbatch --array=3,7 ...`) and still
// run shards 3 and 7 of the same plan; `dpclust submit` writes its scripts that way. Without an explicit N
// the array must be a complete range: shard K = (id - first) / step + 1 of N = its length. LSF, PBS
// and Torque export no complete range, so they need an explicit N. Anything inconsistent (id outside the range, a
// non-numeric value, a count that disagrees with the range) is refused with the variable's name.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>

namespace dpclust {

struct ArrayTask {
  std::size_t shard = 1, count = 1;
  std::string scheduler;  // "slurm", "sge", "lsf", "pbs", "torque"
  std::string source;     // "SLURM_ARRAY_TASK_ID=3 of SLURM_ARRAY_TASK_MIN..MAX=1..8", for the run record
};

// getenv-like lookup (nullptr when unset), so tests need not touch the process environment.
using EnvLookup = std::function<const char*(const char*)>;

// `--shard` text "auto" or "auto/N" (anything else: nullopt, the caller parses K/N). InputError naming
// --shard or the variable, with the fix, when no scheduler variable is set or they are inconsistent.
std::optional<ArrayTask> resolve_auto_shard(const std::string& shard_text, const EnvLookup& env,
                                            std::size_t max_shards);

}  // namespace dpclust
