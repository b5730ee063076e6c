#include "run/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace dpclust {

Progress::Progress(std::string label, std::size_t total, bool enabled, double quiet_seconds)
    : label_(std::move(label)),
      total_(total),
      enabled_(enabled && total > 0),
      tty_(::isatty(2) != 0),
      quiet_seconds_(quiet_seconds),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {
  if (enabled_) watchdog_ = std::thread([this] { watch(); });
}

Progress::~Progress() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  if (watchdog_.joinable()) watchdog_.join();
}

void Progress::started(const std::string& what) {
  std::lock_guard<std::mutex> lock(mu_);
  running_[std::this_thread::get_id()] = {what, std::chrono::steady_clock::now()};
}

void Progress::tick() {
  std::lock_guard<std::mutex> lock(mu_);
  ++done_;
  running_.erase(std::this_thread::get_id());
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  const double since = std::chrono::duration<double>(now - last_draw_).count();
  if ((tty_ && since >= 0.1) || (!tty_ && since >= 5.0)) draw(false);
}

void Progress::finish() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
    if (enabled_) draw(true);
  }
  wake_.notify_all();
  if (watchdog_.joinable()) watchdog_.join();
}

void Progress::watch() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    wake_.wait_for(lock, std::chrono::milliseconds(250));
    if (stop_) break;
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last_draw_).count() < quiet_seconds_) continue;
    // Nothing said for quiet_seconds: what is running, the longest first.
    last_draw_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    std::string line = label_ + ": " + std::to_string(done_) + "/" + std::to_string(total_) + " trials done after " +
                       std::to_string(static_cast<long long>(elapsed)) + " s";
    const std::pair<const std::thread::id, std::pair<std::string, std::chrono::steady_clock::time_point>>* longest =
        nullptr;
    for (const auto& r : running_)
      if (!longest || r.second.second < longest->second.second) longest = &r;
    if (longest)
      line +=
          "; running: " + longest->second.first + " for " +
          std::to_string(static_cast<long long>(std::chrono::duration<double>(now - longest->second.second).count())) +
          " s" +
          (running_.size() > 1
               ? " (and " + std::to_string(running_.size() - 1) + " more trial" + (running_.size() > 2 ? "s" : "") + ")"
               : "");
    std::fprintf(stderr, "%s%s\n", tty_ ? "\r" : "", line.c_str());
    std::fflush(stderr);
  }
}

void Progress::draw(bool final_line) {
  last_draw_ = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(last_draw_ - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(done_) / elapsed : 0;
  const double eta = rate > 0 ? static_cast<double>(total_ - done_) / rate : 0;
  const double frac = static_cast<double>(done_) / static_cast<double>(total_);
  if (tty_) {
    const int width = 30, filled = static_cast<int>(frac * width);
    std::fprintf(stderr, "\r%s [%.*s%*s] %zu/%zu trials  %.1f/s  ETA %.0fs   ", label_.c_str(), filled,
                 "##############################", width - filled, "", done_, total_, rate, eta);
    if (final_line) std::fputc('\n', stderr);
  } else {
    std::fprintf(stderr, "%s: %zu/%zu trials (%.0f%%), %.1f/s, ETA %.0fs\n", label_.c_str(), done_, total_, 100 * frac,
                 rate, eta);
  }
  std::fflush(stderr);
}

}  // namespace dpclust
