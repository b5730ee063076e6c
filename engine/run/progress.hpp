#pragma once
// Progress on stderr: a redrawn bar (done/total, rate, ETA) on a terminal, plain periodic lines
// otherwise (logs, CI). Thread-safe; tick() is called by whichever thread finished a trial.
#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>

namespace dpclust {

class Progress {
 public:
  Progress(std::string label, std::size_t total, bool enabled);
  void tick();
  void finish();

 private:
  void draw(bool final_line);
  std::string label_;
  std::size_t total_, done_ = 0;
  bool enabled_, tty_;
  std::chrono::steady_clock::time_point start_, last_draw_;
  std::mutex mu_;
};

}  // namespace dpclust
