// The compiled engine: one deal of Skitgubbe as a flat, fixed-size state, for the presets it
// covers (`pagat` and `myllymatti` at 2 to 4 seats, `goat` at 3 to 8, `catsatcards` at 3,
// `two-player` at 2, `howell` at 3 to 6 with one pack, `catsatcards-flurst` at 4 and 5, `mattis`
// and `koira` at 3 to 8, `atlanta` at 3, `helmfrid` at 2 to 6, `mas` at 2 to 4), making
// the same decisions as the Python engine (src/skitgubbe/engine/state.py, phase_one.py class
// Trick, phase_two.py class Table, stock.py class Undealt) under those presets' options.  Each
// function names the Python method it mirrors; the rules are a policy class (PagatRules,
// GoatRules, CatsatcardsRules, TwoPlayerRules, HowellRules, CatsatcardsFlurstRules, MattisRules,
// AtlantaRules, KoiraRules, HelmfridRules, MasRules) of
// compile-time constants, so each preset gets its own code with no option tests left at run time;
// RuntimeRules holds the same options as values read when a deal starts, so that one more
// instance of the same code plays any combination of them (at 2 to 8 seats).  The policies and
// RuntimeRules are generated (options.gen.hpp) from the one declaration of the options, in Python
// (skitgubbe.engine.native_options: each member as a function of the Rules options, with its rule
// source).
//
// Rule sources: pagat.com, Skitgubbe, "Play in the first phase" and "Play in the second phase"
// (the pagat preset), "Myllymatti" and "Two Player Game";
// the Swedish Goat Game / Flurst page, "The First Part", "Sloughing", "Intermission" and "The
// Second Part" (the goat preset); catsatcards.com, "How to Play Skitgubbe" and its "Variations
// and Optional Rules" (Flurst); Dave Howell's Swedish Goat Game, "The First Part"; pagat.com,
// Mattis (with "Blåmattis" and the "Atlanta Variation") and Koira; pagat.com, Skitgubbe, "All
// Players play to Each Trick in Phase One" (Sten Helmfrid's version, the helmfrid preset) and "Mas
// with turned up trump" (the mas preset).
//
// Representation: a card is 0..51, `suit * 13 + rank - 2` (the Python engine's numbering); a
// card set is a Game<R>::Set with bit i = card i (uint64_t for one pack; a policy for two packs,
// cards 52..103 the second pack's twins as in cards.TWIN, would name a 128-bit Set); a seat set a
// uint32_t with bit s = seat s.
// Nothing is allocated while a deal is played.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

// The rules policies (PagatRules, ..., MasRules) and RuntimeRules, generated from the Python
// declaration (skitgubbe.engine.native_options; native/tools/gen_options.py, `make generated`).
#include "options.gen.hpp"

