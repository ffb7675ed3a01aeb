// Batch stepping (issue 20, item 3): N deals of one preset stepped in one call, each seat's
// observation and legal-action mask written into flat arrays exactly as the Python adapters encode
// them (src/skitgubbe/adapters/encoding.py: `observation(view_of(state, seat))` and `legal_ids`).
// The observation is built from what the seat may see only (View, engine/view.py): its own hand,
// the public state, the cards publicly known in each hand, the trump card when view_of shows it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "game.hpp"

namespace sg {

// The layout of encoding.OBS_FIELDS (version 2): offsets of each field.
namespace obs {
constexpr int kSize = 1652;
constexpr int kMaxSeats = 8;
constexpr int HAND = 0, KNOWN = 52, PILES = 468, ROUND = 884, TRICK = 1300, TOP = 1352, KILLED = 1404,
              TRUMP_CARD = 1456, TRUMP_SUIT = 1508, PHASE = 1512, PRESENT = 1516, HAND_SIZES = 1524,
              STOCK_SIZE = 1532, TABLE_COUNT = 1533, TO_ACT = 1534, WINDOW = 1542, MY_WINDOW = 1550,
              DUE = 1551, LEADER = 1559, TRICK_WINNER = 1567, TRUMP_HOLDER = 1575, OUT = 1583,
              LOSER = 1591, EXPOSED = 1599, RESERVE = 1651;
}  // namespace obs

// The action ids of encoding (version 2, NUM_ACTIONS = 551).
namespace ids {
constexpr int kCount = 551;
constexpr int kWords = (kCount + 63) / 64;
constexpr int STOCK = 52, SLUFF = 53, PASS = 105, PICK_UP = 106, RUN = 107, EQUAL = 419, STORE = 549,
              EXCHANGE = 550;
constexpr Code kNoCode = Code(7) << 56;  // store and exchange: no action of these presets

// encoding.action_id of an action code; -1 for a code without an id.
inline int of(Code code) {
  uint64_t cards = cards_of(code);
  switch (kind_of(code)) {
    case sg::PLAY: {
      int n = popcount(cards);
      int lo = lowest(cards);
      if (n == 1) return lo;
      int suit = lo / 13, start = lo % 13;
      if (((((uint64_t(1) << n) - 1) << lo) == cards) && start + n <= 13)
        return RUN + 78 * suit + 12 * start - start * (start - 1) / 2 + (n - 2);
      return -1;  // sets of equal cards: not played by the compiled presets
    }
    case sg::STOCK:
      return STOCK;
    case sg::SLUFF:
      return SLUFF + lowest(cards);
    case sg::PASS:
      return PASS;
    case sg::PICK_UP:
      return PICK_UP;
    default:
      return -1;
  }
}

// The action code of every id (encoding._build_actions, in the same order).
struct Table {
  Code code[kCount];
  Table() {
    int k = 0;
    for (int c = 0; c < 52; ++c) code[k++] = code_of(sg::PLAY, bit(c));
    code[k++] = code_of(sg::STOCK, 0);
    for (int c = 0; c < 52; ++c) code[k++] = code_of(sg::SLUFF, bit(c));
    code[k++] = code_of(sg::PASS, 0);
    code[k++] = code_of(sg::PICK_UP, 0);
    for (int suit = 0; suit < 4; ++suit)
      for (int start = 0; start < 12; ++start)
        for (int len = 2; len < 14 - start; ++len)
          code[k++] = code_of(sg::PLAY, ((uint64_t(1) << len) - 1) << (suit * 13 + start));
    for (int rank = 0; rank < 13; ++rank)  // sets of equal cards, pairs then triples, by bitmask
      for (int size = 2; size <= 3; ++size) {
        uint64_t sets[16];
        int n = 0;
        for (int pick = 0; pick < 16; ++pick) {
          if (popcount(uint64_t(pick)) != size) continue;
          uint64_t m = 0;
          for (int i = 0; i < 4; ++i)
            if (pick >> i & 1) m |= bit(i * 13 + rank);
          sets[n++] = m;
        }
        for (int i = 1; i < n; ++i)  // sorted by bitmask value
          for (int j = i; j > 0 && sets[j] < sets[j - 1]; --j) {
            uint64_t t = sets[j];
            sets[j] = sets[j - 1];
            sets[j - 1] = t;
          }
        for (int i = 0; i < n; ++i) code[k++] = code_of(sg::PLAY, sets[i]);
      }
    code[k++] = kNoCode;  // store
    code[k++] = kNoCode;  // exchange
  }
};
inline const Table& table() {
  static const Table t;
  return t;
}
}  // namespace ids

inline void set_cards(float* out, uint64_t m) {
  for (; m; m &= m - 1) out[lowest(m)] = 1.0f;
}

// encoding.observation(view_of(g, me)) into out[0..obs::kSize) (overwritten).
template <class R>
void observe(const Game<R>& g, int me, float* out) {
  std::memset(out, 0, sizeof(float) * obs::kSize);
  const int n = g.players;
  auto rel = [&](int s) { return s >= me ? s - me : s - me + n; };
  const bool one = g.phase == ONE;
  set_cards(out + obs::HAND, g.hand[me]);
  for (int s = 0; s < n; ++s) {
    int r = rel(s);
    set_cards(out + obs::KNOWN + 52 * r, g.known[s]);
    set_cards(out + obs::PILES + 52 * r, g.pile[s]);
    out[obs::PRESENT + r] = 1.0f;
    out[obs::HAND_SIZES + r] = float(double(popcount(g.hand[s])) / 52);
  }
  uint64_t trick = 0;
  if (one) {
    for (int i = 0; i < g.n_round_cards; ++i)
      out[obs::ROUND + 52 * rel(g.round_card_seat[i]) + g.round_card[i]] = 1.0f;
    trick = g.trick_cards;
  }
  for (int i = 0; i < g.n_table; ++i) trick |= g.table[i];
  set_cards(out + obs::TRICK, trick);
  if (g.n_table) {
    set_cards(out + obs::TOP, g.table[g.n_table - 1]);
    if (g.phase == TWO && g.kill_at) {
      double f = double(g.n_table) / g.kill_at;
      out[obs::TABLE_COUNT] = float(f < 1.0 ? f : 1.0);
    }
  }
  set_cards(out + obs::KILLED, g.killed);
  if (g.trump_suit >= 0 && g.trump_card >= 0 &&
      (R::show_trump_card || R::trump_shown_when_drawn || me == g.trump_holder || g.trump_holder < 0))
    out[obs::TRUMP_CARD + g.trump_card] = 1.0f;
  if (g.trump_suit >= 0) out[obs::TRUMP_SUIT + g.trump_suit] = 1.0f;
  int phase = g.phase == ONE ? 0 : g.phase == DRECK_DEAL ? 1 : g.phase == TWO ? 2 : 3;
  out[obs::PHASE + phase] = 1.0f;
  out[obs::STOCK_SIZE] = float(double(g.stock_count()) / 52);
  if (g.to_act >= 0 && g.to_act < n) out[obs::TO_ACT + rel(g.to_act)] = 1.0f;
  for (int s = 0; s < n; ++s)
    if (g.pending >> s & 1) out[obs::WINDOW + rel(s)] = 1.0f;
  if (g.pending >> me & 1) out[obs::MY_WINDOW] = 1.0f;
  if (one && g.winner < 0)
    for (int i = g.round_pos; i < g.n_round_seats; ++i) out[obs::DUE + rel(g.round_seat[i])] = 1.0f;
  if (one && g.leader >= 0) out[obs::LEADER + rel(g.leader)] = 1.0f;
  if (one && g.winner >= 0) out[obs::TRICK_WINNER + rel(g.winner)] = 1.0f;
  if (g.trump_holder >= 0) out[obs::TRUMP_HOLDER + rel(g.trump_holder)] = 1.0f;
  for (int i = 0; i < g.n_out; ++i) out[obs::OUT + rel(g.out_order[i])] = 1.0f;
  if (g.loser >= 0) out[obs::LOSER + rel(g.loser)] = 1.0f;
  if (R::reserve && g.reserve_end != g.reserve_top)
    out[obs::RESERVE] = float(double(g.reserve_end - g.reserve_top) / 52);
}

// The legal ids of the seat to act: mask[0..ids::kCount) 1 or 0, and the same as bits.
template <class R>
void legal_mask(const Game<R>& g, int8_t* mask, uint64_t* bits) {
  std::memset(mask, 0, ids::kCount);
  for (int w = 0; w < ids::kWords; ++w) bits[w] = 0;
  Code codes[Game<R>::kMaxLegal];
  int k = g.legal(codes);
  for (int i = 0; i < k; ++i) {
    int id = ids::of(codes[i]);
    if (id < 0) throw std::logic_error("a legal action without an action id");
    mask[id] = 1;
    bits[id >> 6] |= uint64_t(1) << (id & 63);
  }
}

// N deals of preset R, each dealt by its own xoshiro256** generator, stepped together, under the
// sequential sluffing protocol with every seat asked (State.new(ask_every_seat=True), the
// PettingZoo adapter's: who is asked never depends on hidden cards).
template <class R>
struct Batch {
  int players, n_envs, action_limit;
  std::vector<Game<R>> games;
  std::vector<Rng> rngs;
  std::vector<uint8_t> decks;     // N x 52: the deck order of each env's current deal
  std::vector<int32_t> dealers;   // N
  std::vector<float> obs;         // N x obs::kSize
  std::vector<int8_t> mask;       // N x ids::kCount
  std::vector<int32_t> to_act;    // N
  std::vector<float> rewards;     // N x players
  std::unique_ptr<bool[]> done, truncated;  // N
  std::vector<uint64_t> bits;     // N x ids::kWords: the mask as bits (the legality check)
  std::vector<uint8_t> dreck_orders;  // N x 52: the last dreck order dealt in each env (chance)
  std::vector<int32_t> dreck_lengths; // N: its length (0 until a dreck is dealt round several seats)
  int64_t steps = 0, deals = 0;

