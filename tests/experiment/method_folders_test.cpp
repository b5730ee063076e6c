// A method is one folder plus one line in engine/methods.cmake (docs/design.md, "Adding a method"): the catalog's
// folders are the list's, in its order; every listed method carries its cost estimate, its entry in
// docs/methods.md, and its Python estimator or the reason it has none; its folder has its register.cpp and its
// tests. A method added without one of them fails here.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "catalog/catalog.hpp"
#include "core/method_folder.hpp"

namespace dpclust {
namespace {

namespace fs = std::filesystem;
const fs::path kSource = DPCLUST_TEST_SOURCE_DIR;

std::string text_of(const fs::path& file) {
  std::ifstream in(file);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The folders engine/methods.cmake lists, in its order ("dpm: core privacy" -> "dpm").
std::vector<std::string> listed_folders() {
  const std::string cmake = text_of(kSource / "engine" / "methods.cmake");
  const std::size_t from = cmake.find("set(DPCLUST_METHOD_FOLDERS");
  const std::size_t to = cmake.find(')', from);
  std::vector<std::string> folders;
  const std::regex entry("\"([a-z_0-9/]+)(:[^\"]*)?\"");
  const std::string list = cmake.substr(from, to - from);
  for (auto it = std::sregex_iterator(list.begin(), list.end(), entry); it != std::sregex_iterator(); ++it)
    folders.push_back((*it)[1]);
  return folders;
}

// The subjects of docs/methods.md's list entries: an entry starts at "- `" and runs over its indented lines; its
// subject is its text up to its first sentence's end (". "), which names the methods it describes ("- `dpm`: no k.",
// "- `wavecluster` (non-private), `wc_baseline` (...), `privqt`, ... (`rho` 0.7). Common parameters: ...").
std::vector<std::string> entry_subjects(const std::string& doc) {
  std::vector<std::string> subjects;
  std::istringstream in(doc);
  std::string line, entry;
  const auto close = [&] {
    if (entry.empty()) return;
    const std::size_t end = entry.find(". ");
    subjects.push_back(entry.substr(0, end));
    entry.clear();
  };
  while (std::getline(in, line)) {
    if (line.rfind("- `", 0) == 0) {
      close();
      entry = line;
    } else if (!entry.empty() && line.rfind("  ", 0) == 0) {
      entry += " " + line.substr(2);
    } else {
      close();
    }
  }
  close();
  return subjects;
}

// The parameters a cell would hold: every default, and a value inside its range for a parameter without one.
ParamSet sample_params(const MethodInfo& m) {
  ParamSet p;
  for (const ParamSpec& s : m.params) {
    if (!s.required()) {
      p.set(s.name, s.default_value);
      continue;
    }
    const double lo = s.min ? *s.min : 0.0, hi = s.max ? *s.max : lo + 10;
    const double mid = std::isfinite(hi) ? (lo + std::min(hi, lo + 10)) / 2 : lo + 1;
    switch (s.type) {
      case ParamType::integer: p.set(s.name, static_cast<std::int64_t>(std::max(2.0, std::ceil(mid)))); break;
      case ParamType::real: p.set(s.name, mid > 0 ? mid : 0.5); break;
      case ParamType::real_vector: p.set(s.name, RealVector{std::max(2.0, std::ceil(mid))}); break;
      case ParamType::boolean: p.set(s.name, false); break;
      case ParamType::string: p.set(s.name, s.choices.empty() ? std::string() : s.choices.front()); break;
    }
  }
  return p;
}

TEST(MethodFolders, TheCatalogRegistersTheListedFoldersInTheirOrder) {
  const std::vector<std::string> folders = listed_folders();
  ASSERT_FALSE(folders.empty());
  EXPECT_EQ(method_folders().size(), folders.size()) << "engine/methods.cmake and the catalog's table disagree";
  for (const std::string& f : folders) {
    EXPECT_TRUE(fs::is_regular_file(kSource / "engine" / f / "register.cpp")) << f << " has no register.cpp";
    const std::string room = f.substr(0, f.find('/'));
    bool tested = false;
    if (fs::is_directory(kSource / "tests" / room))
      for (const auto& e : fs::directory_iterator(kSource / "tests" / room))
        tested = tested || e.path().filename().string().find("_test.cpp") != std::string::npos;
    EXPECT_TRUE(tested) << f << ": no tests/" << room << "/*_test.cpp";
  }
  for (std::size_t i = 0; i < method_folders().size(); ++i)
    EXPECT_FALSE(method_folders()[i].methods.empty()) << folders.at(i);
}

TEST(MethodFolders, EveryRegisterFileIsListed) {
  const std::vector<std::string> folders = listed_folders();
  const std::set<std::string> listed(folders.begin(), folders.end());
  for (const auto& e : fs::recursive_directory_iterator(kSource / "engine")) {
    if (e.path().filename() != "register.cpp") continue;
    const std::string folder = fs::relative(e.path().parent_path(), kSource / "engine").string();
    EXPECT_TRUE(listed.count(folder)) << "engine/" << folder
                                      << "/register.cpp: the folder is not in engine/methods.cmake";
  }
}

TEST(MethodFolders, EveryMethodHasItsCostItsDocsAndItsEstimator) {
  const std::vector<std::string> documented = entry_subjects(text_of(kSource / "docs" / "methods.md"));
  const std::vector<std::string> metrics;
  for (const MethodInfo& m : all_methods()) {
    // Its cost and memory estimate, a finite number on a small shape.
    ASSERT_TRUE(m.cost.trial) << m.name << " has no cost estimate (MethodInfo::cost.trial, its folder's cost.cpp)";
    DataShape shape;
    shape.n = 1000;
    shape.d = 2;
    shape.n_exact = true;
    shape.bounds.lo = {0, 0};
    shape.bounds.hi = {1, 1};
    const ParamSet params = sample_params(m);
    const TrialCost c = m.cost.trial(CostInputs{params, shape, metrics});
    EXPECT_TRUE(std::isfinite(c.memory) && c.memory > 0) << m.name << ": memory " << c.memory;
    EXPECT_TRUE(std::isfinite(c.work) && c.work > 0) << m.name << ": work " << c.work;
    // Its entry in docs/methods.md: "- `name`: ...", or the name among an entry's subjects.
    bool has_entry = false;
    for (const std::string& subject : documented)
      has_entry = has_entry || subject.find("`" + m.name + "`") != std::string::npos;
    EXPECT_TRUE(has_entry) << m.name << " has no entry in docs/methods.md (\"- `" << m.name
                           << "`: what it computes ...\")";
    // Its Python estimator, or why it has none.
    EXPECT_NE(m.python_estimator.empty(), m.no_python_estimator.empty())
        << m.name
        << ": name its Python estimator (MethodInfo::python_estimator) or say why it has none (no_python_estimator)";
    if (m.python_estimator.empty()) continue;
    const std::size_t dot = m.python_estimator.find('.');
    ASSERT_NE(dot, std::string::npos) << m.name << ": python_estimator is 'module.Class'";
    const std::string module = text_of(kSource / "python" / "dpclust" / (m.python_estimator.substr(0, dot) + ".py"));
    const std::string cls = m.python_estimator.substr(dot + 1);
    const std::size_t at = module.find("\nclass " + cls + "(");
    ASSERT_NE(at, std::string::npos) << m.name << ": no class " << cls << " in python/dpclust/"
                                     << m.python_estimator.substr(0, dot) << ".py";
    const std::size_t next = module.find("\nclass ", at + 1);
    EXPECT_NE(module.substr(at, next - at).find("_method = \"" + m.name + "\""), std::string::npos)
        << "dpclust." << m.python_estimator << " does not name method '" << m.name << "' (_method)";
  }
}

// A private method's ledger is made from its `epsilon` before the trial runs (run/runner.cpp trial_ledger); a method
// that forgets to declare it would fail only at its first trial, with "parameter 'epsilon' is not set". A 0-DP
// method says so with trivial_baseline.
TEST(MethodFolders, EveryPrivateMethodDeclaresTheEpsilonItsLedgerReads) {
  for (const MethodInfo& m : all_methods()) {
    if (!m.differentially_private || m.trivial_baseline) continue;
    bool has_epsilon = false;
    for (const ParamSpec& p : m.params) has_epsilon = has_epsilon || p.name == "epsilon";
    EXPECT_TRUE(has_epsilon) << m.name
                             << " is private but declares no 'epsilon' (epsilon_param() in its register.cpp; a "
                                "method that spends nothing is a trivial_baseline)";
  }
}

}  // namespace
}  // namespace dpclust
