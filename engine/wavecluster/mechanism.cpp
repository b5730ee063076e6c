// The WaveCluster methods: parameters -> algorithm options -> MethodResult (see mechanism.hpp). The
// algorithms, each with its pseudocode's line table, are in privqt.*, privthr.*, privthr_em.*,
// baseline.* and wavecluster.* (non-private).
#include "wavecluster/mechanism.hpp"

#include <stdexcept>

#include "privacy/mechanism.hpp"
#include "wavecluster/baseline.hpp"
#include "wavecluster/choice.hpp"
#include "wavecluster/privqt.hpp"
#include "wavecluster/privthr.hpp"
#include "wavecluster/privthr_em.hpp"

namespace dpclust::wavecluster {

MethodResult WcMechanism::run(const Dataset& data, const ParamSet& params, Rng& rng, BudgetLedger& ledger) const {
  const WcParams wp = WcParams::from(params, data.d);
  const Quantizer q = make_quantizer(data, wp);
  WaveClusterOutput out = run_wc(data, wp, params, rng, ledger);
  MethodResult r;
  // For the private mechanisms these labels map the private data's points to the released cells:
  // they exist for evaluation only and are not part of the release (labels_are_release = false).
  r.labels = label_points(data, q, wp.wavelet.level, out.clustering);
  r.labels_are_release = false;
  r.release = clustering_release(out.clustering);
  for (auto it = out.release_extra.begin(); it != out.release_extra.end(); ++it) r.release[it.key()] = it.value();
  r.diagnostics = out.diagnostics();
  r.evaluation = out.evaluation();
  if (out.is_private && privacy::sampler_of(params) == privacy::Sampler::textbook)
    r.non_private_notes.push_back(privacy::kTextbookSamplerNote);
  if (out.range_from_data) r.non_private_notes.push_back(kDataRangeNote);
  for (const std::string& note : out.non_private_notes) r.non_private_notes.push_back(note);
  if (out.release_extra.contains("synopsis") && out.release_extra["synopsis"].value("true_n_used", false))
    r.non_private_notes.push_back(kTrueNNote);
  r.details = std::move(out);
  return r;
}

const WaveClusterOutput* output_of(const MethodResult& result) {
  return std::any_cast<WaveClusterOutput>(&result.details);
}

namespace {

class WaveClusterMethod final : public WcMechanism {
 public:
  WaveClusterOutput run_wc(const Dataset& data, const WcParams& wp, const ParamSet&, Rng&, BudgetLedger&,
                           const std::vector<double>* known_counts) const override {
    return run_wavecluster(data, wp, known_counts);
  }
  bool reads_points() const override { return false; }
};

class PrivQtMethod final : public WcMechanism {
 public:
  WaveClusterOutput run_wc(const Dataset& data, const WcParams& wp, const ParamSet& params, Rng& rng,
                           BudgetLedger& ledger, const std::vector<double>* known_counts) const override {
    return privqt(data, wp, params.real("epsilon"), privacy::sampler_of(params), rng, ledger, known_counts);
  }
  bool reads_points() const override { return false; }
};

class PrivThrMethod final : public WcMechanism {
 public:
  WaveClusterOutput run_wc(const Dataset& data, const WcParams& wp, const ParamSet& params, Rng& rng,
                           BudgetLedger& ledger, const std::vector<double>* known_counts) const override {
    PrivThrOptions o;
    o.epsilon = params.real("epsilon");
    o.rho = params.real("rho");
    o.sampler = privacy::sampler_of(params);
    return privthr(data, wp, o, rng, ledger, known_counts);
  }
  bool reads_points() const override { return false; }
};

class PrivThrEmMethod final : public WcMechanism {
 public:
  WaveClusterOutput run_wc(const Dataset& data, const WcParams& wp, const ParamSet& params, Rng& rng,
                           BudgetLedger& ledger, const std::vector<double>* known_counts) const override {
    PrivThrEmOptions o;
    o.epsilon = params.real("epsilon");
    o.rho = params.real("rho");
    o.em_upper = params.real("em_upper");
    // The authors'-code options (privthr_em.hpp); absent from a hand-built ParamSet: the paper's reading.
    if (params.has("em_repeats")) o.em_repeats = static_cast<std::size_t>(params.integer("em_repeats"));
    if (params.has("em_repeats_budget")) o.em_repeats_budget = choice_of<EmRepeatsBudget>(params, "em_repeats_budget");
    if (params.has("threshold_output")) o.threshold_output = choice_of<ThresholdOutput>(params, "threshold_output");
    if (params.has("lattice_bits")) o.lattice_bits = static_cast<int>(params.integer("lattice_bits"));
    o.sampler = privacy::sampler_of(params);
    return privthr_em(data, wp, o, rng, ledger, known_counts);
  }
  bool reads_points() const override { return false; }
};

class BaselineMethod final : public WcMechanism {
 public:
  WaveClusterOutput run_wc(const Dataset& data, const WcParams& wp, const ParamSet& params, Rng& rng,
                           BudgetLedger& ledger, const std::vector<double>* known_counts) const override {
    BaselineOptions o;
    o.epsilon = params.real("epsilon");
    o.synopsis.type = params.string("synopsis");
    o.synopsis.c = params.real("ag_c");
    o.synopsis.alpha = params.real("ag_alpha");
    o.synopsis.n_share = params.real("n_share");
    o.synopsis.sampler = privacy::sampler_of(params);
    if (params.has("ag_variant")) o.synopsis.variant = choice_of<AgVariant>(params, "ag_variant");  // flat_origin.hpp
    return baseline(data, wp, o, rng, ledger, known_counts);
  }
};

}  // namespace

std::unique_ptr<WcMechanism> make_mechanism(const std::string& name) {
  if (name == "wavecluster") return std::make_unique<WaveClusterMethod>();
  if (name == "privqt") return std::make_unique<PrivQtMethod>();
  if (name == "privthr") return std::make_unique<PrivThrMethod>();
  if (name == "privthr_em") return std::make_unique<PrivThrEmMethod>();
  if (name == "wc_baseline") return std::make_unique<BaselineMethod>();
  throw std::invalid_argument("unknown WaveCluster mechanism '" + name + "'");
}

}  // namespace dpclust::wavecluster
