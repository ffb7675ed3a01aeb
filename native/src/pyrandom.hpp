// Python's own random numbers in C++: the Mersenne Twister (MT19937) of CPython's `random.Random`
// (Modules/_randommodule.c) and the few methods of Lib/random.py that the random bots and the
// chance deal use, so that a deal played here draws exactly the numbers a Python
// `RandomBot(random.Random(seed))` and `State.chance_action(random.Random(seed))` would draw.
//
// What is reproduced (CPython 3.11 and later; the state format is `Random.getstate()` version 3):
// - the state: 624 32-bit words and an index 0..624 (`getstate()[1]`, loaded by `load`);
// - seeding from an integer (`Random.seed` of an int or, after hashing, of a str: init_by_array);
// - `getrandbits(k)` for k <= 32: the next tempered word shifted right by 32 - k (k = 0 draws
//   nothing and gives 0);
// - `_randbelow_with_getrandbits(n)`, which is what `randrange(n)` calls: k = n.bit_length(),
//   redraw getrandbits(k) until it is below n (so n = 1 still draws, until a 0 comes);
// - `shuffle(x)`: for i from len(x) - 1 down to 1, swap x[i] with x[_randbelow(i + 1)].
// Nothing here allocates; the tests (tests/test_compiled_random.py) compare every piece with
// Python's.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sg {

struct PyRandom {
  static constexpr int kN = 624;
  static constexpr int kM = 397;
  uint32_t mt[kN];
  int index;  // the next word to temper; kN: regenerate first (the Python state's last element)

  // The state of `random.Random().getstate()[1]`: 624 words then the index (0..624).  The caller
  // checks the index.
  void load(const uint32_t* words, int idx) {
    for (int i = 0; i < kN; ++i) mt[i] = words[i];
    index = idx;
  }

  // init_genrand of _randommodule.c.
  void init_genrand(uint32_t s) {
    mt[0] = s;
    for (int i = 1; i < kN; ++i) mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + uint32_t(i);
    index = kN;
  }

  // init_by_array of _randommodule.c: seeding from the 32-bit words of a non-negative integer,
  // least significant first (n >= 1 words; the integer 0 is one word 0).  It starts from
  // init_genrand(19650218), which is the same every time: computed once and copied.
  void init_by_array(const uint32_t* key, int n) {
    static const PyRandom base = [] {
      PyRandom b;
      b.init_genrand(19650218u);
      return b;
    }();
    *this = base;
    int i = 1, j = 0;
    for (int k = kN > n ? kN : n; k; --k) {
      mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] + uint32_t(j);
      ++i;
      ++j;
      if (i >= kN) {
        mt[0] = mt[kN - 1];
        i = 1;
      }
      if (j >= n) j = 0;
    }
    for (int k = kN - 1; k; --k) {
      mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - uint32_t(i);
      ++i;
      if (i >= kN) {
        mt[0] = mt[kN - 1];
        i = 1;
      }
    }
    mt[0] = 0x80000000u;
  }

  // `Random.seed(a)` for an integer a >= 0 given as its big-endian bytes (`a.to_bytes(...)`; for
  // a str seed, Lib/random.py's `int.from_bytes(s.encode() + sha512(s.encode()).digest())`, so
  // the bytes are exactly that concatenation).  Leading zero bytes are ignored, as the integer
  // does not hold them.  At most 4096 significant bytes (longer keys are cut: not a seed used here).
  void seed_bytes(const unsigned char* data, size_t len) {
    size_t start = 0;
    while (start < len && data[start] == 0) ++start;
    size_t sig = len - start;
    if (sig > 4096) {
      start = len - 4096;
      sig = 4096;
    }
    uint32_t key[1024];
    int n = sig ? int((sig + 3) / 4) : 1;
    for (int w = 0; w < n; ++w) key[w] = 0;
    for (size_t p = 0; p < sig; ++p) {  // p: the byte's place counted from the least significant
      key[p / 4] |= uint32_t(data[len - 1 - p]) << (8 * (p % 4));
    }
    init_by_array(key, n);
  }

  // genrand_uint32 of _randommodule.c: the next tempered 32-bit word.
  uint32_t next32() {
    if (index >= kN) {
      int kk = 0;
      for (; kk < kN - kM; ++kk) {
        uint32_t y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
        mt[kk] = mt[kk + kM] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
      }
      for (; kk < kN - 1; ++kk) {
        uint32_t y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
        mt[kk] = mt[kk + (kM - kN)] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
      }
      uint32_t y = (mt[kN - 1] & 0x80000000u) | (mt[0] & 0x7fffffffu);
      mt[kN - 1] = mt[kM - 1] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
      index = 0;
    }
    uint32_t y = mt[index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
  }

  // `Random.getrandbits(k)` for 0 <= k <= 32.
  uint32_t getrandbits(int k) { return k == 0 ? 0 : next32() >> (32 - k); }

  // `Random._randbelow_with_getrandbits(n)` (= `randrange(n)`) for n >= 1.
  uint32_t randbelow(uint32_t n) {
    int k = 32 - __builtin_clz(n);  // n.bit_length()
    uint32_t r = getrandbits(k);
    while (r >= n) r = getrandbits(k);
    return r;
  }

  // `Random.shuffle(x)` of the k items at x (in place).
  template <class T>
  void shuffle(T* x, int k) {
    for (int i = k - 1; i > 0; --i) {
      int j = int(randbelow(uint32_t(i + 1)));
      T t = x[i];
      x[i] = x[j];
      x[j] = t;
    }
  }
};

}  // namespace sg
