#include "config/yaml_reader.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include <sys/stat.h>
#include <yaml-cpp/depthguard.h>  // YAML::DeepRecursion
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include "io/text.hpp"

namespace dpclust::yaml {

std::string clip(const std::string& user_text, std::size_t max) {
  std::string out;
  std::size_t n = 0;
  for (unsigned char c : user_text) {
    if (n == max) {
      // Do not end inside a UTF-8 character: drop its continuation bytes and its lead byte.
      while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80) out.pop_back();
      if (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0xC0) out.pop_back();
      return out + "...";
    }
    if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
    ++n;
  }
  return out;
}

// A key path may nest many long keys; keep its end, which says where the value is.
static std::string clip_path(const std::string& path) {
  constexpr std::size_t kMax = 200;
  if (path.size() <= kMax) return clip(path, kMax);
  return "..." + clip(path.substr(path.size() - kMax), kMax);
}

static std::string mark_text(const YAML::Mark& m) {
  return ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

std::string Located::where() const {
  std::string w = file;
  // A null value ("key:" with nothing after it) is marked where the next line starts; its key is clearer.
  if (node && !node.IsNull() && node.Mark().line >= 0) w += mark_text(node.Mark());
  else if (parent_mark.line >= 0) w += mark_text(parent_mark);
  else if (node && node.Mark().line >= 0) w += mark_text(node.Mark());
  if (!path.empty()) w += " " + clip_path(path);
  return w;
}

Located Located::child(const std::string& key) const {
  if (overrides && overrides.IsMap() && overrides[key])
    return Located(node.IsMap() ? node[key] : YAML::Node(), overrides_file, overrides_path + "." + key);
  // An absent key is an Undefined node. (yaml-cpp's const operator[] returns an invalid "zombie" node
  // for a missing key, and assigning that node throws InvalidNode, so it is never assigned.)
  const bool present = node.IsMap() && node[key];
  Located c(present ? YAML::Node(node[key]) : YAML::Node(YAML::NodeType::Undefined), file,
            path.empty() ? key : path + "." + key);
  if (!present) {
    c.parent_mark = node ? node.Mark() : parent_mark;
  } else if (c.node.IsNull()) {
    for (auto it = node.begin(); it != node.end(); ++it)
      if (it->first.IsScalar() && it->first.Scalar() == key) {
        c.parent_mark = it->first.Mark();
        break;
      }
  }
  return c;
}

Located Located::item(std::size_t i) const { return Located(node[i], file, path + "[" + std::to_string(i) + "]"); }

static std::string node_kind(const YAML::Node& n) {
  if (!n) return "nothing";
  if (n.IsNull()) return "an empty value (null)";
  if (n.IsSequence()) return "a list";
  if (n.IsMap()) return "a mapping";
  return "'" + clip(n.Scalar()) + "'";
}

void check_document(const YAML::Node& root, const std::string& file_label) {
  // Each visited node is a frame pointing at its parent's frame: the key path ("a.b[3].c") is built only
  // for an error message. (Building it at every visit made a deep alias chain, or a node that contains
  // itself through an alias, quadratic in time and memory.)
  struct Frame {
    YAML::Node node;
    std::size_t parent;      // index in `frames`; npos for the root
    const std::string* key;  // map key (owned by the document), or nullptr for a sequence item
    std::size_t index;       // sequence index
    std::size_t depth;
  };
  constexpr std::size_t npos = static_cast<std::size_t>(-1);
  std::vector<Frame> frames;
  frames.reserve(1024);
  frames.push_back({root, npos, nullptr, 0, 0});
  auto path_of = [&](std::size_t f) {
    std::vector<std::size_t> chain;
    for (; f != npos && frames[f].parent != npos; f = frames[f].parent) chain.push_back(f);
    std::string path;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const Frame& fr = frames[*it];
      if (fr.key) path += (path.empty() ? "" : ".") + (fr.key->size() > 200 ? fr.key->substr(0, 200) + "..." : *fr.key);
      else path += "[" + std::to_string(fr.index) + "]";
      if (path.size() > 4000) path.erase(0, path.size() - 2000);  // clip_path keeps the end anyway
    }
    return path;
  };
  // Mappings already checked for bad and duplicate keys, by position: an alias visits the anchored node again.
  std::unordered_set<int> checked_maps;
  std::vector<std::size_t> stack{0};
  std::size_t visits = 0;
  while (!stack.empty()) {
    const std::size_t f = stack.back();
    stack.pop_back();
    if (++visits > kMaxNodes)
      throw InputError(file_label + (root.Mark().line >= 0 ? mark_text(root.Mark()) : ""),
                       "the YAML expands to more than " + std::to_string(kMaxNodes) + " nodes (alias bomb?)",
                       "write the values out instead of nesting aliases (*name) of aliases");
    const YAML::Node n = frames[f].node;  // a handle: `frames` may grow below
    const std::size_t depth = frames[f].depth;
    if ((n.IsSequence() || n.IsMap()) && depth >= kMaxDepth)
      fail(Located(n, file_label, path_of(f)),
           "the YAML nests more than " + std::to_string(kMaxDepth) +
               " levels (through aliases: does an anchored value contain an alias of itself?)",
           "flatten this value; a config needs only a few levels");
    if ((n.IsSequence() || n.IsMap()) && frames.size() + n.size() > 2 * kMaxNodes)
      throw InputError(file_label, "the YAML has more than " + std::to_string(kMaxNodes) + " nodes", "split it up");
    if (n.IsSequence()) {
      for (std::size_t i = n.size(); i-- > 0;) {
        frames.push_back({n[i], f, nullptr, i, depth + 1});
        stack.push_back(frames.size() - 1);
      }
    } else if (n.IsMap()) {
      const bool check_keys_here = checked_maps.insert(n.Mark().pos).second || n.Mark().pos < 0;
      std::unordered_map<std::string_view, YAML::Mark> seen;
      const std::size_t first_child = frames.size();
      for (auto it = n.begin(); it != n.end(); ++it) {
        const YAML::Node k = it->first;
        if (check_keys_here && !k.IsScalar())
          fail(Located(k, file_label, path_of(f)), "a key is " + node_kind(k) + "; keys must be plain names",
               k.IsNull() ? "write a name before the colon (an empty key or ~ is not a name)"
                          : "write a name before the colon, not a list or mapping");
        const std::string& key = k.Scalar();
        frames.push_back({it->second, f, &key, 0, depth + 1});
        if (!check_keys_here) continue;
        auto [first, inserted] = seen.emplace(key, k.Mark());
        if (!inserted)
          fail(Located(k, file_label, path_of(frames.size() - 1)),
               "duplicate key '" + clip(key) + "' (first at " + file_label + mark_text(first->second) + ")",
               "keep one of them; YAML keys must be unique in a mapping");
      }
      for (std::size_t c = frames.size(); c-- > first_child;) stack.push_back(c);
    }
  }
}

