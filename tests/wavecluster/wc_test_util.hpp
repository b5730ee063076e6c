#pragma once
// Helpers for the WaveCluster tests: a minimal reader of the numeric ARFF files of the paper's data
// sets (test_wavecluster does not link the io module), and small hand-made datasets.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "core/params.hpp"
#include "core/rng.hpp"

namespace dpclust::testing {

// Reads the numeric columns of an ARFF file (the last, nominal column is skipped); bounds = the data's
// bounding box, as the registry declares for DS1-DS3.
inline Dataset read_numeric_arff(const std::filesystem::path& path, std::size_t d) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line) && line.rfind("@data", 0) != 0 && line.rfind("@DATA", 0) != 0) {}
  Dataset ds;
  ds.name = path.filename().string();
  ds.d = d;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '%') continue;
    std::stringstream ss(line);
    std::string field;
    for (std::size_t j = 0; j < d; ++j) {
      std::getline(ss, field, ',');
      ds.coords.push_back(std::stod(field));
    }
    ++ds.n;
  }
  ds.bounds = bounding_box(ds);
  ds.bounds_source = BoundsSource::config;
  return ds;
}

inline Dataset make_dataset(std::vector<double> coords, std::size_t d, Bounds b) {
  Dataset ds;
  ds.name = "test";
  ds.d = d;
  ds.n = coords.size() / d;
  ds.coords = std::move(coords);
  ds.bounds = std::move(b);
  ds.bounds_source = BoundsSource::config;
  return ds;
}

// The parameters every WaveCluster method declares, with the given g and p.
inline ParamSet wc_params(double g, double p) {
  ParamSet ps;
  ps.set("g", g);
  ps.set("p", p);
  ps.set("wavelet", std::string("haar"));
  ps.set("level", std::int64_t{1});
  ps.set("boundary", std::string("zero"));
  ps.set("connectivity", std::string("full"));
  ps.set("ties", std::string("include"));
  ps.set("cv_folds", std::int64_t{10});
  ps.set("c45_pruning", false);
  ps.set("c45_cf", 0.25);
  ps.set("c45_min_leaf", std::int64_t{2});
  ps.set("c0_grids", std::string("all"));
  return ps;
}

// Three Gaussian blobs and a thin uniform background in [0, 100]^2 (most grid cells stay empty, so
// |Z| is large, as in the paper's data).
inline Dataset blobs_dataset(std::uint64_t seed, std::size_t per_blob = 3000) {
  Rng rng(seed);
  std::vector<double> c;
  const double centres[3][2] = {{25, 25}, {70, 35}, {45, 75}};
  for (const auto& ctr : centres)
    for (std::size_t i = 0; i < per_blob; ++i) {
      c.push_back(std::min(100.0, std::max(0.0, rng.normal(ctr[0], 6))));
      c.push_back(std::min(100.0, std::max(0.0, rng.normal(ctr[1], 6))));
    }
  for (int i = 0; i < 60; ++i) {
    c.push_back(rng.uniform(0, 100));
    c.push_back(rng.uniform(0, 100));
  }
  return make_dataset(std::move(c), 2, Bounds{{0, 0}, {100, 100}});
}

// uci/iris.csv (a header line, then 4 numeric attributes and an integer class per line): the attributes
// appended row-major to x, the classes to y. The caller checks the file is there (DPCLUST_REQUIRE_DATA).
inline void read_iris_csv(const std::filesystem::path& path, std::vector<double>& x, std::vector<std::int32_t>& y) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::stringstream ss(line);
    std::string f;
    for (int j = 0; j < 4; ++j) {
      std::getline(ss, f, ',');
      x.push_back(std::stod(f));
    }
    std::getline(ss, f, ',');
    y.push_back(std::stoi(f));
  }
}

}  // namespace dpclust::testing