namespace sg {

constexpr int kCards = 52;
constexpr int kChance = -1;  // the pseudo-seat of a chance action (actions.CHANCE)
constexpr int kOverSeat = -2;

// Action kinds: the integers of skitgubbe.engine.actions.Kind.
enum Kind : int { PLAY = 0, STOCK = 1, SLUFF = 2, PASS = 3, PICK_UP = 4, DRECK = 5, STORE = 6, EXCHANGE = 7 };
// Phases: the integers of skitgubbe.engine.base.Phase.
enum PhaseId : int { ONE = 1, DRECK_DEAL = 2, TWO = 3, OVER = 4 };

// An action is coded as (kind << 56) | cards: Action(kind, cards) of the Python engine.
using Code = uint64_t;
constexpr Code kCardBits = (Code(1) << 56) - 1;
inline Code code_of(int kind, uint64_t cards) { return (Code(kind) << 56) | cards; }
inline int kind_of(Code c) { return int(c >> 56); }
inline uint64_t cards_of(Code c) { return c & kCardBits; }

// The event kinds the Python engine reports for these presets (base.Event.kind).
enum EventKind : int {
  EV_PLAY, EV_DRAW, EV_STOCK, EV_TRUMP_ASIDE, EV_BOUNCE, EV_WAR, EV_SLUFF, EV_PASS, EV_WIN,
  EV_END_ONE, EV_TAKE_BACK, EV_EXPOSED, EV_TRUMP, EV_DRECK, EV_DRECK_DEALT, EV_DRECK_SHARE,
  EV_OUT, EV_LEAD, EV_BEAT, EV_THREE_CARDS, EV_ONE_CARD, EV_KILL, EV_PICK_UP, EV_LOSER,
  EV_ABANDONED, EV_TRUMP_DRAWN, EV_RESERVE_DRAW, EV_DRECK_ASIDE, EV_BLAMATTIS, EV_SPLIT, EV_STORE,
  EV_EXCHANGE, EV_COUNT
};
inline const char* event_name(int k) {
  static const char* names[EV_COUNT] = {
      "play", "draw", "stock", "trump-aside", "bounce", "war", "sluff", "pass", "win",
      "end-one", "take-back", "exposed", "trump", "dreck", "dreck-dealt", "dreck-share",
      "out", "lead", "beat", "three-cards", "one-card", "kill", "pick-up", "loser",
      "abandoned", "trump-drawn", "reserve-draw", "dreck-aside", "blamattis", "split", "store",
      "exchange"};
  return names[k];
}

struct Event {
  int8_t kind;
  int8_t seat;
  uint64_t cards;
};

// The events of one step, in order (the longest, the end of phase one at 8 seats, is ~30).
struct EventLog {
  int n = 0;
  Event e[96];
  void push(int kind, int seat, uint64_t cards) {
    if (n < 96) e[n++] = Event{int8_t(kind), int8_t(seat), cards};
  }
};

constexpr uint64_t kSuitBits = (uint64_t(1) << 13) - 1;
inline uint64_t suit_mask(int s) { return kSuitBits << (13 * s); }
constexpr uint64_t kRank2 = 1ull | 1ull << 13 | 1ull << 26 | 1ull << 39;  // the four 2s
inline uint64_t rank_mask(int r) { return kRank2 << (r - 2); }
inline int rank_of(int c) { return c % 13 + 2; }
inline int suit_of(int c) { return c / 13; }
// The number of cards in m: the POPCNT instruction where the build targets it, else an inline
// SWAR count (the generic __builtin_popcountll would be a call into libgcc).
constexpr int popcount(uint64_t m) {
#if defined(__POPCNT__)
  return __builtin_popcountll(m);
#else
  m = m - ((m >> 1) & 0x5555555555555555ull);
  m = (m & 0x3333333333333333ull) + ((m >> 2) & 0x3333333333333333ull);
  m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return int((m * 0x0101010101010101ull) >> 56);
#endif
}
constexpr int lowest(uint64_t m) { return __builtin_ctzll(m); }
constexpr int highest(uint64_t m) { return 63 - __builtin_clzll(m); }
inline uint64_t bit(int c) { return uint64_t(1) << c; }

// The same helpers for a 128-bit card set (two packs: bits 0..51 the first pack, 52..103 the
// second, cards.TWIN): two 64-bit counts or scans.  m must be non-zero for lowest and highest.
using Set128 = unsigned __int128;
// Templates taking exactly Set128, so a narrower argument (a seat set) still takes the 64-bit one.
template <class T>
using If128 = std::enable_if_t<std::is_same_v<T, Set128>, int>;
template <class T, If128<T> = 0>
constexpr int popcount(T m) { return popcount(uint64_t(m)) + popcount(uint64_t(m >> 64)); }
template <class T, If128<T> = 0>
constexpr int lowest(T m) {
  const uint64_t lo = uint64_t(m);
  return lo ? lowest(lo) : 64 + lowest(uint64_t(m >> 64));
}
template <class T, If128<T> = 0>
constexpr int highest(T m) {
  const uint64_t hi = uint64_t(m >> 64);
  return hi ? 64 + highest(hi) : highest(uint64_t(m));
}

// Checked when compiled: the 128-bit helpers across the word boundary (bit 63 and 64 and the
// second pack's last card, 103).
static_assert(popcount(Set128(1) << 103 | Set128(1) << 64 | Set128(1) << 63 | 1) == 4);
static_assert(lowest(Set128(1) << 103 | Set128(1) << 64) == 64 && lowest(Set128(1) << 63 | 2) == 1);
static_assert(highest(Set128(1) << 103 | 1) == 103 && highest(Set128(1) << 63 | 1) == 63);
static_assert(lowest(Set128(1) << 64) == 64 && highest(Set128(1) << 64) == 64);

// Two packs (cards.py): card c + kTwin is the second pack's copy of card c, the same rank and suit.
constexpr int kTwin = 52;
constexpr uint64_t kPack = (uint64_t(1) << kCards) - 1;  // cards.FULL_DECK
// cards.SUIT_MASKS2[s] and cards.RANK_MASKS2[r]: suit s (0..3) or rank r (2..14) in both packs.
constexpr Set128 suit_mask2(int s) {
  const Set128 m = Set128((uint64_t(1) << 13) - 1) << (13 * s);
  return m | m << kTwin;
}
constexpr Set128 rank_mask2(int r) {
  const Set128 m = Set128(1ull | 1ull << 13 | 1ull << 26 | 1ull << 39) << (r - 2);
  return m | m << kTwin;
}
constexpr int suit_of2(int c) { return c / 13 % 4; }  // the suit of a card of either pack
// cards.fold: the card kinds (a one-pack set, cards 0..51) of a set of either pack.
constexpr uint64_t fold(Set128 m) { return uint64_t(m | m >> kTwin) & kPack; }
// cards.canonical: `cards` spelled the one way the engine lists it, given the `hand` it comes
// from: a kind named twice keeps both copies; a kind named once is the first pack's copy if
// `hand` holds it, else the second pack's.
constexpr Set128 canonical(Set128 cards, Set128 hand) {
  const Set128 both = Set128(uint64_t(cards & (cards >> kTwin)) & kPack);
  const Set128 once = Set128(fold(cards)) & ~both;
  return both | both << kTwin | (once & hand) | (once & ~hand & Set128(kPack)) << kTwin;
}
// Checked when compiled, against cards.py's values: the ace of spades (card 51) and its twin
// (103), the 2 of clubs (0) and its twin (52).
static_assert(popcount(suit_mask2(3)) == 26 && highest(suit_mask2(3)) == 103 && lowest(suit_mask2(3)) == 39);
static_assert(popcount(rank_mask2(14)) == 8 && highest(rank_mask2(14)) == 103 && lowest(rank_mask2(2)) == 0);
static_assert(rank_mask2(2) >> kTwin & 1 && suit_of2(103) == 3 && suit_of2(52) == 0 && suit_of2(51) == 3);
static_assert(fold(Set128(1) << 103 | Set128(1) << 51 | Set128(1) << 52) == (1ull << 51 | 1));
// held: the 2 of clubs' twin (52) and the ace of spades (51): a 2 of clubs named as card 0 is the
// held twin; both copies named stay both; an ace named as its twin (103) is the held first copy.
static_assert(canonical(Set128(1), Set128(1) << 52 | Set128(1) << 51) == Set128(1) << 52);
static_assert(canonical(Set128(1) | Set128(1) << 52, Set128(1) | Set128(1) << 52) ==
              (Set128(1) | Set128(1) << 52));
static_assert(canonical(Set128(1) << 103, Set128(1) << 52 | Set128(1) << 51) == Set128(1) << 51);

// The action code of two packs (compiled.code_of and compiled.action_of): the one-pack code of
// the first pack's cards in the low word, the second pack's cards (as their twins' bits 0..51) in
// the high word: (kind << 56 | first) | second << 64.  A code whose high word is 0 is exactly the
// one-pack code, so an action without second-pack cards has the same code with one pack or two;
// across the bindings it travels as its two words (low, high).
using Code2 = unsigned __int128;
constexpr Code2 code2_of(int kind, Set128 cards) {
  return Code2((uint64_t(kind) << 56) | (uint64_t(cards) & kPack)) |
         Code2(uint64_t(cards >> kTwin) & kPack) << 64;
}
constexpr int kind_of2(Code2 c) { return int(uint64_t(c) >> 56); }
constexpr Set128 cards_of2(Code2 c) {
  return Set128(uint64_t(c) & kPack) | Set128(uint64_t(c >> 64) & kPack) << kTwin;
}
// Checked when compiled: a pick-up and a one-pack play keep their one-pack codes; the 2 of clubs
// with its twin (cards 0 and 52) and the ace of spades' twin (103) round-trip.
static_assert(code2_of(PICK_UP, 0) == Code2(uint64_t(PICK_UP) << 56));
static_assert(code2_of(PLAY, Set128(1) << 51) == Code2(uint64_t(PLAY) << 56 | 1ull << 51));
static_assert(code2_of(SLUFF, Set128(1) | Set128(1) << 52) == (Code2(uint64_t(SLUFF) << 56 | 1) | Code2(1) << 64));
static_assert(kind_of2(code2_of(SLUFF, Set128(1) << 103)) == SLUFF &&
              cards_of2(code2_of(SLUFF, Set128(1) << 103)) == Set128(1) << 103);
static_assert(cards_of2(code2_of(PLAY, Set128(1) | Set128(1) << 52)) == (Set128(1) | Set128(1) << 52));

// The n-th (0-based) set bit of m, lowest first; m must hold more than n bits.
inline int nth_bit(uint64_t m, int n) {
  for (int i = 0; i < n; ++i) m &= m - 1;
  return lowest(m);
}

// xoshiro256** seeded through splitmix64: the playouts' own random numbers.
struct Rng {
  uint64_t s[4];
  explicit Rng(uint64_t seed) {
    for (auto& x : s) {
      seed += 0x9E3779B97F4A7C15ull;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      x = z ^ (z >> 31);
    }
  }
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t next() {
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
  }
  // A number 0..k-1 (k >= 1), by multiply-shift (bias below 2^-32).
  int below(int k) { return int(((next() >> 32) * uint64_t(k)) >> 32); }
};

// Every run of touching cards within `m` (one card, or two or more consecutive cards of one
// suit), appended to `out` as PLAY codes in actions.run_actions' order: suit by suit, shorter runs
// first, then lower.  Runs of two or more cards hold at least `min_run` cards and, with
// `from_two`, start at the 2 of their suit (plays = run-3 and run-from-2; the defaults, any run
// of two or more from any card, are the other run rules).  Returns the new count.
inline int append_runs(uint64_t m, Code* out, int k, int min_run = 2, bool from_two = false) {
  for (int s = 0; s < 4; ++s) {
    uint64_t bits = (m >> (13 * s)) & kSuitBits;
    if (!bits) continue;
    for (int len = 1; len <= 13; ++len) {
      uint64_t run = (uint64_t(1) << len) - 1;
      // starts where `len` consecutive bits are set
      uint64_t starts = bits;
      for (int i = 1; i < len; ++i) starts &= bits >> i;
      if (!starts) break;
      if (len > 1 && len < min_run) continue;
      if (len > 1 && from_two) starts &= 1;
      for (; starts; starts &= starts - 1) out[k++] = code_of(PLAY, (run << lowest(starts)) << (13 * s));
    }
  }
  return k;
}

// How many runs append_runs would list for `m`.
inline int count_runs(uint64_t m) {
  int k = 0;
  for (int s = 0; s < 4; ++s) {
    uint64_t bits = (m >> (13 * s)) & kSuitBits;
    while (bits) {  // a block of L touching cards holds L * (L + 1) / 2 runs
      uint64_t low = bits & (~bits + 1);
      uint64_t block = ((bits + low) ^ bits) & bits;
      int len = popcount(block);
      k += len * (len + 1) / 2;
      bits ^= block;
    }
  }
  return k;
}

// The `i`-th (0-based) run of `m` in an order of its own (block by block, shorter runs first),
// without listing them: for uniform random play.  `i` must be below count_runs(m).
inline uint64_t nth_run(uint64_t m, int i) {
  for (int s = 0; s < 4; ++s) {
    uint64_t bits = (m >> (13 * s)) & kSuitBits;
    while (bits) {
      uint64_t low = bits & (~bits + 1);
      uint64_t block = ((bits + low) ^ bits) & bits;
      int len = popcount(block);
      int n = len * (len + 1) / 2;
      if (i < n) {
        for (int l = 1;; ++l) {  // len - l + 1 runs of l cards in the block
          int k = len - l + 1;
          if (i < k) return (((uint64_t(1) << l) - 1) << (lowest(block) + i)) << (13 * s);
          i -= k;
        }
      }
      i -= n;
      bits ^= block;
    }
  }
  return 0;  // not reached for a valid i
}

// What a policy needs of the state's layout, fixed when it is compiled: the sluffing and split
// memories below, and the most cards of one rank a play may hold (the round's array).  A preset
// policy needs what its constants ask for; RuntimeRules needs everything any options may ask for.
template <class R>
struct Needs {
  static constexpr bool sluff_memory = R::sluff_after_play || R::sluff_once || R::sluff_losing_only;
  static constexpr bool split = R::skip_empty;
  static constexpr int max_equal = R::max_equal_play;
};
template <>
struct Needs<RuntimeRules> {
  static constexpr bool sluff_memory = true;
  static constexpr bool split = true;
  static constexpr int max_equal = 3;
};

// Koira's split: the cards of the chance deal that waits (Trick.chance_cards; its seats are kept in
// Game::needy) and the rounds of the trick so far; empty for the other presets.
template <bool kOn>
struct SplitMemory {};
template <>
struct SplitMemory<true> {
  uint64_t chance_cards;
  int16_t n_rounds;
};

// What the sluffing restrictions of sluff_after_play, sluff_once and sluff_losing_only keep of the
// trick (Trick.sluffed, occasion, occasion_hand, tie_rank, and the seats in its rounds): a base of
// Game, empty (no bytes) for the presets without them.
template <bool kOn>
struct SluffMemory {};
template <>
struct SluffMemory<true> {
  uint64_t occasion_hand;  // the occasion's seat's hand when it began (only these may be sluffed)
  uint16_t sluffed;        // the seats that have sluffed into the trick
  uint16_t played;         // the seats that have played (or turned up) a card in the trick
  int8_t occasion;         // the seat whose sluffing occasion is under way, -1 for none
  int8_t tie_rank;         // the tied rank that started the current war round, 0 for none
};

// The card-set type of a policy: its member type `Set` where it declares one (a policy for two
// packs, 104 cards, names a 128-bit type), else uint64_t (one pack: bit i = card i, 0..51).  The
// one-pack policies declare none, so their Game is compiled exactly as before.
template <class R, class = void>
struct CardSetOf {
  using type = uint64_t;
};
template <class R>
struct CardSetOf<R, std::void_t<typename R::Set>> {
  using type = typename R::Set;
};

template <class R>
struct Game : SluffMemory<Needs<R>::sluff_memory>, SplitMemory<Needs<R>::split> {
  static constexpr bool kSluffMemory = Needs<R>::sluff_memory;
  static constexpr bool kSplit = Needs<R>::split;
  using Set = typename CardSetOf<R>::type;  // a card set: bit i = card i
  static Set bit(int c) { return Set(1) << c; }  // the card set {c}
  static constexpr int M = R::kMaxSeats;
  static constexpr int kMaxLegal = 400;  // runs of a 52-card hand: at most 4 * 91, and pick up
  static constexpr int kRoundCards = M * Needs<R>::max_equal;  // the cards a round can hold

