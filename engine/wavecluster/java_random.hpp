#pragma once
// java.util.Random, as its Javadoc specifies it (a 48-bit linear congruential generator, Knuth TAOCP
// vol. 2 Sec. 3.2.1), for the folds of the DP WaveCluster authors' cross-validation: their
// CrossValidationSingleRunUsingGridTraining.java shuffles the data with Weka's
// Instances.randomize(new Random(1)) (weka_folds.hpp). Only what Weka's randomize uses is provided.
//   setSeed(s):   seed = (s ^ 0x5DEECE66D) & (2^48 - 1)
//   next(bits):   seed = (seed * 0x5DEECE66D + 0xB) & (2^48 - 1); return (int)(seed >>> (48 - bits))
//   nextInt(b):   r = next(31); m = b - 1; if b is a power of two: (int)((b * (long) r) >> 31);
//                 else u = r, r = u % b, redrawn u = next(31) while u - r + m overflows int
//   nextInt():    next(32)
#include <cstdint>

namespace dpclust::wavecluster {

class JavaRandom {
 public:
  explicit JavaRandom(std::int64_t seed) { set_seed(seed); }
  void set_seed(std::int64_t seed);
  std::int32_t next(int bits);
  std::int32_t next_int();                    // nextInt()
  std::int32_t next_int(std::int32_t bound);  // nextInt(bound), bound > 0 (throws std::invalid_argument otherwise)

 private:
  std::uint64_t seed_ = 0;  // 48 bits
};

}  // namespace dpclust::wavecluster
