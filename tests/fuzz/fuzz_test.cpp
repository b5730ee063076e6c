// Deterministic mutation fuzzing of every loader and of the config parser, run as part of the suite.
//
// For each target (fuzz_targets.hpp) the committed seeds in tests/fuzz/corpus/<target>/ are run as
// they are (regressions), then DPCLUST_FUZZ_ITERATIONS (default kDefaultIterations) mutants of them:
// 1-6 stacked mutations each (bit flips, byte inserts and deletes, chunk duplication, splices of two
// seeds, tokens such as "nan", "1e999", huge integers, NUL, 0xFF, CR, very long lines, deep YAML
// nesting and aliases), from a generator seeded with the target's name, so every run tries the same
// inputs. Every input must load or throw dpclust::InputError. On another exception the input is saved
// to the test's temp dir and its path printed; a crash saves it from the signal handler; an input
// running longer than DPCLUST_FUZZ_TIMEOUT seconds (default 20) is saved by a watchdog, which then
// ends the process. DPCLUST_FUZZ_SECONDS (default 8 for a loader, 15 for the config parser) bounds the time
// of each target.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <typeinfo>
#include <vector>

#include "core/error.hpp"
#include "fuzz/fuzz_targets.hpp"
#include "test_support.hpp"

#ifndef DPCLUST_FUZZ_CORPUS
#error "DPCLUST_FUZZ_CORPUS must name tests/fuzz/corpus"
#endif

namespace dpclust::fuzz {
namespace {
namespace fs = std::filesystem;

// Mutants per target (DPCLUST_FUZZ_ITERATIONS overrides both): 1-4 s per target on an idle 2-core
// machine in Release (a loader input takes ~20 us with /dev/shm, a config ~0.7 ms). Each target also stops after
// DPCLUST_FUZZ_SECONDS (overrides both defaults) so a loaded machine cannot stretch the suite. Under the
// sanitizers every target reaches its time first: a loader tries 20,000-60,000 mutants in its 8 s (7,000-32,000
// in 15 s before the line reader stopped zero-filling megabytes per file), the config parser, whose alias
// checks dominate, about 1,700 in 15 s.
constexpr std::size_t kDefaultIterations = 60'000, kDefaultConfigIterations = 4'000;
constexpr std::size_t kDefaultSeconds = 8, kDefaultConfigSeconds = 15;
constexpr std::size_t kMaxInputBytes = 200'000;

std::size_t env_number(const char* name, std::size_t fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(v, &end, 10);
  return end && *end == '\0' ? static_cast<std::size_t>(n) : fallback;
}

std::vector<std::string> read_corpus(const std::string& target) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(fs::path(DPCLUST_FUZZ_CORPUS) / target))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());  // directory order is not deterministic
  std::vector<std::string> out;
  for (const fs::path& p : files) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    out.push_back(ss.str());
  }
  return out;
}

// ---- crash and hang reporting -------------------------------------------------------------------

// The input being run, for the signal handler and the watchdog (written only between inputs).
struct Current {
  std::mutex mutex;
  std::string target, input;
  std::chrono::steady_clock::time_point started;
  bool running = false;
  char crash_path[512] = {0};  // prepared outside the handler
  const char* data = nullptr;
  std::size_t size = 0;
};
Current g_current;

void write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w <= 0) return;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