  // The options: an empty object for a preset policy (its members are static constants, so every
  // test of one folds away at compile time), the values themselves for RuntimeRules.
  [[no_unique_address]] R rules;

  // seats
  Set hand[M];
  Set pile[M];
  Set known[M];
  // phase one: the trick
  Set contributed[M];
  Set trick_cards;
  Set trick_ranks;
  // between the phases and phase two
  Set dreck;
  Set killed;
  Set table[M];  // the plays on the table, the lead first (each one card or a run)
  int32_t actions;       // actions taken (the length of the Python history)
  int32_t action_limit;  // abandon the deal when `actions` reaches it
  int16_t tricks;
  uint16_t pending;      // the seats still to answer in the open sluff window
  uint16_t blue;         // the Blåmattis seats yet to pick up (empty_hand = blamattis)
  uint8_t stock[kCards];  // the undealt cards in drawing order: stock[stock_top] is drawn next
  int8_t stock_top, stock_end;
  int8_t players, dealer, first_leader, phase, to_act;
  int8_t leader, round_seat[M], n_round_seats, round_pos, round_high;
  int8_t round_card_seat[kRoundCards], round_card[kRoundCards], n_round_cards;
  int8_t winner, last_winner, window_start;
  int8_t trump_card, trump_holder, trump_suit;
  int8_t table_owner[M], n_table, kill_at;
  int8_t out_order[M], n_out;
  int8_t needy[M], n_needy;
  int8_t loser;  // -1: none (yet, or abandoned)
  int8_t last_put;  // the card last put into the trick (played, turned up or sluffed; sluff_last_rank)
  bool abandoned;
  bool ask_all;  // State.new(ask_every_seat=True): every seat holding cards is asked in each window
  int8_t reserve_top, reserve_end;  // the avstickshög: stock[reserve_top..reserve_end), before the stock
  EventLog* log;  // where events go; nullptr in random playouts

  // Stock cards that can neither be turned up nor replace a sluff: the bottom card, the trump
  // card to be (none when it was set aside at the deal; Undealt.spare).
  int spare() const { return rules.bottom_aside ? 0 : 1; }

  int stock_count() const { return stock_end - stock_top; }
  bool reserve_left() const { return rules.reserve && reserve_top != reserve_end; }

  // The phase-one strength of rank r (Trick.strength: aces 1 under aces_low_first; 0 for none).
  int power(int r) const { return (rules.aces_low_first && r == 14) ? 1 : r; }

  // State.new: `deck` is the 52 cards in dealing order, dealt one at a time clockwise from the
  // dealer's left, hand_size each (three in every preset); the rest is the stock, top card first.
  // The caller checks the arguments (seats 0..players-1, players within the preset's range, the
  // deck a permutation) and sets `rules` first for RuntimeRules (kept across the reset below).
  void init(int n, const uint8_t* deck, int dealer_seat, int leader_seat, int limit, bool ask_every_seat = false) {
    const R options = rules;  // (no bytes for a preset policy)
    std::memset(static_cast<void*>(this), 0, sizeof(*this));
    rules = options;
    ask_all = ask_every_seat;
    players = int8_t(n);
    dealer = int8_t(dealer_seat);
    first_leader = int8_t(leader_seat >= 0 ? leader_seat : (dealer_seat + 1) % n);
    action_limit = limit;
    int dealt = n * rules.hand_size;
    for (int i = 0; i < dealt; ++i) hand[(dealer_seat + 1 + i) % n] |= bit(deck[i]);
    for (int i = dealt; i < kCards; ++i) stock[i - dealt] = deck[i];
    reserve_top = 0;
    reserve_end = int8_t(rules.reserve);  // the avstickshög: the next cards after the hands
    stock_top = reserve_end;
    stock_end = int8_t(kCards - dealt);
    trump_card = trump_holder = trump_suit = -1;
    if (rules.bottom_aside) trump_card = int8_t(stock[--stock_end]);  // the bottom card, set aside
    if (rules.beat) trump_suit = int8_t(suit_of(stock[stock_end - 1]));  // Mas: turned up at the deal
    if (rules.lowest_card_leads && leader_seat < 0) first_leader = int8_t(lowest_card_holder());
    last_winner = -1;
    loser = -1;
    phase = ONE;
    log = nullptr;
    start_trick(first_leader);
  }

