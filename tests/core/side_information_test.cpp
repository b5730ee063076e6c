// A cell's side-information record and tuning derived from the declarations (core/side_information.hpp): a
// value parameter gives its input publicly, a special value says the input is not given, a selector says it
// is estimated privately or taken from the data, a method's fixed inputs and the dataset's bounds, scaling and
// tuned_on_data parameters are recorded, and a cell with any input taken from the data is oracle-tuned.
#include <gtest/gtest.h>

#include "core/method.hpp"
#include "core/params.hpp"
#include "core/side_information.hpp"

using namespace dpclust;
using json = nlohmann::json;

namespace side_information_test {  // named: the core tests are a unity build

// A method declared like EUGkM (k, n_public with 0 = no n, n_source choosing a noisy count) and like
// lsh_clustering (radius, radius_from_data), with bounds and a fixed input.
MethodInfo declared_method() {
  MethodInfo m;
  m.name = "declared";
  m.needs_bounds = true;
  m.side_inputs = {{"iterations", InputSource::rule, "floor(eps / eps_m) from epsilon, n and d"}};
  m.params = {
      real_param("epsilon", 1.0, "budget"),
      gives(int_param("k", std::nullopt, "number of clusters", 1), "k"),
      gives(int_param("n_public", 0, "a public n; 0 = none", 0), "n", {{"0", InputSource::none, "no public n"}}),
      selects(choice_param("n_source", "public", {"public", "noisy"}, "where N comes from"), "n",
              {{"noisy", InputSource::private_estimate, "a Laplace count of the points (charged)"},
               {"public", InputSource::public_value, "n given as n_public"}}),
      gives(real_param("radius", 1.0, "radius of the data"), "radius"),
      selects(bool_param("radius_from_data", false, "take the radius from the data"), "radius",
              {{"true", InputSource::data, "the largest norm of the data (flagged)"}}),
  };
  return m;
}

ParamSet params(std::int64_t k, std::int64_t n_public, const std::string& n_source, bool radius_from_data) {
  ParamSet p;
  p.set("epsilon", 1.0);
  p.set("k", k);
  p.set("n_public", n_public);
  p.set("n_source", n_source);
  p.set("radius", 1.0);
  p.set("radius_from_data", radius_from_data);
  return p;
}

DatasetSideInputs public_box() {
  DatasetSideInputs d;
  d.bounds = InputSource::public_value;
  d.bounds_how = "a box given in the config";
  return d;
}

}  // namespace side_information_test

using namespace side_information_test;

TEST(SideInformation, PublicInputsFromTheirParameters) {
  const json j =
      side_information_json(side_information(declared_method(), params(5, 10000, "public", false), public_box()));
  // Sorted by input: bounds, iterations, k, n, radius.
  const json want = json::parse(R"([
    {"input": "bounds", "source": "public", "how": "a box given in the config"},
    {"input": "iterations", "source": "rule", "how": "floor(eps / eps_m) from epsilon, n and d"},
    {"input": "k", "source": "public", "value": 5, "how": "given in the config", "params": ["k"]},
    {"input": "n", "source": "public", "value": 10000, "how": "n given as n_public", "params": ["n_public"]},
    {"input": "radius", "source": "public", "value": 1.0, "how": "the parameter's default", "params": ["radius"]}])");
  EXPECT_EQ(j, want) << j.dump(1);
  const json t = tuning_record(side_information(declared_method(), params(5, 10000, "public", false), public_box()));
  EXPECT_FALSE(t["oracle"].get<bool>());
  EXPECT_EQ(t["search"], "none");
  EXPECT_FALSE(t.contains("reasons"));
}

TEST(SideInformation, SpecialValuesAndSelectors) {
  // n_public 0: no n (the special value, not "public 0"); n_source noisy: a private estimate, whatever n_public says.
  const auto none = side_information(declared_method(), params(5, 0, "public", false), public_box());
  EXPECT_EQ(none[3].input, "n");
  EXPECT_EQ(none[3].source, InputSource::none);
  EXPECT_EQ(none[3].how, "no public n");
  EXPECT_TRUE(none[3].value.is_null());
  const auto noisy = side_information(declared_method(), params(5, 10000, "noisy", false), public_box());
  EXPECT_EQ(noisy[3].source, InputSource::private_estimate);
  EXPECT_EQ(noisy[3].params, std::vector<std::string>{"n_source"});
  EXPECT_FALSE(tuning_record(noisy)["oracle"].get<bool>());  // charged in the ledger: not an oracle
}

