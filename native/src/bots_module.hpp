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

// ---- one decision of a compiled bot at a loaded position (skitgubbe.bots.compiled_bots.CompiledBot) ----
namespace {

// One decision of bot `kind` (BotKind) for `seat` at the position `s` (a state loaded from a world
// consistent with the seat's View: CompiledState.from_state of worlds.world_from_view), as the
// Python bot's `choose(view, legal)` decides: the heuristic bot's weights `weights`
// (HEURISTIC_WEIGHTS' order), its random.Random state `rng_state` (getstate()[1]: 624 words and the
// index), and the public history's length `history_len` with its last entries (`history_seats`,
// `history_codes`: View.history's seats and action codes, at most Recent::kKeep of them, for the
// heuristic bot's loop check, heuristic.is_looping).  Returns the chosen action's code and the
// generator's new state.  ValueError for a seat that is not to act, a deal that is over or waits
// for a chance deal, a bot kind that does not exist, or weights, history or a state of the wrong size.
template <class R>
std::tuple<uint64_t, std::vector<uint32_t>> bot_decision(const NativeState<R>& s, int kind, int seat,
                                                        int64_t history_len, const std::vector<int>& history_seats,
                                                        const std::vector<uint64_t>& history_codes,
                                                        const std::vector<double>& weights,
                                                        const std::vector<uint32_t>& rng_state) {
  const sg::Game<R>& g = s.g;
  if (kind < 0 || kind >= sg::BOT_KINDS) throw std::invalid_argument("bot kind " + std::to_string(kind) + " does not exist");
  if (g.phase == sg::OVER) throw std::invalid_argument("the game is over");
  if (g.phase == sg::DRECK_DEAL) throw std::invalid_argument("the dreck is to be dealt: no seat decides");
  if (seat != g.to_act)
    throw std::invalid_argument("seat " + std::to_string(seat) + " is not to act (seat " + std::to_string(g.to_act) +
                                " is)");
  if (weights.size() != size_t(sg::HeuristicWeights::kCount))
    throw std::invalid_argument("give the heuristic bot's " + std::to_string(sg::HeuristicWeights::kCount) +
                                " weights, not " + std::to_string(weights.size()));
  if (history_seats.size() != history_codes.size() || history_seats.size() > size_t(sg::Recent::kKeep) ||
      int64_t(history_seats.size()) > history_len)
    throw std::invalid_argument("give as many history seats as codes, at most " + std::to_string(sg::Recent::kKeep) +
                                " and at most the history's length");
  sg::HeuristicWeights w;
  double* fields[] = {&w.center,         &w.needy_shift,  &w.pwin_exp,    &w.hold,
                      &w.win_keeps_card, &w.sluff_margin, &w.trump_power, &w.pick_penalty,
                      &w.pick_floor,     &w.kill_bonus,   &w.out_bonus};
  for (int i = 0; i < sg::HeuristicWeights::kCount; ++i) *fields[i] = weights[size_t(i)];
  sg::PyRandom rng = load_state(rng_state, "rng state");
  sg::Recent history;  // View.history's tail, its entries numbered as in the whole history
  history.n = history_len - int64_t(history_seats.size());
  for (size_t i = 0; i < history_seats.size(); ++i) history.push(history_seats[i], sg::Code(history_codes[i]));
  sg::Code acts[sg::Game<R>::kMaxLegal];
  const int n = g.legal(acts);
  if (n < 1) throw std::logic_error("a seat to act with no legal action (an engine bug)");
  int i;
  switch (kind) {  // as play_bots (bots.hpp) chooses for each kind
    case sg::BOT_HEURISTIC:
      i = sg::heuristic_choose(g, seat, acts, n, history, w, rng);
      break;
    case sg::BOT_RANDOM:
      i = int(rng.randbelow(uint32_t(n)));  // RandomBot.choose
      break;
    default:
      throw std::invalid_argument("bot kind " + std::to_string(kind) + " has no single decision here");
  }
  std::vector<uint32_t> st(rng.mt, rng.mt + sg::PyRandom::kN);
  st.push_back(uint32_t(rng.index));
  return std::tuple<uint64_t, std::vector<uint32_t>>(acts[i], std::move(st));
}

void bind_bot_decision(nb::module_& m) {
  auto one = [&](auto policy) {
    using R = decltype(policy);
    m.def("bot_decision", &bot_decision<R>, nb::arg("state"), nb::arg("kind"), nb::arg("seat"),
          nb::arg("history_len"), nb::arg("history_seats"), nb::arg("history_codes"), nb::arg("weights"),
          nb::arg("rng_state"));
  };
  for_each_policy([&](auto policy, const char*, const char*) { one(policy); });
  one(sg::RuntimeRules{});
}

}  // namespace