  // The seat dealt the lowest card (aces 1 under aces_low_first), the first such seat from the
  // dealer's left on a tie (state.py _lowest_card_holder; pagat.com, "Lowest card or loser leads").
  int lowest_card_holder() const {
    int best = 99, best_seat = (dealer + 1) % players;
    for (int i = 0; i < players; ++i) {
      int s = (dealer + 1 + i) % players;
      for (Set m = hand[s]; m; m &= m - 1) {
        int r = power(rank_of(lowest(m)));
        if (r < best) {
          best = r;
          best_seat = s;
        }
      }
    }
    return best_seat;
  }

  void ev(int kind, int seat, Set cards) {
    if (log) log->push(kind, seat, cards);
  }

  // ---- phase one (phase_one.py, class Trick) ----

  void clear_trick() {  // Trick._clear
    for (int s = 0; s < M; ++s) contributed[s] = 0;
    n_round_cards = 0;
    trick_cards = 0;
    trick_ranks = 0;
    round_high = 0;
    winner = -1;
    pending = 0;
    last_put = -1;
    if constexpr (kSluffMemory) {
      this->sluffed = 0;
      this->played = 0;
      this->occasion = -1;
      this->occasion_hand = 0;
      this->tie_rank = 0;
    }
  }

  void start_trick(int lead) {  // Trick.start
    clear_trick();
    leader = int8_t(lead);
    if constexpr (kSplit) {
      if (rules.skip_empty) {
        this->n_rounds = 1;
        if (stock_top == stock_end) {  // once the stock is gone, seats without cards are skipped
          int k = 0;
          for (int i = 0; i < players; ++i) {
            int s = (lead + i) % players;
            if (hand[s]) round_seat[k++] = int8_t(s);
          }
          n_round_seats = int8_t(k);
          if (k < 2) {
            last_holder_collects();
            return;
          }
          round_pos = 0;
          advance_one();
          return;
        }
      }
    }
    if (rules.all_play) {
      for (int i = 0; i < players; ++i) round_seat[i] = int8_t((lead + i) % players);
      n_round_seats = players;
    } else {
      round_seat[0] = int8_t(lead);
      round_seat[1] = int8_t((lead + 1) % players);
      n_round_seats = 2;
    }
    round_pos = 0;
    advance_one();
  }

  // Koira, once at most one seat holds cards: its cards go to its pile and phase one is over
  // (Trick._last_holder_collects; ruling K1).
  void last_holder_collects() {
    for (int s = 0; s < players; ++s) {
      if (hand[s]) {
        pile[s] |= hand[s];
        ev(EV_WIN, s, hand[s]);
        hand[s] = 0;
      }
    }
    round_seat[0] = leader;
    n_round_seats = 1;
    round_pos = 0;
    end_phase_one();
  }

  // Trick._next_trick: Koira's leader without cards once the stock is gone passes the lead on.
  void next_trick(int lead) {
    // stock_end = stop: phase one ends once the stock is gone; stop-unless-two: unless every seat
    // holds two cards or more
    if ((rules.stock_stop || rules.stop_unless_two) && stock_top == stock_end) {
      bool stop = rules.stock_stop;
      for (int s = 0; s < players && !stop; ++s) stop = popcount(hand[s]) < 2;
      if (stop) {
        clear_trick();
        leader = int8_t(lead);
        round_seat[0] = int8_t(lead);
        n_round_seats = 1;
        round_pos = 0;
        end_phase_one();
        return;
      }
    }
    if constexpr (kSplit) {
      if (rules.skip_empty) {
        if (!hand[lead] && stock_top == stock_end) {
          int nxt = (lead + 1) % players;
          while (nxt != lead && !hand[nxt]) nxt = (nxt + 1) % players;
          lead = nxt;
        }
      }
    }
    start_trick(lead);
  }

  void advance_one() {  // Trick._advance_one
    if (pending) {
      to_act = int8_t(first_pending());
      return;
    }
    if (winner >= 0) {
      collect();
      return;
    }
    int s = round_seat[round_pos];
    // the last stock card cannot be turned up (it is the trump card)
    if (!hand[s] && !(rules.turn_from_stock && stock_count() > spare())) {
      if constexpr (kSplit) {
        if (rules.skip_empty) {
          if (this->n_rounds > 1) {  // Trick._split_trick: a tied seat ran out settling the tie
            for (int i = 0; i < n_round_seats; ++i) needy[i] = round_seat[i];
            n_needy = int8_t(n_round_seats);
            this->chance_cards = trick_cards;
            phase = DRECK_DEAL;
            to_act = kChance;
            return;
          }
        }
      }
      end_phase_one();
      return;
    }
    to_act = int8_t(s);
  }

  int first_pending() const {  // Trick.first_pending
    int s = window_start;
    for (int i = 0; i < players; ++i) {
      if (pending >> s & 1) return s;
      s = s + 1 < players ? s + 1 : 0;
    }
    return -1;  // not reached: pending is not empty
  }

  // The cards `s` must play under "match if you can": those of the round's highest rank.
  Set must_match(int s) const {  // Trick._must_match
    if (!rules.must_match || !round_high) return 0;
    return hand[s] & rank_mask(round_high);
  }

  bool due(int s) const {  // Trick._due
    if (winner >= 0) return false;
    for (int i = round_pos; i < n_round_seats; ++i)
      if (round_seat[i] == s) return true;
    return false;
  }

  bool contender(int s) const {  // Trick._contender
    if (winner >= 0) return false;
    if (due(s)) return true;
    for (int i = 0; i < n_round_cards; ++i)
      if (round_card_seat[i] == s && rank_of(round_card[i]) == round_high) return true;
    return false;
  }

  // The cards `s` may sluff now (Trick.sluffable; Flurst, "Sloughing" and its two restrictions).
  Set sluffable(int s) const {
    if (!rules.sluffing || phase != ONE || !trick_cards) return 0;
    if (rules.sluff_settled_only && winner < 0) return 0;
    Set m = hand[s] & trick_ranks;
    if (rules.sluff_last_rank && m) m &= rank_mask(rank_of(last_put));
    if constexpr (kSluffMemory) {
      if (rules.sluff_once && m && (this->sluffed >> s & 1)) {
        if (this->occasion != s) return 0;
        m &= this->occasion_hand;  // not the cards drawn to replace this occasion's sluffs
      }
      if (rules.sluff_after_play && m && !(this->played >> s & 1)) return 0;
      if (rules.sluff_losing_only && m) {  // Trick._winning_rank
        int r = n_round_cards ? round_high : this->tie_rank;
        if (r) m &= ~rank_mask(r);
      }
    }
    if (!m || winner >= 0) return m;
    // sluff_guard_high: not the cards of the round's highest rank (the forced match under must_match)
    if (rules.sluff_guard_high && round_high && due(s)) m &= ~(hand[s] & rank_mask(round_high));
    bool last = stock_count() <= spare();  // the stock cannot replace a sluffed card
    if (rules.sluff_guard_last && m && last && contender(s)) return 0;
    // sluff_guard_last_card: a seat due to play keeps its only card when it would beat or tie
    if (rules.sluff_guard_last_card && m && last && due(s) && popcount(hand[s]) == 1 && round_high &&
        power(rank_of(highest(hand[s]))) >= power(round_high))
      return 0;
    return m;
  }

