#pragma once
// Progress on stderr: a redrawn bar (done/total, rate, ETA) on a terminal, plain periodic lines
// otherwise (logs, CI). Thread-safe; tick() is called by whichever thread finished a trial.
//
// A run is never silent for more than kQuietSeconds: a watchdog thread prints, when nothing was said for
// that long, which trials are running and for how long (with their estimated time when known), so a
// long trial (a rejection sampler in many dimensions, a large grid) shows that it is alive and what it is.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace dpclust {

class Progress {
 public:
  static constexpr double kQuietSeconds = 10;
  Progress(std::string label, std::size_t total, bool enabled, double quiet_seconds = kQuietSeconds);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  // A trial begins on the calling thread: `what` names it ("cell 3 (nd_laplace on sonar), trial 2").
  void started(const std::string& what);
  void tick();  // the calling thread's trial is done
  void finish();

 private:
  void draw(bool final_line);
  void watch();
  std::string label_;
  std::size_t total_, done_ = 0;
  bool enabled_, tty_;
  double quiet_seconds_;
  std::chrono::steady_clock::time_point start_, last_draw_;
  std::map<std::thread::id, std::pair<std::string, std::chrono::steady_clock::time_point>> running_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread watchdog_;
};

}  // namespace dpclust