// yaml-cpp reads CR LF and LF; a lone CR (old Mac line endings) would glue lines together.
static std::string normalise_line_ends(const std::string& text) {
  if (text.find('\r') == std::string::npos) return text;
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r') {
      out += '\n';
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}

// Refuses NUL bytes and invalid UTF-8 before yaml-cpp sees the text (it would pass some of them into
// strings, and a message quoting them would carry raw binary), naming line, column and byte offset.
static void check_encoding(const std::string& text, const std::string& file_label) {
  const std::size_t bad = dpclust::text::first_invalid_utf8(text);
  if (bad == std::string::npos) return;
  std::size_t line = 1, line_start = 0;
  for (std::size_t i = 0; i < bad; ++i) {
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n'))) {
      ++line;
      line_start = i + 1;
    }
  }
  const auto c = static_cast<unsigned char>(text[bad]);
  const std::string where = file_label + ":" + std::to_string(line) + ":" + std::to_string(bad - line_start + 1);
  const std::string at = " (byte offset " + std::to_string(bad) + ")";
  const bool utf16 =
      text.size() >= 2 && ((text[0] == '\xFF' && text[1] == '\xFE') || (text[0] == '\xFE' && text[1] == '\xFF'));
  if (utf16)
    throw InputError(where, "the file is UTF-16 text" + at + "; configs must be UTF-8", "save the file as UTF-8");
  if (c == 0)
    throw InputError(where, "NUL byte" + at + "; a config is text",
                     "check that this is the right file (a binary file, or text saved as UTF-16?)");
  throw InputError(where, "invalid UTF-8: byte " + dpclust::text::describe_byte(c) + at,
                   "save the file as UTF-8 (e.g. `iconv -f latin1 -t utf-8 old.yaml > new.yaml`)");
}

