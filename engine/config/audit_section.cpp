// The `audit:` section of a config; see config_reading.hpp.
#include "config/config.hpp"

#include <cmath>

#include "config/config_reading.hpp"

namespace dpclust {
using yaml::Located;

const std::vector<std::string> kAuditKeys = {
    "runs", "pilot_runs", "confidence", "pairs", "seed", "local_distance", "features_per_criterion"};

// `audit:` (docs/privacy.md "Privacy audit"). Pair names are checked against the method's relation by the audit.
AuditConfig parse_audit(const Located& at) {
  yaml::check_keys(at, kAuditKeys);
  AuditConfig a;
  auto bounded_uint = [&](const char* key, std::uint64_t lo, std::uint64_t hi) {
    const std::uint64_t v = yaml::as_uint(at.child(key));
    if (v < lo || v > hi)
      yaml::fail(at.child(key), std::string(key) + " must be in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                    "], got " + std::to_string(v));
    return v;
  };
  if (at.has("runs")) a.runs = bounded_uint("runs", 200, 100'000'000);
  if (at.has("pilot_runs")) a.pilot_runs = bounded_uint("pilot_runs", 20, 1'000'000);
  if (at.has("seed")) a.seed = yaml::as_uint(at.child("seed"));
  if (at.has("features_per_criterion")) a.features_per_criterion = bounded_uint("features_per_criterion", 1, 1000);
  if (at.has("confidence")) {
    a.confidence = yaml::as_double(at.child("confidence"));
    if (!(a.confidence >= 0.5 && a.confidence < 1))
      yaml::fail(at.child("confidence"), "confidence must be in [0.5, 1)", "e.g. confidence: 0.95");
  }
  if (at.has("local_distance")) {
    a.local_distance = yaml::as_double(at.child("local_distance"));
    if (!(a.local_distance > 0)) yaml::fail(at.child("local_distance"), "local_distance must be > 0");
  }
  if (at.has("pairs")) {
    auto list = at.child("pairs");
    yaml::expect_sequence(list);
    for (std::size_t i = 0; i < list.node.size(); ++i) {
      auto item = list.item(i);
      AuditPairConfig p;
      p.where = item.where();
      if (item.node.IsScalar()) {
        p.name = yaml::as_string(item);
      } else {
        yaml::check_keys(item, {"name", "add", "remove", "with"});
        if (!item.has("name"))
          yaml::fail(item, "a config pair needs a name", "e.g. {name: far_point, add: [9.5, 9.5]}");
        p.name = yaml::as_string(item.child("name"));
        const bool add = item.has("add"), remove = item.has("remove"), with = item.has("with");
        if (add + remove != 1 || (with && !remove))
          yaml::fail(
              item,
              "a config pair is {name, add: [x...]}, {name, remove: INDEX} or {name, remove: INDEX, with: [x...]}");
        auto coords = [&](const Located& c) {
          yaml::expect_sequence(c);
          std::vector<double> v;
          for (std::size_t j = 0; j < c.node.size(); ++j) v.push_back(yaml::as_double(c.item(j)));
          return v;
        };
        if (add) p.add = coords(item.child("add"));
        if (remove) p.remove = static_cast<std::size_t>(yaml::as_uint(item.child("remove")));
        if (with) p.add = coords(item.child("with"));
      }
      check_name(item.node.IsScalar() ? item : item.child("name"), p.name, "pair name", "_ . -");
      for (const auto& q : a.pairs)
        if (q.name == p.name) yaml::fail(item, "pair '" + p.name + "' is listed twice");
      a.pairs.push_back(std::move(p));
    }
  }
  return a;
}

}  // namespace dpclust
