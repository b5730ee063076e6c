#pragma once
// What several `dpclust` subcommands share: option parsing with --help, the data root, the limits of
// check_run_cost, and loading the configs of a run exactly as `run` does -- so that `submit` plans the
// same shards the array's tasks will plan.
#include <boost/program_options.hpp>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "loading/cost_model.hpp"

namespace dpclust::cli {

constexpr int kExitInputError = 2;
// `run --keep-going` finished every cell it could and skipped (and recorded) at least one.
constexpr int kExitSkippedCells = 3;

// Parses a subcommand's options; prints help and returns false when --help was given.
bool parse(int argc, char** argv, const std::string& usage, boost::program_options::options_description& opts,
           boost::program_options::positional_options_description* pos, boost::program_options::variables_map& vm);

// Runs the parser; an unknown option becomes an InputError suggesting the nearest declared one by edit
// distance ("--trails: unknown option", "fix: did you mean '--trials'?"), as a misspelt subcommand or config
// key already does (closest_match, core/error.hpp).
boost::program_options::parsed_options run_parser(boost::program_options::command_line_parser& parser,
                                                  const boost::program_options::options_description& opts);

// --data-root (else the default search), checked to be a directory when given.
std::filesystem::path data_root_from(const boost::program_options::variables_map& vm);

// --shard K/N: digits only, 1 <= K <= N <= kMaxShards (sscanf("%u") took "-1", wrapped 99999999999 and
// ignored trailing text such as "3x").
constexpr unsigned kMaxShards = 1'000'000;
bool parse_shard(const std::string& text, unsigned& k, unsigned& n);

// --max-cells, --max-memory, --max-work (and --threads, which multiplies the memory of parallel trials):
// the limits of check_run_cost, shared by run, validate and submit.
void add_limit_options(boost::program_options::options_description& opts);
RunLimits limits_from(const boost::program_options::variables_map& vm, int threads);

// Loads and checks every config before anything runs (a typo in the third file costs nothing): the
// --trials override (refused beyond a config's listed seeds), the grid size, the parameters against the
// datasets' known shapes, memory and work; every problem of every config at once. keep_going: per-cell
// problems are left to the run, which skips and records those cells.
std::vector<ExperimentConfig> load_run_configs(const std::vector<std::string>& paths,
                                               const std::filesystem::path& data_root,
                                               std::optional<std::int64_t> trials, const RunLimits& limits,
                                               bool keep_going = false);

}  // namespace dpclust::cli
