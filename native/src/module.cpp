// Python bindings of the compiled engine (game.hpp): the module `skitgubbe_native`, one class per
// rules policy it plays (PagatState for pagat and myllymatti, GoatState, CatsatcardsState,
// TwoPlayerState, HowellState, CatsatcardsFlurstState, MattisState,
// AtlantaState, KoiraState, HelmfridState, MasState), RuntimeState for any combination of the
// options they implement, given at construction (sg::RuntimeRules), and deals played by random
// bots with Python's own random numbers (PythonRandom, random_bots_deal, random_bots_deals:
// pyrandom.hpp).  The typed surface is in ../skitgubbe_native.pyi; skitgubbe.engine.compiled wraps it.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <map>
#include <stdexcept>
#include <type_traits>
#include <string>
#include <tuple>
#include <vector>

#include "batch.hpp"
#include "game.hpp"
#include "model.hpp"
#include "pyrandom.hpp"

namespace nb = nanobind;

namespace {

// The events of the step `apply` takes (one buffer per thread, not one per state).
thread_local sg::EventLog step_log;

using Events = std::vector<std::tuple<std::string, int, uint64_t>>;

// The preset names of each rules policy (for messages).
template <class R>
struct Preset;
template <>
struct Preset<sg::PagatRules> {
  static constexpr const char* name = "pagat";
};
template <>
struct Preset<sg::GoatRules> {
  static constexpr const char* name = "goat";
};
template <>
struct Preset<sg::CatsatcardsRules> {
  static constexpr const char* name = "catsatcards";
};
template <>
struct Preset<sg::TwoPlayerRules> {
  static constexpr const char* name = "two-player";
};
template <>
struct Preset<sg::HowellRules> {
  static constexpr const char* name = "howell";
};
template <>
struct Preset<sg::CatsatcardsFlurstRules> {
  static constexpr const char* name = "catsatcards-flurst";
};

template <>
struct Preset<sg::MattisRules> {
  static constexpr const char* name = "mattis";
};
template <>
struct Preset<sg::AtlantaRules> {
  static constexpr const char* name = "atlanta";
};
template <>
struct Preset<sg::KoiraRules> {
  static constexpr const char* name = "koira";
};
template <>
struct Preset<sg::HelmfridRules> {
  static constexpr const char* name = "helmfrid";
};
template <>
struct Preset<sg::MasRules> {
  static constexpr const char* name = "mas";
};

template <>
struct Preset<sg::RuntimeRules> {
  static constexpr const char* name = "the compiled engine";
};

using Options = std::map<std::string, int>;

// sg::RuntimeRules from `options`: every member by name, each exactly once (skitgubbe.engine.compiled
// _native_options writes them); ValueError for a missing or unknown name or a value outside what
// the state's arrays hold.  Whether the values make sense together is the Python Rules' check.
sg::RuntimeRules runtime_rules(const Options& options) {
  sg::RuntimeRules r;
  struct Int {
    const char* name;
    int sg::RuntimeRules::*member;
    int low, high;
  };
  struct Flag {
    const char* name;
    bool sg::RuntimeRules::*member;
  };
  using R = sg::RuntimeRules;
  static const Int ints[] = {
      {"reserve", &R::reserve, 0, 30},           {"max_equal_play", &R::max_equal_play, 1, 3},
      {"dreck_below", &R::dreck_below, -1, 52},  {"dreck_max_rank", &R::dreck_max_rank, 2, 14},
      {"dreck_trump_rank", &R::dreck_trump_rank, 0, 14}, {"hand_size", &R::hand_size, 1, 6},
      {"min_run", &R::min_run, 2, 3}};
  static const Flag flags[] = {
      {"trump_shown_when_drawn", &R::trump_shown_when_drawn}, {"aces_low_first", &R::aces_low_first},
      {"bottom_aside", &R::bottom_aside}, {"sluff_last_rank", &R::sluff_last_rank},
      {"sluff_guard_last_card", &R::sluff_guard_last_card}, {"dreck_remainder_aside", &R::dreck_remainder_aside},
      {"pick_top_run", &R::pick_top_run}, {"pick_bottom_play", &R::pick_bottom_play},
      {"pick_lowest_run", &R::pick_lowest_run}, {"sluff_guard_high", &R::sluff_guard_high},
      {"blamattis", &R::blamattis}, {"sluff_after_play", &R::sluff_after_play}, {"sluff_once", &R::sluff_once},
      {"sluff_losing_only", &R::sluff_losing_only}, {"skip_empty", &R::skip_empty},
      {"sluff_settled_only", &R::sluff_settled_only}, {"beat", &R::beat}, {"turn_from_stock", &R::turn_from_stock},
      {"stock_stop", &R::stock_stop}, {"lowest_card_leads", &R::lowest_card_leads},
      {"store_three_trumps", &R::store_three_trumps}, {"exchange_two", &R::exchange_two},
      {"all_play", &R::all_play}, {"must_match", &R::must_match}, {"sluffing", &R::sluffing},
      {"sluff_guard_last", &R::sluff_guard_last}, {"expose_leftover", &R::expose_leftover},
      {"show_trump_card", &R::show_trump_card}, {"trump_drawer_leads", &R::trump_drawer_leads}, {"runs", &R::runs},
      {"stop_unless_two", &R::stop_unless_two}, {"empty_loses", &R::empty_loses},
      {"pick_lowest_card", &R::pick_lowest_card}, {"run_from_two", &R::run_from_two}};
  size_t used = 0;
  auto get = [&](const char* name) {
    auto it = options.find(name);
    if (it == options.end()) throw std::invalid_argument(std::string("the option ") + name + " is missing");
    ++used;
    return it->second;
  };
  for (const Int& o : ints) {
    int v = get(o.name);
    if (v < o.low || v > o.high)
      throw std::invalid_argument(std::string(o.name) + " must be " + std::to_string(o.low) + " to " +
                                  std::to_string(o.high) + ", not " + std::to_string(v));
    r.*(o.member) = v;
  }
  for (const Flag& o : flags) {
    int v = get(o.name);
    if (v != 0 && v != 1) throw std::invalid_argument(std::string(o.name) + " must be 0 or 1");
    r.*(o.member) = v != 0;
  }
  if (used != options.size()) {
    for (const auto& kv : options) {
      bool known = false;
      for (const Int& o : ints) known |= kv.first == o.name;
      for (const Flag& o : flags) known |= kv.first == o.name;
      if (!known) throw std::invalid_argument("unknown option " + kv.first);
    }
  }
  if (r.max_equal_play > r.hand_size) throw std::invalid_argument("max_equal_play is above hand_size");
  if (int(r.pick_top_run) + int(r.pick_bottom_play) + int(r.pick_lowest_run) + int(r.pick_lowest_card) > 1)
    throw std::invalid_argument("at most one of pick_top_run, pick_bottom_play, pick_lowest_run and pick_lowest_card");
  return r;
}

// The table fits the pack: the hands, the avstickshög (two seats only) and a stock card.
void check_table(const sg::RuntimeRules& r, int players) {
  if (r.reserve && players != 2) throw std::invalid_argument("the avstickshög (reserve) is for two seats");
  if (players * r.hand_size + r.reserve >= sg::kCards)
    throw std::invalid_argument("the hands and the reserve leave no stock");
}
template <class R>
void check_table(const R&, int) {}

template <class R>
void check_players(int players) {
  if (players < R::kMinSeats || players > R::kMaxSeats)
    throw std::invalid_argument(std::string(Preset<R>::name) + " is for " + std::to_string(R::kMinSeats) +
                                " to " + std::to_string(R::kMaxSeats) + " players, not " +
                                std::to_string(players));
}

// Call f with a value of the rules policy of `preset` (myllymatti plays as pagat: only the loser's
// title differs); ValueError for a preset the compiled engine does not play.
template <class F>
auto with_rules(const std::string& preset, F&& f) {
  if (preset == "pagat" || preset == "myllymatti") return f(sg::PagatRules{});
  if (preset == "goat") return f(sg::GoatRules{});
  if (preset == "catsatcards") return f(sg::CatsatcardsRules{});
  if (preset == "two-player") return f(sg::TwoPlayerRules{});
  if (preset == "howell") return f(sg::HowellRules{});
  if (preset == "catsatcards-flurst") return f(sg::CatsatcardsFlurstRules{});
  if (preset == "mattis") return f(sg::MattisRules{});
  if (preset == "atlanta") return f(sg::AtlantaRules{});
  if (preset == "koira") return f(sg::KoiraRules{});
  if (preset == "helmfrid") return f(sg::HelmfridRules{});
  if (preset == "mas") return f(sg::MasRules{});
  throw std::invalid_argument(
      "the compiled engine plays pagat, myllymatti, goat, catsatcards, two-player, howell, "
      "catsatcards-flurst, mattis, atlanta, koira, helmfrid and mas, not " +
      preset);
}

// A deal of one preset: the Python object holds just the flat state.
template <class R>
struct NativeState {
  sg::Game<R> g;