TEST(SideInformation, InputsTakenFromTheDataMakeTheCellOracleTuned) {
  DatasetSideInputs d;
  d.bounds = InputSource::data;
  d.bounds_how = "the data's bounding box (bounds: data, flagged)";
  d.scaled_on_data = true;
  d.tuned_on_data = {{"k", "elbow plot"}};
  const auto r = side_information(declared_method(), params(4, 10000, "public", true), d);
  ASSERT_EQ(r.size(), 6u);  // bounds, iterations, k, n, radius, scaling
  EXPECT_EQ(r[0].source, InputSource::data);
  EXPECT_EQ(r[2].input, "k");
  EXPECT_EQ(r[2].source, InputSource::data);
  EXPECT_EQ(r[2].how, "tuned on the data: elbow plot");
  EXPECT_EQ(r[2].value, json(4));
  EXPECT_EQ(r[4].input, "radius");
  EXPECT_EQ(r[4].source, InputSource::data);
  EXPECT_EQ(r[4].params, std::vector<std::string>{"radius_from_data"});
  EXPECT_EQ(r[5].input, "scaling");
  const json t = tuning_record(r);
  EXPECT_TRUE(t["oracle"].get<bool>());
  EXPECT_EQ(t["reasons"], json::parse(R"j(["bounds: the data's bounding box (bounds: data, flagged)",
    "k: tuned on the data: elbow plot", "radius: the largest norm of the data (flagged)",
    "scaling: the data standardised with their own mean and standard deviation (scale: standard)"])j"));
}

// A special value the parameter cannot take would never match a cell's value, and the input would be recorded
// as public: lsh_clustering declared its `centre: data` as "mean", so a centre taken from the data was recorded
// as public information. Such a declaration is refused when it is made.
TEST(SideInformation, ASpecialValueTheParameterCannotTakeIsRefused) {
  EXPECT_THROW(selects(choice_param("centre", "bounds", {"bounds", "origin", "data"}, "the centre"), "centre",
                       {{"mean", InputSource::data, "the true mean"}}),
               std::logic_error);
  EXPECT_NO_THROW(selects(choice_param("centre", "bounds", {"bounds", "origin", "data"}, "the centre"), "centre",
                          {{"data", InputSource::data, "the true mean"}}));
  EXPECT_THROW(
      selects(bool_param("radius_from_data", false, "r from the data"), "radius", {{"yes", InputSource::data, "x"}}),
      std::logic_error);
  EXPECT_THROW(gives(int_param("n_public", 0, "a public n", 0), "n", {{"none", InputSource::none, "x"}}),
               std::logic_error);
  EXPECT_NO_THROW(gives(int_param("n_public", 0, "a public n", 0), "n", {{"0", InputSource::none, "no public n"}}));
}

// The number of points a private method's pre-run checks see: under add/remove DP the rows read are private
// unless the config declares exactly that many; replace-one, local and non-private methods see them.
TEST(DataShapeForChecks, TheTrueNIsHiddenFromAPrivateMethodUnlessDeclared) {
  MethodInfo central = declared_method();
  central.differentially_private = true;
  DataShape loaded;
  loaded.n = 379;
  loaded.n_exact = true;
  loaded.d = 2;
  EXPECT_TRUE(n_is_private(central, loaded));
  DataShape seen = shape_for_checks(central, loaded);
  EXPECT_FALSE(seen.n.has_value());
  EXPECT_FALSE(seen.n_exact);
  // An upper bound the config declares (max_rows: 500): the checks see it, as an upper bound.
  loaded.declared_n = 500;
  loaded.declared_n_exact = false;
  seen = shape_for_checks(central, loaded);
  EXPECT_EQ(seen.n, std::optional<std::uint64_t>(500));
  EXPECT_FALSE(seen.n_exact);
  // The declared exact size, equal to the rows read (a generator's n_samples, a registry file's rows).
  loaded.declared_n = 379;
  loaded.declared_n_exact = true;
  EXPECT_FALSE(n_is_private(central, loaded));
  EXPECT_EQ(shape_for_checks(central, loaded).n, std::optional<std::uint64_t>(379));
  // A shape known from the config alone is public, exact or not.
  DataShape known;
  known.n = known.declared_n = 300;
  EXPECT_FALSE(n_is_private(central, known));
  // Replace-one (n public by definition), local (the release publishes every record) and non-private methods.
  loaded.declared_n.reset();
  MethodInfo replace = central, local = central, exact = central;
  replace.relation = NeighbourRelation::replace_one;
  local.local_privacy = true;
  exact.differentially_private = false;
  for (const MethodInfo* m : {&replace, &local, &exact}) {
    EXPECT_FALSE(n_is_private(*m, loaded));
    EXPECT_EQ(shape_for_checks(*m, loaded).n, std::optional<std::uint64_t>(379));
  }
}

TEST(SideInformation, AMethodWithoutBoundsHasNoBoundsRecord) {
  MethodInfo m = declared_method();
  m.needs_bounds = false;
  const auto r = side_information(m, params(5, 10000, "public", false), public_box());
  EXPECT_EQ(r.front().input, "iterations");
}
