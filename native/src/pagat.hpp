// The compiled engine for the `pagat` preset (2 to 4 seats): the same decisions as the Python
// engine (src/skitgubbe/engine/state.py, phase_one.py class Trick, phase_two.py class Table,
// stock.py class Undealt) under the options of skitgubbe.engine.variants.PRESETS["pagat"].
//
// Rule source: pagat.com, Skitgubbe, "Play in the first phase" (two-card tricks, the bounce,
// turning up the stock, the last stock card) and "Play in the second phase" (single cards, pick
// up only the top card, the kill when a trick holds as many plays as seats held cards at its
// lead); the copy is in /work/shared/rules/pagat-skitgubbe.txt.
//
// Representation: a card is 0..51, `suit * 13 + rank - 2` (the Python engine's numbering); a
// card set is a uint64_t with bit i = card i.  The whole state is one flat struct of fixed size:
// nothing is allocated while a deal is played.
#pragma once

#include <cstdint>
#include <cstring>

namespace sg {

constexpr int kMaxSeats = 4;
constexpr int kCards = 52;
constexpr int kNoCard = 63;  // an action code's card field when the action names no card

// Action kinds: the integers of skitgubbe.engine.actions.Kind.
enum Kind : int { PLAY = 0, STOCK = 1, SLUFF = 2, PASS = 3, PICK_UP = 4 };
// Phases: the integers of skitgubbe.engine.base.Phase.
enum PhaseId : int { ONE = 1, DRECK = 2, TWO = 3, OVER = 4 };

// An action is coded as kind * 64 + card (card 0..51, or kNoCard): Action(kind, 1 << card).
inline int code_of(int kind, int card) { return kind * 64 + card; }

// The event kinds the Python engine reports for these rules (base.Event.kind).
enum EventKind : int {
  EV_PLAY, EV_DRAW, EV_STOCK, EV_TRUMP_ASIDE, EV_BOUNCE, EV_WIN, EV_END_ONE, EV_TAKE_BACK,
  EV_EXPOSED, EV_TRUMP, EV_OUT, EV_LEAD, EV_BEAT, EV_THREE_CARDS, EV_ONE_CARD, EV_KILL,
  EV_PICK_UP, EV_LOSER, EV_ABANDONED, EV_COUNT
};
inline const char* event_name(int k) {
  static const char* names[EV_COUNT] = {
      "play", "draw", "stock", "trump-aside", "bounce", "win", "end-one", "take-back",
      "exposed", "trump", "out", "lead", "beat", "three-cards", "one-card", "kill",
      "pick-up", "loser", "abandoned"};
  return names[k];
}

struct Event {
  int8_t kind;
  int8_t seat;
  uint64_t cards;
};

// The events of one step, in order (enough for the longest: the end of phase one).
struct EventLog {
  int n = 0;
  Event e[64];
  void push(int kind, int seat, uint64_t cards) {
    if (n < 64) e[n++] = Event{int8_t(kind), int8_t(seat), cards};
  }
};

constexpr uint64_t kSuitBits = (uint64_t(1) << 13) - 1;
inline uint64_t suit_mask(int s) { return kSuitBits << (13 * s); }
inline int rank_of(int c) { return c % 13 + 2; }
inline int suit_of(int c) { return c / 13; }
// The number of cards in m: the POPCNT instruction where the build targets it, else an inline
// SWAR count (the generic __builtin_popcountll would be a call into libgcc).
inline int popcount(uint64_t m) {
#if defined(__POPCNT__)
  return __builtin_popcountll(m);
#else
  m = m - ((m >> 1) & 0x5555555555555555ull);
  m = (m & 0x3333333333333333ull) + ((m >> 2) & 0x3333333333333333ull);
  m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return int((m * 0x0101010101010101ull) >> 56);
#endif
}
inline int lowest(uint64_t m) { return __builtin_ctzll(m); }
inline int highest(uint64_t m) { return 63 - __builtin_clzll(m); }
inline uint64_t bit(int c) { return uint64_t(1) << c; }

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

struct Pagat {
  // seats
  uint64_t hand[kMaxSeats];
  uint64_t pile[kMaxSeats];
  uint64_t known[kMaxSeats];
  // phase one: the trick
  uint64_t contributed[kMaxSeats];
  uint64_t trick_cards;
  // phase two
  uint64_t killed;
  int32_t actions;       // actions taken (the length of the Python history)
  int32_t action_limit;  // abandon the deal when `actions` reaches it
  int16_t tricks;
  uint8_t stock[kCards];  // the undealt cards in drawing order: stock[stock_top] is drawn next
  int8_t stock_top, stock_end;
  int8_t players, dealer, first_leader, phase, to_act;
  int8_t leader, round_seat[2], n_round_seats, round_pos, round_high;
  int8_t round_card_seat[2], round_card[2], n_round_cards;
  int8_t winner, last_winner;
  int8_t trump_card, trump_holder, trump_suit;
  int8_t table[8], table_owner[8], n_table, kill_at;
  int8_t out_order[kMaxSeats], n_out;
  int8_t loser;  // -1: none (yet, or abandoned)
  bool abandoned;
  EventLog* log;  // where events go; nullptr in random playouts

