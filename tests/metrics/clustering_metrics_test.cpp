#include "metrics/clustering_metrics.hpp"

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>

namespace dpclust {
namespace {

const MetricInfo& find_metric(const std::string& name) {
  for (const auto& m : clustering_metrics())
    if (m.name == name) return m;
  throw std::out_of_range("no metric " + name);
}

TEST(ClusteringMetrics, RegistersTheFiveMetrics) {
  std::map<std::string, bool> needs_truth;
  for (const auto& m : clustering_metrics()) {
    needs_truth[m.name] = m.needs_truth;
    EXPECT_FALSE(m.summary.empty()) << m.name;
    EXPECT_TRUE(static_cast<bool>(m.compute)) << m.name;
  }
  EXPECT_EQ(needs_truth,
            (std::map<std::string, bool>{
                {"ari", true}, {"ami", true}, {"nmi", true}, {"n_clusters", false}, {"noise_fraction", false}}));
  EXPECT_NE(find_metric("ari").summary.find("Hubert & Arabie 1985"), std::string::npos);
  for (const char* name : {"ami", "nmi"}) EXPECT_NE(find_metric(name).summary.find("Vinh"), std::string::npos) << name;
  for (const char* name : {"ari", "ami", "nmi"})
    EXPECT_NE(find_metric(name).summary.find("noise (-1) counts as its own label, as scikit-learn does"),
              std::string::npos)
        << name;
}

TEST(ClusteringMetrics, ComputeComparesTruthToPrediction) {
  Dataset data;
  data.name = "tiny";
  data.n = 4;
  data.d = 1;
  data.coords = {0.0, 1.0, 2.0, 3.0};
  data.labels = {0, 0, 1, 1};
  MethodResult result;
  result.labels = {0, 0, 1, -1};
  const ParamSet params;
  const MethodInfo method;
  std::map<std::string, std::any> cache;
  const MetricInput in{data, result, params, method, 0, cache};
  // Hand case with noise as a label: truth [0,0,1,1] vs pred [0,0,1,-1] is the [0,0,1,2] case up to a
  // relabelling: ARI = AMI = 4/7, NMI = 4/5 (derived in clustering_scores_test.cpp).
  EXPECT_NEAR(find_metric("ari").compute(in), 4.0 / 7.0, 1e-12);
  EXPECT_NEAR(find_metric("ami").compute(in), 4.0 / 7.0, 1e-12);
  EXPECT_NEAR(find_metric("nmi").compute(in), 0.8, 1e-12);
  EXPECT_EQ(find_metric("n_clusters").compute(in), 2.0);
  EXPECT_EQ(find_metric("noise_fraction").compute(in), 0.25);
}

TEST(ClusteringMetrics, MissingTruthOrWrongLengthThrows) {
  Dataset data;
  data.name = "unlabelled";
  data.n = 3;
  data.d = 1;
  data.coords = {0.0, 1.0, 2.0};
  MethodResult result;
  result.labels = {-1, -1, 4};
  const ParamSet params;
  const MethodInfo method;
  std::map<std::string, std::any> cache;
  const MetricInput in{data, result, params, method, 0, cache};
  EXPECT_THROW(find_metric("ari").compute(in), std::invalid_argument);
  // The prediction-only metrics work without ground truth.
  EXPECT_EQ(find_metric("n_clusters").compute(in), 1.0);
  EXPECT_DOUBLE_EQ(find_metric("noise_fraction").compute(in), 2.0 / 3.0);

  data.labels = {0, 1};
  EXPECT_THROW(find_metric("ami").compute(in), std::invalid_argument);
  EXPECT_THROW(find_metric("nmi").compute(in), std::invalid_argument);
}

}  // namespace
}  // namespace dpclust
