#pragma once
// `dpclust merge`: joins the outputs of shard runs into one results directory.
#include <filesystem>
#include <iosfwd>
#include <vector>

namespace dpclust {

// Copies the cell files of each input experiment directory (or of each experiment under an --out
// directory) into OUT/<experiment>/ and writes results.json when the grid is complete. Returns the
// experiment directories completed.
//
// Every input is checked before anything is written: manifests must be well formed, name a safe
// experiment folder and safe cell ids (InputError naming the file otherwise: a manifest is untrusted
// input, and "../../x" must not write outside OUT), and all shards of one experiment must come from
// the same config. A cell file that is damaged or of another fingerprint is reported on `log` and not
// copied; the merged experiment is then incomplete and says which cells are missing.
std::vector<std::filesystem::path> merge_results(const std::filesystem::path& out_dir,
                                                 const std::vector<std::filesystem::path>& inputs, std::ostream& log);

}  // namespace dpclust
