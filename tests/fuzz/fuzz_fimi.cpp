// libFuzzer entry for the fimi target (built with -DDPCLUST_LIBFUZZER=ON; see docs/testing.md "Fuzzing").
#include "fuzz/fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)dpclust::fuzz::fimi(data, size);
  return 0;
}
