#pragma once
// Reading a results.json for the report: every field the report reads, none of the trials' bulk.
//
// A results.json keeps each trial's release, labels and ledger next to its numbers; for the Cabs runs
// that is 25 MB a cell and 124 MB a file, and a DOM of the whole results directory took 765 MB and 8 s
// The report reads, of a trial, only its `trial` index, its `seed` and the numbers of its
// `metrics`, `diagnostics`, `evaluation` and `timing` (results_index.hpp: trial_values, and the
// authors'-code judge). So the file is streamed through a fixed buffer: the top level and every cell
// field are parsed by nlohmann::json as they are written; each trial keeps `trial`, `seed` and the
// scalar members of those four parts, and everything else of it (release, labels, ledger, nested
// diagnostics) is skipped by matching its strings and brackets, without parsing its numbers. Memory is
// the kept values plus the buffer, whatever the number or size of the trials.
//
// What is skipped is checked only for balanced brackets and closed strings, not for full JSON syntax;
// what is kept is parsed (and checked) exactly as json::parse would.
#include <filesystem>
#include <istream>
#include <nlohmann/json.hpp>
#include <string>

namespace dpclust::report {

// The trial members a report reads; the four parts keep only their scalar members.
inline constexpr const char* kReportTrialFields[] = {"trial", "seed"};
inline constexpr const char* kReportTrialParts[] = {"metrics", "diagnostics", "evaluation", "timing"};

// results.json as the report reads it (above). Throws InputError naming the file and the byte offset
// when the text is not JSON (truncated, unbalanced) or a kept value does not parse.
nlohmann::json read_report_results(const std::filesystem::path& file);
// The same from a stream; `where` names it in errors.
nlohmann::json read_report_results(std::istream& in, const std::string& where);

}  // namespace dpclust::report
