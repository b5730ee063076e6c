// Parse once: the config room turns YAML into typed, checked values; the grid and the runner
// combine typed sweeps and never see a YAML node (engine/check_layering.cmake keeps yaml-cpp out of every
// other room, including through a header).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <variant>

#include "config/config.hpp"
#include "config/grid.hpp"

namespace dpclust {
namespace {

ExperimentConfig parse(const std::string& text, std::uint64_t max_cells = kDefaultMaxCells) {
  return parse_config(text, "p.yaml", std::filesystem::temp_directory_path(), "", max_cells);
}

const std::string kHead =
    "experiment: p\n"
    "datasets:\n"
    "  - {name: m, generator: {type: moons, n_samples: 100, seed: 1}, bounds: [[-2, 3], [-2, 2]],\n"
    "     params: {alpha: 0.3}}\n";

TEST(ParseOnce, SweepsAreTypedAndExpandedWhenTheConfigIsRead) {
  const ExperimentConfig cfg =
      parse(kHead +
            "methods:\n"
            "  - {method: dp_dbscan, params: {epsilon: {from: 0.5, to: 1.5, step: 0.5}, min_pts: [4, 6]}}\n"
            "  - {method: dbscan, params: {min_pts: 5}}\n");
  const ParamSource& eps = cfg.methods[0].params.at("epsilon");
  ASSERT_EQ(eps.sweep.at("dp_dbscan").size(), 3u);
  EXPECT_EQ(std::get<double>(eps.sweep.at("dp_dbscan")[2]), 1.5);
  EXPECT_EQ(eps.length.at("dp_dbscan"), 3u);
  EXPECT_NE(eps.where.find("p.yaml:6:"), std::string::npos) << eps.where;  // the value's line, kept as text
  // A dataset-level parameter is typed for every listed method that declares it.
  const ParamSource& alpha = cfg.datasets[0].params.at("alpha");
  EXPECT_EQ(alpha.sweep.size(), 2u);
  EXPECT_EQ(std::get<double>(alpha.sweep.at("dbscan")[0]), 0.3);
  // The grid only combines: 3 x 2 cells for dp_dbscan, 1 for dbscan.
  EXPECT_EQ(expand_grid(cfg).size(), 7u);
}

TEST(ParseOnce, AValueItsSpecRefusesFailsWhileReading) {
  // Refused when the config is read, not only when the grid is expanded.
  EXPECT_THROW(parse(kHead + "methods:\n  - {method: dp_dbscan, params: {epsilon: -1, min_pts: 4}}\n"), InputError);
  try {
    parse(kHead + "methods:\n  - {method: dp_dbscan, params: {epsilon: [1, -1], min_pts: 4}}\n");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("p.yaml:6:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("epsilon"), std::string::npos) << e.what();
  }
  // A parameter set at two levels, likewise.
  EXPECT_THROW(parse(kHead + "methods:\n  - {method: dbscan, params: {alpha: 0.5, min_pts: 4}}\n"), InputError);
}

TEST(ParseOnce, TheCellCountComesBeforeAnyValueIsTyped) {
  // 10^5 x 10^5 values: counted from the lengths (10^10 cells), refused before any of them is typed.
  const std::string huge = kHead +
                           "methods:\n"
                           "  - {method: dp_dbscan, params: {epsilon: {from: 1, to: 100000, step: 1}, "
                           "min_pts: {from: 1, to: 100000, step: 1}}}\n";
  try {
    parse(huge);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--max-cells"), std::string::npos) << e.what();
  }
  // The limit is the caller's (`--max-cells`): 6 cells pass at 6, not at 5.
  const std::string six = kHead + "methods:\n  - {method: dp_dbscan, params: {epsilon: [1, 2, 3], min_pts: [4, 5]}}\n";
  EXPECT_NO_THROW(parse(six, 6));
  EXPECT_THROW(parse(six, 5), InputError);
}

}  // namespace
}  // namespace dpclust
