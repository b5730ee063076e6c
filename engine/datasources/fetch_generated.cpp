#include <ostream>

#include "config/config.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "data/points_csv.hpp"
#include "datasources/fetch_kinds.hpp"
#include "datasources/sha256.hpp"
#include "loading/dataset_loading.hpp"

namespace dpclust::datasources {
namespace fs = std::filesystem;

namespace {

// The points of a generated dataset: the registry entry's built-in generator, exactly as `dpclust run`
// would use it when the file is absent.
std::string generated_text(const DatasetSource& s, const fs::path& root) {
  const ExperimentConfig cfg =
      parse_config("experiment: fetch\ndatasets: [{name: " + s.name + "}]\nmethods: [dbscan]\n",
                   registry_path().string(), fs::current_path(), root);
  DatasetSpec spec = cfg.datasets.at(0);
  spec.resolved.clear();  // generate even when a file is present (e.g. to verify it)
  spec.file.clear();
  if (!spec.fallback_available) throw InputError(s.where, "the entry has no fallback generator");
  spec.bounds_mode = "none";  // the file holds the generator's output, not a domain-checked copy
  return points_csv_text(materialize_dataset(spec));
}

}  // namespace

void fetch_generated(const DatasetSource& s, const FetchOptions& opt, const fs::path& target, FetchOutcome& outcome,
                     std::ostream& log) {
  log << "  " << s.name << ": generating " << s.data_file << " (built-in generator, no download)\n" << std::flush;
  const std::string text = generated_text(s, opt.data_root);
  outcome.sha256 = sha256_hex(text);
  if (s.pinned() && outcome.sha256 != s.sha256)
    throw InputError(
        s.where,
        "the generator produced SHA-256 " + outcome.sha256 + ", expected " + s.sha256 + "; nothing was written",
        "this is a bug in the generator (it must follow numpy's RandomState stream exactly): please report it");
  write_file_atomic(target, text);
}

}  // namespace dpclust::datasources