  NativeState(int players, const std::vector<int>& deck, int dealer, int leader, int action_limit,
              const R& rules = R{}) {
    check_players<R>(players);
    check_table(rules, players);
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
    g.rules = rules;
    g.init(players, d, dealer, leader, action_limit);
  }

  std::vector<uint64_t> legal_actions() const {
    sg::Code codes[sg::Game<R>::kMaxLegal];
    int k = g.legal(codes);
    return std::vector<uint64_t>(codes, codes + k);
  }

  template <class F>
  Events logged(F&& step) {
    sg::EventLog& log = step_log;
    log.n = 0;
    g.log = &log;
    step();
    g.log = nullptr;
    Events out;
    out.reserve(log.n);
    for (int i = 0; i < log.n; ++i)
      out.emplace_back(sg::event_name(log.e[i].kind), log.e[i].seat, log.e[i].cards);
    return out;
  }

  Events apply(uint64_t code) {
    if (g.phase == sg::OVER) throw std::invalid_argument("the game is over");
    if (g.phase == sg::DRECK_DEAL) throw std::invalid_argument("the dreck is to be dealt: deal_chance");
    if (!g.is_legal(code))
      throw std::invalid_argument("action code " + std::to_string(code) + " is not legal now");
    return logged([&] { g.step(code); });
  }

  Events deal_chance(const std::vector<int>& order) {
    if (g.phase != sg::DRECK_DEAL) throw std::invalid_argument("there is no dreck to deal now");
    uint8_t o[sg::kCards];
    uint64_t seen = 0;
    const uint64_t deal = g.pending_deal();
    if (int(order.size()) != sg::popcount(deal))
      throw std::invalid_argument("the dreck order must list each dreck card exactly once");
    for (size_t i = 0; i < order.size(); ++i) {
      int c = order[i];
      if (c < 0 || c >= sg::kCards || !(deal >> c & 1) || (seen >> c & 1))
        throw std::invalid_argument("the dreck order must list each dreck card exactly once");
      seen |= sg::bit(c);
      o[i] = uint8_t(c);
    }
    return logged([&] { g.deal_chance(o, int(order.size())); });
  }