  // Undealt.draw: the top stock card into the hand; the last one is the trump card, set aside
  // face down (or shown as it is drawn: trump_shown_when_drawn); with bottom_aside every stock
  // card is drawn.
  void draw(int s) {
    if (stock_top == stock_end) return;
    int c = stock[stock_top++];
    if (rules.bottom_aside || stock_top != stock_end) {
      hand[s] |= bit(c);
      ev(EV_DRAW, s, bit(c));
    } else if (rules.beat) {  // Mas: the turned-up trump is drawn into the hand, face up
      hand[s] |= bit(c);
      known[s] |= bit(c);
      trump_card = int8_t(c);
      trump_holder = int8_t(s);
      ev(EV_DRAW, s, bit(c));
    } else {
      trump_card = int8_t(c);
      trump_holder = int8_t(s);
      if (rules.trump_shown_when_drawn) {
        trump_suit = int8_t(suit_of(c));
        ev(EV_TRUMP_DRAWN, s, bit(c));
      } else {
        ev(EV_TRUMP_ASIDE, s, 0);
      }
    }
  }

  // `cards`: the whole play when max_equal_play > 1 (`card` its highest card), else unused.
  void play_one(int s, int card, Set cards = 0) {  // Trick.play
    int c;
    if (card >= 0) {
      c = card;
      if (rules.max_equal_play > 1) {
        hand[s] ^= cards;
        known[s] &= ~cards;
        ev(EV_PLAY, s, cards);
        for (Set m = cards ^ bit(c); m; m &= m - 1) {  // two or three of one rank: each replaced
          round_card_seat[n_round_cards] = int8_t(s);
          round_card[n_round_cards] = int8_t(lowest(m));
          ++n_round_cards;
          draw(s);
        }
        trick_cards |= cards;
        contributed[s] |= cards;
      } else {
        hand[s] ^= bit(c);
        known[s] &= ~bit(c);
        ev(EV_PLAY, s, bit(c));
      }
      draw(s);
    } else {
      c = stock[stock_top++];
      ev(EV_STOCK, s, bit(c));
    }
    round_card_seat[n_round_cards] = int8_t(s);
    round_card[n_round_cards] = int8_t(c);
    ++n_round_cards;
    ++round_pos;
    trick_cards |= bit(c);
    trick_ranks |= rank_mask(rank_of(c));
    contributed[s] |= bit(c);
    if (rules.sluff_last_rank) last_put = int8_t(c);
    if constexpr (kSluffMemory) this->played |= uint16_t(1u << s);
    int r = rank_of(c);
    if (power(r) > power(round_high)) round_high = int8_t(r);
    if (round_pos == n_round_seats) resolve_round();
    if (rules.sluffing) open_window(s);
    advance_one();
  }

  // A complete round: one highest card wins; a tie (a bounce, a war) makes the tied seats play
  // again, in the order they played (Trick._resolve_round).
  void resolve_round() {
    int8_t top[M] = {};
    int k = 0;
    for (int i = 0; i < n_round_cards; ++i) {
      if (rank_of(round_card[i]) == round_high) {
        int8_t s = round_card_seat[i];
        bool seen = false;
        for (int j = 0; j < k; ++j) seen |= top[j] == s;
        if (!seen) top[k++] = s;
      }
    }
    if (k == 1) {
      winner = top[0];
      return;
    }
    ev(rules.all_play ? EV_WAR : EV_BOUNCE, top[0], 0);
    if constexpr (kSluffMemory) this->tie_rank = round_high;
    if constexpr (kSplit) this->n_rounds = int16_t(this->n_rounds + rules.skip_empty);
    for (int j = 0; j < k; ++j) round_seat[j] = top[j];
    n_round_seats = int8_t(k);
    round_pos = 0;
    n_round_cards = 0;
    round_high = 0;
  }

  // A sluff window after seat `after` acted: every seat that can sluff (Trick._open_window, the
  // sequential protocol).
  void open_window(int after) {
    uint16_t p = 0;
    for (int s = 0; s < players; ++s)  // ask_all: every seat holding cards, whatever it holds
      if (ask_all ? hand[s] != 0 : sluffable(s) != 0) p |= uint16_t(1u << s);
    pending = p;
    window_start = int8_t(after + 1 < players ? after + 1 : 0);
  }

  void sluff(int s, int c) {  // Trick.sluff
    if constexpr (kSluffMemory) {
      if (this->occasion != s) this->occasion_hand = hand[s];  // the hand before this sluff
      this->sluffed |= uint16_t(1u << s);
      this->occasion = int8_t(s);
    }
    hand[s] ^= bit(c);
    known[s] &= ~bit(c);
    trick_cards |= bit(c);
    contributed[s] |= bit(c);
    if (rules.sluff_last_rank) last_put = int8_t(c);
    ev(EV_SLUFF, s, bit(c));
    draw(s);
    if (!pending) window_start = int8_t(s);
    uint16_t keep = 0;
    for (int seat = 0; seat < players; ++seat)  // ask_all: nobody leaves but by passing (or with no cards)
      if (((pending >> seat & 1) || seat == s) && (ask_all ? hand[seat] != 0 : sluffable(seat) != 0))
        keep |= uint16_t(1u << seat);
    pending = keep;
    advance_one();
  }

  void pass(int s) {  // Trick.pass_
    pending &= uint16_t(~(1u << s));
    if constexpr (kSluffMemory) {  // a pass may end another seat's sluff_once occasion (ruling E18)
      if (pending && !ask_all)
        for (int seat = 0; seat < players; ++seat)
          if ((pending >> seat & 1) && !sluffable(seat)) pending &= uint16_t(~(1u << seat));
    }
    ev(EV_PASS, s, 0);
    advance_one();
  }

  // ---- Mas (first_phase = beat) ----

  void draw_up(int s) {  // Undealt.draw_up
    while (stock_top != stock_end && popcount(hand[s]) < rules.hand_size) draw(s);
  }

  Set beaters(Set h) const {  // Trick._beaters
    int led = round_card[0];
    int suit = suit_of(led);
    Set m = h & suit_mask(suit) & ~((Set(2) << led) - 1);
    if (suit != trump_suit) m |= h & suit_mask(trump_suit);
    return m;
  }

  bool can_store(int s) const {  // Trick._can_store
    return popcount(hand[s]) == 3 && !(hand[s] & ~suit_mask(trump_suit)) && stock_count() >= 3;
  }

  void play_beat(int s, int c) {  // Trick._play_beat
    hand[s] ^= bit(c);
    known[s] &= ~bit(c);
    ev(EV_PLAY, s, bit(c));
    draw_up(s);
    round_card_seat[n_round_cards] = int8_t(s);
    round_card[n_round_cards] = int8_t(c);
    ++n_round_cards;
    ++round_pos;
    trick_cards |= bit(c);
    contributed[s] |= bit(c);
    if (round_pos == 2) winner = int8_t(s);
    advance_one();
  }

  void act_beat(int s, int kind) {  // Trick.act_beat
    if (kind == PICK_UP) {
      Set led = trick_cards;
      hand[s] |= led;
      known[s] |= led;
      ev(EV_PICK_UP, s, led);
      int nxt = (s + 1) % players;
      clear_trick();
      if (stock_top == stock_end) {  // the turned-up trump was drawn in this trick: phase one ends
        leader = int8_t(nxt);
        round_seat[0] = int8_t(nxt);
        n_round_seats = 1;
        round_pos = 0;
        end_phase_one();
        return;
      }
      start_trick(nxt);
      return;
    }
    if (kind == STORE) {
      Set stored = hand[s];
      hand[s] = 0;
      known[s] &= ~stored;
      pile[s] |= stored;
      ev(EV_STORE, s, stored);
      draw_up(s);
      return;
    }
    // EXCHANGE: the 2 of trumps goes face up under the stock, the turned-up trump to the hand
    int two = trump_suit * 13;
    int turned = stock[stock_end - 1];
    hand[s] ^= bit(two) | bit(turned);
    known[s] = (known[s] & ~bit(two)) | bit(turned);
    stock[stock_end - 1] = uint8_t(two);
    ev(EV_EXCHANGE, s, bit(two) | bit(turned));
  }