  Batch(int players_, int n, uint64_t seed, int limit)
      : players(players_), n_envs(n), action_limit(limit), games(size_t(n)), decks(size_t(n) * kCards),
        dealers(size_t(n)), obs(size_t(n) * obs::kSize), mask(size_t(n) * ids::kCount), to_act(size_t(n)),
        rewards(size_t(n) * size_t(players_)), done(new bool[size_t(n)]()), truncated(new bool[size_t(n)]()),
        bits(size_t(n) * ids::kWords), dreck_orders(size_t(n) * kCards), dreck_lengths(size_t(n)) {
    Rng master(seed);
    rngs.reserve(size_t(n));
    for (int i = 0; i < n; ++i) rngs.emplace_back(master.next());
  }

  // The dreck dealt round several needy seats, shuffled by the env's generator as
  // Game::random_chance shuffles it, and the order kept (dreck_orders) so that it can be replayed.
  void chance(int i) {
    Game<R>& g = games[size_t(i)];
    while (g.phase == DRECK_DEAL) {
      uint8_t* order = &dreck_orders[size_t(i) * kCards];
      int k = 0;
      for (uint64_t m = g.dreck; m; m &= m - 1) order[k++] = uint8_t(lowest(m));
      Rng& rng = rngs[size_t(i)];
      for (int j = k - 1; j > 0; --j) {
        int r = rng.below(j + 1);
        uint8_t t = order[j];
        order[j] = order[r];
        order[r] = t;
      }
      dreck_lengths[size_t(i)] = k;
      g.deal_chance(order, k);
    }
  }