namespace {

// Records where each document starts (its '---', if any) and where its content starts, nothing else.
class DocumentStarts : public YAML::EventHandler {
 public:
  std::vector<YAML::Mark> starts, contents;
  void OnDocumentStart(const YAML::Mark& mark) override { starts.push_back(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { node(m); }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(m);
  }
  void OnMapEnd() override {}

 private:
  void node(const YAML::Mark& m) {
    if (contents.size() < starts.size()) contents.push_back(m);
  }
};

// Where the first four documents start. yaml-cpp 0.7's LoadAll loops forever, allocating all the way, on
// a token no rule consumes (a stray ',' at the top level, e.g. ", x" or "---\n,"): HandleNextDocument
// returns an empty document without moving on, again and again. yaml-cpp fixed it after 0.7.0, the release
// Debian 12 packages. So documents are counted here, at most four, and a document that starts where the previous
// one did is reported as the syntax error it is. Returns where each document's content starts.
std::vector<YAML::Mark> document_starts(const std::string& text, const std::string& file_label) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentStarts h;
  while (h.starts.size() < 4 && parser.HandleNextDocument(h)) {
    const std::size_t n = h.starts.size();
    if (n >= 2 && h.starts[n - 1].pos == h.starts[n - 2].pos) {
      const YAML::Mark m = h.starts[n - 1];
      const std::string what = m.pos >= 0 && static_cast<std::size_t>(m.pos) < text.size()
                                   ? "'" + clip(text.substr(static_cast<std::size_t>(m.pos), 1)) + "'"
                                   : "token";
      throw InputError(file_label + mark_text(m), "malformed YAML: unexpected " + what + " (it starts no value here)",
                       "remove it or quote the value it belongs to; a ',' separates items only inside [...] or {...}");
    }
  }
  for (std::size_t i = h.contents.size(); i < h.starts.size(); ++i) h.contents.push_back(h.starts[i]);
  return h.contents;
}

}  // namespace

YAML::Node load_string(const std::string& text, const std::string& file_label) {
  check_encoding(text, file_label);
  const std::string normalised = normalise_line_ends(text);
  std::vector<YAML::Mark> starts;
  YAML::Node root;
  try {
    starts = document_starts(normalised, file_label);
    if (starts.size() <= 1) root = YAML::Load(normalised);  // one document (or none): parsed once more, into nodes
  } catch (const YAML::DeepRecursion& e) {                  // yaml-cpp's own guard, whose message says "bad file"
    throw InputError(file_label + mark_text(e.mark),
                     "the YAML nests lists and mappings too deeply (" + std::to_string(e.depth()) + " levels)",
                     "flatten this value; a config needs only a few levels");
  } catch (const YAML::ParserException& e) {
    throw InputError(file_label + mark_text(e.mark), "malformed YAML: " + clip(e.msg),
                     "check indentation, colons and brackets near this line");
  } catch (const YAML::Exception& e) {
    throw InputError(file_label, "malformed YAML: " + clip(e.msg), "check the file's syntax");
  }
  if (starts.size() > 1) {
    const YAML::Mark m = starts[1];
    throw InputError(
        file_label + (m.line >= 0 ? mark_text(m) : ""),
        "the file holds " + std::string(starts.size() > 2 ? "3 or more" : "2") +
            " YAML documents (separated by ---); only one is read",
        "keep one document per file: remove the second '---' and what follows, or split it into another file");
  }
  check_document(root, file_label);
  return root;
}

void check_file_size(const std::string& file) {
  // A FIFO or a device (/dev/zero) would block or never end: refuse it before anything reads it.
  struct stat st {};
  if (::stat(file.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    const char* kind = S_ISDIR(st.st_mode)    ? "a directory"
                       : S_ISFIFO(st.st_mode) ? "a FIFO (named pipe)"
                       : S_ISCHR(st.st_mode)  ? "a character device"
                       : S_ISSOCK(st.st_mode) ? "a socket"
                                              : "a special file";
    throw InputError(file, std::string("not a regular file: it is ") + kind,
                     "save the YAML to a file and name that file (pipes and devices are not read)");
  }
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(file, ec);
  if (!ec && bytes > kMaxFileBytes)
    throw InputError(file,
                     "the file has " + std::to_string(bytes) + " bytes; a config is read only up to " +
                         std::to_string(kMaxFileBytes) + " bytes",
                     "check that this is the config you meant (data belongs in a data file, not in the YAML)");
}

YAML::Node load_file(const std::string& file) {
  check_file_size(file);
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file, "cannot open the config file", "check the path");
  std::ostringstream ss;
  ss << in.rdbuf();
  return load_string(ss.str(), file);
}