  void collect() {  // Trick._collect
    int w = winner;
    pile[w] |= trick_cards;
    last_winner = int8_t(w);
    ++tricks;
    ev(EV_WIN, w, trick_cards);
    next_trick(w);
  }

  void end_phase_one() {  // Trick._end_phase_one
    int n = players;
    int due_seat = round_seat[round_pos];
    ev(EV_END_ONE, due_seat, 0);
    for (int s = 0; s < n; ++s) {
      Set back = contributed[s];
      if (back) {
        hand[s] |= back;
        known[s] |= back;
        ev(EV_TAKE_BACK, s, back);
      }
      if (rules.expose_leftover && hand[s]) {
        known[s] |= hand[s];
        ev(EV_EXPOSED, s, hand[s]);
      }
    }
    while (stock_top != stock_end) draw(due_seat);
    clear_trick();
    for (int s = 0; s < n; ++s) {
      hand[s] |= pile[s];
      known[s] |= pile[s];
      pile[s] = 0;
    }
    if (trump_card >= 0) {  // turned face up (pagat) or only its suit announced (goat)
      trump_suit = int8_t(suit_of(trump_card));
      if (rules.bottom_aside) {  // set aside at the deal: it names the suit, then leaves the game
        killed |= bit(trump_card);
      } else if (!rules.beat) {  // (Mas drew it into the hand face up, and it may have been played since)
        hand[trump_holder] |= bit(trump_card);
        if (rules.show_trump_card) known[trump_holder] |= bit(trump_card);
      }
      ev(EV_TRUMP, trump_holder, bit(trump_card));
    }
    redistribute_dreck();
  }

  int second_leader() const {  // Trick._second_leader
    if (rules.trump_drawer_leads && trump_holder >= 0) return trump_holder;
    return last_winner >= 0 ? last_winner : first_leader;
  }

  // The dreck: seats with fewer than dreck_below cards get every card of rank 2..dreck_max_rank
  // and the trump of dreck_trump_rank, dealt round (Trick._redistribute_dreck; Flurst, "Make sure
  // everyone has at least six cards").
  void redistribute_dreck() {
    n_needy = 0;
    int below = rules.dreck_below;
    if (below < 0) below = trump_card >= 0 ? rank_of(trump_card) : 0;  // the trump card's rank
    if (below) {
      for (int i = 0; i < players; ++i) {
        int s = (dealer + 1 + i) % players;
        if (popcount(hand[s]) < below) needy[n_needy++] = int8_t(s);
      }
    }
    if (!n_needy) {
      start_two(second_leader());
      return;
    }
    Set d = 0;
    for (int r = 2; r <= rules.dreck_max_rank; ++r) d |= rank_mask(r);
    if (rules.dreck_trump_rank && trump_suit >= 0) d |= bit(trump_suit * 13 + rules.dreck_trump_rank - 2);
    d &= ~killed;
    for (int s = 0; s < players; ++s) {
      hand[s] &= ~d;
      known[s] &= ~d;
    }
    dreck = d;
    ev(EV_DRECK, -1, d);
    if (n_needy == 1) {
      uint8_t order[kCards];
      int k = 0;
      for (Set m = d; m; m &= m - 1) order[k++] = uint8_t(lowest(m));
      give_dreck(order, k);
      return;
    }
    phase = DRECK_DEAL;
    to_act = kChance;
  }

  // Deal the dreck in `order` (the chance action's shuffle) round the needy seats
  // (Trick._give_dreck), then phase two.
  void give_dreck(const uint8_t* order, int k) {
    if (rules.dreck_remainder_aside && k % n_needy) {  // the last cards dealt join the first kill
      int keep = k - k % n_needy;
      Set aside = 0;
      for (int i = keep; i < k; ++i) aside |= bit(order[i]);
      killed |= aside;
      k = keep;
      ev(EV_DRECK_ASIDE, -1, aside);
    }
    Set share[M] = {};
    for (int i = 0; i < k; ++i) share[i % n_needy] |= bit(order[i]);
    for (int j = 0; j < n_needy; ++j) hand[needy[j]] |= share[j];
    if (n_needy == 1) known[needy[0]] |= dreck;
    ev(EV_DRECK_DEALT, -1, 0);
    if (n_needy > 1)
      for (int j = 0; j < n_needy; ++j) ev(EV_DRECK_SHARE, needy[j], share[j]);
    phase = TWO;
    start_two(second_leader());
  }

  // ---- phase two (phase_two.py, class Table) ----

  // Seats.next_active, Seats.in_game: a seat is in the game while it holds cards or is a
  // Blåmattis yet to pick up.
  bool active(int s) const { return hand[s] != 0 || (rules.blamattis && (blue >> s & 1)); }

  int next_active(int seat) const {
    int s = (seat + 1) % players;
    while (!active(s) && s != seat) s = (s + 1) % players;
    return s;
  }

  int in_game() const {
    int k = 0;
    for (int s = 0; s < players; ++s) k += hand[s] != 0;
    if (rules.blamattis) k += popcount(blue);
    return k;
  }

  void finish(int who) {  // State.finish
    phase = OVER;
    to_act = kOverSeat;
    loser = int8_t(who);
    pending = 0;
    if (who >= 0) ev(EV_LOSER, who, 0);
  }

  void start_two(int lead) {  // Table.start
    int n = players;
    phase = TWO;
    n_table = 0;
    for (int i = 0; i < n; ++i) {  // seats without cards are out (safe) or a Blåmattis
      int s = (dealer + 1 + i) % n;
      if (!hand[s]) {
        if (rules.empty_loses) {  // empty_hand = loses: the first such seat loses at once
          ev(EV_BLAMATTIS, s, 0);
          finish(s);
          return;
        }
        if (rules.blamattis) {
          blue |= uint16_t(1u << s);
          ev(EV_BLAMATTIS, s, 0);
        } else {
          out_order[n_out++] = int8_t(s);
          ev(EV_OUT, s, 0);
        }
      }
    }
    int holding = -1, count = 0;
    for (int s = 0; s < n; ++s) {
      if (hand[s]) {
        if (holding < 0) holding = s;
        ++count;
      }
    }
    if (rules.blamattis ? (count + popcount(blue) <= 1 || !count) : count <= 1) {
      finish(holding);
      return;
    }
    if (!hand[lead]) lead = next_active(lead);
    lead_two(lead, rules.blamattis ? count + popcount(blue) : count);  // Seats.in_game
  }

  void lead_two(int lead, int active) {  // Table._lead_two
    kill_at = int8_t(active);
    n_table = 0;
    if (rules.blamattis)  // a Blåmattis has nothing to lead: the next seat in the game leads
      while (blue >> lead & 1) lead = next_active(lead);
    to_act = int8_t(lead);
  }

  // The cards of `h` that may take part in a beat of the top play: higher cards of its suit than
  // its highest, or any trump on a non-trump (Table.beat_candidates).
  Set beat_candidates(Set h) const {
    int th = highest(table[n_table - 1]);
    int ts = th / 13;
    Set m = h & suit_mask(ts) & ~((bit(th) << 1) - 1);
    if (ts != trump_suit) m |= h & suit_mask(trump_suit);
    return m;
  }

