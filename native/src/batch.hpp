// Batch stepping (issue 20, item 3; issue 30, item 3): N deals of one rules policy (any preset, or
// RuntimeRules) stepped in one call, each seat's
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

#include "bots.hpp"  // BotKind, heuristic_choose (HeuristicBot.choose), HeuristicWeights
#include "game.hpp"
#include "model.hpp"  // Recent: the public history the heuristic bot's loop check reads
#include "pyrandom.hpp"

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

// The action code of every id (encoding._build_actions, in the same order), and the id of each set
// of two or three equal cards by rank and the suits it holds (bit i = suit i; -1 for none).
struct Table {
  Code code[kCount];
  int16_t equal[13][16];
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
    for (int rank = 0; rank < 13; ++rank) {  // sets of equal cards, pairs then triples, by bitmask
      for (int pick = 0; pick < 16; ++pick) equal[rank][pick] = -1;
      for (int size = 2; size <= 3; ++size) {
        uint64_t sets[16];
        int picks[16];
        int n = 0;
        for (int pick = 0; pick < 16; ++pick) {
          if (popcount(uint64_t(pick)) != size) continue;
          uint64_t m = 0;
          for (int i = 0; i < 4; ++i)
            if (pick >> i & 1) m |= bit(i * 13 + rank);
          picks[n] = pick;
          sets[n++] = m;
        }
        for (int i = 1; i < n; ++i)  // sorted by bitmask value
          for (int j = i; j > 0 && sets[j] < sets[j - 1]; --j) {
            std::swap(sets[j], sets[j - 1]);
            std::swap(picks[j], picks[j - 1]);
          }
        for (int i = 0; i < n; ++i) {
          equal[rank][picks[i]] = int16_t(k);
          code[k++] = code_of(sg::PLAY, sets[i]);
        }
      }
    }
    code[k++] = code_of(sg::STORE, 0);
    code[k++] = code_of(sg::EXCHANGE, 0);
  }
};
inline const Table& table() {
  static const Table t;
  return t;
}

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
      if (n <= 3) {  // two or three cards of one rank (max_equal_play)
        int rank = lo % 13, pick = 0;
        for (int i = 0; i < 4; ++i)
          if (cards >> (i * 13 + rank) & 1) pick |= 1 << i;
        if (popcount(uint64_t(pick)) == n) return table().equal[rank][pick];
      }
      return -1;
    }
    case sg::STOCK:
      return STOCK;
    case sg::SLUFF:
      return SLUFF + lowest(cards);
    case sg::PASS:
      return PASS;
    case sg::PICK_UP:
      return PICK_UP;
    case sg::STORE:
      return STORE;
    case sg::EXCHANGE:
      return EXCHANGE;
    default:
      return -1;
  }
}
}  // namespace ids

inline void set_cards(float* out, uint64_t m) {
  for (; m; m &= m - 1) out[lowest(m)] = 1.0f;
}

// encoding.observation(view_of(g, me)) into out[0..obs::kSize) (overwritten); `exposed` is
// State.exposed_card (the caller knows the deck and rules.exposed_bottom), -1 for none.
template <class R>
void observe(const Game<R>& g, int me, int exposed, float* out) {
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
      (g.rules.show_trump_card || g.rules.trump_shown_when_drawn || me == g.trump_holder || g.trump_holder < 0))
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
  if (exposed >= 0) out[obs::EXPOSED + exposed] = 1.0f;
  if (g.rules.reserve && g.reserve_end != g.reserve_top)
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

