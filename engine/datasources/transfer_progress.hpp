#pragma once
// The progress of a fetch's downloads on stderr.
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace dpclust::datasources {

// Bytes moved across all the files of one fetch, drawn on stderr as a bar with rate and ETA on a
// terminal, as a plain line every few seconds otherwise (logs, CI), and not at all when disabled.
class TransferProgress {
 public:
  TransferProgress(std::string label, std::uint64_t total_bytes, bool enabled);
  void add(std::uint64_t bytes);   // bytes newly received
  void skip(std::uint64_t bytes);  // bytes already on disk (resumed or present): count toward done, not the rate
  void finish();

 private:
  void draw(bool final_line);
  std::string label_;
  std::uint64_t total_, done_ = 0, received_ = 0;
  bool enabled_, tty_;
  std::chrono::steady_clock::time_point start_, last_draw_;
  std::mutex mu_;
};

}  // namespace dpclust::datasources