  void play_two(int s, Set cards) {  // Table.play
    Set left = hand[s] ^ cards;
    hand[s] = left;
    known[s] &= ~cards;
    ev(n_table ? EV_BEAT : EV_LEAD, s, cards);
    table[n_table] = cards;
    table_owner[n_table] = int8_t(s);
    ++n_table;
    int k = popcount(left);
    if (k == 3) {
      ev(EV_THREE_CARDS, s, 0);
    } else if (k == 1) {
      ev(EV_ONE_CARD, s, 0);
    } else if (k == 0 && !reserve_left()) {  // with an avstickshög left a seat is not out yet
      out_order[n_out++] = int8_t(s);
      ev(EV_OUT, s, 0);
      if (in_game() == 1) {
        if (n_table >= kill_at) kill(s);
        finish(next_active(s));
        return;
      }
    }
    if (n_table >= kill_at) {
      kill(s);
      if (reserve_left()) {
        draw_reserve(s);
        if (phase == OVER) return;
      }
      lead_two(hand[s] ? s : next_active(s), in_game());
      return;
    }
    if (rules.blamattis && blue) {
      to_act = int8_t(next_active(s));
      return;
    }
    int nxt = s + 1 < players ? s + 1 : 0;
    while (!hand[nxt]) nxt = nxt + 1 < players ? nxt + 1 : 0;
    to_act = int8_t(nxt);
  }

  void kill(int s) {  // Table._kill
    Set cards = 0;
    for (int i = 0; i < n_table; ++i) cards |= table[i];
    killed |= cards;
    ++tricks;
    ev(EV_KILL, s, cards);
    n_table = 0;
  }

  // Undealt.draw_reserve: after a kill each of the two seats draws one card of the avstickshög,
  // `last` (the seat that played last) first; once it is empty a seat without cards is out and
  // the other loses.
  void draw_reserve(int last) {
    const int pair[2] = {last, 1 - last};
    for (int seat : pair) {
      if (reserve_top != reserve_end) {
        int c = stock[reserve_top++];
        hand[seat] |= bit(c);
        ev(EV_RESERVE_DRAW, seat, bit(c));
      }
    }
    if (reserve_top != reserve_end) return;
    for (int seat : pair) {
      bool out = false;
      for (int i = 0; i < n_out; ++i) out |= out_order[i] == seat;
      if (!hand[seat] && !out) {
        out_order[n_out++] = int8_t(seat);
        ev(EV_OUT, seat, 0);
      }
    }
    int holding = -1, count = 0;
    for (int seat : pair)
      if (hand[seat]) {
        if (holding < 0) holding = seat;
        ++count;
      }
    if (count == 1) finish(holding);
  }

  // phase_two.pick_up_take: what a pick-up takes from `plays` (n > 0 plays, the lead first) under
  // the pick_up option, and how many plays go: `below` from the bottom, `above` from the top.  The
  // top play (top-card); the top play with the plays below it that continue its run downwards
  // (top-run); the bottom play (bottom-play); the lowest card of the bottom play, which goes only
  // when that was its last card (lowest-card); the bottom play with the plays above it that
  // continue its run upwards (lowest-run).  Not a Blåmattis's first pick-up (pick_up below).
  Set pick_up_take(const Set* plays, int n, int& below, int& above) const {
    below = above = 0;
    if (rules.pick_lowest_card) {
      Set take = plays[0] & (~plays[0] + 1);
      below = plays[0] == take;
      return take;
    }
    if (rules.pick_bottom_play) {
      below = 1;
      return plays[0];
    }
    if (rules.pick_top_run) {
      Set take = plays[n - 1];
      int lo = lowest(take);
      int j = n - 2;
      while (j >= 0) {
        Set under = plays[j];
        if (highest(under) != lo - 1 || lo % 13 == 0) break;
        take |= under;
        lo = lowest(under);
        --j;
      }
      above = n - 1 - j;
      return take;
    }
    if (!rules.pick_lowest_run) {
      above = 1;
      return plays[n - 1];
    }
    Set take = plays[0];
    int hi = highest(take);
    int j = 1;
    while (j < n) {
      Set nxt = plays[j];
      if (lowest(nxt) != hi + 1 || hi % 13 == 12) break;
      take |= nxt;
      hi = highest(nxt);
      ++j;
    }
    below = j;
    return take;
  }

  // Table.pick_up: what pick_up_take says, or a Blåmattis's first pick-up: the lowest card on the
  // table.
  void pick_up(int s) {
    // two seats with an avstickshög: picking up a last card led loses at once
    bool led_last = reserve_left() && n_table == 1 && !hand[table_owner[0]];
    Set take;
    int below, above;
    if (rules.blamattis && (blue >> s & 1)) {  // a Blåmattis's first turn: the lowest card on the table
      blue ^= uint16_t(1u << s);
      take = table[0] & (~table[0] + 1);
      below = table[0] == take;
      above = 0;
    } else {
      take = pick_up_take(table, n_table, below, above);
    }
    table[0] &= ~take;  // a partly taken bottom play keeps its other cards (no-op otherwise)
    if (below) {
      for (int i = below; i < n_table; ++i) {
        table[i - below] = table[i];
        table_owner[i - below] = table_owner[i];
      }
    }
    n_table = int8_t(n_table - below - above);
    hand[s] |= take;
    known[s] |= take;
    ev(EV_PICK_UP, s, take);
    if (rules.reserve && led_last) {
      out_order[n_out++] = int8_t(1 - s);
      ev(EV_OUT, 1 - s, 0);
      finish(s);
      return;
    }
    if (n_table) {
      to_act = int8_t(next_active(s));
    } else {
      ++tricks;
      lead_two(next_active(s), in_game());
    }
  }

  // ---- the contract: legal actions, random actions, a step ----

  // The legal actions of the seat to act, as codes in the order the Python engine lists them
  // (State.legal_actions); returns how many (at most kMaxLegal).  None at a chance action or
  // once the deal is over.
  int legal(Code* out) const {
    int k = 0;
    int s = to_act;
    if (rules.beat && phase == ONE) {  // Mas: Trick._legal_beat
      Set h = hand[s];
      Set m = n_round_cards ? beaters(h) : h;
      for (; m; m &= m - 1) out[k++] = code_of(PLAY, bit(lowest(m)));
      if (n_round_cards) out[k++] = code_of(PICK_UP, 0);
      if (rules.store_three_trumps && can_store(s)) out[k++] = code_of(STORE, 0);
      if (rules.exchange_two && stock_count() && (h >> (trump_suit * 13) & 1)) out[k++] = code_of(EXCHANGE, 0);
      return k;
    }
    if (phase == ONE) {
      if (!pending) {
        Set forced = must_match(s);
        for (Set m = forced ? forced : hand[s]; m; m &= m - 1) out[k++] = code_of(PLAY, bit(lowest(m)));
        if (rules.max_equal_play > 1) k = append_equal(forced ? forced : hand[s], out, k);
        if (!forced && rules.turn_from_stock && stock_count() > spare()) out[k++] = code_of(STOCK, 0);
      }
      if (rules.sluffing) {
        for (Set m = sluffable(s); m; m &= m - 1) out[k++] = code_of(SLUFF, bit(lowest(m)));
        if (pending >> s & 1) out[k++] = code_of(PASS, 0);
      }
    } else if (phase == TWO) {
      if (rules.blamattis && n_table && (blue >> s & 1)) {  // a Blåmattis must pick up
        out[k++] = code_of(PICK_UP, 0);
        return k;
      }
      Set m = n_table ? beat_candidates(hand[s]) : hand[s];
      if (rules.runs) {
        k = append_runs(m, out, k, rules.min_run, rules.run_from_two);
      } else {
        for (; m; m &= m - 1) out[k++] = code_of(PLAY, bit(lowest(m)));
      }
      if (n_table) out[k++] = code_of(PICK_UP, 0);
    }
    return k;
  }

