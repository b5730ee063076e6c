#pragma once
// The header of an ARFF file (io/arff.hpp) and what a load makes of it: the attributes with their kinds
// and declared values, the label the options or the file's convention name, and the coordinates the
// selected attributes become. Used by the loader only (arff.cpp reads the rows).
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/arff.hpp"
#include "io/line_reader.hpp"

namespace dpclust::arff {

// string and date attributes hold text per record (a sequence name, a timestamp): never a coordinate,
// skipped unless they are the label (a string label is coded like a CSV text label).
enum class AttrKind { numeric, nominal, string, date };
const char* kind_name(AttrKind kind);

struct Attribute {
  std::string name;
  AttrKind kind = AttrKind::numeric;
  std::vector<std::string> values;  // nominal values in declaration order
  std::size_t line = 0;
};

struct Header {
  std::string relation;
  std::vector<Attribute> attrs;
  std::size_t data_line = 0;  // line of @data
};

bool is_comment_or_blank(std::string_view trimmed_line);
// The lines up to @data; InputError at the line for anything that is not a header line.
Header read_header(LineReader& in);

// How one attribute becomes coordinates: its number, its value's position in the declaration, or one
// 0/1 coordinate per declared value.
enum class Encoding : unsigned char { number, code, onehot };
struct Coordinate {
  std::size_t attr;
  Encoding how;
};

// The label attribute (ArffOptions::label), or the file's convention; nullopt for none (with a warning
// when the last attribute looks like one but is not taken).
std::optional<std::size_t> select_label(const Header& h, const ArffOptions& o, const std::filesystem::path& path);
// The coordinates, in output order (ArffOptions::columns and nominal); InputError for a name that is not
// an attribute, a text attribute, the label, a repeat, or no coordinate at all.
std::vector<Coordinate> select_coords(const Header& h, const ArffOptions& o, std::optional<std::size_t> label,
                                      const LineReader& in);

}  // namespace dpclust::arff
