// A stand-alone driver of the compiled engine, for profiling without Python (perf, callgrind;
// docs/performance.md):
//   g++ -std=c++17 -O3 -g -o /tmp/playouts native/tools/playouts.cpp && /tmp/playouts pagat 3 1000000
// With a fourth argument `check` every random action is checked to be among the legal actions and
// each legal action is seen to be drawn (uniform choice without listing them).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "../src/game.hpp"

template <class R>
int run(const char* name, int players, long games, bool check) {
  sg::Rng rng(1);
  uint8_t deck[sg::kCards];
  sg::Game<R> g;
  long actions = 0, lost[R::kMaxSeats] = {}, abandoned = 0, bad = 0;
  auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < games; ++i) {
    sg::shuffle_deck(deck, rng);
    g.init(players, deck, 0, -1, 20000);
    if (check) {
      int before = g.actions;
      bad += g.play_out_checked(rng);
      actions += g.actions - before;
    } else {
      actions += g.play_out(rng);
    }
    if (g.loser >= 0)
      ++lost[g.loser];
    else
      ++abandoned;
  }
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s %dp: %ld games, %.1f actions/game, %.0f games/s (wall clock), %zu bytes a state, "
              "%ld abandoned\n", name, players, games, double(actions) / games, games / s, sizeof(g), abandoned);
  for (int p = 0; p < players; ++p) std::printf("seat %d lost %ld\n", p, lost[p]);
  if (check) std::printf("random actions not among the legal actions: %ld\n", bad);
  return bad ? 1 : 0;
}

// run() after checking the seat count against the preset's; 2 for a table it does not allow.
template <class R>
int go(const char* name, int players, long games, bool check) {
  if (players < R::kMinSeats || players > R::kMaxSeats) return 2;
  return run<R>(name, players, games, check);
}

int main(int argc, char** argv) {
  const char* preset = argc > 1 ? argv[1] : "pagat";
  int players = argc > 2 ? std::atoi(argv[2]) : 3;
  long games = argc > 3 ? std::atol(argv[3]) : 1000000;
  bool check = argc > 4 && std::strcmp(argv[4], "check") == 0;
  if (std::strcmp(preset, "goat") == 0) return go<sg::GoatRules>(preset, players, games, check);
  if (std::strcmp(preset, "catsatcards") == 0) return go<sg::CatsatcardsRules>(preset, players, games, check);
  if (std::strcmp(preset, "two-player") == 0) return go<sg::TwoPlayerRules>(preset, players, games, check);
  if (std::strcmp(preset, "howell") == 0) return go<sg::HowellRules>(preset, players, games, check);
  if (std::strcmp(preset, "catsatcards-flurst") == 0)
    return go<sg::CatsatcardsFlurstRules>(preset, players, games, check);
  return go<sg::PagatRules>(preset, players, games, check);  // pagat (and myllymatti)
}