  // Plays of two to max_equal_play cards of one rank of `hand`, rank by rank from the 2s, each
  // rank's by size and then by card set (Trick.legal with _subsets).
  int append_equal(Set hand, Code* out, int k) const {
    for (int r = 2; r <= 14; ++r) {
      Set same = hand & rank_mask(r);
      if (popcount(same) < 2) continue;
      for (int n = 2; n <= rules.max_equal_play; ++n) {
        Set subs[16];
        int ns = 0;
        for (Set sub = same; sub; sub = (sub - 1) & same)
          if (popcount(sub) == n) subs[ns++] = sub;
        for (int i = ns - 1; i >= 0; --i) out[k++] = code_of(PLAY, subs[i]);  // found largest first
      }
    }
    return k;
  }

  bool is_legal(Code code) const {
    Code acts[kMaxLegal];
    int k = legal(acts);
    for (int i = 0; i < k; ++i)
      if (acts[i] == code) return true;
    return false;
  }

  // A legal action of the seat to act drawn uniformly (a seat must be to act).
  Code random_action(Rng& rng) const {
    int s = to_act;
    if (rules.max_equal_play > 1 || rules.beat) {  // drawn uniformly from the whole list
      if (phase == ONE) {
        Code acts[kMaxLegal];
        return acts[rng.below(legal(acts))];
      }
    }
    if (phase == ONE) {
      if (!rules.sluffing || !pending) {
        Set forced = must_match(s);
        Set m = forced ? forced : hand[s];
        Set sl = rules.sluffing ? sluffable(s) : 0;
        int extra = !forced && rules.turn_from_stock && stock_count() > spare();
        int k = popcount(m), ks = popcount(sl);
        int i = rng.below(k + extra + ks);
        if (i < k) return code_of(PLAY, bit(nth_bit(m, i)));
        if (i < k + extra) return code_of(STOCK, 0);
        return code_of(SLUFF, bit(nth_bit(sl, i - k - extra)));
      }
      Set sl = sluffable(s);
      int ks = popcount(sl);
      int i = rng.below(ks + 1);  // the seat asked is pending: it may pass
      return i < ks ? code_of(SLUFF, bit(nth_bit(sl, i))) : code_of(PASS, 0);
    }
    if (rules.blamattis && n_table && (blue >> s & 1)) return code_of(PICK_UP, 0);
    Set m = n_table ? beat_candidates(hand[s]) : hand[s];
    if (rules.runs && (rules.min_run != 2 || rules.run_from_two)) {  // drawn from the listed actions
      Code acts[kMaxLegal];
      return acts[rng.below(legal(acts))];
    }
    if (rules.runs) {
      int k = count_runs(m);
      int i = rng.below(k + (n_table ? 1 : 0));
      return i < k ? code_of(PLAY, nth_run(m, i)) : code_of(PICK_UP, 0);
    }
    int k = popcount(m);
    int i = rng.below(k + (n_table ? 1 : 0));
    return i < k ? code_of(PLAY, bit(nth_bit(m, i))) : code_of(PICK_UP, 0);
  }

  void after_step() {  // State.step: the action limit
    if (actions >= action_limit && phase != OVER) {
      abandoned = true;
      finish(-1);
      ev(EV_ABANDONED, -1, 0);
    }
  }

  // Take a legal action (unchecked: see is_legal) for the seat to act (State.step).
  void step(Code code) {
    int s = to_act;
    int kind = kind_of(code);
    Set cards = cards_of(code);
    ++actions;
    if (phase == TWO) {
      if (kind == PLAY)
        play_two(s, cards);
      else
        pick_up(s);
    } else if (rules.beat) {
      if (kind == PLAY)
        play_beat(s, lowest(cards));
      else
        act_beat(s, kind);
    } else {
      if constexpr (kSluffMemory) {  // a sluffing occasion ends when anything else happens
        if (this->occasion >= 0 && (s != this->occasion || kind != SLUFF)) this->occasion = -1;
      }
      if (kind == PLAY) {
        if (rules.max_equal_play > 1)
          play_one(s, highest(cards), cards);
        else
          play_one(s, lowest(cards));
      } else if (kind == STOCK) {
        play_one(s, -1);
      } else if (kind == SLUFF) {
        sluff(s, lowest(cards));
      } else {
        pass(s);
      }
    }
    after_step();
  }

  // The cards the chance action must order: the dreck, or Koira's split (State.pending_deal).
  Set pending_deal() const {
    if constexpr (kSplit) {
      if (rules.skip_empty) {
        if (this->chance_cards) return this->chance_cards;
      }
    }
    return dreck;
  }

  // Koira's split in `order` round the tied seats' piles, then the next trick
  // (Trick.give_chance with chance_to_piles).
  void give_split(const uint8_t* order, int k) {
    Set got[M] = {};
    for (int i = 0; i < k; ++i) got[i % n_needy] |= bit(order[i]);
    for (int j = 0; j < n_needy; ++j) {
      pile[needy[j]] |= got[j];
      ev(EV_SPLIT, needy[j], got[j]);
    }
    int first = needy[0];
    if constexpr (kSplit) this->chance_cards = 0;
    n_needy = 0;
    phase = ONE;
    ++tricks;
    last_winner = int8_t(first);
    for (int s = 0; s < M; ++s) contributed[s] = 0;
    next_trick(first);
  }

  // The chance action: deal the dreck (or Koira's split) in `order` (k cards, exactly
  // pending_deal(); unchecked).
  void deal_chance(const uint8_t* order, int k) {
    ++actions;
    if constexpr (kSplit) {
      if (rules.skip_empty) {
        if (this->chance_cards) {
          give_split(order, k);
          after_step();
          return;
        }
      }
    }
    give_dreck(order, k);
    after_step();
  }

  void random_chance(Rng& rng) {
    uint8_t order[kCards];
    int k = 0;
    for (Set m = pending_deal(); m; m &= m - 1) order[k++] = uint8_t(lowest(m));
    for (int i = k - 1; i > 0; --i) {  // Fisher-Yates
      int j = rng.below(i + 1);
      uint8_t t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    deal_chance(order, k);
  }

  // As play_out, checking that every random action is among the legal actions: returns how many
  // were not (0 when random_action is right).  For tests and tools/playouts.cpp.
  int play_out_checked(Rng& rng) {
    int bad = 0;
    Code acts[kMaxLegal];
    while (phase != OVER) {
      if (phase == DRECK_DEAL) {
        random_chance(rng);
        continue;
      }
      Code a = random_action(rng);
      int k = legal(acts);
      bool found = false;
      for (int i = 0; i < k; ++i) found |= acts[i] == a;
      bad += !found;
      step(a);
    }
    return bad;
  }

  // Play random legal actions (and chance actions) until the deal is over; returns the actions
  // taken.
  int play_out(Rng& rng) {
    int start = actions;
    while (phase != OVER) {
      if (phase == DRECK_DEAL)
        random_chance(rng);
      else
        step(random_action(rng));
    }
    return actions - start;
  }
};

using Pagat = Game<PagatRules>;
using Goat = Game<GoatRules>;
using Catsatcards = Game<CatsatcardsRules>;
using TwoPlayer = Game<TwoPlayerRules>;
using Howell = Game<HowellRules>;
using CatsatcardsFlurst = Game<CatsatcardsFlurstRules>;
using Mattis = Game<MattisRules>;
using Atlanta = Game<AtlantaRules>;
using Koira = Game<KoiraRules>;
using Helmfrid = Game<HelmfridRules>;
using Mas = Game<MasRules>;

// A 52-card deck order shuffled by `rng` (Fisher-Yates).
inline void shuffle_deck(uint8_t* deck, Rng& rng) {
  for (int i = 0; i < kCards; ++i) deck[i] = uint8_t(i);
  for (int i = kCards - 1; i > 0; --i) {
    int j = rng.below(i + 1);
    uint8_t t = deck[i];
    deck[i] = deck[j];
    deck[j] = t;
  }
}

}  // namespace sg
