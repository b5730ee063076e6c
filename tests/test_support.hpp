#pragma once
// Helpers shared by the test executables.
#include <gtest/gtest.h>

#include <cstddef>
#include <filesystem>
#include <string>

#include "core/error.hpp"

namespace dpclust::testing {

// The data root (as `dpclust` resolves it: $DPCLUST_DATA_ROOT, ../shared/datasets, or the user cache). Tests
// that need a file in it call
// DPCLUST_REQUIRE_DATA(path) which skips with a message naming the setting.
std::filesystem::path data_root();
// A fresh empty directory under the system temp dir, unique per test; removed when the test process
// exits (kept, with its path printed, when a test failed).
std::filesystem::path temp_dir(const std::string& tag);
// Writes text to a file (creating directories) and returns its path.
std::filesystem::path write_file(const std::filesystem::path& path, const std::string& text);
// Deterministic file content of n lowercase letters from a xorshift32 stream seeded by `seed` (not all
// one byte, so a misplaced range or a truncated transfer shows).
std::string pattern_bytes(std::size_t n, unsigned seed = 1);

// Runs a shell command, stdout and stderr together; code is the exit status (-1 when it did not exit).
struct CommandResult {
  int code = -1;
  std::string output;
};
CommandResult run_command(const std::string& command);

// The message of the InputError `action` throws ("" and a test failure when it throws none).
template <class F>
std::string input_error(F&& action) {
  try {
    action();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an InputError";
  return "";
}

}  // namespace dpclust::testing

#define DPCLUST_REQUIRE_DATA(relative)                                                        \
  do {                                                                                        \
    if (::dpclust::testing::data_root().empty() ||                                            \
        !std::filesystem::exists(::dpclust::testing::data_root() / (relative)))               \
      GTEST_SKIP() << "data file '" << (relative) << "' not found under the data root "       \
                   << ::dpclust::testing::data_root() << ": fetch the papers' datasets with " \
                   << "`dpclust data fetch --all` (or set DPCLUST_DATA_ROOT)";                \
  } while (0)
