#pragma once
// What a dataset's row selection does to a trial's guarantee (docs/privacy.md
// "Subsampling and max_rows"). The dataset is loaded once per run and shared by every trial, so the
// selection is read from its provenance (loading/dataset_loading.cpp records it):
//   max_rows   the first N rows: under add/remove neighbours one added record before the cut pushes the
//              last one out, so the rows change by a replacement and a release costs up to 2 epsilon. The
//              cell is flagged, and privacy_accounting counts its add/remove trials twice. Under replace-one
//              neighbours a replaced record changes at most one kept row: no extra cost.
//   sample     seeded: flagged by the loader (a public function of positions). secure: Poisson sampling at
//              rate q with secret randomness; a central (eps, delta)-DP release on the sample is
//              (ln(1 + q (e^eps - 1)), q delta)-DP on the data (Balle, Barthe & Gaboardi 2018, Poisson
//              sampling under add/remove; under replace-one the same coupling holds: a replaced record is kept
//              in both worlds or in neither, with probability q). The rate must be public: a rate computed
//              from the data's own count is public only under replace-one (the cell is flagged otherwise).
//              Local (per-record) guarantees are not amplified here.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "core/ledger.hpp"
#include "core/method.hpp"

namespace dpclust {

struct SelectionPrivacy {
  std::vector<std::string> non_private;  // notes that apply to the trial (and so to its cell)
  nlohmann::json subsampled;             // the trial ledger's "subsampled" record; null without a secure sample
};

SelectionPrivacy selection_privacy(const Dataset& data, const MethodInfo& info, const BudgetLedger& ledger);

// The max_rows note, in the words results carry.
std::string max_rows_note(std::int64_t max_rows);

}  // namespace dpclust
