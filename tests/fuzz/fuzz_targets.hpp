#pragma once
// One function per fuzz target, shared by the GoogleTest mutation harness (fuzz_test.cpp, part of the
// suite) and the optional libFuzzer programs (fuzz_<target>.cpp, -DDPCLUST_LIBFUZZER=ON).
//
// Each function (true: it loaded, false: InputError) feeds `data` to one loader (written to a scratch file first: the
// loaders read paths) or to the config parser. The contract it checks: every input either loads or throws
// dpclust::InputError. InputError is swallowed here; anything else (another exception type, a crash,
// a sanitizer report, a hang) escapes to the harness, which reports the input.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace dpclust::fuzz {

struct Target {
  const char* name;                                         // also the corpus folder: tests/fuzz/corpus/<name>/
  bool (*run)(const std::uint8_t* data, std::size_t size);  // true: loaded; false: InputError
};

// csv, arff, fimi, gowalla, labels, config.
const std::vector<Target>& targets();

bool csv(const std::uint8_t* data, std::size_t size);      // load_csv, options chosen by the input's size
bool arff(const std::uint8_t* data, std::size_t size);     // load_arff
bool fimi(const std::uint8_t* data, std::size_t size);     // load_fimi, each ragged mode
bool gowalla(const std::uint8_t* data, std::size_t size);  // load_gowalla
bool labels(const std::uint8_t* data, std::size_t size);   // read_label_file
bool config(const std::uint8_t* data, std::size_t size);   // parse_config on the text

// Where the targets write their scratch files (one directory per process). Also sets small read
// limits (DPCLUST_MAX_LINE_BYTES = 64 KiB, DPCLUST_MAX_DATA_BYTES = 4 MiB) unless the environment
// sets them, so the limit paths are reached by small inputs.
const std::filesystem::path& scratch_dir();

}  // namespace dpclust::fuzz
