#pragma once
// The reproduction report, by step (one header each):
//   reference.hpp      the reference file (published values, claims, timings) as typed entries
//   results_index.hpp  the results directory: cells and where a cell keeps a number
//   judge.hpp          verdicts on values, claims, timings and the authors' code (no Markdown)
//   markdown.hpp       REPORT.md from the outcomes
// Include the one you need; this header includes them all for the CLI and the Python binding.
#include "report/judge.hpp"
#include "report/markdown.hpp"
#include "report/reference.hpp"
#include "report/results_index.hpp"
