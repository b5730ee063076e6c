#include "scaleout/sbatch_script.hpp"

#include <regex>
#include <sstream>

#include "core/error.hpp"

namespace dpclust {

std::string shell_quote(const std::string& word) {
  std::string q = "'";
  for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string slurm_dir(const std::string& out) { return out + "/slurm"; }

namespace {

void check_text(const std::string& value, const std::string& option) {
  for (char c : value)
    if (c == '\n' || c == '\r' || c == '\0')
      throw InputError(option, "contains a line break, which would end the batch script's line", "remove it");
}

void check_name(const std::string& value, const std::string& option) {
  check_text(value, option);
  for (char c : value)
    if (c == ' ' || c == '\t' || c == '\'' || c == '"' || c == '\\' || c == '$' || c == '`')
      throw InputError(option, "'" + value.substr(0, 40) + "' contains a space or shell character", "use a plain name");
}

// The job-array script's shell command: every argument quoted.
std::string run_command(const SbatchOptions& o) {
  std::string cmd = shell_quote(o.dpclust) + " run";
  for (const auto& c : o.configs) {
    cmd += ' ';
    cmd += shell_quote(c);
  }
  cmd += " --out " + shell_quote(o.out) + " --shard auto --shard-by " + o.shard_by +
         " --threads \"${SLURM_CPUS_PER_TASK:-" + std::to_string(o.cpus_per_task) + "}\" --no-progress";
  for (const auto& a : o.run_args) {
    cmd += ' ';
    cmd += shell_quote(a);
  }
  return cmd;
}

void common_header(std::ostringstream& s, const SbatchOptions& o) {
  if (!o.partition.empty()) s << "#SBATCH --partition=" << o.partition << "\n";
  if (!o.account.empty()) s << "#SBATCH --account=" << o.account << "\n";
  for (const auto& e : o.extra_sbatch) s << "#SBATCH " << e << "\n";
}

}  // namespace

void check_sbatch_options(const SbatchOptions& o) {
  if (o.tasks < 1) throw InputError("--tasks", "must be >= 1");
  if (o.cpus_per_task < 1) throw InputError("--cpus-per-task", "must be >= 1");
  for (const auto& [value, option] : std::vector<std::pair<std::string, std::string>>{
           {o.dpclust, "dpclust binary"}, {o.workdir, "working directory"}, {o.out, "--out"}, {o.version, "version"}})
    check_text(value, option);
  for (const auto& c : o.configs) check_text(c, "config path");
  for (const auto& a : o.run_args) check_text(a, "run option");
  check_name(o.partition, "--partition");
  check_name(o.account, "--account");
  check_name(o.mem, "--mem");
  check_name(o.job_name, "--job-name");
  for (const auto& e : o.extra_sbatch) {
    check_text(e, "--sbatch-option");
    if (e.rfind("--", 0) != 0 && e.rfind("-", 0) != 0)
      throw InputError("--sbatch-option", "'" + e.substr(0, 40) + "' is not an sbatch option",
                       "write it as sbatch takes it, e.g. --sbatch-option=--qos=long");
  }
  // Slurm's time formats: minutes, minutes:seconds, hours:minutes:seconds, days-hours,
  // days-hours:minutes, days-hours:minutes:seconds.
  static const std::regex time_format(R"(^(\d+|\d+:\d+|\d+:\d+:\d+|\d+-\d+|\d+-\d+:\d+|\d+-\d+:\d+:\d+)$)");
  for (const auto& [t, option] : {std::pair{o.time, "--time"}, std::pair{o.merge_time, "--merge-time"}})
    if (!t.empty() && (t.size() > 20 || !std::regex_match(t, time_format)))
      throw InputError(option, "'" + t.substr(0, 40) + "' is not a Slurm time",
                       "write minutes, HH:MM:SS or D-HH:MM:SS, e.g. " + std::string(option) + " 2:00:00");
}

std::string array_script(const SbatchOptions& o) {
  check_sbatch_options(o);
  std::ostringstream s;
  const std::string logs = slurm_dir(o.out) + "/logs";
  s << "#!/bin/bash\n"
    << "# Written by `dpclust submit` (" << o.version << "): one array task per shard of " << o.tasks << ".\n"
    << "# Every task computes the same plan of cells (by " << o.shard_by
    << ") and runs its shard into the shared --out;\n"
    << "# cells already on disk are kept, so resubmitting (all tasks, or some: sbatch --array=3,7 this-file)\n"
    << "# computes only what is missing. `dpclust status " << o.out << "` shows what is done.\n"
    << "#SBATCH --job-name=" << o.job_name << "\n"
    << "#SBATCH --array=1-" << o.tasks << "\n"
    << "#SBATCH --ntasks=1\n"
    << "#SBATCH --cpus-per-task=" << o.cpus_per_task << "\n";
  if (!o.time.empty()) s << "#SBATCH --time=" << o.time << "\n";
  if (!o.mem.empty()) s << "#SBATCH --mem=" << o.mem << "\n";
  s << "#SBATCH --output=" << logs << "/%A_%a.out\n";
  common_header(s, o);
  s << "set -euo pipefail\n"
    << "cd " << shell_quote(o.workdir) << "\n"
    << "# The task ids are the shard numbers 1.." << o.tasks << ", whatever subset of them runs.\n"
    << "export DPCLUST_SHARD_COUNT=" << o.tasks << "\n"
    << "export OMP_NUM_THREADS=\"${SLURM_CPUS_PER_TASK:-" << o.cpus_per_task << "}\"\n"
    << run_command(o) << "\n";
  return s.str();
}

std::string merge_script(const SbatchOptions& o) {
  check_sbatch_options(o);
  std::ostringstream s;
  const std::string logs = slurm_dir(o.out) + "/logs";
  s << "#!/bin/bash\n"
    << "# Written by `dpclust submit` (" << o.version << "): runs once every task of the array succeeded\n"
    << "# (sbatch --dependency=afterok:<array job>). Assembles results.json where a grid is complete and\n"
    << "# fails, naming what is missing, when any cell is not on disk.\n"
    << "#SBATCH --job-name=" << o.job_name << "-merge\n"
    << "#SBATCH --ntasks=1\n"
    << "#SBATCH --cpus-per-task=1\n";
  if (!o.merge_time.empty()) s << "#SBATCH --time=" << o.merge_time << "\n";
  s << "#SBATCH --output=" << logs << "/%j-merge.out\n";
  common_header(s, o);
  s << "set -euo pipefail\n"
    << "cd " << shell_quote(o.workdir) << "\n"
    << "# merge exits 1 when some experiment is incomplete; status then names what is missing and fails the job.\n"
    << shell_quote(o.dpclust) << " merge " << shell_quote(o.out) << " --out " << shell_quote(o.out) << " || true\n"
    << shell_quote(o.dpclust) << " status " << shell_quote(o.out) << " --fail-if-incomplete\n";
  return s.str();
}

}  // namespace dpclust
