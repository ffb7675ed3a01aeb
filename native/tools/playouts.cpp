// A stand-alone driver of the compiled pagat engine, for profiling without Python (perf,
// callgrind; docs/performance.md):
//   g++ -std=c++17 -O3 -g -o /tmp/playouts native/tools/playouts.cpp && /tmp/playouts 3 1000000
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "../src/pagat.hpp"

int main(int argc, char** argv) {
  int players = argc > 1 ? std::atoi(argv[1]) : 3;
  long games = argc > 2 ? std::atol(argv[2]) : 1000000;
  sg::Rng rng(1);
  uint8_t deck[sg::kCards];
  sg::Pagat g;
  long actions = 0, lost[sg::kMaxSeats] = {0, 0, 0, 0};
  auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < games; ++i) {
    sg::shuffle_deck(deck, rng);
    g.init(players, deck, 0, -1, 20000);
    actions += g.play_out(rng);
    if (g.loser >= 0) ++lost[g.loser];
  }
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("pagat %dp: %ld games, %.1f actions/game, %.0f games/s, %zu bytes a state\n", players, games,
              double(actions) / games, games / s, sizeof(sg::Pagat));
  for (int p = 0; p < players; ++p) std::printf("seat %d lost %ld\n", p, lost[p]);
  return 0;
}
