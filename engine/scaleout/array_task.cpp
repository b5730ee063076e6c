#include "scaleout/array_task.hpp"

#include <cstdint>
#include <string_view>

#include "core/error.hpp"

namespace dpclust {

namespace {

// The variables of one scheduler; nullptr where it exports none.
struct SchedulerVars {
  const char* name;
  const char* id;
  const char* first;
  const char* last;
  const char* step;
  const char* count;
};
// Order matters only when several are set (a Slurm job started from an SGE shell, say): the first wins.
constexpr SchedulerVars kSchedulers[] = {
    {"slurm", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_STEP",
     "SLURM_ARRAY_TASK_COUNT"},
    {"sge", "SGE_TASK_ID", "SGE_TASK_FIRST", "SGE_TASK_LAST", "SGE_TASK_STEPSIZE", nullptr},
    // LSF exports the last index and the step but not the first, so its range is not known: explicit N.
    {"lsf", "LSB_JOBINDEX", nullptr, nullptr, nullptr, nullptr},
    {"pbs", "PBS_ARRAY_INDEX", nullptr, nullptr, nullptr, nullptr},
    {"torque", "PBS_ARRAYID", nullptr, nullptr, nullptr, nullptr},
};

const char* fix_text() {
  return "run it as a job-array task (sbatch --array=1-N, qsub -t 1-N, bsub -J 'name[1-N]', qsub -J 1-N), "
         "or name the shard yourself: --shard K/N";
}

// Digits only, at most 10 of them; nullopt otherwise.
std::optional<std::uint64_t> parse_number(const char* text) {
  if (!text) return std::nullopt;
  const std::string_view s(text);
  if (s.empty() || s.size() > 10) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return v;
}

std::uint64_t require_number(const EnvLookup& env, const char* var) {
  const char* text = env(var);
  const auto v = parse_number(text);
  if (!v)
    throw InputError(var,
                     std::string("expected a whole number, got '") +
                         std::string(text ? std::string_view(text).substr(0, 40) : "") + "'",
                     "this variable is set by the batch scheduler; do not set it by hand");
  return *v;
}

// Is this scheduler's task id set to something that means "an array task"? SGE writes "undefined" and
// LSF writes 0 in jobs that are not arrays.
bool is_array_task(const SchedulerVars& s, const EnvLookup& env) {
  const char* id = env(s.id);
  if (!id || !*id) return false;
  const std::string_view v(id);
  if (v == "undefined") return false;
  if (std::string_view(s.name) == "lsf" && v == "0") return false;
  return true;
}

}  // namespace

std::optional<ArrayTask> resolve_auto_shard(const std::string& shard_text, const EnvLookup& env,
                                            std::size_t max_shards) {
  if (shard_text != "auto" && shard_text.rfind("auto/", 0) != 0) return std::nullopt;
  // The explicit count: --shard auto/N, else DPCLUST_SHARD_COUNT.
  std::optional<std::uint64_t> explicit_count;
  std::string count_source;
  if (shard_text != "auto") {
    explicit_count = parse_number(shard_text.c_str() + 5);
    count_source = "--shard " + shard_text.substr(0, 20);
    if (!explicit_count || *explicit_count < 1 || *explicit_count > max_shards)
      throw InputError("--shard",
                       "expected auto or auto/N with 1 <= N <= " + std::to_string(max_shards) + ", got '" +
                           shard_text.substr(0, 40) + "'",
                       "e.g. --shard auto/8 for an array of tasks 1-8");
  } else if (const char* c = env("DPCLUST_SHARD_COUNT"); c && *c) {
    explicit_count = parse_number(c);
    count_source = "DPCLUST_SHARD_COUNT";
    if (!explicit_count || *explicit_count < 1 || *explicit_count > max_shards)
      throw InputError(
          "DPCLUST_SHARD_COUNT",
          "expected a shard count 1.." + std::to_string(max_shards) + ", got '" + std::string(c).substr(0, 40) + "'",
          "export DPCLUST_SHARD_COUNT=N with N the number of tasks of the array, or unset it");
  }

  const SchedulerVars* found = nullptr;
  for (const auto& s : kSchedulers)
    if (is_array_task(s, env)) {
      found = &s;
      break;
    }
  if (!found)
    throw InputError(
        "--shard auto",
        "no job-array variable is set (SLURM_ARRAY_TASK_ID, SGE_TASK_ID, LSB_JOBINDEX, PBS_ARRAY_INDEX, PBS_ARRAYID): "
        "this process is not a task of a job array",
        fix_text());
  const SchedulerVars& s = *found;
  const std::uint64_t id = require_number(env, s.id);
  ArrayTask task;
  task.scheduler = s.name;

  if (explicit_count) {
    if (id < 1 || id > *explicit_count)
      throw InputError(s.id,
                       std::string(s.id) + "=" + std::to_string(id) + " is not a shard number 1.." +
                           std::to_string(*explicit_count) + " (the shard count " + std::to_string(*explicit_count) +
                           " comes from " + count_source + ")",
                       "with an explicit shard count the array's task ids are the shard numbers: submit it as 1-" +
                           std::to_string(*explicit_count) + " (sbatch --array=1-" + std::to_string(*explicit_count) +
                           "), or a subset of them");
    task.shard = static_cast<std::size_t>(id);
    task.count = static_cast<std::size_t>(*explicit_count);
    task.source = std::string(s.id) + "=" + std::to_string(id) + ", " + std::to_string(task.count) + " shards from " +
                  count_source;
    return task;
  }

  if (!s.first)
    throw InputError("--shard auto",
                     std::string(s.name) + " does not export the range of the array (only " + s.id +
                         "), so the shard count is not known",
                     "give it: --shard auto/N (task ids 1..N), or export DPCLUST_SHARD_COUNT=N in the job script");
  const std::uint64_t first = require_number(env, s.first);
  const std::uint64_t last = require_number(env, s.last);
  const std::uint64_t step = env(s.step) && *env(s.step) ? require_number(env, s.step) : 1;
  if (step < 1 || last < first)
    throw InputError(s.first,
                     "inconsistent array range " + std::to_string(first) + ".." + std::to_string(last) + " step " +
                         std::to_string(step),
                     "this range is set by the batch scheduler; pass --shard auto/N to ignore it");
  const std::uint64_t length = (last - first) / step + 1;
  if (s.count) {
    const std::uint64_t count = require_number(env, s.count);
    if (count != length)
      throw InputError(s.count,
                       std::string(s.count) + "=" + std::to_string(count) + " tasks, but the ids run " +
                           std::to_string(first) + ".." + std::to_string(last) + " step " + std::to_string(step) +
                           " (" + std::to_string(length) +
                           " ids): the array is not a complete range, so the shard count is not known",
                       "give the shard count of the original array: --shard auto/N (task ids 1..N), or export "
                       "DPCLUST_SHARD_COUNT=N");
  }
  if (id < first || id > last || (id - first) % step != 0)
    throw InputError(s.id,
                     std::string(s.id) + "=" + std::to_string(id) + " is not in the array's range " +
                         std::to_string(first) + ".." + std::to_string(last) + " step " + std::to_string(step),
                     "this variable is set by the batch scheduler; pass --shard K/N to choose the shard yourself");
  if (length > max_shards)
    throw InputError(
        s.last,
        "an array of " + std::to_string(length) + " tasks is more than " + std::to_string(max_shards) + " shards",
        "submit fewer tasks");
  task.shard = static_cast<std::size_t>((id - first) / step + 1);
  task.count = static_cast<std::size_t>(length);
  task.source = std::string(s.id) + "=" + std::to_string(id) + " of " + std::to_string(first) + ".." +
                std::to_string(last) + (step != 1 ? " step " + std::to_string(step) : "");
  return task;
}

}  // namespace dpclust
