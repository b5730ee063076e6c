// Row selection and a trial's guarantee; see selection_privacy.hpp.
#include "run/selection_privacy.hpp"

#include "data/transforms.hpp"

namespace dpclust {
using json = nlohmann::json;

namespace {

const json* find_transform(const Dataset& data, const char* name) {
  const auto it = data.provenance.find("transforms");
  if (it == data.provenance.end() || !it->is_array()) return nullptr;
  for (const auto& t : *it)
    if (t.is_object() && t.value("name", std::string()) == name) return &t;
  return nullptr;
}

}  // namespace

std::string max_rows_note(std::int64_t max_rows) {
  return "max_rows: " + std::to_string(max_rows) +
         " keeps the first rows of the file: one added record before the cut pushes the last kept row out, so under "
         "add/remove "
         "neighbours the release costs up to 2 epsilon, not the configured epsilon (privacy_accounting counts it "
         "twice)";
}

SelectionPrivacy selection_privacy(const Dataset& data, const MethodInfo& info, const BudgetLedger& ledger) {
  SelectionPrivacy out;
  if (!info.differentially_private || !ledger.is_private()) return out;
  const bool local = ledger.measure() == PrivacyMeasure::local;
  const bool add_remove = ledger.relation() == NeighbourRelation::add_remove;
  if (const json* m = find_transform(data, "max_rows"); m && add_remove && !local)
    out.non_private.push_back(max_rows_note(m->value("max_rows", std::int64_t{0})));

  const json* s = find_transform(data, "subsample");
  if (!s || s->value("scheme", std::string()) != "poisson" || s->value("randomness", std::string()) != "secure")
    return out;
  const double q = s->value("rate", 1.0);
  // The rate m / N is released with the ledger. When N is the data's own row count it gives the true n back
  // (rate 0.15 of sample 300: n = 2000), which only replace-one neighbours hold public: then it is null.
  const bool rate_public = s->value("rate_public", false) || (!add_remove && !local);
  json rec{{"scheme", "poisson"},
           {"rate", rate_public ? json(q) : json(nullptr)},
           {"sample_id", s->value("sample_id", std::string())},
           {"relation", to_string(ledger.relation())}};
  if (!rate_public)
    rec["rate_withheld"] =
        "the rate's denominator is the data's own row count, which this guarantee does not make public: "
        "the rate would reveal the true n";
  const double eps = ledger.total_epsilon() + ledger.excess_epsilon();
  rec["epsilon_on_sample"] = eps;
  if (local) {
    rec["amplified"] = false;
    rec["why"] = "a local (per-record) guarantee is not amplified here: counted at its full rate";
  } else if (ledger.unbounded()) {
    rec["amplified"] = false;
    rec["why"] = "the ledger is unbounded: there is no epsilon to amplify";
  } else if (!rate_public) {
    rec["amplified"] = false;
    rec["why"] = "the rate's denominator is the data's own row count, not public under add/remove neighbours";
    out.non_private.push_back(
        "sample: the Poisson rate sample / n uses the data's own row count n, which is not public under add/remove "
        "neighbours: "
        "no amplification is claimed and the configured epsilon is not a guarantee for the file (declare the file's "
        "`rows` in "
        "the registry, or set max_rows, to make the rate public)");
  } else {
    rec["amplified"] = true;
    rec["epsilon_amplified"] = amplified_epsilon(eps, q);
    if (ledger.total_delta() > 0) rec["delta_amplified"] = q * ledger.total_delta();
    rec["theorem"] =
        add_remove ? "Balle, Barthe & Gaboardi 2018: Poisson sampling at rate q under add/remove one record: "
                     "eps' = ln(1 + q (e^eps - 1)), delta' = q delta"
                   : "Balle, Barthe & Gaboardi 2018's coupling for replace-one (the replaced record is kept in both "
                     "worlds or in neither, with probability q): eps' = ln(1 + q (e^eps - 1)), delta' = q delta";
    rec["note"] =
        "for this trial alone: the trials of a run share one sample, so privacy_accounting sums the epsilons spent on "
        "each sample first and amplifies the sum once";
  }
  out.subsampled = std::move(rec);
  return out;
}

}  // namespace dpclust