  int stock_count() const { return stock_end - stock_top; }

  // A new deal: `deck` is the 52 cards in dealing order (State.new's deck), dealt one at a time
  // clockwise from the dealer's left, three each; the rest is the stock, top card first.  The
  // caller checks the arguments.
  void init(int n, const uint8_t* deck, int dealer_seat, int leader_seat, int limit) {
    std::memset(this, 0, sizeof(*this));
    players = int8_t(n);
    dealer = int8_t(dealer_seat);
    first_leader = int8_t(leader_seat >= 0 ? leader_seat : (dealer_seat + 1) % n);
    action_limit = limit;
    int dealt = n * 3;
    for (int i = 0; i < dealt; ++i) hand[(dealer_seat + 1 + i) % n] |= bit(deck[i]);
    for (int i = dealt; i < kCards; ++i) stock[i - dealt] = deck[i];
    stock_top = 0;
    stock_end = int8_t(kCards - dealt);
    trump_card = trump_holder = trump_suit = -1;
    last_winner = -1;
    loser = -1;
    phase = ONE;
    log = nullptr;
    start_trick(first_leader);
  }

  void ev(int kind, int seat, uint64_t cards) {
    if (log) log->push(kind, seat, cards);
  }

  // ---- phase one (phase_one.py, class Trick) ----

  void clear_trick() {
    for (int s = 0; s < kMaxSeats; ++s) contributed[s] = 0;
    n_round_cards = 0;
    trick_cards = 0;
    round_high = 0;
    winner = -1;
  }

  void start_trick(int lead) {
    clear_trick();
    leader = int8_t(lead);
    round_seat[0] = int8_t(lead);
    round_seat[1] = int8_t((lead + 1) % players);
    n_round_seats = 2;
    round_pos = 0;
    advance_one();
  }

  void advance_one() {
    if (winner >= 0) {
      collect();
      return;
    }
    int s = round_seat[round_pos];
    // the last stock card cannot be turned up (it is the trump card)
    if (!hand[s] && !(stock_count() > 1)) {
      end_phase_one();
      return;
    }
    to_act = int8_t(s);
  }

  // Undealt.draw: the top stock card into the hand; the last one is the trump card, set aside
  // face down.
  void draw(int s) {
    if (stock_top == stock_end) return;
    int c = stock[stock_top++];
    if (stock_top != stock_end) {
      hand[s] |= bit(c);
      ev(EV_DRAW, s, bit(c));
    } else {
      trump_card = int8_t(c);
      trump_holder = int8_t(s);
      ev(EV_TRUMP_ASIDE, s, 0);
    }
  }