// N deals of rules policy R (a preset's, or RuntimeRules with the options given), stepped together,
// under the sequential sluffing protocol with every seat asked (State.new(ask_every_seat=True), the
// PettingZoo adapter's: who is asked never depends on hidden cards).
//
// Dealing (BatchEnv.reset, reset_env, queue_deal): a deal is a deck order, a dealer and where its
// chance draws come from. By default each env deals from its own xoshiro256** generator (deck,
// dealer and the dreck's shuffles). A deal may be given instead: its deck and dealer, and either no
// chance key (its chance steps shuffled by the env's generator) or a chance key k, when every chance
// step of the deal is `State.chance_action(rng)` of one `random.Random(k)` made at the deal (the
// PettingZoo adapter's chance, pyrandom.hpp), so a Python deal with that generator replays it.
// A given deal is either dealt now (reset_given, reset_env) or queued: the next deal of env i
// (queue_deal) replaces the generator's when the current one ends.
//
// The other seats (play_others): seat s is played by the compiled bot kinds[s] (BotKind of
// bots.hpp: the random bot, RandomBot.choose, or the heuristic bot, HeuristicBot.choose), each
// env's seat drawing from its own `random.Random(key)` (PyRandom), made anew at every deal: the
// key given with the deal (the bot seeds of reset_given, reset_env, queue_deal: as
// `make_bot(name, random.Random(key))` seeds a Python bot), or else drawn from the env's generator
// when the seat first decides in that deal.  So a given deal with given chance and bot seeds is the
// Python engine's deal played by those bots for the learner's actions.
template <class R>
struct Batch {
  int players, n_envs, action_limit;
  bool exposed_bottom, auto_reset;
  std::vector<Game<R>> games;
  std::vector<Rng> rngs;
  std::vector<uint8_t> decks;     // N x 52: the deck order of each env's current deal
  std::vector<int32_t> dealers;   // N
  std::vector<float> obs;         // N x obs::kSize
  std::vector<int8_t> mask;       // N x ids::kCount
  std::vector<int32_t> to_act;    // N
  std::vector<float> rewards;     // N x players
  std::unique_ptr<bool[]> done, truncated, over;  // N (over: a finished deal waiting, auto_reset off)
  std::vector<uint64_t> bits;     // N x ids::kWords: the mask as bits (the legality check)
  std::vector<uint8_t> dreck_orders;  // N x 52: the last chance order dealt in each env
  std::vector<int32_t> dreck_lengths; // N: its length (0 until a chance step came)
  // the chance of each env's deal: 0 the env's generator, 1 a Python Random to seed from
  // chance_keys[i] at the first chance step, 2 that Random seeded (py[i])
  std::vector<uint8_t> chance_mode;
  std::vector<uint64_t> chance_keys;
  std::vector<PyRandom> py;
  // the queued next deal of each env (queue_deal): its deck, dealer (-1: none queued), chance
  std::vector<uint8_t> next_decks;
  std::vector<int32_t> next_dealers;
  std::vector<uint8_t> next_mode;
  std::vector<uint64_t> next_keys;
  int64_t steps = 0, deals = 0, other_steps = 0;  // other_steps: play_others' actions
  // The bots of play_others: per seat a BotKind (all BOT_RANDOM until set_bots), the heuristic
  // bot's weights; per env and seat its Random (N x players), the key it is seeded with and its
  // state (0: no key yet, one is drawn from the env's generator at its first decision; 1: keyed,
  // not seeded; 2: seeded); the queued deal's keys (N x players, next_keyed N: given or not).
  // Per env the public history of the deal (View.history: every seat's action and every chance
  // step), which the heuristic bot's loop check reads (heuristic.is_looping).
  std::vector<int> kinds;
  HeuristicWeights weights{};
  std::vector<PyRandom> seat_rngs;
  std::vector<uint64_t> seat_keys;
  std::vector<uint8_t> seat_state;
  std::vector<uint64_t> next_seat_keys;
  std::vector<uint8_t> next_keyed;
  std::vector<Recent> histories;

  Batch(int players_, int n, uint64_t seed, int limit, const R& rules, bool exposed, bool autoreset)
      : players(players_), n_envs(n), action_limit(limit), exposed_bottom(exposed), auto_reset(autoreset),
        games(size_t(n)), decks(size_t(n) * kCards), dealers(size_t(n)), obs(size_t(n) * obs::kSize),
        mask(size_t(n) * ids::kCount), to_act(size_t(n)), rewards(size_t(n) * size_t(players_)),
        done(new bool[size_t(n)]()), truncated(new bool[size_t(n)]()), over(new bool[size_t(n)]()),
        bits(size_t(n) * ids::kWords), dreck_orders(size_t(n) * kCards), dreck_lengths(size_t(n)),
        chance_mode(size_t(n)), chance_keys(size_t(n)), py(size_t(n)), next_decks(size_t(n) * kCards),
        next_dealers(size_t(n), -1), next_mode(size_t(n)), next_keys(size_t(n)), kinds(size_t(players_), BOT_RANDOM),
        seat_rngs(size_t(n) * size_t(players_)), seat_keys(size_t(n) * size_t(players_)),
        seat_state(size_t(n) * size_t(players_)), next_seat_keys(size_t(n) * size_t(players_)),
        next_keyed(size_t(n)), histories(size_t(n)) {
    Rng master(seed);
    rngs.reserve(size_t(n));
    for (int i = 0; i < n; ++i) rngs.emplace_back(master.next());
    for (Game<R>& g : games) g.rules = rules;  // (kept by Game::init)
  }

