#pragma once
// Side information: what a method is told about the data besides the data itself (the number of clusters k,
// the number of points n, the domain bounds, a radius, delta, an iteration count, DBSCAN's alpha and MinPts, a
// grid size), and where each of those came from in a cell. A fair comparison of private methods gives them
// the same public information, or says where it differs (Hay et al., "Principled evaluation of differentially
// private algorithms using DPBench", SIGMOD 2016, Sec. 4: side information and tuning on the private data).
//
// Declared once, where the parameter is declared: a ParamSpec's `side` names the input it stands for and the
// values with a meaning of their own (`n_public: 0` = no public n; `n_source: noisy` = a private estimate;
// `radius_from_data: true` = taken from the data); a MethodInfo's `side_inputs` names the inputs a method takes
// without a parameter (DPM's noisy count of n). side_information() derives a cell's record from those
// declarations and the cell's parameters; nothing lists methods by hand.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dpclust {

struct MethodInfo;
class ParamSet;

// Where one input of a method comes from in a cell.
enum class InputSource {
  public_value,      // "public": given by the config or a default constant; public by the config's assertion
  rule,              // "rule": computed by the method from other public inputs (the public bounds, d, k, epsilon)
  private_estimate,  // "private": estimated from the data with part of the budget, charged in the ledger
  data,              // "data": taken from the data without privacy (flagged non-private): the cell is oracle-tuned
  none,              // "none": the method does without it in this cell
};
const char* to_string(InputSource s);

// A parameter value with a meaning of its own for the input the parameter stands for.
struct SideValue {
  std::string value;  // as written in a config: "0", "noisy", "true" (numbers compare numerically)
  InputSource source = InputSource::public_value;
  std::string how;  // what that value means, e.g. "the smallest ball around the centre holding the public bounds"
};

// What a parameter tells the method about the data (ParamSpec::side). `input` empty: the parameter is a
// setting of the algorithm (a budget share, a tolerance), not information about the data.
struct SideInput {
  std::string input;
  // Values with a meaning of their own; any other value of a value parameter is the input itself, public.
  std::vector<SideValue> values;
  // The parameter only chooses where the input comes from (n_source, centre, variant): a value not listed in
  // `values` says nothing about the input, and a listed public_value defers to the input's value parameter.
  bool selector = false;
  bool declared() const { return !input.empty(); }
};

// An input a method takes without a parameter for it (MethodInfo::side_inputs), e.g. DPM's noisy count of n.
struct FixedSideInput {
  std::string input;
  InputSource source = InputSource::private_estimate;
  std::string how;
};

// The domain bounds and the dataset's transforms as a cell's method sees them (from the dataset's config
// entry and its loaded form; run/side_information.cpp builds it).
struct DatasetSideInputs {
  InputSource bounds = InputSource::none;  // public (a config list or the registry's public_bounds) or data
  std::string bounds_how;       // "a list in the config", "the registry's public_bounds (bounds: public)", ...
  bool scaled_on_data = false;  // scale: standard (the data's own mean and sd) or minmax (min and max)
  std::string scaling_how;      // how, when not standard scaling
  // Parameters the config declares chosen by looking at the data (`tuned_on_data: {alpha: "k-distance plot"}`).
  std::vector<std::pair<std::string, std::string>> tuned_on_data;
};

// One input of a cell's record.
struct SideInputRecord {
  std::string input;
  InputSource source = InputSource::none;
  nlohmann::json value;  // the value for public inputs given by a parameter (null otherwise)
  std::string how;
  std::vector<std::string> params;  // the parameters it was read from
  nlohmann::json to_json() const;
};

// The record of a cell: every input the method's declarations name (sorted by input name), the bounds when
// the method uses them, the scaling when the data were standardised on themselves, and the parameters the
// config declares tuned on the data (source data).
std::vector<SideInputRecord> side_information(const MethodInfo& info, const ParamSet& params,
                                              const DatasetSideInputs& dataset);
nlohmann::json side_information_json(const std::vector<SideInputRecord>& records);

// How the cell's parameters were chosen: oracle-tuned when any input was taken from the private data (bounds
// from the data, a radius from the data's norm, a parameter the config declares tuned on the data), with the
// reasons; otherwise from public information only. dpclust runs no private parameter search: the record says
// so ("search": "none"), and a privately tuned method would be a method whose ledger charges its search.
nlohmann::json tuning_record(const std::vector<SideInputRecord>& records);

}  // namespace dpclust