extern "C" void on_crash(int sig) {
  // Only async-signal-safe calls: open, write, close, then the default action.
  if (g_current.crash_path[0] && g_current.data) {
    const int fd = ::open(g_current.crash_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      write_all(fd, g_current.data, g_current.size);
      ::close(fd);
    }
    const char msg[] = "\nfuzz: the input that crashed is saved as ";
    write_all(2, msg, sizeof msg - 1);
    write_all(2, g_current.crash_path, std::strlen(g_current.crash_path));
    write_all(2, "\n", 1);
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

class Watchdog {
 public:
  explicit Watchdog(fs::path dir) : dir_(std::move(dir)), timeout_(env_number("DPCLUST_FUZZ_TIMEOUT", 20)) {
    thread_ = std::thread([this] { loop(); });
  }
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(stop_mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> lock(stop_mutex_);
    while (!cv_.wait_for(lock, std::chrono::milliseconds(200), [this] { return stop_; })) {
      std::lock_guard<std::mutex> cur(g_current.mutex);
      if (!g_current.running) continue;
      const auto secs =
          std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - g_current.started);
      if (static_cast<std::size_t>(secs.count()) < timeout_) continue;
      const fs::path p = dir_ / ("hang-" + g_current.target + ".bin");
      std::ofstream(p, std::ios::binary) << g_current.input;
      std::cerr << "\nfuzz: target '" << g_current.target << "' ran an input for more than " << timeout_
                << " s (a hang); the input is saved as " << p << std::endl;
      std::_Exit(1);
    }
  }

  fs::path dir_;
  std::size_t timeout_;
  std::mutex stop_mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

// ---- mutations ----------------------------------------------------------------------------------

const std::vector<std::string>& common_tokens() {
  static const std::vector<std::string> t{"nan",
                                          "NaN",
                                          "-nan",
                                          "inf",
                                          "-inf",
                                          "Infinity",
                                          "1e999",
                                          "-1e999",
                                          "1e-999",
                                          "4.9e-324",
                                          "1.7976931348623157e308",
                                          "9223372036854775807",
                                          "9223372036854775808",
                                          "-9223372036854775809",
                                          "18446744073709551616",
                                          "99999999999999999999999999999999999999",
                                          "2147483648",
                                          "-2147483649",
                                          "9007199254740993",
                                          "-1",
                                          "-0",
                                          "0x1p3",
                                          "+",
                                          "-",
                                          ".",
                                          "1.",
                                          ".5",
                                          "1e",
                                          "e5",
                                          "+-1",
                                          "0",
                                          "1",
                                          "",
                                          " ",
                                          "\t",
                                          ",",
                                          ";",
                                          "\n",
                                          "\r",
                                          "\r\n",
                                          "\n\n",
                                          "\"",
                                          "'",
                                          "\"\"",
                                          "\"a,b\"",
                                          "noise",
                                          "NOISE",
                                          "?",
                                          "%",
                                          std::string(1, '\0'),
                                          "\xFF",
                                          "\xFE\xFF",
                                          "\xEF\xBB\xBF",
                                          "\xC0\x80",
                                          "\xED\xA0\x80",
                                          "\xF4\x90\x80\x80",
                                          "\xC3\xA9",
                                          "\xE2\x82\xAC",
                                          "\xF0\x9F\x98\x80",
                                          "\x80",
                                          "\xC3",
                                          "\x1b[31m",
                                          "\x7f"};
  return t;
}

std::vector<std::string> tokens_for(const std::string& target) {
  std::vector<std::string> t = common_tokens();
  auto add = [&](std::initializer_list<const char*> more) { t.insert(t.end(), more.begin(), more.end()); };
  if (target == "csv")
    add({"x,y,label\n", "label", "x", "y", "\"x\"", "1,2,3,4,5,6,7,8\n", "True", "false", "2019-03-23", "2019-02-30",
         "2019-03-23T20:21:09.5+01:00", "9999-12-31 23:59:59Z", ",,,\n", "class", "NA"});
  if (target == "arff")
    add({"@relation r\n", "@attribute x numeric\n", "@attribute class {a,b,noise}\n", "@attribute s string\n",
         "@data\n", "{0 1, 1 2}", "@ATTRIBUTE", "{", "}", "'quoted name'", "{1,2,3,4,5,6,7,8,9,10}", "real", "integer",
         "date"});
  if (target == "fimi") add({" ", "  ", "1 2 3 ", "9007199254740992", "9007199254740993 "});
  if (target == "gowalla")
    add({"\t", "2010-10-19T23:55:27Z", "30.2359091167", "-97.7951395833", "90.0000001", "-180", "181"});
  if (target == "labels") add({"-2", "2147483647", "2147483648", "1.0", " 3 "});
  if (target == "config")
    add({"experiment: x\n",
         "datasets:\n  - name: moons\n",
         "methods: [dbscan]\n",
         ": ",
         "- ",
         "? ",
         "{",
         "}",
         "[",
         "]",
         "&a ",
         "*a",
         "<<: *a",
         "!!binary ",
         "!!str ",
         "!<tag:yaml.org,2002:int> ",
         "%YAML 1.2\n---\n",
         "---\n",
         "...\n",
         "|\n",
         ">-\n",
         "~",
         "null",
         "true",
         "yes",
         "{from: 0, to: 1e308, step: 1e-300}",
         "{per_dim: [1, 2]}",
         "params: {epsilon: [0.1, 0.5]}",
         "zip: [[alpha, min_pts]]",
         "generator: {type: moons, n_samples: 100000000000}",
         "file: /dev/zero",
         "file: ../../etc/passwd",
         "bounds: [[0, 1], [1, 0]]",
         "sample: -1",
         "trials: 0",
         "seed: 18446744073709551616",
         "use: cluto-t4",
         "as: dup",
         "  ",
         "    ",
         "\t"});
  return t;
}

class Mutator {
 public:
  Mutator(std::uint64_t seed, const std::vector<std::string>& corpus, std::vector<std::string> tokens, bool yaml)
      : rng_(seed), corpus_(corpus), tokens_(std::move(tokens)), yaml_(yaml) {}

  std::string next() {
    std::string s = corpus_[pick(corpus_.size())];
    const std::size_t rounds = 1 + pick(pick(2) ? 2 : 6);  // mostly light edits, so more inputs get deep
    for (std::size_t r = 0; r < rounds; ++r) mutate(s);
    if (s.size() > kMaxInputBytes) s.resize(kMaxInputBytes);
    return s;
  }

 private:
  std::size_t pick(std::size_t n) { return n ? static_cast<std::size_t>(rng_() % n) : 0; }
  std::size_t pos(const std::string& s) { return pick(s.size() + 1); }
  const std::string& token() { return tokens_[pick(tokens_.size())]; }

  void mutate(std::string& s) {
    switch (pick(yaml_ ? 14 : 12)) {
      case 0:  // flip one bit
        if (!s.empty()) s[pick(s.size())] ^= static_cast<char>(1u << pick(8));
        break;
      case 1:  // insert a random byte
        s.insert(pos(s), 1, static_cast<char>(pick(256)));
        break;
      case 2: {  // delete a short range
        if (s.empty()) break;
        const std::size_t at = pick(s.size());
        s.erase(at, 1 + pick(8));
        break;
      }
      case 3: {  // duplicate a chunk somewhere else
        if (s.empty()) break;
        const std::size_t at = pick(s.size()), len = 1 + pick(std::min<std::size_t>(s.size() - at, 256));
        const std::string chunk = s.substr(at, len);
        s.insert(pos(s), chunk);
        break;
      }
      case 4: {  // splice: a prefix of this input and a suffix of another seed
        const std::string& other = corpus_[pick(corpus_.size())];
        s = s.substr(0, pos(s)) + other.substr(pick(other.size() + 1));
        break;
      }
      case 5:  // insert a token
        s.insert(pos(s), token());
        break;
      case 6: {  // replace a short range by a token
        const std::size_t at = pos(s);
        s.replace(at, pick(12), token());
        break;
      }
      case 7: {  // replace a number (a run of digits, signs, dots) by a token
        std::vector<std::size_t> starts;
        for (std::size_t i = 0; i < s.size(); ++i)
          if (std::isdigit(static_cast<unsigned char>(s[i])) &&
              (i == 0 || !std::isdigit(static_cast<unsigned char>(s[i - 1]))))
            starts.push_back(i);
        if (starts.empty()) break;
        const std::size_t a = starts[pick(starts.size())];
        std::size_t b = a;
        while (b < s.size() && std::strchr("0123456789.eE+-", s[b])) ++b;
        s.replace(a, b - a, token());
        break;
      }
      case 8: {  // an interesting single byte
        static const char bytes[] = {'\0', '\xFF', '\r', '\n', '\x80', '\xC0', '\t', ',', '"', '\'', '\x1b', ' '};
        s.insert(pos(s), 1, bytes[pick(sizeof bytes)]);
        break;
      }
      case 9: {                   // a very long line (sometimes past the harness's 64 KiB line limit)
        if (pick(8) != 0) break;  // rare: they are slow to build and to read
        const std::size_t len = pick(2) ? 70'000 : 1'000 + pick(10'000);
        s.insert(pos(s), std::string(len, "1x,;\t 9"[pick(7)]));
        break;
      }
      case 10: {  // repeat a whole line many times
        if (s.empty()) break;
        const std::size_t a = s.rfind('\n', pick(s.size()));
        const std::size_t start = a == std::string::npos ? 0 : a + 1;
        std::size_t end = s.find('\n', start);
        end = end == std::string::npos ? s.size() : end + 1;
        const std::string line = s.substr(start, end - start);
        std::string block;
        for (std::size_t k = 1 + pick(200); k > 0 && block.size() < 50'000; --k) block += line;
        s.insert(end, block);
        break;
      }
      case 11: {  // truncate
        s.resize(pos(s));
        break;
      }
      case 12: {  // deep YAML nesting, flow or block
        const std::size_t depth = 1 + pick(pick(2) ? 64 : 3000);
        std::string open, close;
        const int kind = static_cast<int>(pick(3));
        for (std::size_t k = 0; k < depth; ++k) {
          open += kind == 0 ? "[" : kind == 1 ? "{a: " : "- ";
          close += kind == 0 ? "]" : kind == 1 ? "}" : "";
        }
        s.insert(pos(s), open + "1" + close);
        break;
      }
      default: {  // aliases: an anchor, then references to it (a "billion laughs" when nested)
        std::string bomb = "a0: &a0 [x, x]\n";
        const std::size_t levels = 1 + pick(24);
        for (std::size_t k = 1; k <= levels; ++k) {
          const std::string prev = "*a" + std::to_string(k - 1);
          bomb += "a" + std::to_string(k) + ": &a" + std::to_string(k) + " [" + prev + ", " + prev + "]\n";
        }
        const std::size_t nl = s.rfind('\n', pos(s));  // at the start of a line
        s.insert(nl == std::string::npos ? 0 : nl + 1, pick(2) ? bomb : "m: &a {k: 1}\nn: {<<: *a}\n");
        break;
      }
    }
  }

  std::mt19937_64 rng_;
  const std::vector<std::string>& corpus_;
  std::vector<std::string> tokens_;
  bool yaml_;
};

std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

// ---- the harness --------------------------------------------------------------------------------

void fuzz_target(const Target& target) {
  const std::vector<std::string> corpus = read_corpus(target.name);
  ASSERT_FALSE(corpus.empty()) << "no seeds in " << DPCLUST_FUZZ_CORPUS << "/" << target.name;
  const fs::path dir = testing::temp_dir(std::string("fuzz_") + target.name);
  (void)scratch_dir();  // sets the harness's small read limits before anything reads a file
  std::snprintf(g_current.crash_path, sizeof g_current.crash_path, "%s",
                (dir / ("crash-" + std::string(target.name) + ".bin")).c_str());
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) std::signal(sig, on_crash);
  Watchdog watchdog(dir);

  const bool is_config = std::string(target.name) == "config";
  const std::size_t iterations =
      env_number("DPCLUST_FUZZ_ITERATIONS", is_config ? kDefaultConfigIterations : kDefaultIterations);
  const auto budget =
      std::chrono::seconds(env_number("DPCLUST_FUZZ_SECONDS", is_config ? kDefaultConfigSeconds : kDefaultSeconds));
  bool out_of_time = false;
  Mutator mutator(fnv1a(target.name), corpus, tokens_for(target.name), is_config);
  std::size_t failures = 0, ran = 0, loaded = 0;
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < corpus.size() + iterations && failures < 5; ++i) {
    if (i >= corpus.size() && std::chrono::steady_clock::now() - start > budget) {
      out_of_time = true;
      break;
    }
    const std::string input = i < corpus.size() ? corpus[i] : mutator.next();
    {
      std::lock_guard<std::mutex> lock(g_current.mutex);
      g_current.target = target.name;
      g_current.input = input;
      g_current.data = g_current.input.data();
      g_current.size = g_current.input.size();
      g_current.started = std::chrono::steady_clock::now();
      g_current.running = true;
    }
    std::string problem;
    try {
      loaded += target.run(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
    } catch (const std::exception& e) {
      problem = std::string("threw ") + typeid(e).name() + " (not dpclust::InputError): " + e.what();
    } catch (...) {
      problem = "threw a non-standard exception (not dpclust::InputError)";
    }
    {
      std::lock_guard<std::mutex> lock(g_current.mutex);
      g_current.running = false;
    }
    ++ran;
    if (!problem.empty()) {
      const fs::path saved = dir / ("failure-" + std::string(target.name) + "-" + std::to_string(i) + ".bin");
      std::ofstream(saved, std::ios::binary) << input;
      ADD_FAILURE() << "fuzz target '" << target.name << "', input " << i << " (" << input.size() << " bytes) "
                    << problem << "\n  the input is saved as " << saved
                    << "; reproduce with the libFuzzer program fuzz_" << target.name
                    << " or add it to tests/fuzz/corpus/" << target.name << "/";
      ++failures;
    }
  }
  g_current.crash_path[0] = '\0';
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "fuzz " << target.name << ": " << corpus.size() << " seeds + " << (ran - std::min(ran, corpus.size()))
            << " mutants in " << secs << " s; " << loaded << " loaded, " << ran - loaded << " refused with InputError"
            << (out_of_time ? " (stopped by the DPCLUST_FUZZ_SECONDS budget before all DPCLUST_FUZZ_ITERATIONS)" : "")
            << std::endl;
}

const Target& find(const char* name) {
  for (const Target& t : targets())
    if (std::string(t.name) == name) return t;
  std::abort();
}

TEST(Fuzz, CsvPoints) { fuzz_target(find("csv")); }
TEST(Fuzz, Arff) { fuzz_target(find("arff")); }
TEST(Fuzz, Fimi) { fuzz_target(find("fimi")); }
TEST(Fuzz, GowallaCheckins) { fuzz_target(find("gowalla")); }
TEST(Fuzz, LabelFile) { fuzz_target(find("labels")); }
TEST(Fuzz, ConfigParser) { fuzz_target(find("config")); }

}  // namespace
}  // namespace dpclust::fuzz