  void write(int i) {
    Game<R>& g = games[size_t(i)];
    to_act[size_t(i)] = g.to_act;
    observe(g, g.to_act, &obs[size_t(i) * obs::kSize]);
    legal_mask(g, &mask[size_t(i) * ids::kCount], &bits[size_t(i) * ids::kWords]);
  }

  // A new deal in env i: deck and dealer from its generator, chance steps resolved by it too.
  void deal(int i) {
    Rng& rng = rngs[size_t(i)];
    Game<R>& g = games[size_t(i)];
    for (;;) {
      uint8_t* deck = &decks[size_t(i) * kCards];
      shuffle_deck(deck, rng);
      int dealer = rng.below(players);
      dealers[size_t(i)] = dealer;
      g.init(players, deck, dealer, -1, action_limit, true);
      chance(i);
      ++deals;
      if (g.phase != OVER) break;  // (a deal over before anyone acts is dealt again)
    }
    write(i);
  }

  void reset() {
    for (int i = 0; i < n_envs; ++i) {
      deal(i);
      done[size_t(i)] = truncated[size_t(i)] = false;
    }
    std::fill(rewards.begin(), rewards.end(), 0.0f);
  }

  bool legal(int i, int64_t id) const {
    return id >= 0 && id < ids::kCount && (bits[size_t(i) * ids::kWords + size_t(id >> 6)] >> (id & 63) & 1);
  }

  // Check every action first (nothing changes when one is illegal), then step every env.
  void check(const int64_t* actions) const {
    for (int i = 0; i < n_envs; ++i)
      if (!legal(i, actions[i]))
        throw std::invalid_argument("env " + std::to_string(i) + ": action id " + std::to_string(actions[i]) +
                                    " is not legal for seat " + std::to_string(to_act[size_t(i)]) + " now");
  }

  void step(const int64_t* actions) {
    const ids::Table& t = ids::table();
    const float win = float(1.0 / (players - 1));
    for (int i = 0; i < n_envs; ++i) {
      Game<R>& g = games[size_t(i)];
      float* rw = &rewards[size_t(i) * size_t(players)];
      g.step(t.code[actions[i]]);
      chance(i);
      ++steps;
      if (g.phase == OVER) {
        bool cut = g.loser < 0;
        for (int s = 0; s < players; ++s) rw[s] = cut ? 0.0f : (s == g.loser ? -1.0f : win);
        done[size_t(i)] = true;
        truncated[size_t(i)] = cut;
        deal(i);
      } else {
        for (int s = 0; s < players; ++s) rw[s] = 0.0f;
        done[size_t(i)] = truncated[size_t(i)] = false;
        write(i);
      }
    }
  }
};

}  // namespace sg
