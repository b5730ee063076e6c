#pragma once
// Helpers for the loader tests: gzip files (input_error is in test_support.hpp).
#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <string>

#include "core/error.hpp"
#include "test_support.hpp"  // input_error

namespace dpclust::testing {

inline std::filesystem::path write_gzip(const std::filesystem::path& path, const std::string& text) {
  gzFile f = gzopen(path.c_str(), "wb");
  EXPECT_NE(f, nullptr);
  EXPECT_EQ(gzwrite(f, text.data(), static_cast<unsigned>(text.size())), static_cast<int>(text.size()));
  gzclose(f);
  return path;
}

}  // namespace dpclust::testing
