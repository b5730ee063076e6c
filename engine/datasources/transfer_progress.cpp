#include "datasources/transfer_progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "io/byte_size.hpp"

namespace dpclust::datasources {

TransferProgress::TransferProgress(std::string label, std::uint64_t total_bytes, bool enabled)
    : label_(std::move(label)),
      total_(total_bytes),
      enabled_(enabled),
      tty_(::isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

void TransferProgress::add(std::uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  done_ += bytes;
  received_ += bytes;
  draw(false);
}

void TransferProgress::skip(std::uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  done_ += bytes;
}

void TransferProgress::finish() {
  std::lock_guard<std::mutex> lock(mu_);
  draw(true);
}

void TransferProgress::draw(bool final_line) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  // A terminal is redrawn a few times a second; a log gets a line every 5 s, so a 20-minute download
  // writes a few hundred lines, not megabytes.
  const auto every = tty_ ? std::chrono::milliseconds(200) : std::chrono::milliseconds(5000);
  if (!final_line && now - last_draw_ < every) return;
  last_draw_ = now;
  const double secs = std::chrono::duration<double>(now - start_).count();
  const double rate = secs > 0 ? static_cast<double>(received_) / secs : 0.0;
  std::string line = label_ + "  " + format_bytes(done_);
  if (total_) {
    char pct[16];
    std::snprintf(pct, sizeof pct, " (%3.0f%%)",
                  100.0 * static_cast<double>(std::min(done_, total_)) / static_cast<double>(total_));
    line += " / " + format_bytes(total_) + pct;
  }
  line += "  " + format_bytes(static_cast<std::uint64_t>(rate)) + "/s";
  if (total_ && rate > 0 && done_ < total_ && !final_line) {
    const auto eta = static_cast<long long>(static_cast<double>(total_ - done_) / rate);
    char buf[32];
    std::snprintf(buf, sizeof buf, "  ETA %lld:%02lld", eta / 60, eta % 60);
    line += buf;
  }
  if (final_line) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "  %.1f s", secs);
    line += buf;
  }
  if (tty_) std::cerr << "\r\033[K" << line << (final_line ? "\n" : "") << std::flush;
  else std::cerr << line << "\n" << std::flush;
}

}  // namespace dpclust::datasources
