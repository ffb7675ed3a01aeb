// Python bindings of the compiled pagat engine (pagat.hpp): the module `skitgubbe_native`.
// The typed surface is described in ../skitgubbe_native.pyi; skitgubbe.engine.compiled wraps it.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "pagat.hpp"

namespace nb = nanobind;
using sg::Pagat;

namespace {

// The events of the step `apply` takes (one buffer per thread, not one per state).
thread_local sg::EventLog step_log;

// A deal of pagat: the Python object holds just the flat state.
struct NativePagat {
  Pagat g;

  NativePagat(int players, const std::vector<int>& deck, int dealer, int leader, int action_limit) {
    if (players < 2 || players > sg::kMaxSeats)
      throw std::invalid_argument("pagat is for 2 to 4 players, not " + std::to_string(players));
    if (dealer < 0 || dealer >= players)
      throw std::invalid_argument("dealer seat " + std::to_string(dealer) + " does not exist");
    if (leader < -1 || leader >= players)
      throw std::invalid_argument("leader seat " + std::to_string(leader) + " does not exist");
    if (action_limit < 1) throw std::invalid_argument("the action limit must be at least 1");
    if (deck.size() != sg::kCards)
      throw std::invalid_argument("a deck order must list all 52 cards once; got " +
                                  std::to_string(deck.size()) + " cards");
    uint8_t d[sg::kCards];
    uint64_t seen = 0;
    for (int i = 0; i < sg::kCards; ++i) {
      int c = deck[i];
      if (c < 0 || c >= sg::kCards || (seen >> c & 1))
        throw std::invalid_argument("the deck order is not the 52 cards 0..51 once each");
      seen |= sg::bit(c);
      d[i] = uint8_t(c);
    }
    g.init(players, d, dealer, leader, action_limit);
  }

  std::vector<int> legal_actions() const {
    int codes[64];
    int k = g.legal(codes);
    return std::vector<int>(codes, codes + k);
  }

  std::vector<std::tuple<std::string, int, uint64_t>> apply(int code) {
    if (g.phase == sg::OVER) throw std::invalid_argument("the game is over");
    if (!g.is_legal(code))
      throw std::invalid_argument("action code " + std::to_string(code) + " is not legal now");
    sg::EventLog& log = step_log;
    log.n = 0;
    g.log = &log;
    g.step(code);
    g.log = nullptr;
    std::vector<std::tuple<std::string, int, uint64_t>> out;
    out.reserve(log.n);
    for (int i = 0; i < log.n; ++i)
      out.emplace_back(sg::event_name(log.e[i].kind), log.e[i].seat, log.e[i].cards);
    return out;
  }

  std::vector<uint64_t> seat_sets(const uint64_t* a) const {
    return std::vector<uint64_t>(a, a + g.players);
  }

  std::vector<int> table() const {
    std::vector<int> t;
    for (int i = 0; i < g.n_table; ++i) t.push_back(g.table[i]);
    return t;
  }

  std::vector<int> out_order() const {
    return std::vector<int>(g.out_order, g.out_order + g.n_out);
  }

  int play_random(uint64_t seed) {
    sg::Rng rng(seed);
    return g.play_out(rng);
  }
};

// `games` random deals of `players` seats: each deck shuffled and each action drawn by the
// module's own generator from `seed`.  Returns (games, actions, abandoned, losses per seat).
std::tuple<int64_t, int64_t, int64_t, std::vector<int64_t>> random_playouts(int players, int64_t games,
                                                                           uint64_t seed) {
  if (players < 2 || players > sg::kMaxSeats)
    throw std::invalid_argument("pagat is for 2 to 4 players, not " + std::to_string(players));
  if (games < 0) throw std::invalid_argument("games must be 0 or more");
  sg::Rng rng(seed);
  uint8_t deck[sg::kCards];
  Pagat g;
  int64_t actions = 0, abandoned = 0;
  std::vector<int64_t> losses(players, 0);
  {
    nb::gil_scoped_release release;
    int64_t lost[sg::kMaxSeats] = {0, 0, 0, 0};
    for (int64_t i = 0; i < games; ++i) {
      sg::shuffle_deck(deck, rng);
      g.init(players, deck, 0, -1, 20000);
      actions += g.play_out(rng);
      if (g.loser >= 0)
        ++lost[g.loser];
      else
        ++abandoned;
    }
    for (int s = 0; s < players; ++s) losses[s] = lost[s];
  }
  return {games, actions, abandoned, losses};
}

}  // namespace

NB_MODULE(skitgubbe_native, m) {
  m.doc() = "The compiled engine of skitgubbe: the pagat preset at 2 to 4 seats (bitmask state).";
  m.attr("STATE_BYTES") = int(sizeof(Pagat));
  m.attr("NO_CARD") = sg::kNoCard;

  nb::class_<NativePagat>(m, "PagatState")
      .def(nb::init<int, const std::vector<int>&, int, int, int>(), nb::arg("players"),
           nb::arg("deck"), nb::arg("dealer") = 0, nb::arg("leader") = -1,
           nb::arg("action_limit") = 20000)
      .def("legal_actions", &NativePagat::legal_actions)
      .def("apply", &NativePagat::apply, nb::arg("code"))
      .def("play_random", &NativePagat::play_random, nb::arg("seed"))
      .def("clone", [](const NativePagat& s) { return NativePagat(s); })
      .def_prop_ro("players", [](const NativePagat& s) { return int(s.g.players); })
      .def_prop_ro("to_act", [](const NativePagat& s) { return int(s.g.to_act); })
      .def_prop_ro("phase", [](const NativePagat& s) { return int(s.g.phase); })
      .def_prop_ro("is_over", [](const NativePagat& s) { return s.g.phase == sg::OVER; })
      .def_prop_ro("loser", [](const NativePagat& s) { return int(s.g.loser); })
      .def_prop_ro("abandoned", [](const NativePagat& s) { return s.g.abandoned; })
      .def_prop_ro("out_order", &NativePagat::out_order)
      .def_prop_ro("hands", [](const NativePagat& s) { return s.seat_sets(s.g.hand); })
      .def_prop_ro("piles", [](const NativePagat& s) { return s.seat_sets(s.g.pile); })
      .def_prop_ro("known", [](const NativePagat& s) { return s.seat_sets(s.g.known); })
      .def_prop_ro("stock_count", [](const NativePagat& s) { return s.g.stock_count(); })
      .def_prop_ro("trick_cards", [](const NativePagat& s) { return s.g.trick_cards; })
      .def_prop_ro("table", &NativePagat::table)
      .def_prop_ro("killed", [](const NativePagat& s) { return s.g.killed; })
      .def_prop_ro("trump_card", [](const NativePagat& s) { return int(s.g.trump_card); })
      .def_prop_ro("trump_holder", [](const NativePagat& s) { return int(s.g.trump_holder); })
      .def_prop_ro("trump_suit", [](const NativePagat& s) { return int(s.g.trump_suit); })
      .def_prop_ro("tricks", [](const NativePagat& s) { return int(s.g.tricks); })
      .def_prop_ro("actions", [](const NativePagat& s) { return int(s.g.actions); });

  m.def("random_playouts", &random_playouts, nb::arg("players"), nb::arg("games"), nb::arg("seed"));
}
