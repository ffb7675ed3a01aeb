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

// The preset names of each rules policy (for messages), the RuntimeRules members by name
// (kRuntimeInts, kRuntimeFlags) and the list of preset policies (for_each_policy): generated from
// the Python declaration (skitgubbe.engine.native_options; native/tools/gen_options.py).
#include "module_options.gen.hpp"

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
  using Int = RuntimeInt;
  using Flag = RuntimeFlag;
  const auto& ints = kRuntimeInts;
  const auto& flags = kRuntimeFlags;
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

  // ---- any position of the Python engine (CompiledState.from_state) ----

  // The header of load's flat list: one integer each, in this order (skitgubbe.engine.compiled
  // _load_fields writes them from a State; the Python names in the comments).  A bool is 0 or 1,
  // a seat -1 for none, a card set a bitmask of cards 0..51, a seat set bit s = seat s.
  enum LoadField : int {
    L_PHASE,          // State.phase (base.Phase: 1 ONE, 2 DRECK, 3 TWO, 4 OVER)
    L_TO_ACT,         // State.to_act (-1 chance, -2 over)
    L_DEALER,         // State.dealer
    L_FIRST_LEADER,   // State.first_leader
    L_ACTIONS,        // len(State.history)
    L_ACTION_LIMIT,   // State.action_limit
    L_TRICKS,         // State.tricks
    L_PENDING,        // Trick.pending (seat set)
    L_BLUE,           // Seats.blue (seat set)
    L_LEADER,         // Trick.leader
    L_ROUND_POS,      // Trick.round_pos
    L_ROUND_HIGH,     // Trick.round_high (rank, 0 for none)
    L_WINNER,         // Trick.winner
    L_LAST_WINNER,    // Trick.last_winner
    L_WINDOW_START,   // Trick.window_start
    L_TRUMP_CARD,     // Undealt.trump_card (-1 for none)
    L_TRUMP_HOLDER,   // Undealt.trump_holder
    L_TRUMP_SUIT,     // Undealt.trump_suit (-1 for none)
    L_KILL_AT,        // Table.kill_at
    L_LOSER,          // State.loser (-1 for None)
    L_LAST_PUT,       // Trick.last_put (-1 for none)
    L_ABANDONED,      // State.abandoned
    L_ASK_ALL,        // State.ask_all
    L_TRICK_CARDS,    // Trick.trick_cards
    L_TRICK_RANKS,    // Trick.trick_ranks
    L_DRECK,          // State.dreck
    L_KILLED,         // Table.killed
    L_SLUFFED,        // Trick.sluffed (seat set)
    L_PLAYED,         // the seats in Trick.rounds (seat set; read under sluff_after_play only)
    L_OCCASION,       // Trick.occasion
    L_OCCASION_HAND,  // Trick.occasion_hand
    L_TIE_RANK,       // Trick.tie_rank (rank, 0 for none)
    L_CHANCE_CARDS,   // Trick.chance_cards (Koira's split waiting; 0 for none)
    L_ROUNDS,         // len(Trick.rounds)
    L_HEADER
  };

  // Replace the deal by the position `f` describes (CompiledState.from_state): the header above,
  // then per seat (players entries each) Seats.hands, Seats.piles, Seats.known and
  // Trick.contributed, then sections each led by its length k: Undealt.stock (k cards, top card
  // last), Undealt.reserve (k cards, top card last), Trick.round_seats (k seats), Trick.round_cards
  // (k pairs seat, card, flattened), Table.table (k plays, then their k Table.table_owners),
  // Seats.out_order (k seats), and the seats of a waiting chance deal (Trick.chance_seats for
  // Koira's split, else State.needy; k seats).  The rules and the seat count stay the state's own.
  // ValueError, the state unchanged, for a list that does not fit them or a position that is not
  // one the engine can be at (a card in two places or in none, a seat that does not exist, a seat
  // to act that cannot act, ...); the checks keep every index in its array, whatever the input.
  void load(const std::vector<int64_t>& f) {
    using G = sg::Game<R>;
    const int n = g.players;
    const size_t fixed = size_t(L_HEADER) + 4 * size_t(n);
    auto fail = [](const std::string& why) { throw std::invalid_argument("load: " + why); };
    if (f.size() < fixed + 7)
      fail("the list holds " + std::to_string(f.size()) + " integers, fewer than a position of " +
           std::to_string(n) + " seats needs");
    const uint64_t all = (uint64_t(1) << sg::kCards) - 1;
    auto num = [&](int i, int64_t low, int64_t high, const char* what) {
      int64_t v = f[i];
      if (v < low || v > high)
        fail(std::string(what) + " is " + std::to_string(v) + ", not " + std::to_string(low) + " to " +
             std::to_string(high));
      return v;
    };
    auto cards = [&](size_t i, const char* what) {
      int64_t v = f[i];
      if (v < 0 || uint64_t(v) & ~all) fail(std::string(what) + " is not a card set of cards 0..51");
      return uint64_t(v);
    };
    G x = g;  // written in full, then kept only if every check passes
    x.log = nullptr;
    const int phase = int(num(L_PHASE, sg::ONE, sg::OVER, "the phase"));
    x.phase = int8_t(phase);
    x.to_act = int8_t(num(L_TO_ACT, sg::kOverSeat, n - 1, "the seat to act"));
    x.dealer = int8_t(num(L_DEALER, 0, n - 1, "the dealer"));
    x.first_leader = int8_t(num(L_FIRST_LEADER, 0, n - 1, "the first leader"));
    x.actions = int32_t(num(L_ACTIONS, 0, INT32_MAX - 1, "the actions taken"));
    x.action_limit = int32_t(num(L_ACTION_LIMIT, 1, INT32_MAX, "the action limit"));
    x.tricks = int16_t(num(L_TRICKS, 0, INT16_MAX - 1, "the tricks"));
    const int64_t seat_sets = (int64_t(1) << n) - 1;
    x.pending = uint16_t(num(L_PENDING, 0, seat_sets, "the pending seats"));
    x.blue = uint16_t(num(L_BLUE, 0, seat_sets, "the Blåmattis seats"));
    x.leader = int8_t(num(L_LEADER, -1, n - 1, "the leader"));
    x.round_pos = int8_t(num(L_ROUND_POS, 0, n, "the round position"));
    x.round_high = int8_t(num(L_ROUND_HIGH, 0, 14, "the round's highest rank"));
    x.winner = int8_t(num(L_WINNER, -1, n - 1, "the trick's winner"));
    x.last_winner = int8_t(num(L_LAST_WINNER, -1, n - 1, "the last trick's winner"));
    x.window_start = int8_t(num(L_WINDOW_START, 0, n - 1, "the sluff window's start"));
    x.trump_card = int8_t(num(L_TRUMP_CARD, -1, sg::kCards - 1, "the trump card"));
    x.trump_holder = int8_t(num(L_TRUMP_HOLDER, -1, n - 1, "the trump holder"));
    x.trump_suit = int8_t(num(L_TRUMP_SUIT, -1, 3, "the trump suit"));
    x.kill_at = int8_t(num(L_KILL_AT, 0, n, "the kill size"));
    x.loser = int8_t(num(L_LOSER, -1, n - 1, "the loser"));
    x.last_put = int8_t(num(L_LAST_PUT, -1, sg::kCards - 1, "the card put last"));
    x.abandoned = num(L_ABANDONED, 0, 1, "abandoned") != 0;
    x.ask_all = num(L_ASK_ALL, 0, 1, "ask_all") != 0;
    x.trick_cards = cards(L_TRICK_CARDS, "the trick");
    x.trick_ranks = cards(L_TRICK_RANKS, "the trick's ranks");
    x.dreck = cards(L_DRECK, "the dreck");
    x.killed = cards(L_KILLED, "the killed cards");
    const uint64_t chance_cards = cards(L_CHANCE_CARDS, "the split's cards");
    const int rounds = int(num(L_ROUNDS, 0, INT16_MAX, "the rounds"));
    if (x.round_high == 1 || (x.last_put < 0 && x.trick_cards) || (x.last_put >= 0 && !(x.trick_cards >> x.last_put & 1)))
      fail("the round's highest rank or the card put last does not fit the trick");
    if constexpr (G::kSluffMemory) {
      x.sluffed = uint16_t(num(L_SLUFFED, 0, seat_sets, "the seats that sluffed"));
      x.played = uint16_t(num(L_PLAYED, 0, seat_sets, "the seats that played"));
      x.occasion = int8_t(num(L_OCCASION, -1, n - 1, "the sluffing occasion's seat"));
      x.occasion_hand = cards(L_OCCASION_HAND, "the occasion's hand");
      x.tie_rank = int8_t(num(L_TIE_RANK, 0, 14, "the tied rank"));
      if (x.tie_rank == 1) fail("the tied rank is 1");
    }
    if constexpr (G::kSplit) {
      x.chance_cards = chance_cards;
      x.n_rounds = int16_t(rounds);
    }
    bool split = chance_cards != 0;
    if (split && !(G::kSplit && x.rules.skip_empty))
      fail("a split of the trick waits, under rules without stock_end=skip-empty");
    size_t at = L_HEADER;
    uint64_t seen = 0;  // every card's place, each once
    auto place = [&](uint64_t m, const char* where) {
      if (m & seen) fail(std::string("a card in ") + where + " is in another place too");
      seen |= m;
    };
    uint64_t given = 0;
    for (int s = 0; s < n; ++s) {
      x.hand[s] = cards(at + s, "a hand");
      x.pile[s] = cards(at + n + s, "a pile");
      x.known[s] = cards(at + 2 * n + s, "a known hand");
      x.contributed[s] = cards(at + 3 * n + s, "a seat's cards in the trick");
      if (x.known[s] & ~x.hand[s]) fail("seat " + std::to_string(s) + " is known to hold cards it does not hold");
      if (x.contributed[s] & given) fail("two seats put the same card into the trick");
      given |= x.contributed[s];
      place(x.hand[s], "a hand");
      place(x.pile[s], "a pile");
    }
    if (given != x.trick_cards) fail("the trick is not the cards the seats put into it");
    place(x.trick_cards, "the trick");
    at = fixed;
    // the next section: its length (at most `most`) and where its items start
    auto section = [&](int most, int per, const char* what) {
      if (at >= f.size()) fail(std::string("the list ends before ") + what);
      int64_t k = f[at];
      if (k < 0 || k > most) fail(std::string(what) + ": " + std::to_string(k) + " entries, at most " + std::to_string(most));
      if (f.size() - at - 1 < size_t(k) * per) fail(std::string("the list ends inside ") + what);
      size_t start = at + 1;
      at = start + size_t(k) * per;
      return std::pair<int, size_t>(int(k), start);
    };
    auto card_list = [&](int k, size_t start, const char* what) {
      uint64_t m = 0;
      for (int i = 0; i < k; ++i) {
        int64_t c = f[start + i];
        if (c < 0 || c >= sg::kCards || (m >> c & 1)) fail(std::string(what) + " does not list cards 0..51 once each");
        m |= sg::bit(int(c));
      }
      return m;
    };
    auto [ks, stock_at] = section(sg::kCards, 1, "the stock");
    auto [kr, reserve_at] = section(sg::kCards, 1, "the avstickshög");
    if (ks + kr > sg::kCards) fail("the stock and the avstickshög hold more than 52 cards");
    place(card_list(ks, stock_at, "the stock"), "the stock");
    place(card_list(kr, reserve_at, "the avstickshög"), "the avstickshög");
    if (kr && !x.rules.reserve) fail("an avstickshög under rules without one");
    // the avstickshög first (top card first), then the stock (top card first): Game::stock
    for (int i = 0; i < kr; ++i) x.stock[i] = uint8_t(f[reserve_at + kr - 1 - i]);
    for (int i = 0; i < ks; ++i) x.stock[kr + i] = uint8_t(f[stock_at + ks - 1 - i]);
    x.reserve_top = 0;
    x.reserve_end = int8_t(kr);
    x.stock_top = int8_t(kr);
    x.stock_end = int8_t(kr + ks);
    auto seat_list = [&](int k, size_t start, int8_t* out, const char* what) {
      uint32_t m = 0;
      for (int i = 0; i < k; ++i) {
        int64_t s = f[start + i];
        if (s < 0 || s >= n || (m >> s & 1)) fail(std::string(what) + " does not list seats 0.." + std::to_string(n - 1) + " once each");
        m |= 1u << s;
        out[i] = int8_t(s);
      }
      return m;
    };
    auto [krs, rs_at] = section(n, 1, "the round's seats");
    seat_list(krs, rs_at, x.round_seat, "the round's seats");
    x.n_round_seats = int8_t(krs);
    if (x.round_pos > krs) fail("the round position is past the round's seats");
    const int per_seat = sg::Needs<R>::max_equal;
    auto [krc, rc_at] = section(G::kRoundCards, 2, "the round's cards");
    if (krc > x.round_pos * per_seat) fail("the round holds more cards than its seats that played can have put in");
    uint64_t round_cards = 0;
    for (int i = 0; i < krc; ++i) {
      int64_t s = f[rc_at + 2 * i], c = f[rc_at + 2 * i + 1];
      if (s < 0 || s >= n || c < 0 || c >= sg::kCards || (round_cards >> c & 1))
        fail("the round's cards are not pairs of a seat and a card, each card once");
      round_cards |= sg::bit(int(c));
      x.round_card_seat[i] = int8_t(s);
      x.round_card[i] = int8_t(c);
    }
    if (round_cards & ~x.trick_cards) fail("a card of the round is not in the trick");
    if (!x.rules.beat) {  // (Mas's tricks do not rank their cards: Trick._play_beat)
      int high = 0;  // Trick.play: the highest rank played in the round, aces low under aces_low_first
      for (int i = 0; i < krc; ++i) {
        int r = sg::rank_of(x.round_card[i]);
        if (x.power(r) > x.power(high)) high = r;
      }
      if (high != x.round_high) fail("the round's highest rank is not the highest of its cards");
    }
    x.n_round_cards = int8_t(krc);
    auto [kt, table_at] = section(n - 1, 2, "the table");
    uint64_t on_table = 0;
    for (int i = 0; i < kt; ++i) {
      uint64_t p = cards(table_at + i, "a play on the table");
      int64_t s = f[table_at + kt + i];
      if (!p || (p & on_table)) fail("a play on the table holds no card, or a card of another play");
      if (s < 0 || s >= n) fail("a play's seat does not exist");
      on_table |= p;
      x.table[i] = p;
      x.table_owner[i] = int8_t(s);
    }
    x.n_table = int8_t(kt);
    place(on_table, "the table");
    place(x.killed, "the killed cards");
    auto [ko, out_at] = section(n, 1, "the seats out");
    seat_list(ko, out_at, x.out_order, "the seats out");
    x.n_out = int8_t(ko);
    for (int i = 0; i < ko; ++i)
      if (x.hand[x.out_order[i]] || (x.blue >> x.out_order[i] & 1)) fail("a seat out holds cards or is a Blåmattis");
    for (int s = 0; s < n; ++s)
      if ((x.blue >> s & 1) && x.hand[s]) fail("a Blåmattis seat holds cards");
    auto [kn, needy_at] = section(n, 1, "the seats of the chance deal");
    seat_list(kn, needy_at, x.needy, "the seats of the chance deal");
    x.n_needy = int8_t(kn);
    if (at != f.size()) fail(std::to_string(f.size() - at) + " integers after the last section");
    if (phase == sg::DRECK_DEAL && !split) place(x.dreck, "the dreck");
    if (split && chance_cards != x.trick_cards) fail("the split's cards are not the trick's");
    if (phase != sg::OVER) {
      uint64_t everywhere = seen | (x.trump_card >= 0 ? sg::bit(x.trump_card) : 0);
      if (everywhere != all) fail("a card of the deal is nowhere (card " + std::to_string(sg::lowest(all & ~everywhere)) + ")");
    }
    // the phase: who may act, and what the steps to come read
    if (x.pending && (phase != sg::ONE || !x.rules.sluffing))
      fail("a sluff window is open outside phase one or under rules without sluffing");
    if (phase == sg::ONE && x.winner < 0 && x.round_pos >= krs) fail("an unsettled trick's round is complete");
    if (split && phase != sg::DRECK_DEAL) fail("a split of the trick waits outside the chance deal");
    if (phase == sg::ONE || split) {  // (round_seat and leader stay as they were after phase one)
      if (!krs || x.leader < 0) fail("a phase-one trick without a leader or round seats");
      if (x.trump_card >= 0 && x.trump_holder < 0 && !x.rules.bottom_aside)
        fail("the trump card has no holder");
      if (x.rules.beat && x.trump_suit < 0) fail("Mas without a trump suit");
    }
    if (phase == sg::ONE) {
      const int s = x.to_act;
      if (s < 0) fail("no seat to act in phase one");
      if (x.pending) {
        if (x.first_pending() != s) fail("the seat to act is not the sluff window's first pending seat");
      } else if (x.winner >= 0) {
        fail("a settled trick with no sluff window open waits to be collected");
      } else {
        if (x.round_pos >= krs || x.round_seat[x.round_pos] != s) fail("the seat to act is not the round's next seat");
        if (!x.hand[s] && !(x.rules.turn_from_stock && x.stock_count() > x.spare()))
          fail("the seat to act holds no card and cannot turn up the stock");
      }
    } else if (phase == sg::DRECK_DEAL) {
      if (x.to_act != sg::kChance) fail("the chance deal is not to act");
      if (!kn) fail("the chance deal goes to no seats");
      if (split && x.round_pos >= krs) fail("the split's tied seats do not fit the round");
    } else if (phase == sg::TWO) {
      const int s = x.to_act;
      if (s < 0) fail("no seat to act in phase two");
      if (x.trump_suit < 0) fail("phase two without a trump suit");
      if (x.kill_at < 1 || kt >= x.kill_at) fail("the table does not fit the kill size");
      if (!x.hand[s] && !(x.rules.blamattis && (x.blue >> s & 1) && kt))
        fail("the seat to act in phase two holds no card");
    } else if (x.to_act != sg::kOverSeat) {
      fail("a seat to act once the deal is over");
    }
    if (phase != sg::OVER && (x.to_act == sg::kOverSeat || x.loser >= 0 || x.abandoned))
      fail("the deal is over but its phase is not");
    g = x;
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

  int random_rollout(uint64_t seed, int rule, int64_t stop) {
    if (rule < 0 || rule > 2) throw std::invalid_argument("the phase-two rule is 0 (random), 1 (greedy) or 2 (heuristic)");
    if (rule == 2) check_model(false);
    sg::Rng rng(seed);
    return sg::random_rollout(g, rng, rule, stop);
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
      .def("load", &S::load, nb::arg("fields"))
      .def("heuristic_two", &S::heuristic_two)
      .def("counter_two", &S::counter_two, nb::arg("seats"), nb::arg("codes"), nb::arg("total"))
      .def("model_rollout", &S::model_rollout, nb::arg("seats"), nb::arg("codes"), nb::arg("total"),
           nb::arg("depth"), nb::arg("limit"))
      .def("heuristic_loser", &S::heuristic_loser, nb::arg("limit"))
      .def("greedy_two", &S::greedy_two)
      .def("random_rollout", &S::random_rollout, nb::arg("seed"), nb::arg("rule"), nb::arg("stop"))
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

// A batch of deals of one rules policy (batch.hpp; skitgubbe.adapters.batch.BatchEnv): the arrays
// are the batch's own memory, shown to Python as NumPy arrays (views: the next reset or step
// overwrites them).  RuntimeRules takes its options first, as RuntimeState does.
template <class R>
void bind_batch(nb::module_& m, const char* cls) {
  using B = sg::Batch<R>;
  using Actions = nb::ndarray<const int64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
  using Decks = nb::ndarray<const uint8_t, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
  using Deck = nb::ndarray<const uint8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
  using Seats = nb::ndarray<const int32_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
  using Modes = nb::ndarray<const uint8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
  using Keys = nb::ndarray<const uint64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
  using BotKeys = nb::ndarray<const uint64_t, nb::c_contig, nb::device::cpu>;  // empty: none given
  auto make = [](B* self, int players, int n_envs, uint64_t seed, int action_limit, bool exposed_bottom,
                 bool auto_reset, const R& rules) {
    check_players<R>(players);
    check_table(rules, players);
    if (n_envs < 1) throw std::invalid_argument("n_envs must be at least 1");
    if (action_limit < 1) throw std::invalid_argument("the action limit must be at least 1");
    new (self) B(players, n_envs, seed, action_limit, rules, exposed_bottom, auto_reset);
  };
  // The checks the Python wrapper makes first, with better messages (the deck a permutation of the
  // 52 cards, the dealer a seat, the env one of the batch's).
  auto check_deal = [](const B& b, const uint8_t* deck, int dealer, int mode, const std::string& where) {
    uint64_t seen = 0;
    for (int c = 0; c < sg::kCards; ++c) {
      if (deck[c] >= sg::kCards || (seen >> deck[c] & 1))
        throw std::invalid_argument(where + "the deck is not the 52 cards once each");
      seen |= sg::bit(deck[c]);
    }
    if (dealer < 0 || dealer >= b.players) throw std::invalid_argument(where + "dealer seat " +
                                                                       std::to_string(dealer) + " does not exist");
    if (mode != 0 && mode != 1) throw std::invalid_argument(where + "the chance mode is 0 or 1");
  };
  // The bots' keys of a deal (or of every env's, `per` = N): none (an empty array) or per x players.
  auto bot_keys = [](const B& b, const BotKeys& keys, size_t per) -> const uint64_t* {
    if (keys.size() == 0) return nullptr;
    if (keys.size() != per * size_t(b.players))
      throw std::invalid_argument("give one bot seed per seat" + std::string(per > 1 ? " and env" : "") + ": " +
                                  std::to_string(per * size_t(b.players)) + ", not " + std::to_string(keys.size()));
    return keys.data();
  };
  auto check_env = [](const B& b, int i) {
    if (i < 0 || i >= b.n_envs)
      throw std::invalid_argument("there is no env " + std::to_string(i) + ": envs are 0.." +
                                  std::to_string(b.n_envs - 1));
  };
  nb::class_<B> c(m, cls);
  if constexpr (std::is_same_v<R, sg::RuntimeRules>) {
    c.def(
        "__init__",
        [make](B* self, const Options& options, int players, int n_envs, uint64_t seed, int action_limit,
               bool exposed_bottom, bool auto_reset) {
          make(self, players, n_envs, seed, action_limit, exposed_bottom, auto_reset, runtime_rules(options));
        },
        nb::arg("options"), nb::arg("players"), nb::arg("n_envs"), nb::arg("seed"), nb::arg("action_limit") = 20000,
        nb::arg("exposed_bottom") = false, nb::arg("auto_reset") = true);
  } else {
    c.def(
        "__init__",
        [make](B* self, int players, int n_envs, uint64_t seed, int action_limit, bool exposed_bottom,
               bool auto_reset) { make(self, players, n_envs, seed, action_limit, exposed_bottom, auto_reset, R{}); },
        nb::arg("players"), nb::arg("n_envs"), nb::arg("seed"), nb::arg("action_limit") = 20000,
        nb::arg("exposed_bottom") = false, nb::arg("auto_reset") = true);
  }
  c.def("reset",
        [](B& b) {
          nb::gil_scoped_release release;
          b.reset();
        })
      .def(
          "reset_given",
          [check_deal, bot_keys](B& b, Decks decks, Seats dealers, Modes modes, Keys keys, BotKeys bots) {
            size_t n = size_t(b.n_envs);
            if (decks.shape(0) != n || decks.shape(1) != size_t(sg::kCards) || dealers.shape(0) != n ||
                modes.shape(0) != n || keys.shape(0) != n)
              throw std::invalid_argument("reset_given takes N x 52 decks and N dealers, modes and keys");
            for (size_t i = 0; i < n; ++i)
              check_deal(b, decks.data() + i * sg::kCards, dealers.data()[i], modes.data()[i],
                         "env " + std::to_string(i) + ": ");
            const uint64_t* bk = bot_keys(b, bots, n);
            nb::gil_scoped_release release;
            b.reset_given(decks.data(), dealers.data(), modes.data(), keys.data(), bk);
          },
          nb::arg("decks"), nb::arg("dealers"), nb::arg("modes"), nb::arg("keys"), nb::arg("bot_keys"))
      .def(
          "reset_env",
          [check_deal, check_env, bot_keys](B& b, int i, Deck deck, int dealer, int mode, uint64_t key,
                                            BotKeys bots) {
            check_env(b, i);
            if (deck.shape(0) != size_t(sg::kCards)) throw std::invalid_argument("a deck is 52 cards");
            check_deal(b, deck.data(), dealer, mode, "");
            b.reset_env(i, deck.data(), dealer, uint8_t(mode), key, bot_keys(b, bots, 1));
          },
          nb::arg("env"), nb::arg("deck"), nb::arg("dealer"), nb::arg("mode"), nb::arg("key"), nb::arg("bot_keys"))
      .def(
          "queue_deal",
          [check_deal, check_env, bot_keys](B& b, int i, Deck deck, int dealer, int mode, uint64_t key,
                                            BotKeys bots) {
            check_env(b, i);
            if (deck.shape(0) != size_t(sg::kCards)) throw std::invalid_argument("a deck is 52 cards");
            check_deal(b, deck.data(), dealer, mode, "");
            b.queue(i, deck.data(), dealer, uint8_t(mode), key, bot_keys(b, bots, 1));
          },
          nb::arg("env"), nb::arg("deck"), nb::arg("dealer"), nb::arg("mode"), nb::arg("key"), nb::arg("bot_keys"))
      .def(
          "set_bots",
          [](B& b, const std::vector<int>& kinds, const std::vector<double>& weights) {
            if (kinds.size() != size_t(b.players))
              throw std::invalid_argument("give one bot kind per seat: " + std::to_string(b.players) + ", not " +
                                          std::to_string(kinds.size()));
            for (int k : kinds)
              if (k < 0 || k >= sg::BOT_KINDS) throw std::invalid_argument("bot kind " + std::to_string(k) +
                                                                           " does not exist");
            if (weights.size() != size_t(sg::HeuristicWeights::kCount))
              throw std::invalid_argument("give the heuristic bot's " +
                                          std::to_string(sg::HeuristicWeights::kCount) + " weights, not " +
                                          std::to_string(weights.size()));
            sg::HeuristicWeights& w = b.weights;
            double* fields[] = {&w.center,         &w.needy_shift,  &w.pwin_exp,    &w.hold,
                                &w.win_keeps_card, &w.sluff_margin, &w.trump_power, &w.pick_penalty,
                                &w.pick_floor,     &w.kill_bonus,   &w.out_bonus};
            for (int i = 0; i < sg::HeuristicWeights::kCount; ++i) *fields[i] = weights[size_t(i)];
            b.kinds = kinds;
          },
          nb::arg("kinds"), nb::arg("weights"))
      .def_prop_ro("bots", [](const B& b) { return b.kinds; })
      .def("queued", [check_env](const B& b, int i) {
        check_env(b, i);
        return b.next_dealers[size_t(i)] >= 0;
      }, nb::arg("env"))
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
      .def(
          "step_some",
          [](B& b, Actions actions) {  // a negative id: that env is not stepped
            if (actions.shape(0) != size_t(b.n_envs))
              throw std::invalid_argument("step takes one action id per env: " + std::to_string(b.n_envs) +
                                          ", not " + std::to_string(actions.shape(0)));
            const int64_t* a = actions.data();
            b.check(a, true);
            nb::gil_scoped_release release;
            b.step(a, true);
          },
          nb::arg("actions"))
      .def(
          "play_others",
          [](B& b, int seat, bool record) {
            if (seat < 0 || seat >= b.players)
              throw std::invalid_argument("there is no seat " + std::to_string(seat));
            {
              nb::gil_scoped_release release;
              b.play_others(seat, record);
            }
            return b.log;
          },
          nb::arg("seat"), nb::arg("record") = false)
      .def(
          "observe_seat",
          [](const B& b, int seat, nb::ndarray<float, nb::ndim<2>, nb::c_contig, nb::device::cpu> out) {
            if (seat < 0 || seat >= b.players)
              throw std::invalid_argument("there is no seat " + std::to_string(seat));
            if (out.shape(0) != size_t(b.n_envs) || out.shape(1) != size_t(sg::obs::kSize))
              throw std::invalid_argument("observe_seat writes an N x OBS_SIZE float32 array");
            float* o = out.data();
            nb::gil_scoped_release release;
            b.observe_seat(seat, o);
          },
          nb::arg("seat"), nb::arg("out"))
      .def_prop_ro("players", [](const B& b) { return b.players; })
      .def_prop_ro("n_envs", [](const B& b) { return b.n_envs; })
      .def_prop_ro("auto_reset", [](const B& b) { return b.auto_reset; })
      .def_prop_ro("steps", [](const B& b) { return b.steps; })
      .def_prop_ro("deals", [](const B& b) { return b.deals; })
      .def_prop_ro("other_steps", [](const B& b) { return b.other_steps; })
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
      .def_prop_ro("over",
                   [](B& b) {
                     return nb::ndarray<nb::numpy, bool, nb::ndim<1>>(b.over.get(), {size_t(b.n_envs)},
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

// The compiled bots' deals (bot_deals, runtime_bot_deals).
#include "bots_module.hpp"

NB_MODULE(skitgubbe_native, m) {
  m.doc() =
      "The compiled engine of skitgubbe: the pagat and myllymatti (2-4 seats), goat (3-8), catsatcards (3), "
      "two-player (2), howell (3-6, one pack), catsatcards-flurst (4-5), mattis (3-8), atlanta (3), koira (3-8), helmfrid (2-6) and mas (2-4) presets as bitmask states, "
      "and any combination of their options (RuntimeState, 2-8 seats).";
  for_each_policy([&](auto policy, const char* state_class, const char* bytes_name) {
    using R = decltype(policy);
    m.attr(bytes_name) = int(sizeof(sg::Game<R>));
    bind_state<R>(m, state_class);
  });
  m.attr("RUNTIME_STATE_BYTES") = int(sizeof(sg::Game<sg::RuntimeRules>));
  bind_state<sg::RuntimeRules>(m, "RuntimeState");
  {
    nb::dict runtime_options;  // every RuntimeRules member: (lowest, highest)
    for (const RuntimeInt& o : kRuntimeInts) runtime_options[o.name] = nb::make_tuple(o.low, o.high);
    for (const RuntimeFlag& o : kRuntimeFlags) runtime_options[o.name] = nb::make_tuple(0, 1);
    m.attr("RUNTIME_OPTIONS") = runtime_options;
  }
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
  for_each_policy([&](auto policy, const char* state_class, const char*) {
    std::string batch_class(state_class);  // PagatState -> PagatBatch
    batch_class.replace(batch_class.size() - 5, 5, "Batch");
    bind_batch<decltype(policy)>(m, batch_class.c_str());
  });
  bind_batch<sg::RuntimeRules>(m, "RuntimeBatch");
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
  bind_bots(m);
  bind_bot_decision(m);
}
