#include "cli_support.hpp"

#include <climits>
#include <iostream>

#include "config/python_method.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "io/byte_size.hpp"
#include "io/text.hpp"
#include "loading/dataset_loading.hpp"

namespace dpclust::cli {
namespace po = boost::program_options;
namespace fs = std::filesystem;

po::parsed_options run_parser(po::command_line_parser& parser, const po::options_description& opts) {
  try {
    return parser.run();
  } catch (const po::unknown_option& e) {
    const std::string given = e.get_option_name();  // "--trails" (or "-x")
    std::vector<std::string> names;
    for (const auto& o : opts.options())
      if (!o->long_name().empty()) names.push_back("--" + o->long_name());
    // "--trails=3": the name alone is compared.
    const std::string word = given.substr(0, given.find('='));
    const std::string s = closest_match(word, names);
    throw InputError(given, "unknown option",
                     (s.empty() ? "" : "did you mean '" + s + "'? ") + "--help lists the options");
  }
}

bool parse(int argc, char** argv, const std::string& usage, po::options_description& opts,
           po::positional_options_description* pos, po::variables_map& vm) {
  opts.add_options()("help,h", "show this help");
  po::command_line_parser parser(argc, argv);
  parser.options(opts);
  if (pos) parser.positional(*pos);
  po::store(run_parser(parser, opts), vm);
  if (vm.count("help")) {
    std::cout << usage << "\n" << opts << "\n";
    return false;
  }
  po::notify(vm);
  return true;
}

fs::path data_root_from(const po::variables_map& vm) {
  fs::path root = resolve_data_root(vm.count("data-root") ? vm["data-root"].as<std::string>() : "");
  // A path the file system cannot name (a folder name over NAME_MAX, the whole over PATH_MAX) is the user's
  // input, not an internal error: exit 2 here instead of a filesystem_error wherever it is first used.
  const std::string where = vm.count("data-root") ? "--data-root" : "the data root (DPCLUST_DATA_ROOT)";
  for (const auto& part : root)
    if (part.native().size() > NAME_MAX)
      throw InputError(where,
                       "a folder name in the data root is " + std::to_string(part.native().size()) +
                           " bytes long, over the file-name limit of " + std::to_string(NAME_MAX),
                       "use a data root whose folder names are shorter");
  if (root.native().size() >= PATH_MAX)
    throw InputError(where,
                     "the data root path is " + std::to_string(root.native().size()) +
                         " bytes long, over the limit of " + std::to_string(PATH_MAX - 1),
                     "use a shorter data root path");
  std::error_code ec;
  if (vm.count("data-root") && !fs::is_directory(root, ec))
    throw InputError("--data-root", "'" + root.string() + "' is not a directory",
                     "point it at the folder holding the papers' datasets");
  return root;
}

bool parse_shard(const std::string& text, unsigned& k, unsigned& n) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) return false;
  auto number = [](const std::string& digits, unsigned& out) {
    if (digits.empty() || digits.size() > 7) return false;  // 7 digits hold kMaxShards; more cannot be valid
    unsigned v = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') return false;
      v = v * 10 + static_cast<unsigned>(c - '0');
    }
    out = v;
    return true;
  };
  return number(text.substr(0, slash), k) && number(text.substr(slash + 1), n) && k >= 1 && k <= n && n <= kMaxShards;
}

void add_limit_options(po::options_description& opts) {
  opts.add_options()("max-cells", po::value<std::string>(),
                     "refuse configs whose grid has more cells than this (default 1000000; counted before expanding)")(
      "max-memory", po::value<std::string>(),
      "refuse configs whose estimated peak memory exceeds SIZE (bytes, or with K/M/G/T = powers of 1024, e.g. 8G; "
      "default: half of the physical memory)")(
      "max-work", po::value<std::string>(),
      "refuse configs whose estimated work exceeds N basic operations (default 1e15)")(
      "max-trial-seconds", po::value<std::string>(),
      "refuse a cell whose rejection sampler (nD-Laplace's noise) is estimated to take more than N seconds a trial "
      "(default 3600)");
}

RunLimits limits_from(const po::variables_map& vm, int threads) {
  RunLimits l;
  if (vm.count("max-cells"))
    l.max_cells = static_cast<std::uint64_t>(parse_count(vm["max-cells"].as<std::string>(), "--max-cells"));
  if (vm.count("max-memory")) l.max_memory = byte_size_or_throw(vm["max-memory"].as<std::string>(), "--max-memory");
  if (vm.count("max-work")) l.max_work = parse_count(vm["max-work"].as<std::string>(), "--max-work");
  if (vm.count("max-trial-seconds"))
    l.max_trial_seconds = parse_count(vm["max-trial-seconds"].as<std::string>(), "--max-trial-seconds");
  l.threads = threads;
  return l;
}

std::vector<ExperimentConfig> load_run_configs(const std::vector<std::string>& paths, const fs::path& data_root,
                                               std::optional<std::int64_t> trials, const RunLimits& limits,
                                               bool keep_going) {
  std::vector<ExperimentConfig> cfgs;
  ProblemList problems;  // every config's problems at once
  for (const auto& c : paths) {
    try {
      cfgs.push_back(load_config(c, data_root, limits.max_cells));
    } catch (const PythonMethodUnavailable&) {
      throw;  // `method: python`: the whole command is handed to the Python package (python_handoff.hpp)
    } catch (const InputError&) {
      problems.collect([&] { throw; });  // rethrown inside the handler: collect files it (InputErrors: each problem)
      continue;
    }
    ExperimentConfig& cfg = cfgs.back();
    if (trials) {
      const std::int64_t t = *trials;
      if (t < 1 || t > kMaxTrials)
        throw InputError("--trials", "must be >= 1 and <= 1000000, got " + std::to_string(t));
      if (!cfg.seeds.empty() && t > static_cast<std::int64_t>(cfg.seeds.size()))
        throw InputError("--trials",
                         std::to_string(t) + " trials, but " + cfg.file.string() + " lists " +
                             std::to_string(cfg.seeds.size()) + " seeds (one trial per listed seed)",
                         "use --trials " + std::to_string(cfg.seeds.size()) + " or fewer, or list more seeds");
      cfg.trials = t;
    }
    // The grid counted before expanding, parameters against the datasets' known shapes, memory and work:
    // all before any data is read or any cell runs.
    cfg.max_cells = limits.max_cells;
    problems.collect([&] { check_run_cost(cfg, limits, keep_going); });
  }
  problems.throw_if_any();
  return cfgs;
}

}  // namespace dpclust::cli
