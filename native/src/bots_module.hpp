// Bindings of the compiled bots (bots.hpp): bot_deals and runtime_bot_deals, whole deals with a
// random or heuristic bot at each seat, every random number Python's (pyrandom.hpp).  Included by
// module.cpp after its helpers (NativeState's checks, with_rules, runtime_rules, LazyChance); the
// typed surface is in ../skitgubbe_native.pyi, skitgubbe.engine.compiled (bot_deals) wraps it.
#pragma once

#include "bots.hpp"

namespace {

// One deal's result as Python receives it: (loser or -1, abandoned, actions, tricks, out order,
// decisions per seat, seconds per seat, action codes or empty).
using BotDealTuple = std::tuple<int, bool, int, int, std::vector<int>, std::vector<int>, std::vector<double>,
                                std::vector<uint64_t>>;

// Many deals with compiled bots (see bot_deals in the module): per deal `players` bot kinds,
// 52 deck cards, a dealer and players + 1 seed keys (each seat's, then the chance's: the
// big-endian bytes of the integer Random.seed makes of its seed).
template <class R>
std::vector<BotDealTuple> compiled_bot_deals(int players, const std::vector<int>& kinds, const std::vector<int>& decks,
                                             const std::vector<int>& dealers, const std::vector<nb::bytes>& keys,
                                             int action_limit, const std::vector<double>& weights, bool record,
                                             const R& rules = R{}) {
  check_players<R>(players);
  check_table(rules, players);
  if (action_limit < 1) throw std::invalid_argument("the action limit must be at least 1");
  const size_t games = dealers.size();
  const size_t per = size_t(players) + 1;
  if (kinds.size() != games * size_t(players))
    throw std::invalid_argument("give one bot kind per seat and deal: " + std::to_string(games * size_t(players)) +
                                ", not " + std::to_string(kinds.size()));
  for (int k : kinds)
    if (k < 0 || k >= sg::BOT_KINDS) throw std::invalid_argument("bot kind " + std::to_string(k) + " does not exist");
  if (decks.size() != games * sg::kCards)
    throw std::invalid_argument("give 52 deck cards per deal: " + std::to_string(games * sg::kCards) + ", not " +
                                std::to_string(decks.size()));
  if (keys.size() != games * per)
    throw std::invalid_argument("give players + 1 seed keys per deal (each seat, chance): " +
                                std::to_string(games * per) + ", not " + std::to_string(keys.size()));
  if (weights.size() != size_t(sg::HeuristicWeights::kCount))
    throw std::invalid_argument("give the heuristic bot's " + std::to_string(sg::HeuristicWeights::kCount) +
                                " weights, not " + std::to_string(weights.size()));
  std::vector<uint8_t> deck_bytes(decks.size());
  for (size_t d = 0; d < games; ++d) {
    if (dealers[d] < 0 || dealers[d] >= players)
      throw std::invalid_argument("dealer seat " + std::to_string(dealers[d]) + " does not exist");
    uint64_t seen = 0;
    for (int i = 0; i < sg::kCards; ++i) {
      int c = decks[d * sg::kCards + size_t(i)];
      if (c < 0 || c >= sg::kCards || (seen >> c & 1))
        throw std::invalid_argument("a deck order is not the 52 cards 0..51 once each");
      seen |= sg::bit(c);
      deck_bytes[d * sg::kCards + size_t(i)] = uint8_t(c);
    }
  }
  sg::HeuristicWeights w;
  double* fields[] = {&w.center,      &w.needy_shift,  &w.pwin_exp,   &w.hold,
                      &w.win_keeps_card, &w.sluff_margin, &w.trump_power, &w.pick_penalty,
                      &w.pick_floor,  &w.kill_bonus,   &w.out_bonus};
  for (int i = 0; i < sg::HeuristicWeights::kCount; ++i) *fields[i] = weights[size_t(i)];
  std::vector<std::string> raw;
  raw.reserve(keys.size());
  for (const nb::bytes& k : keys) raw.emplace_back(k.c_str(), k.size());
  std::vector<BotDealTuple> out(games);
  nb::gil_scoped_release release;
  sg::Game<R> g;
  g.rules = rules;
  sg::PyRandom seats[R::kMaxSeats];
  LazyChance chance;
  for (size_t d = 0; d < games; ++d) {
    for (int i = 0; i < players; ++i) {
      const std::string& k = raw[d * per + size_t(i)];
      seats[i].seed_bytes(reinterpret_cast<const unsigned char*>(k.data()), k.size());
    }
    chance.key = &raw[d * per + per - 1];
    g.init(players, deck_bytes.data() + d * sg::kCards, dealers[d], -1, action_limit);
    sg::BotDealResult r = sg::play_bots(g, kinds.data() + d * size_t(players), seats, chance, w, record);
    out[d] = BotDealTuple(r.loser, r.abandoned, r.actions, r.tricks, std::move(r.out_order),
                          std::move(r.decisions), std::move(r.seconds), std::move(r.codes));
  }
  return out;
}

void bind_bots(nb::module_& m) {
  m.def(
      "bot_deals",
      [](const std::string& preset, int players, const std::vector<int>& kinds, const std::vector<int>& decks,
         const std::vector<int>& dealers, const std::vector<nb::bytes>& keys, int action_limit,
         const std::vector<double>& weights, bool record) {
        return with_rules(preset, [&](auto r) {
          return compiled_bot_deals<decltype(r)>(players, kinds, decks, dealers, keys, action_limit, weights,
                                                 record);
        });
      },
      nb::arg("preset"), nb::arg("players"), nb::arg("kinds"), nb::arg("decks"), nb::arg("dealers"),
      nb::arg("keys"), nb::arg("action_limit"), nb::arg("weights"), nb::arg("record") = false);
  m.def(
      "runtime_bot_deals",
      [](const Options& options, int players, const std::vector<int>& kinds, const std::vector<int>& decks,
         const std::vector<int>& dealers, const std::vector<nb::bytes>& keys, int action_limit,
         const std::vector<double>& weights, bool record) {
        return compiled_bot_deals<sg::RuntimeRules>(players, kinds, decks, dealers, keys, action_limit, weights,
                                                    record, runtime_rules(options));
      },
      nb::arg("options"), nb::arg("players"), nb::arg("kinds"), nb::arg("decks"), nb::arg("dealers"),
      nb::arg("keys"), nb::arg("action_limit"), nb::arg("weights"), nb::arg("record") = false);
}

}  // namespace