  // The chance steps (the dreck dealt round several needy seats, Koira's split, a trick dealt round):
  // the pending cards in ascending order shuffled as State.chance_action shuffles them, by the env's
  // generator or its deal's Python Random, and the order kept (dreck_orders) so it can be replayed.
  void chance(int i) {
    Game<R>& g = games[size_t(i)];
    while (g.phase == DRECK_DEAL) {
      uint8_t* order = &dreck_orders[size_t(i) * kCards];
      int k = 0;
      for (uint64_t m = g.pending_deal(); m; m &= m - 1) order[k++] = uint8_t(lowest(m));
      uint8_t& mode = chance_mode[size_t(i)];
      if (mode == 0) {
        Rng& rng = rngs[size_t(i)];
        for (int j = k - 1; j > 0; --j) {
          int r = rng.below(j + 1);
          uint8_t t = order[j];
          order[j] = order[r];
          order[r] = t;
        }
      } else {
        if (mode == 1) {  // random.Random(key): seeded from the key's big-endian bytes
          unsigned char key[8];
          for (int b = 0; b < 8; ++b) key[b] = uint8_t(chance_keys[size_t(i)] >> (8 * (7 - b)));
          py[size_t(i)].seed_bytes(key, 8);
          mode = 2;
        }
        py[size_t(i)].shuffle(order, k);
      }
      dreck_lengths[size_t(i)] = k;
      histories[size_t(i)].push(kChance, code_of(DRECK, g.pending_deal()));  // (as play_bots records it)
      g.deal_chance(order, k);
    }
  }

  // State.exposed_card of env i's deal (the card face up under the stock), -1 for none.
  int exposed(int i) const {
    if (!exposed_bottom) return -1;
    const Game<R>& g = games[size_t(i)];
    if (g.rules.beat) return g.stock_count() ? int(g.stock[g.stock_end - 1]) : -1;  // Mas
    return int(decks[size_t(i) * kCards + kCards - 1]);
  }

  void write(int i) {
    Game<R>& g = games[size_t(i)];
    to_act[size_t(i)] = g.to_act;
    observe(g, g.to_act, exposed(i), &obs[size_t(i) * obs::kSize]);
    legal_mask(g, &mask[size_t(i) * ids::kCount], &bits[size_t(i) * ids::kWords]);
  }

  // The Random of seat p in env i for this deal (seeded at its first use: from its key, or from a
  // key drawn from the env's generator when the deal gave none), as `random.Random(key)`.
  PyRandom& seat_rng(int i, int p) {
    const size_t j = size_t(i) * size_t(players) + size_t(p);
    if (seat_state[j] != 2) {
      if (seat_state[j] == 0) seat_keys[j] = rngs[size_t(i)].next();
      unsigned char key[8];  // the integer's big-endian bytes (Random.seed of an int)
      for (int b = 0; b < 8; ++b) key[b] = uint8_t(seat_keys[j] >> (8 * (7 - b)));
      seat_rngs[j].seed_bytes(key, 8);
      seat_state[j] = 2;
    }
    return seat_rngs[j];
  }

  // The decision of the bot at seat p in env i (to act, its k legal actions `codes` in
  // Game::legal's order, which is State.legal_actions'): the index of the action it takes.
  // Each bot reads only seat p's View (bots.hpp names the View field behind each read).
  int choose_other(int i, int p, const Code* codes, int k) {
    const Game<R>& g = games[size_t(i)];
    switch (kinds[size_t(p)]) {
      case BOT_HEURISTIC:  // HeuristicBot.choose(view, view.legal)
        return heuristic_choose(g, p, codes, k, histories[size_t(i)], weights, seat_rng(i, p));
      // A compiled counter bot (BOT_COUNTER, counter.hpp) plugs in here, with one line:
      // case BOT_COUNTER: return counter_choose(g, p, codes, k, histories[size_t(i)], seat_rng(i, p));
      default:  // BOT_RANDOM: RandomBot.choose, rng.randrange(len(legal)) (drawn for one action too)
        return int(seat_rng(i, p).randbelow(uint32_t(k)));
    }
  }