  std::vector<uint64_t> seat_sets(const uint64_t* a) const { return std::vector<uint64_t>(a, a + g.players); }

  int play_random(uint64_t seed) {
    sg::Rng rng(seed);
    return g.play_out(rng);
  }

  // ---- the search bot's phase-two model (model.hpp) ----

  // Replace the deal by a phase-two position (PhaseTwoPosition in skitgubbe.engine.compiled):
  // the hands, the table's plays (the lead first) and who played each, the seat to act, the kill
  // size, the Blåmattis seats yet to pick up (a seat set), the seats out in order, the trump
  // suit, the avstickshög (top card last), the actions taken and the action limit.  The stock is
  // empty, the killed cards and the piles are not kept (phase two does not read them).
  // ValueError for a position that does not fit.
  void load_two(const std::vector<uint64_t>& hands, const std::vector<uint64_t>& table,
                const std::vector<int>& owners, int to_act, int kill_at, int blue, const std::vector<int>& out,
                int trump_suit, const std::vector<int>& reserve, int actions, int action_limit) {
    const int n = g.players;
    if (int(hands.size()) != n) throw std::invalid_argument("one hand a seat: " + std::to_string(n) + " hands");
    if (table.size() != owners.size() || int(table.size()) >= n)
      throw std::invalid_argument("the table holds fewer plays than seats, each with the seat that played it");
    if (to_act < 0 || to_act >= n) throw std::invalid_argument("the seat to act does not exist");
    if (kill_at < 1 || kill_at > n) throw std::invalid_argument("the kill size must be 1 to the seats");
    if (int(out.size()) > n || blue < 0 || blue >= (1 << n) || trump_suit < -1 || trump_suit > 3)
      throw std::invalid_argument("the seats out, the Blåmattis seats or the trump suit do not fit");
    if (reserve.size() > size_t(sg::kCards) || actions < 0 || action_limit < 1)
      throw std::invalid_argument("the avstickshög or the action counts do not fit");
    uint64_t seen = 0;
    auto place = [&](uint64_t cards) {
      if (cards >> sg::kCards || (cards & seen)) throw std::invalid_argument("a card is in two places or not a card");
      seen |= cards;
    };
    for (uint64_t h : hands) place(h);
    for (uint64_t p : table) {
      if (!p) throw std::invalid_argument("a play on the table holds no card");
      place(p);
    }
    for (int c : reserve) {
      if (c < 0 || c >= sg::kCards) throw std::invalid_argument("a card of the avstickshög is not a card");
      place(sg::bit(c));
    }
    for (int s : owners)
      if (s < 0 || s >= n) throw std::invalid_argument("a play's seat does not exist");
    for (int s : out)
      if (s < 0 || s >= n) throw std::invalid_argument("a seat out does not exist");
    sg::Game<R>& x = g;
    for (int s = 0; s < n; ++s) {
      x.hand[s] = hands[s];
      x.known[s] = 0;
      x.pile[s] = 0;
    }
    x.n_table = int8_t(table.size());
    for (size_t i = 0; i < table.size(); ++i) {
      x.table[i] = table[i];
      x.table_owner[i] = int8_t(owners[i]);
    }
    x.n_out = int8_t(out.size());
    for (size_t i = 0; i < out.size(); ++i) x.out_order[i] = int8_t(out[i]);
    const int k = int(reserve.size());
    for (int i = 0; i < k; ++i) x.stock[i] = uint8_t(reserve[k - 1 - i]);
    x.reserve_top = 0;
    x.reserve_end = int8_t(k);
    x.stock_top = x.stock_end = int8_t(k);
    x.phase = sg::TWO;
    x.to_act = int8_t(to_act);
    x.kill_at = int8_t(kill_at);
    x.blue = uint16_t(blue);
    x.trump_suit = int8_t(trump_suit);
    x.loser = -1;
    x.abandoned = false;
    x.pending = 0;
    x.actions = actions;
    x.action_limit = action_limit;
    x.log = nullptr;
  }

  void check_model(bool to_act_two) const {
    if (!sg::model_weights.set) throw std::invalid_argument("the model's weights are not set (set_model_weights)");
    if (to_act_two && (g.phase != sg::TWO || g.to_act < 0))
      throw std::invalid_argument("the model plays a seat to act in phase two");
  }

  // The history's last entries (seats and codes, oldest first) of a history of `total` actions.
  static sg::Recent recent_of(const std::vector<int>& seats, const std::vector<uint64_t>& codes, int64_t total) {
    if (seats.size() != codes.size() || int64_t(seats.size()) > total)
      throw std::invalid_argument("the history's seats and codes must pair up, at most its length");
    sg::Recent r;
    size_t skip = seats.size() > size_t(sg::Recent::kKeep) ? seats.size() - sg::Recent::kKeep : 0;
    r.n = total - int64_t(seats.size() - skip);
    for (size_t i = skip; i < seats.size(); ++i) r.push(seats[i], codes[i]);
    return r;
  }

  uint64_t heuristic_two() const {
    check_model(true);
    return sg::heuristic_move(g, g.to_act);
  }

  uint64_t counter_two(const std::vector<int>& seats, const std::vector<uint64_t>& codes, int64_t total) const {
    check_model(true);
    sg::Recent r = recent_of(seats, codes, total);
    return sg::counter_move(g, g.to_act, r);
  }