  void play_one(int s, int card) {
    int c;
    if (card != kNoCard) {
      c = card;
      hand[s] ^= bit(c);
      known[s] &= ~bit(c);
      ev(EV_PLAY, s, bit(c));
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
    contributed[s] |= bit(c);
    int r = rank_of(c);
    if (r > round_high) round_high = int8_t(r);
    if (round_pos == n_round_seats) resolve_round();
    advance_one();
  }

  // A complete round: one highest card wins; a tie (a bounce) makes the tied seats play again,
  // in the same order.
  void resolve_round() {
    int8_t top[2] = {-1, -1};
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
    ev(EV_BOUNCE, top[0], 0);
    for (int j = 0; j < k; ++j) round_seat[j] = top[j];
    n_round_seats = int8_t(k);
    round_pos = 0;
    n_round_cards = 0;
    round_high = 0;
  }

  void collect() {
    int w = winner;
    pile[w] |= trick_cards;
    last_winner = int8_t(w);
    ++tricks;
    ev(EV_WIN, w, trick_cards);
    start_trick(w);
  }

  void end_phase_one() {
    int n = players;
    int due = round_seat[round_pos];
    ev(EV_END_ONE, due, 0);
    for (int s = 0; s < n; ++s) {
      uint64_t back = contributed[s];
      if (back) {
        hand[s] |= back;
        known[s] |= back;
        ev(EV_TAKE_BACK, s, back);
      }
      if (hand[s]) {  // expose_leftover
        known[s] |= hand[s];
        ev(EV_EXPOSED, s, hand[s]);
      }
    }
    while (stock_top != stock_end) draw(due);
    clear_trick();
    for (int s = 0; s < n; ++s) {
      hand[s] |= pile[s];
      known[s] |= pile[s];
      pile[s] = 0;
    }
    if (trump_card >= 0) {  // show_trump_card: turned face up, into its holder's hand
      trump_suit = int8_t(suit_of(trump_card));
      hand[trump_holder] |= bit(trump_card);
      known[trump_holder] |= bit(trump_card);
      ev(EV_TRUMP, trump_holder, bit(trump_card));
    }
    // no dreck (dreck_below = 0); the seat that drew the trump card leads (second_lead)
    int lead = trump_holder >= 0 ? trump_holder : (last_winner >= 0 ? last_winner : first_leader);
    start_two(lead);
  }

  // ---- phase two (phase_two.py, class Table) ----

  int next_active(int seat) const {
    int s = (seat + 1) % players;
    while (!hand[s] && s != seat) s = (s + 1) % players;
    return s;
  }

  int in_game() const {
    int k = 0;
    for (int s = 0; s < players; ++s) k += hand[s] != 0;
    return k;
  }

  void finish(int who) {
    phase = OVER;
    to_act = -2;
    loser = int8_t(who);
    if (who >= 0) ev(EV_LOSER, who, 0);
  }

  void start_two(int lead) {
    int n = players;
    phase = TWO;
    n_table = 0;
    for (int i = 0; i < n; ++i) {  // seats without cards are out (empty_hand = safe)
      int s = (dealer + 1 + i) % n;
      if (!hand[s]) {
        out_order[n_out++] = int8_t(s);
        ev(EV_OUT, s, 0);
      }
    }
    int holding = -1, count = 0;
    for (int s = 0; s < n; ++s) {
      if (hand[s]) {
        if (holding < 0) holding = s;
        ++count;
      }
    }
    if (count <= 1) {
      finish(holding);
      return;
    }
    if (!hand[lead]) lead = next_active(lead);
    lead_two(lead, count);
  }

  void lead_two(int lead, int active) {
    kill_at = int8_t(active);
    n_table = 0;
    to_act = int8_t(lead);
  }

  // The cards of `h` that beat the top play: a higher card of its suit, or any trump on a
  // non-trump.
  uint64_t beat_candidates(uint64_t h) const {
    int th = table[n_table - 1];
    int ts = th / 13;
    uint64_t m = h & suit_mask(ts) & ~((bit(th) << 1) - 1);
    if (ts != trump_suit) m |= h & suit_mask(trump_suit);
    return m;
  }

  void play_two(int s, int c) {
    uint64_t left = hand[s] ^ bit(c);
    hand[s] = left;
    known[s] &= ~bit(c);
    ev(n_table ? EV_BEAT : EV_LEAD, s, bit(c));
    table[n_table] = int8_t(c);
    table_owner[n_table] = int8_t(s);
    ++n_table;
    int k = popcount(left);
    if (k == 3) {
      ev(EV_THREE_CARDS, s, 0);
    } else if (k == 1) {
      ev(EV_ONE_CARD, s, 0);
    } else if (k == 0) {
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
      lead_two(hand[s] ? s : next_active(s), in_game());
      return;
    }
    int nxt = s + 1 < players ? s + 1 : 0;
    while (!hand[nxt]) nxt = nxt + 1 < players ? nxt + 1 : 0;
    to_act = int8_t(nxt);
  }

  void kill(int s) {
    uint64_t cards = 0;
    for (int i = 0; i < n_table; ++i) cards |= bit(table[i]);
    killed |= cards;
    ++tricks;
    ev(EV_KILL, s, cards);
    n_table = 0;
  }

  // pick_up = top-card: the top play goes to the hand.
  void pick_up(int s) {
    int c = table[--n_table];
    hand[s] |= bit(c);
    known[s] |= bit(c);
    ev(EV_PICK_UP, s, bit(c));
    if (n_table) {
      to_act = int8_t(next_active(s));
    } else {
      ++tricks;
      lead_two(next_active(s), in_game());
    }
  }

  // ---- the contract: legal actions, random actions, a step ----

  // The legal actions of the seat to act, as action codes in the order the Python engine lists
  // them; returns how many (at most 53).  None once the deal is over.
  int legal(int* out) const {
    int k = 0;
    if (phase == ONE) {
      for (uint64_t m = hand[to_act]; m; m &= m - 1) out[k++] = code_of(PLAY, lowest(m));
      if (stock_count() > 1) out[k++] = code_of(STOCK, kNoCard);
    } else if (phase == TWO) {
      uint64_t m = n_table ? beat_candidates(hand[to_act]) : hand[to_act];
      for (; m; m &= m - 1) out[k++] = code_of(PLAY, lowest(m));
      if (n_table) out[k++] = code_of(PICK_UP, kNoCard);
    }
    return k;
  }

  bool is_legal(int code) const {
    int kind = code >> 6, card = code & 63;
    if (phase == ONE) {
      if (kind == PLAY) return card < kCards && (hand[to_act] >> card & 1);
      return kind == STOCK && card == kNoCard && stock_count() > 1;
    }
    if (phase == TWO) {
      if (kind == PICK_UP) return card == kNoCard && n_table > 0;
      if (kind != PLAY || card >= kCards) return false;
      uint64_t m = n_table ? beat_candidates(hand[to_act]) : hand[to_act];
      return m >> card & 1;
    }
    return false;
  }

  // A legal action of the seat to act drawn uniformly (the deal must not be over).
  int random_action(Rng& rng) const {
    if (phase == ONE) {
      uint64_t m = hand[to_act];
      int k = popcount(m);
      int i = rng.below(k + (stock_count() > 1));
      return i < k ? code_of(PLAY, nth_bit(m, i)) : code_of(STOCK, kNoCard);
    }
    if (n_table) {
      uint64_t m = beat_candidates(hand[to_act]);
      int k = popcount(m);
      int i = rng.below(k + 1);
      return i < k ? code_of(PLAY, nth_bit(m, i)) : code_of(PICK_UP, kNoCard);
    }
    uint64_t m = hand[to_act];
    return code_of(PLAY, nth_bit(m, rng.below(popcount(m))));
  }

  // Take a legal action (unchecked: see is_legal) for the seat to act; State.step.
  void step(int code) {
    int s = to_act;
    int kind = code >> 6, card = code & 63;
    ++actions;
    if (phase == TWO) {
      if (kind == PLAY)
        play_two(s, card);
      else
        pick_up(s);
    } else {
      play_one(s, kind == PLAY ? card : kNoCard);
    }
    if (actions >= action_limit && phase != OVER) {
      abandoned = true;
      finish(-1);
      ev(EV_ABANDONED, -1, 0);
    }
  }

  // Play random legal actions until the deal is over; returns the actions taken.
  int play_out(Rng& rng) {
    int start = actions;
    while (phase != OVER) step(random_action(rng));
    return actions - start;
  }
};

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