  // BatchEnv.play_others: in every env, every seat but `seat` is played by its bot (kinds, above)
  // until `seat` is to act.
  // A deal that ends meanwhile is reported as step reports it, unless the env already reported a
  // deal in this step (done stays, its rewards kept), and dealt anew (auto_reset; without it the env
  // waits). Returns the actions taken.
  // With `record`, the moves are appended to `log` as BatchEnv.play_others(record=True) reads them:
  // env, action id for a seat's action; env, -1, k, the k cards of a chance order.
  std::vector<int32_t> log;
  int64_t play_others(int seat, bool record = false) {
    const float win = float(1.0 / (players - 1));
    log.clear();
    Code codes[Game<R>::kMaxLegal];
    int64_t taken = 0;
    for (int i = 0; i < n_envs; ++i) {
      Game<R>& g = games[size_t(i)];
      bool moved = false;
      while (!over[size_t(i)] && g.to_act != seat) {
        const int p = g.to_act;
        int k = g.legal(codes);
        Code code = codes[choose_other(i, p, codes, k)];
        g.step(code);
        histories[size_t(i)].push(p, code);
        if (record) {
          log.push_back(i);
          log.push_back(ids::of(code));
        }
        int chances = g.phase == DRECK_DEAL;
        chance(i);
        if (record && chances) {  // (one chance step: the next phase is never another chance deal)
          log.push_back(i);
          log.push_back(-1);
          log.push_back(dreck_lengths[size_t(i)]);
          for (int c = 0; c < dreck_lengths[size_t(i)]; ++c) log.push_back(dreck_orders[size_t(i) * kCards + size_t(c)]);
        }
        ++taken;
        ++other_steps;
        moved = true;
        if (g.phase != OVER) continue;
        finish(i, win, !done[size_t(i)]);
        moved = false;
      }
      if (moved) write(i);
    }
    return taken;
  }

  // encoding.observation(view_of(g, seat)) of every env into out (N x obs::kSize; BatchEnv.observe):
  // the observation of any seat, not only the one to act (zero for a finished deal left waiting).
  void observe_seat(int seat, float* out) const {
    for (int i = 0; i < n_envs; ++i) {
      float* row = out + size_t(i) * obs::kSize;
      if (over[size_t(i)])
        std::memset(row, 0, sizeof(float) * obs::kSize);
      else
        observe(games[size_t(i)], seat, exposed(i), row);
    }
  }

  // A finished deal left waiting (auto_reset off): no seat to act, observation and mask zero.
  void write_over(int i) {
    to_act[size_t(i)] = -2;
    std::memset(&obs[size_t(i) * obs::kSize], 0, sizeof(float) * obs::kSize);
    std::memset(&mask[size_t(i) * ids::kCount], 0, ids::kCount);
    for (int w = 0; w < ids::kWords; ++w) bits[size_t(i) * ids::kWords + size_t(w)] = 0;
  }

  // Deal env i from `deck` (52 cards, checked by the caller) and `dealer`, chance `mode` and `key`,
  // the other seats' bots seeded from `bot_keys` (players keys; null: drawn when first used).
  void deal_given(int i, const uint8_t* deck, int dealer, uint8_t mode, uint64_t key,
                  const uint64_t* bot_keys = nullptr) {
    Game<R>& g = games[size_t(i)];
    const size_t row = size_t(i) * size_t(players);
    for (int p = 0; p < players; ++p) {
      seat_state[row + size_t(p)] = bot_keys ? 1 : 0;
      if (bot_keys) seat_keys[row + size_t(p)] = bot_keys[p];
    }
    histories[size_t(i)].n = 0;
    uint8_t* d = &decks[size_t(i) * kCards];
    if (d != deck) std::memcpy(d, deck, kCards);
    dealers[size_t(i)] = dealer;
    chance_mode[size_t(i)] = mode;
    chance_keys[size_t(i)] = key;
    g.init(players, d, dealer, -1, action_limit, true);
    chance(i);
    ++deals;
    over[size_t(i)] = false;
  }

  // A deal from env i's generator: the deck, then the dealer; its chance steps by the generator too.
  void deal_random(int i) {
    Rng& rng = rngs[size_t(i)];
    uint8_t* deck = &decks[size_t(i) * kCards];
    shuffle_deck(deck, rng);
    int dealer = rng.below(players);
    deal_given(i, deck, dealer, 0, 0);
  }

  // After a deal: a deal over before anyone acts is dealt again from the generator; then the
  // observation and mask of the seat to act written.
  void ready(int i) {
    while (games[size_t(i)].phase == OVER) deal_random(i);
    write(i);
  }

  // A new deal in env i: the queued one if any, else one from its generator.
  void deal(int i) {
    int32_t& queued = next_dealers[size_t(i)];
    if (queued >= 0) {
      int dealer = queued;
      queued = -1;
      deal_given(i, &next_decks[size_t(i) * kCards], dealer, next_mode[size_t(i)], next_keys[size_t(i)],
                 next_keyed[size_t(i)] ? &next_seat_keys[size_t(i) * size_t(players)] : nullptr);
    } else {
      deal_random(i);
    }
    ready(i);
  }

  void clear_flags() {
    for (int i = 0; i < n_envs; ++i) done[size_t(i)] = truncated[size_t(i)] = false;
    std::fill(rewards.begin(), rewards.end(), 0.0f);
  }