  int model_rollout(const std::vector<int>& seats, const std::vector<uint64_t>& codes, int64_t total, int depth,
                    int limit) {
    check_model(false);
    if (depth < 0 || limit < 0) throw std::invalid_argument("the depth and the limit must be 0 or more");
    sg::Recent r = recent_of(seats, codes, total);
    return sg::model_rollout(g, r, depth, limit);
  }

  uint64_t greedy_two() const {
    check_model(true);
    return sg::greedy_move(g, g.to_act);
  }

  int greedy_rollout(int64_t stop) {
    if (g.phase != sg::TWO && g.phase != sg::OVER) throw std::invalid_argument("the greedy rollout starts in phase two");
    return sg::greedy_rollout(g, stop);
  }

  int heuristic_loser(int limit) {
    check_model(false);
    uint32_t safe = 0;
    int loser = -1;
    if (!sg::play_on(g, 0, limit, safe, loser)) return -1;
    return loser;
  }

  int heuristic_outcome(int seat, int limit) {
    check_model(false);
    if (seat < 0 || seat >= g.players) throw std::invalid_argument("the seat does not exist");
    return sg::heuristic_outcome(g, seat, limit);
  }
};

// `games` random deals of `players` seats: each deck shuffled and each action drawn by the
// module's own generator from `seed`; dealer seat 0.  Returns (games, actions, abandoned,
// losses per seat).
template <class R>
std::tuple<int64_t, int64_t, int64_t, std::vector<int64_t>> playouts(int players, int64_t games, uint64_t seed,
                                                                     const R& rules = R{}) {
  check_players<R>(players);
  check_table(rules, players);
  if (games < 0) throw std::invalid_argument("games must be 0 or more");
  sg::Rng rng(seed);
  uint8_t deck[sg::kCards];
  sg::Game<R> g;
  g.rules = rules;
  int64_t actions = 0, abandoned = 0;
  int64_t lost[R::kMaxSeats] = {};
  {
    nb::gil_scoped_release release;
    for (int64_t i = 0; i < games; ++i) {
      sg::shuffle_deck(deck, rng);
      g.init(players, deck, 0, -1, 20000);
      actions += g.play_out(rng);
      if (g.loser >= 0)
        ++lost[g.loser];
      else
        ++abandoned;
    }
  }
  return {games, actions, abandoned, std::vector<int64_t>(lost, lost + players)};
}

// `games` random deals as `playouts` deals them, every random action checked against the legal
// actions: how many were not among them (0 when the uniform choice without a list is right).
template <class R>
int64_t illegal_random_actions(int players, int64_t games, uint64_t seed, const R& rules = R{}) {
  check_players<R>(players);
  check_table(rules, players);
  sg::Rng rng(seed);
  uint8_t deck[sg::kCards];
  sg::Game<R> g;
  g.rules = rules;
  int64_t bad = 0;
  for (int64_t i = 0; i < games; ++i) {
    sg::shuffle_deck(deck, rng);
    g.init(players, deck, int(i % players), -1, 20000);
    bad += g.play_out_checked(rng);
  }
  return bad;
}

// ---- deals played with Python's random numbers (pyrandom.hpp) ----

// What one deal played by random bots ended with: (loser or -1, actions taken, tricks, abandoned).
using DealResult = std::tuple<int, int, int, bool>;

// A Python `random.Random` state (`getstate()[1]`: 624 words and the index) as a PyRandom;
// ValueError for another shape or an index outside 0..624.
inline sg::PyRandom load_state(const std::vector<uint32_t>& state, const char* what) {
  if (state.size() != size_t(sg::PyRandom::kN + 1))
    throw std::invalid_argument(std::string(what) + ": a Random state is 625 integers (getstate()[1]), not " +
                                std::to_string(state.size()));
  if (state[sg::PyRandom::kN] > uint32_t(sg::PyRandom::kN))
    throw std::invalid_argument(std::string(what) + ": the state's index must be 0..624");
  sg::PyRandom r;
  r.load(state.data(), int(state[sg::PyRandom::kN]));
  return r;
}

// The chance generator of a deal, seeded from its key only if a chance action comes (most deals
// of most presets have none, and seeding costs about as much as a short deal).
struct LazyChance {
  sg::PyRandom r;
  const std::string* key = nullptr;  // null: `r` is ready
  sg::PyRandom& get() {
    if (key) {
      r.seed_bytes(reinterpret_cast<const unsigned char*>(key->data()), key->size());
      key = nullptr;
    }
    return r;
  }
};

// Play `g` to its end as skitgubbe.batch.runner.play_out plays it with a RandomBot at every seat:
// at a decision, seat s takes the legal action (Game::legal's order, which is
// State.legal_actions') at index seats[s].randbelow(n), i.e. RandomBot.choose's
// `legal[rng.randrange(len(legal))]`, drawn even when n is 1; at a chance action the pending cards
// in ascending order (cards_in), shuffled by `chance` (State.chance_action).
template <class R>
DealResult play_python_random(sg::Game<R>& g, sg::PyRandom* seats, LazyChance& chance) {
  sg::Code acts[sg::Game<R>::kMaxLegal];
  uint8_t order[sg::kCards];
  while (g.phase != sg::OVER) {
    if (g.phase == sg::DRECK_DEAL) {
      int k = 0;
      for (uint64_t m = g.pending_deal(); m; m &= m - 1) order[k++] = uint8_t(sg::lowest(m));
      chance.get().shuffle(order, k);
      g.deal_chance(order, k);
    } else {
      int n = g.legal(acts);
      if (n < 1) throw std::logic_error("a seat to act with no legal action (an engine bug)");
      g.step(acts[seats[g.to_act].randbelow(uint32_t(n))]);
    }
  }
  return {int(g.loser), int(g.actions), int(g.tricks), g.abandoned};
}

// One deal from a deck order and Random states (see random_bots_deal in the module).
template <class R>
DealResult python_random_deal(int players, const std::vector<int>& deck, int dealer, int action_limit,
                              const std::vector<std::vector<uint32_t>>& seat_states,
                              const std::vector<uint32_t>& chance_state, const R& rules = R{}) {
  NativeState<R> s(players, deck, dealer, -1, action_limit, rules);  // checks the table and the deck
  if (seat_states.size() != size_t(players))
    throw std::invalid_argument("give one Random state per seat: " + std::to_string(players) + ", not " +
                                std::to_string(seat_states.size()));
  sg::PyRandom seats[R::kMaxSeats];
  for (int i = 0; i < players; ++i) seats[i] = load_state(seat_states[i], "seat state");
  LazyChance chance;
  chance.r = load_state(chance_state, "chance state");
  nb::gil_scoped_release release;
  return play_python_random<R>(s.g, seats, chance);
}

// Many deals from seed keys (see random_bots_deals in the module): per deal players + 2 keys, the
// deck's, each seat's and the chance's, each the big-endian bytes of the integer Random.seed makes
// of its seed; the deck is list(range(52)) shuffled by the deck key's generator (deck_from_seed).
template <class R>
std::vector<DealResult> python_random_deals(int players, const std::vector<int>& dealers, int action_limit,
                                            const std::vector<nb::bytes>& keys, const R& rules = R{}) {
  check_players<R>(players);
  check_table(rules, players);
  if (action_limit < 1) throw std::invalid_argument("the action limit must be at least 1");
  const size_t per = size_t(players) + 2;
  if (keys.size() != dealers.size() * per)
    throw std::invalid_argument("give players + 2 seed keys per deal (deck, each seat, chance): " +
                                std::to_string(dealers.size() * per) + ", not " + std::to_string(keys.size()));
  for (int d : dealers)
    if (d < 0 || d >= players) throw std::invalid_argument("dealer seat " + std::to_string(d) + " does not exist");
  std::vector<std::string> raw;
  raw.reserve(keys.size());
  for (const nb::bytes& k : keys) raw.emplace_back(k.c_str(), k.size());
  std::vector<DealResult> out(dealers.size());
  nb::gil_scoped_release release;
  sg::Game<R> g;
  g.rules = rules;
  sg::PyRandom gens[R::kMaxSeats + 1];  // the deck's, then each seat's
  LazyChance chance;
  uint8_t deck[sg::kCards];
  for (size_t d = 0; d < dealers.size(); ++d) {
    for (size_t i = 0; i + 1 < per; ++i) {
      const std::string& k = raw[d * per + i];
      gens[i].seed_bytes(reinterpret_cast<const unsigned char*>(k.data()), k.size());
    }
    chance.key = &raw[d * per + per - 1];
    for (int c = 0; c < sg::kCards; ++c) deck[c] = uint8_t(c);
    gens[0].shuffle(deck, sg::kCards);
    g.init(players, deck, dealers[d], -1, action_limit);
    out[d] = play_python_random<R>(g, gens + 1, chance);
  }
  return out;
}

template <class R>
void bind_state(nb::module_& m, const char* cls) {
  using S = NativeState<R>;
  nb::class_<S> c(m, cls);
  if constexpr (std::is_same_v<R, sg::RuntimeRules>) {  // the options first
    c.def(
        "__init__",
        [](S* self, const Options& options, int players, const std::vector<int>& deck, int dealer, int leader,
           int action_limit) { new (self) S(players, deck, dealer, leader, action_limit, runtime_rules(options)); },
        nb::arg("options"), nb::arg("players"), nb::arg("deck"), nb::arg("dealer") = 0, nb::arg("leader") = -1,
        nb::arg("action_limit") = 20000);
  } else {
    c.def(nb::init<int, const std::vector<int>&, int, int, int>(), nb::arg("players"), nb::arg("deck"),
          nb::arg("dealer") = 0, nb::arg("leader") = -1, nb::arg("action_limit") = 20000);
  }
  c.def("legal_actions", &S::legal_actions)
      .def("apply", &S::apply, nb::arg("code"))
      .def("deal_chance", &S::deal_chance, nb::arg("order"))
      .def("play_random", &S::play_random, nb::arg("seed"))
      .def("clone", [](const S& s) { return S(s); })
      .def("load_two", &S::load_two, nb::arg("hands"), nb::arg("table"), nb::arg("owners"), nb::arg("to_act"),
           nb::arg("kill_at"), nb::arg("blue"), nb::arg("out_order"), nb::arg("trump_suit"), nb::arg("reserve"),
           nb::arg("actions"), nb::arg("action_limit"))
      .def("heuristic_two", &S::heuristic_two)
      .def("counter_two", &S::counter_two, nb::arg("seats"), nb::arg("codes"), nb::arg("total"))
      .def("model_rollout", &S::model_rollout, nb::arg("seats"), nb::arg("codes"), nb::arg("total"),
           nb::arg("depth"), nb::arg("limit"))
      .def("heuristic_loser", &S::heuristic_loser, nb::arg("limit"))
      .def("greedy_two", &S::greedy_two)
      .def("greedy_rollout", &S::greedy_rollout, nb::arg("stop"))
      .def("heuristic_outcome", &S::heuristic_outcome, nb::arg("seat"), nb::arg("limit"))
      .def_prop_ro("players", [](const S& s) { return int(s.g.players); })
      .def_prop_ro("to_act", [](const S& s) { return int(s.g.to_act); })
      .def_prop_ro("phase", [](const S& s) { return int(s.g.phase); })
      .def_prop_ro("is_over", [](const S& s) { return s.g.phase == sg::OVER; })
      .def_prop_ro("loser", [](const S& s) { return int(s.g.loser); })
      .def_prop_ro("abandoned", [](const S& s) { return s.g.abandoned; })
      .def_prop_ro("out_order", [](const S& s) { return std::vector<int>(s.g.out_order, s.g.out_order + s.g.n_out); })
      .def_prop_ro("needy", [](const S& s) { return std::vector<int>(s.g.needy, s.g.needy + s.g.n_needy); })
      .def_prop_ro("hands", [](const S& s) { return s.seat_sets(s.g.hand); })
      .def_prop_ro("piles", [](const S& s) { return s.seat_sets(s.g.pile); })
      .def_prop_ro("known", [](const S& s) { return s.seat_sets(s.g.known); })
      .def_prop_ro("stock_count", [](const S& s) { return s.g.stock_count(); })
      .def_prop_ro("reserve_count", [](const S& s) { return int(s.g.reserve_end - s.g.reserve_top); })
      .def_prop_ro("trick_cards", [](const S& s) { return s.g.trick_cards; })
      .def_prop_ro("pending", [](const S& s) { return int(s.g.pending); })
      .def_prop_ro("table", [](const S& s) { return std::vector<uint64_t>(s.g.table, s.g.table + s.g.n_table); })
      .def_prop_ro("killed", [](const S& s) { return s.g.killed; })
      .def_prop_ro("dreck", [](const S& s) { return s.g.dreck; })
      .def_prop_ro("pending_deal", [](const S& s) { return s.g.pending_deal(); })
      .def_prop_ro("trump_card", [](const S& s) { return int(s.g.trump_card); })
      .def_prop_ro("trump_holder", [](const S& s) { return int(s.g.trump_holder); })
      .def_prop_ro("trump_suit", [](const S& s) { return int(s.g.trump_suit); })
      .def_prop_ro("tricks", [](const S& s) { return int(s.g.tricks); })
      .def_prop_ro("actions", [](const S& s) { return int(s.g.actions); });
}

// A batch of deals of one preset (batch.hpp): the arrays are the batch's own memory, shown to
// Python as NumPy arrays (views: the next reset or step overwrites them).
template <class R>
void bind_batch(nb::module_& m, const char* cls) {
  using B = sg::Batch<R>;
  using Actions = nb::ndarray<const int64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
  nb::class_<B>(m, cls)
      .def(
          "__init__",
          [](B* self, int players, int n_envs, uint64_t seed, int action_limit) {
            check_players<R>(players);
            if (n_envs < 1) throw std::invalid_argument("n_envs must be at least 1");
            if (action_limit < 1) throw std::invalid_argument("the action limit must be at least 1");
            new (self) B(players, n_envs, seed, action_limit);
          },
          nb::arg("players"), nb::arg("n_envs"), nb::arg("seed"), nb::arg("action_limit") = 20000)
      .def("reset",
           [](B& b) {
             nb::gil_scoped_release release;
             b.reset();
           })
      .def(
          "step",
          [](B& b, Actions actions) {
            if (actions.shape(0) != size_t(b.n_envs))
              throw std::invalid_argument("step takes one action id per env: " + std::to_string(b.n_envs) +
                                          ", not " + std::to_string(actions.shape(0)));
            const int64_t* a = actions.data();
            b.check(a);
            nb::gil_scoped_release release;
            b.step(a);
          },
          nb::arg("actions"))
      .def_prop_ro("players", [](const B& b) { return b.players; })
      .def_prop_ro("n_envs", [](const B& b) { return b.n_envs; })
      .def_prop_ro("steps", [](const B& b) { return b.steps; })
      .def_prop_ro("deals", [](const B& b) { return b.deals; })
      .def_prop_ro("obs",
                   [](B& b) {
                     return nb::ndarray<nb::numpy, float, nb::ndim<2>>(
                         b.obs.data(), {size_t(b.n_envs), size_t(sg::obs::kSize)}, nb::find(&b));
                   })
      .def_prop_ro("mask",
                   [](B& b) {
                     return nb::ndarray<nb::numpy, int8_t, nb::ndim<2>>(
                         b.mask.data(), {size_t(b.n_envs), size_t(sg::ids::kCount)}, nb::find(&b));
                   })
      .def_prop_ro("to_act",
                   [](B& b) {
                     return nb::ndarray<nb::numpy, int32_t, nb::ndim<1>>(b.to_act.data(), {size_t(b.n_envs)},
                                                                         nb::find(&b));
                   })
      .def_prop_ro("rewards",
                   [](B& b) {
                     return nb::ndarray<nb::numpy, float, nb::ndim<2>>(
                         b.rewards.data(), {size_t(b.n_envs), size_t(b.players)}, nb::find(&b));
                   })
      .def_prop_ro("done",
                   [](B& b) {
                     return nb::ndarray<nb::numpy, bool, nb::ndim<1>>(b.done.get(), {size_t(b.n_envs)},
                                                                      nb::find(&b));
                   })
      .def_prop_ro("truncated",
                   [](B& b) {
                     return nb::ndarray<nb::numpy, bool, nb::ndim<1>>(b.truncated.get(), {size_t(b.n_envs)},
                                                                      nb::find(&b));
                   })
      .def_prop_ro("decks",
                   [](B& b) {
                     return nb::ndarray<nb::numpy, uint8_t, nb::ndim<2>>(
                         b.decks.data(), {size_t(b.n_envs), size_t(sg::kCards)}, nb::find(&b));
                   })
      .def_prop_ro("dreck_orders",
                   [](B& b) {
                     return nb::ndarray<nb::numpy, uint8_t, nb::ndim<2>>(
                         b.dreck_orders.data(), {size_t(b.n_envs), size_t(sg::kCards)}, nb::find(&b));
                   })
      .def_prop_ro("dreck_lengths",
                   [](B& b) {
                     return nb::ndarray<nb::numpy, int32_t, nb::ndim<1>>(b.dreck_lengths.data(),
                                                                         {size_t(b.n_envs)}, nb::find(&b));
                   })
      .def_prop_ro("dealers", [](B& b) {
        return nb::ndarray<nb::numpy, int32_t, nb::ndim<1>>(b.dealers.data(), {size_t(b.n_envs)}, nb::find(&b));
      });
}

}  // namespace

