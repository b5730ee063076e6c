#include "fuzz/fuzz_targets.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "config/config.hpp"
#include "core/error.hpp"
#include "io/arff.hpp"
#include "io/csv.hpp"
#include "io/fimi.hpp"
#include "io/gowalla.hpp"
#include "io/label_file.hpp"

namespace dpclust::fuzz {
namespace fs = std::filesystem;

const fs::path& scratch_dir() {
  static const fs::path& dir = *[] {  // never destroyed: the atexit cleanup below still reads it
    ::setenv("DPCLUST_MAX_LINE_BYTES", "65536", 0);
    ::setenv("DPCLUST_MAX_DATA_BYTES", "4M", 0);
    // Memory-backed /dev/shm when there is one: every input is written to a file, and a busy disk would
    // make the fuzz test slow.
    std::error_code ec;
    const fs::path base = fs::is_directory("/dev/shm", ec) && ::access("/dev/shm", W_OK) == 0
                              ? fs::path("/dev/shm")
                              : fs::temp_directory_path();
    auto* d = new fs::path(base / ("dpclust_fuzz_" + std::to_string(::getpid())));
    fs::create_directories(*d);
    std::atexit([] {
      std::error_code ignored;
      fs::remove_all(scratch_dir(), ignored);
    });
    return d;
  }();
  return dir;
}

namespace {

fs::path write_input(const char* name, const std::uint8_t* data, std::size_t size) {
  const fs::path p = scratch_dir() / name;
  std::FILE* f = std::fopen(p.c_str(), "wb");
  if (!f) std::abort();  // the harness itself is broken, not the loader
  if (size && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
  return p;
}

// Runs `load`: true when it loaded, false on InputError (a correct answer to a bad input); anything
// else escapes.
template <class F>
bool expect_input_error_or_success(F&& load) {
  try {
    load();
    return true;
  } catch (const InputError&) {
    return false;
  }
}

}  // namespace

bool csv(const std::uint8_t* data, std::size_t size) {
  // The name decides gzip-or-not only through the content; ".csv" vs ".tsv" decides the delimiter.
  const fs::path p = write_input(size % 5 == 4 ? "input.tsv" : "input.csv", data, size);
  CsvOptions o;
  switch (size % 5) {
    case 0: break;                     // all defaults: auto header, no label
    case 1: o.label = "label"; break;  // label by name (implies a header)
    case 2:
      o.label = "2";
      o.header = false;
      break;  // label by index, no header
    case 3:
      o.columns = {"0", "1"};
      o.delimiter = ';';
      o.max_rows = 50;
      break;
    default: o.columns = {"x", "y"}; break;  // by name, tab-separated
  }
  switch ((size / 5) % 4) {  // the typed columns' keys: encodings, dates, headers of several rows
    case 0: break;
    case 1:
      o.nominal = NominalEncoding::codes;
      o.dates = DateEncoding::days;
      o.missing = MissingPolicy::drop;
      break;
    case 2:
      o.nominal = NominalEncoding::onehot;
      o.nominal_order = NominalOrder::appearance;
      o.dates = DateEncoding::seconds;
      break;
    default:
      if (!o.header) o.header_rows = 2;
      break;
  }
  return expect_input_error_or_success([&] { (void)load_csv(p, o); });
}

bool arff(const std::uint8_t* data, std::size_t size) {
  const fs::path p = write_input("input.arff", data, size);
  ArffOptions o;
  if (size % 3 == 1) o.use_label = false;
  if (size % 3 == 2) {
    o.columns = {"x", "y"};
    o.label = "class";
  }
  return expect_input_error_or_success([&] { (void)load_arff(p, o); });
}

bool fimi(const std::uint8_t* data, std::size_t size) {
  const fs::path p = write_input("input.dat", data, size);
  FimiOptions o;
  o.ragged = static_cast<FimiRagged>(size % 3);
  return expect_input_error_or_success([&] { (void)load_fimi(p, o); });
}

bool gowalla(const std::uint8_t* data, std::size_t size) {
  const fs::path p = write_input("checkins.txt", data, size);
  return expect_input_error_or_success([&] { (void)load_gowalla(p); });
}

bool labels(const std::uint8_t* data, std::size_t size) {
  const fs::path p = write_input("labels.txt", data, size);
  return expect_input_error_or_success([&] { (void)read_label_file(p); });
}

bool config(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const fs::path& dir = scratch_dir();
  return expect_input_error_or_success([&] { (void)parse_config(text, "fuzz.yaml", dir, dir); });
}

const std::vector<Target>& targets() {
  static const std::vector<Target> all{{"csv", csv},         {"arff", arff},     {"fimi", fimi},
                                       {"gowalla", gowalla}, {"labels", labels}, {"config", config}};
  return all;
}

}  // namespace dpclust::fuzz
