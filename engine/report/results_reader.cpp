// Streaming a results.json for the report, keeping what it reads; see results_reader.hpp.
#include "report/results_reader.hpp"

#include <cstring>
#include <fstream>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace dpclust::report {
namespace {
using json = nlohmann::json;

constexpr std::size_t kBufferBytes = 1 << 20;

bool is_ws(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// The bytes a skipped array or object stops at: quotes and brackets (the rest, mostly digits and commas
// of the releases, is passed over by one table look-up a byte).
struct Structural {
  bool at[256] = {};
  constexpr Structural() {
    for (unsigned char c : {'"', '{', '}', '[', ']'}) at[c] = true;
  }
};
constexpr Structural kStructural;

// A forward reader over a stream with a fixed buffer. skip() passes over one JSON value, optionally
// copying its text (a kept value is then parsed from the copy by nlohmann::json).
class Reader {
 public:
  Reader(std::istream& in, std::string where) : in_(in), where_(std::move(where)), buf_(kBufferBytes) {}

  // The next non-blank character, not consumed; -1 at the end of the input.
  int peek() {
    for (;;) {
      while (p_ < end_ && is_ws(*p_)) ++p_;
      if (p_ < end_) return static_cast<unsigned char>(*p_);
      if (!refill()) return -1;
    }
  }

  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++p_;
  }

  // Consumes ',' (returns true) or `close` (returns false) after a member or element.
  bool next_or(char close) {
    const int c = peek();
    if (c == ',') {
      ++p_;
      return true;
    }
    if (c == close) {
      ++p_;
      return false;
    }
    fail(std::string("expected ',' or '") + close + "'");
  }

  // Passes over one value (after blanks), appending its text to `copy` when given.
  void skip(std::string* copy) {
    const int c = peek();
    if (c < 0) fail("unexpected end of the file");
    copy_ = copy;
    mark_ = p_;
    if (c == '"') {
      ++p_;
      string_rest();
    } else if (c == '{' || c == '[') {
      // Depth only: a skipped value's brackets must balance, their kinds are not matched.
      std::size_t depth = 0;
      do {
        const char* q = p_;
        while (q < end_ && !kStructural.at[static_cast<unsigned char>(*q)]) ++q;
        p_ = q;
        if (q == end_) {
          if (!refill()) fail("unexpected end of the file inside an array or object");
          continue;
        }
        const char ch = *p_++;
        if (ch == '"') string_rest();
        else if (ch == '{' || ch == '[') ++depth;
        else --depth;
      } while (depth > 0);
    } else {
      for (;;) {  // a number, true, false or null: up to the next delimiter
        if (p_ == end_ && !refill()) break;
        const char ch = *p_;
        if (ch == ',' || ch == '}' || ch == ']' || is_ws(ch)) break;
        ++p_;
      }
    }
    if (copy_) copy_->append(mark_, p_);
    copy_ = nullptr;
  }

  json value() {
    std::string text;
    const std::uint64_t at = offset();
    skip(&text);
    try {
      return json::parse(text);
    } catch (const json::parse_error& e) {
      throw InputError(where_ + ": byte " + std::to_string(at + (e.byte > 0 ? e.byte - 1 : 0)),
                       std::string("not valid JSON: ") + e.what(),
                       "rerun `dpclust run` (or `dpclust merge`) to rewrite the results");
    }
  }

  std::string key() {
    if (peek() != '"') fail("expected a member name");
    std::string raw;
    skip(&raw);
    if (raw.find('\\') == std::string::npos) return raw.substr(1, raw.size() - 2);
    return json::parse(raw).get<std::string>();
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(where_ + ": byte " + std::to_string(offset()), "not a results file: " + what,
                     "rerun `dpclust run` (or `dpclust merge`) to rewrite the results");
  }

 private:
  std::uint64_t offset() const { return consumed_ + static_cast<std::uint64_t>(p_ - buf_.data()); }

  // After an opening quote: up to and including the closing one.
  void string_rest() {
    for (;;) {
      if (p_ == end_ && !refill()) fail("unexpected end of the file inside a string");
      const char* q = p_;
      while (q < end_ && *q != '"' && *q != '\\') ++q;
      p_ = q;
      if (q == end_) continue;
      ++p_;
      if (*q == '"') return;
      if (p_ == end_ && !refill()) fail("unexpected end of the file inside a string");
      ++p_;  // the escaped character
    }
  }

  // Loads the next block (the copied text so far goes to copy_ first); false at the end of the input.
  bool refill() {
    if (copy_) copy_->append(mark_, end_);
    consumed_ += static_cast<std::uint64_t>(end_ - buf_.data());
    in_.read(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    const auto n = static_cast<std::size_t>(in_.gcount());
    if (in_.bad()) throw InputError(where_, "could not be read", "check the file");
    p_ = mark_ = buf_.data();
    end_ = buf_.data() + n;
    return n > 0;
  }

  std::istream& in_;
  std::string where_;
  std::vector<char> buf_;
  const char* p_ = nullptr;
  const char* end_ = nullptr;
  const char* mark_ = nullptr;
  std::string* copy_ = nullptr;
  std::uint64_t consumed_ = 0;
};

template <class F>
void each_member(Reader& r, F&& f) {
  r.expect('{');
  if (r.peek() == '}') {
    r.expect('}');
    return;
  }
  do {
    const std::string k = r.key();
    r.expect(':');
    f(k);
  } while (r.next_or('}'));
}

template <class F>
void each_element(Reader& r, F&& f) {
  r.expect('[');
  if (r.peek() == ']') {
    r.expect(']');
    return;
  }
  do f();
  while (r.next_or(']'));
}

bool listed(std::string_view k, const auto& names) {
  for (const char* n : names)
    if (k == n) return true;
  return false;
}

json read_trial(Reader& r) {
  if (r.peek() != '{') return r.value();
  json t = json::object();
  each_member(r, [&](const std::string& k) {
    if (listed(k, kReportTrialFields)) {
      t[k] = r.value();
    } else if (listed(k, kReportTrialParts) && r.peek() == '{') {
      json part = json::object();
      each_member(r, [&](const std::string& m) {
        const int c = r.peek();
        if (c == '{' || c == '[') r.skip(nullptr);  // no statistic is read from a nested value
        else part[m] = r.value();
      });
      t[k] = std::move(part);
    } else {
      r.skip(nullptr);
    }
  });
  return t;
}

json read_cell(Reader& r) {
  if (r.peek() != '{') return r.value();
  json cell = json::object();
  each_member(r, [&](const std::string& k) {
    if (k == "trials" && r.peek() == '[') {
      json trials = json::array();
      each_element(r, [&] { trials.push_back(read_trial(r)); });
      cell[k] = std::move(trials);
    } else {
      cell[k] = r.value();
    }
  });
  return cell;
}

}  // namespace

json read_report_results(std::istream& in, const std::string& where) {
  Reader r(in, where);
  json doc;
  if (r.peek() != '{') {
    doc = r.value();  // not an object: kept whole, as json::parse would read it
  } else {
    doc = json::object();
    each_member(r, [&](const std::string& k) {
      if (k == "cells" && r.peek() == '[') {
        json cells = json::array();
        each_element(r, [&] { cells.push_back(read_cell(r)); });
        doc[k] = std::move(cells);
      } else {
        doc[k] = r.value();
      }
    });
  }
  if (r.peek() != -1) r.fail("text after the end of the JSON value");
  return doc;
}

json read_report_results(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string(), "could not be opened", "check the file and its permissions");
  return read_report_results(in, file.string());
}

}  // namespace dpclust::report
