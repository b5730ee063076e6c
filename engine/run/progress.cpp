#include "run/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace dpclust {

Progress::Progress(std::string label, std::size_t total, bool enabled)
    : label_(std::move(label)), total_(total), enabled_(enabled && total > 0), tty_(::isatty(2) != 0),
      start_(std::chrono::steady_clock::now()), last_draw_(start_) {}

void Progress::tick() {
  std::lock_guard<std::mutex> lock(mu_);
  ++done_;
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  const double since = std::chrono::duration<double>(now - last_draw_).count();
  if ((tty_ && since >= 0.1) || (!tty_ && since >= 5.0)) draw(false);
}

void Progress::finish() {
  std::lock_guard<std::mutex> lock(mu_);
  if (enabled_) draw(true);
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
    std::fprintf(stderr, "%s: %zu/%zu trials (%.0f%%), %.1f/s, ETA %.0fs\n", label_.c_str(), done_, total_, 100 * frac, rate, eta);
  }
  std::fflush(stderr);
}

}  // namespace dpclust