  // Every env dealt anew from its generator (or its queued deal).
  void reset() {
    for (int i = 0; i < n_envs; ++i) deal(i);
    clear_flags();
  }

  // Every env dealt the given deal: decks N x 52, dealers N, modes N (0 or 1), keys N, and the bots'
  // keys N x players (null: none given).
  void reset_given(const uint8_t* ds, const int32_t* dls, const uint8_t* modes, const uint64_t* keys,
                   const uint64_t* bot_keys = nullptr) {
    for (int i = 0; i < n_envs; ++i) {
      deal_given(i, ds + size_t(i) * kCards, dls[i], modes[i], keys[i],
                 bot_keys ? bot_keys + size_t(i) * size_t(players) : nullptr);
      ready(i);
    }
    clear_flags();
  }

  // Env i dealt the given deal now (whatever it was doing); its flags and rewards cleared.
  void reset_env(int i, const uint8_t* deck, int dealer, uint8_t mode, uint64_t key,
                 const uint64_t* bot_keys = nullptr) {
    deal_given(i, deck, dealer, mode, key, bot_keys);
    ready(i);
    done[size_t(i)] = truncated[size_t(i)] = false;
    for (int s = 0; s < players; ++s) rewards[size_t(i) * size_t(players) + size_t(s)] = 0.0f;
  }

  void queue(int i, const uint8_t* deck, int dealer, uint8_t mode, uint64_t key,
             const uint64_t* bot_keys = nullptr) {
    next_keyed[size_t(i)] = bot_keys != nullptr;
    if (bot_keys)
      std::memcpy(&next_seat_keys[size_t(i) * size_t(players)], bot_keys, sizeof(uint64_t) * size_t(players));
    std::memcpy(&next_decks[size_t(i) * kCards], deck, kCards);
    next_dealers[size_t(i)] = dealer;
    next_mode[size_t(i)] = mode;
    next_keys[size_t(i)] = key;
  }

  bool legal(int i, int64_t id) const {
    return id >= 0 && id < ids::kCount && (bits[size_t(i) * ids::kWords + size_t(id >> 6)] >> (id & 63) & 1);
  }

  // Check every action first (nothing changes when one is illegal), then step every env. The action of
  // a finished deal left waiting (auto_reset off) is not read.
  // With `some` (BatchEnv.step_some) a negative id leaves its env as it is.
  void check(const int64_t* actions, bool some = false) const {
    for (int i = 0; i < n_envs; ++i)
      if (!over[size_t(i)] && !(some && actions[i] < 0) && !legal(i, actions[i]))
        throw std::invalid_argument("env " + std::to_string(i) + ": action id " + std::to_string(actions[i]) +
                                    " is not legal for seat " + std::to_string(to_act[size_t(i)]) + " now");
  }

  // A deal of env i that has just ended: with `report`, its rewards (the PettingZoo adapter's: -1 for
  // the loser, `win` for every other seat, 0 for all when the action limit cut it short), done and
  // truncated; then a new deal (auto_reset) or the env left waiting. (step and play_others.)
  void finish(int i, float win, bool report) {
    const Game<R>& g = games[size_t(i)];
    if (report) {
      float* rw = &rewards[size_t(i) * size_t(players)];
      bool cut = g.loser < 0;
      for (int s = 0; s < players; ++s) rw[s] = cut ? 0.0f : (s == g.loser ? -1.0f : win);
      done[size_t(i)] = true;
      truncated[size_t(i)] = cut;
    }
    if (auto_reset) {
      deal(i);
    } else {
      over[size_t(i)] = true;
      write_over(i);
    }
  }

  void step(const int64_t* actions, bool some = false) {
    const ids::Table& t = ids::table();
    const float win = float(1.0 / (players - 1));
    for (int i = 0; i < n_envs; ++i) {
      Game<R>& g = games[size_t(i)];
      float* rw = &rewards[size_t(i) * size_t(players)];
      if (over[size_t(i)] || (some && actions[i] < 0)) {
        for (int s = 0; s < players; ++s) rw[s] = 0.0f;
        done[size_t(i)] = truncated[size_t(i)] = false;
        continue;
      }
      const int p = g.to_act;
      g.step(t.code[actions[i]]);
      histories[size_t(i)].push(p, t.code[actions[i]]);
      chance(i);
      ++steps;
      if (g.phase == OVER) {
        finish(i, win, true);
      } else {
        for (int s = 0; s < players; ++s) rw[s] = 0.0f;
        done[size_t(i)] = truncated[size_t(i)] = false;
        write(i);
      }
    }
  }
};

}  // namespace sg