NB_MODULE(skitgubbe_native, m) {
  m.doc() =
      "The compiled engine of skitgubbe: the pagat and myllymatti (2-4 seats), goat (3-8), catsatcards (3), "
      "two-player (2), howell (3-6, one pack), catsatcards-flurst (4-5), mattis (3-8), atlanta (3), koira (3-8), helmfrid (2-6) and mas (2-4) presets as bitmask states, "
      "and any combination of their options (RuntimeState, 2-8 seats).";
  m.attr("PAGAT_STATE_BYTES") = int(sizeof(sg::Pagat));
  m.attr("GOAT_STATE_BYTES") = int(sizeof(sg::Goat));
  m.attr("CATSATCARDS_STATE_BYTES") = int(sizeof(sg::Catsatcards));
  m.attr("TWO_PLAYER_STATE_BYTES") = int(sizeof(sg::TwoPlayer));
  m.attr("HOWELL_STATE_BYTES") = int(sizeof(sg::Howell));
  m.attr("CATSATCARDS_FLURST_STATE_BYTES") = int(sizeof(sg::CatsatcardsFlurst));
  m.attr("MATTIS_STATE_BYTES") = int(sizeof(sg::Mattis));
  m.attr("ATLANTA_STATE_BYTES") = int(sizeof(sg::Atlanta));
  m.attr("KOIRA_STATE_BYTES") = int(sizeof(sg::Koira));
  m.attr("HELMFRID_STATE_BYTES") = int(sizeof(sg::Helmfrid));
  m.attr("MAS_STATE_BYTES") = int(sizeof(sg::Mas));
  m.attr("RUNTIME_STATE_BYTES") = int(sizeof(sg::Game<sg::RuntimeRules>));
  bind_state<sg::PagatRules>(m, "PagatState");
  bind_state<sg::GoatRules>(m, "GoatState");
  bind_state<sg::CatsatcardsRules>(m, "CatsatcardsState");
  bind_state<sg::TwoPlayerRules>(m, "TwoPlayerState");
  bind_state<sg::HowellRules>(m, "HowellState");
  bind_state<sg::CatsatcardsFlurstRules>(m, "CatsatcardsFlurstState");
  bind_state<sg::MattisRules>(m, "MattisState");
  bind_state<sg::AtlantaRules>(m, "AtlantaState");
  bind_state<sg::KoiraRules>(m, "KoiraState");
  bind_state<sg::HelmfridRules>(m, "HelmfridState");
  bind_state<sg::MasRules>(m, "MasState");
  bind_state<sg::RuntimeRules>(m, "RuntimeState");
  m.attr("OBS_SIZE") = sg::obs::kSize;
  m.attr("NUM_ACTIONS") = sg::ids::kCount;
  m.def(
      "set_model_weights",
      [](const std::map<std::string, double>& w) {
        sg::ModelWeights x;
        struct Field {
          const char* name;
          double sg::ModelWeights::*member;
        };
        static const Field fields[] = {
            {"trump_power", &sg::ModelWeights::trump_power}, {"kill_bonus", &sg::ModelWeights::kill_bonus},
            {"pick_penalty", &sg::ModelWeights::pick_penalty}, {"pick_floor", &sg::ModelWeights::pick_floor},
            {"c_out_bonus", &sg::ModelWeights::c_out_bonus}, {"c_kill_bonus", &sg::ModelWeights::c_kill_bonus},
            {"c_pick_penalty", &sg::ModelWeights::c_pick_penalty}, {"c_pick_floor", &sg::ModelWeights::c_pick_floor},
            {"c_power_scale", &sg::ModelWeights::c_power_scale},
            {"c_master_bonus", &sg::ModelWeights::c_master_bonus},
            {"c_rank_tiebreak", &sg::ModelWeights::c_rank_tiebreak},
            {"c_force_bonus", &sg::ModelWeights::c_force_bonus},
            {"c_rollout_weight", &sg::ModelWeights::c_rollout_weight}};
        for (const Field& f : fields) {
          auto it = w.find(f.name);
          if (it == w.end()) throw std::invalid_argument(std::string("the weight ") + f.name + " is missing");
          x.*(f.member) = it->second;
        }
        auto it = w.find("c_rollout_limit");
        if (it == w.end() || it->second < 1) throw std::invalid_argument("c_rollout_limit must be given, 1 or more");
        x.c_rollout_limit = int(it->second);
        if (w.size() != std::size(fields) + 1) throw std::invalid_argument("unknown weight names");
        x.set = true;
        sg::model_weights = x;
      },
      nb::arg("weights"));
  bind_batch<sg::PagatRules>(m, "PagatBatch");
  bind_batch<sg::GoatRules>(m, "GoatBatch");
  m.def(
      "random_playouts",
      [](const std::string& preset, int players, int64_t games, uint64_t seed) {
        return with_rules(preset, [&](auto r) { return playouts<decltype(r)>(players, games, seed); });
      },
      nb::arg("preset"), nb::arg("players"), nb::arg("games"), nb::arg("seed"));
  nb::class_<sg::PyRandom>(m, "PythonRandom")
      .def(
          "__init__",
          [](sg::PyRandom* self, const std::vector<uint32_t>& state) { new (self) sg::PyRandom(load_state(state, "state")); },
          nb::arg("state"))
      .def_static(
          "from_key",
          [](nb::bytes key) {
            sg::PyRandom r;
            r.seed_bytes(reinterpret_cast<const unsigned char*>(key.c_str()), key.size());
            return r;
          },
          nb::arg("key"))
      .def(
          "getrandbits",
          [](sg::PyRandom& r, int k) {
            if (k < 0 || k > 32) throw std::invalid_argument("getrandbits takes 0 to 32 bits here");
            return r.getrandbits(k);
          },
          nb::arg("k"))
      .def(
          "randbelow",
          [](sg::PyRandom& r, uint32_t n) {
            if (n < 1) throw std::invalid_argument("randbelow takes n >= 1");
            return r.randbelow(n);
          },
          nb::arg("n"))
      .def(
          "shuffle",
          [](sg::PyRandom& r, std::vector<int64_t> items) {
            if (items.size() > size_t(1) << 31) throw std::invalid_argument("too many items");
            r.shuffle(items.data(), int(items.size()));
            return items;
          },
          nb::arg("items"))
      .def("getstate", [](const sg::PyRandom& r) {
        std::vector<uint32_t> st(r.mt, r.mt + sg::PyRandom::kN);
        st.push_back(uint32_t(r.index));
        return st;
      });
  m.def(
      "random_bots_deal",
      [](const std::string& preset, int players, const std::vector<int>& deck, int dealer, int action_limit,
         const std::vector<std::vector<uint32_t>>& seat_states, const std::vector<uint32_t>& chance_state) {
        return with_rules(preset, [&](auto r) {
          return python_random_deal<decltype(r)>(players, deck, dealer, action_limit, seat_states, chance_state);
        });
      },
      nb::arg("preset"), nb::arg("players"), nb::arg("deck"), nb::arg("dealer"), nb::arg("action_limit"),
      nb::arg("seat_states"), nb::arg("chance_state"));
  m.def(
      "random_bots_deals",
      [](const std::string& preset, int players, const std::vector<int>& dealers, int action_limit,
         const std::vector<nb::bytes>& keys) {
        return with_rules(preset, [&](auto r) {
          return python_random_deals<decltype(r)>(players, dealers, action_limit, keys);
        });
      },
      nb::arg("preset"), nb::arg("players"), nb::arg("dealers"), nb::arg("action_limit"), nb::arg("keys"));
  m.def(
      "runtime_random_bots_deal",
      [](const Options& options, int players, const std::vector<int>& deck, int dealer, int action_limit,
         const std::vector<std::vector<uint32_t>>& seat_states, const std::vector<uint32_t>& chance_state) {
        return python_random_deal<sg::RuntimeRules>(players, deck, dealer, action_limit, seat_states, chance_state,
                                                    runtime_rules(options));
      },
      nb::arg("options"), nb::arg("players"), nb::arg("deck"), nb::arg("dealer"), nb::arg("action_limit"),
      nb::arg("seat_states"), nb::arg("chance_state"));
  m.def(
      "runtime_random_bots_deals",
      [](const Options& options, int players, const std::vector<int>& dealers, int action_limit,
         const std::vector<nb::bytes>& keys) {
        return python_random_deals<sg::RuntimeRules>(players, dealers, action_limit, keys, runtime_rules(options));
      },
      nb::arg("options"), nb::arg("players"), nb::arg("dealers"), nb::arg("action_limit"), nb::arg("keys"));
  m.def(
      "runtime_playouts",
      [](const Options& options, int players, int64_t games, uint64_t seed) {
        return playouts<sg::RuntimeRules>(players, games, seed, runtime_rules(options));
      },
      nb::arg("options"), nb::arg("players"), nb::arg("games"), nb::arg("seed"));
  m.def(
      "runtime_illegal_random_actions",
      [](const Options& options, int players, int64_t games, uint64_t seed) {
        return illegal_random_actions<sg::RuntimeRules>(players, games, seed, runtime_rules(options));
      },
      nb::arg("options"), nb::arg("players"), nb::arg("games"), nb::arg("seed"));
  m.def(
      "illegal_random_actions",
      [](const std::string& preset, int players, int64_t games, uint64_t seed) {
        return with_rules(preset, [&](auto r) { return illegal_random_actions<decltype(r)>(players, games, seed); });
      },
      nb::arg("preset"), nb::arg("players"), nb::arg("games"), nb::arg("seed"));
}