void fail(const Located& at, const std::string& what, const std::string& fix) {
  // Messages quote user text; keep them short and free of control characters whatever the caller did.
  throw InputError(at.where(), clip(what, 600), clip(fix, 2000));
}

void expect_map(const Located& at) {
  if (!at.node.IsMap()) fail(at, "expected a mapping (key: value pairs)");
}

void expect_sequence(const Located& at) {
  if (!at.node.IsSequence()) fail(at, "expected a list");
}

void check_keys(const Located& at, const std::vector<std::string>& allowed) {
  expect_map(at);
  for (auto it = at.node.begin(); it != at.node.end(); ++it) {
    const std::string key = it->first.as<std::string>();
    bool ok = false;
    for (const auto& a : allowed) ok = ok || a == key;
    if (ok) continue;
    Located k = at.child(key);
    k.node = it->first;  // point at the key itself
    std::string suggestion = key.size() > 200 ? "" : closest_match(key, allowed);
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    fail(k, "unknown key '" + clip(key) + "'",
         suggestion.empty() ? "valid keys here: " + list
                            : "did you mean '" + suggestion + "'? valid keys here: " + list);
  }
}

static std::string scalar_text(const Located& at, const char* what) {
  if (!at.node) fail(at, std::string("missing: expected ") + what, "add the key with a value");
  if (!at.node.IsScalar())
    fail(at, std::string("expected ") + what + ", got " + node_kind(at.node),
         at.node.IsNull() ? "write a value after the colon" : "write a single value here");
  return at.node.Scalar();
}

std::string as_string(const Located& at) { return scalar_text(at, "a string"); }

std::int64_t as_int(const Located& at) {
  const std::string s = scalar_text(at, "an integer");
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc::result_out_of_range)
    fail(at, "integer '" + clip(s) + "' is out of range",
         "integers here are between -9223372036854775808 and 9223372036854775807");
  if (ec != std::errc() || p != s.data() + s.size()) fail(at, "expected an integer, got '" + clip(s) + "'");
  return v;
}

std::uint64_t as_uint(const Located& at) {
  const std::string s = scalar_text(at, "a non-negative integer");
  std::uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc::result_out_of_range)
    fail(at, "integer '" + clip(s) + "' is out of range", "integers here are between 0 and 18446744073709551615");
  if (ec != std::errc() || p != s.data() + s.size()) fail(at, "expected a non-negative integer, got '" + clip(s) + "'");
  return v;
}

double as_double(const Located& at) {
  const std::string s = scalar_text(at, "a number");
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc::result_out_of_range && p == s.data() + s.size()) {
    // from_chars does not say which way; strtod does (HUGE_VAL for overflow, ~0 for underflow).
    const double approx = std::strtod(std::string(s).c_str(), nullptr);
    if (std::isinf(approx))
      fail(at, "number '" + clip(s) + "' is out of range (the largest finite double is ~1.8e308)",
           "write a smaller number");
    fail(at, "number '" + clip(s) + "' is too close to zero (the smallest positive double is ~4.9e-324)",
         "write 0 or a larger number");
  }
  if (ec != std::errc() || p != s.data() + s.size() || !std::isfinite(v))
    fail(at, "expected a finite number, got '" + clip(s) + "'");
  return v;
}

bool as_bool(const Located& at) {
  const std::string s = scalar_text(at, "true or false");
  if (s == "true" || s == "True" || s == "yes") return true;
  if (s == "false" || s == "False" || s == "no") return false;
  fail(at, "expected true or false, got '" + clip(s) + "'");
}

std::vector<std::string> as_string_list(const Located& at) {
  std::vector<std::string> out;
  if (at.node.IsScalar()) {
    out.push_back(at.node.Scalar());
  } else if (at.node.IsSequence()) {
    for (std::size_t i = 0; i < at.node.size(); ++i) out.push_back(as_string(at.item(i)));
  } else {
    fail(at, "expected a name or a list of names, got " + node_kind(at.node));
  }
  return out;
}

}  // namespace dpclust::yaml
