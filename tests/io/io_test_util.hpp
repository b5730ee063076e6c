#pragma once
// Helpers for the loader tests: gzip files and the text of the InputError an action throws.
#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <string>

#include "core/error.hpp"

namespace dpclust::testing {

inline std::filesystem::path write_gzip(const std::filesystem::path& path, const std::string& text) {
  gzFile f = gzopen(path.c_str(), "wb");
  EXPECT_NE(f, nullptr);
  EXPECT_EQ(gzwrite(f, text.data(), static_cast<unsigned>(text.size())), static_cast<int>(text.size()));
  gzclose(f);
  return path;
}

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
