// The bots in compiled code: the random bot (skitgubbe/bots/randombot.py, RandomBot) and the
// heuristic bot (skitgubbe/bots/heuristic.py, HeuristicBot: choose, _best, _score_beat,
// _score_one with score_one, _score_two, _eaten, is_looping), each choosing at a seat of a
// Game<R> exactly as the Python bot chooses from that seat's View, with the seat's own
// `random.Random` continued in C++ (pyrandom.hpp).  A bot reads only what the View holds: each
// read of the Game below names the View field it stands for (the seat's own hand, the piles,
// the known cards, the trick's cards and rounds, the seats due in the round, the trick's winner,
// the stock's size, the trump suit, the table, kill_at and the public history), never another
// seat's hand or the stock's order.
//
// Scores are doubles summed in the Python order, so ties (within heuristic.TIE_EPS) break as in
// Python: the build turns floating-point contraction off.  Only the rules the compiled engine
// plays are seen here (one full pack, no partners: View.known is the Game's known).
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>
#include <vector>

#include "game.hpp"
#include "model.hpp"  // Recent (the loop check on the public history), kTieEps
#include "pyrandom.hpp"

namespace sg {

// The bots a seat may be given (skitgubbe.engine.compiled.COMPILED_BOTS, in this order).
enum BotKind : int { BOT_RANDOM = 0, BOT_HEURISTIC = 1, BOT_KINDS = 2 };

// HeuristicBot's tuning weights (its class attributes, read from Python at each call), in the
// order of skitgubbe.engine.compiled.HEURISTIC_WEIGHTS.
struct HeuristicWeights {
  double center, needy_shift, pwin_exp, hold, win_keeps_card, sluff_margin, trump_power, pick_penalty,
      pick_floor, kill_bonus, out_bonus;
  static constexpr int kCount = 11;
};

// HeuristicBot._score_beat (Mas, first_phase = beat): store and exchange 100, pick up -100,
// a play minus the cost of its card (rank, and 20 more for a trump).  Reads View.trump_suit.
template <class R>
void heuristic_beat_scores(const Game<R>& g, const Code* acts, int k, double* scores) {
  const int trump = g.trump_suit;  // View.trump_suit
  for (int i = 0; i < k; ++i) {
    int kind = kind_of(acts[i]);
    if (kind == STORE || kind == EXCHANGE) {
      scores[i] = 100.0;
    } else if (kind == PICK_UP) {
      scores[i] = -100.0;
    } else {
      int c = highest(cards_of(acts[i]));  // a.cards.bit_length() - 1
      scores[i] = -(double(rank_of(c)) + (suit_of(c) == trump ? 20.0 : 0.0));
    }
  }
}

// HeuristicBot._score_one and heuristic.score_one for seat `me` (to act in phase one).
template <class R>
void heuristic_one_scores(const Game<R>& g, int me, const Code* acts, int k, const HeuristicWeights& w,
                          double* scores) {
  double center = w.center;
  const int dreck_below = g.rules.dreck_below;  // View.rules.dreck_below
  if (dreck_below) {
    int owned = popcount(g.pile[me]) + popcount(g.hand[me]);  // View.piles[me], View.hand
    if (owned < dreck_below + 2) center -= w.needy_shift;
  }
  // View.trick_cards(): the rounds' and sluffs' cards (g.trick_cards) and the table's plays
  uint64_t trick = g.trick_cards;
  for (int i = 0; i < g.n_table; ++i) trick |= g.table[i];
  uint64_t seen = g.hand[me] | trick;                // View.hand
  for (int s = 0; s < g.players; ++s) seen |= g.pile[s];   // View.piles
  for (int s = 0; s < g.players; ++s) seen |= g.known[s];  // View.known
  const uint64_t pack = (uint64_t(1) << kCards) - 1;       // View.rules.pack (one full pack)
  const uint64_t unseen = pack & ~seen;
  double worth[kCards];
  for (int c = 0; c < kCards; ++c) worth[c] = double(rank_of(c)) - center;
  const uint64_t pool = unseen;

  // score_one.  View.rounds[-1]: the current round's plays (g.round_card, g.round_card_seat).
  // heuristic.phase_one_strength is Game::power (aces 1 under aces_low_first).
  int high = 0;
  for (int i = 0; i < g.n_round_cards; ++i) high = std::max(high, g.power(rank_of(g.round_card[i])));
  // View.round_seats: the seats still due in the round, g.round_seat[round_pos..], none once
  // the trick has a winner; View.to_act is g.to_act.
  const bool settled = g.winner >= 0;  // View.trick_winner >= 0
  const int n_due = settled ? 0 : g.n_round_seats - g.round_pos;
  const bool due = n_due > 0 && g.round_seat[g.round_pos] == me && g.to_act == me;
  const int later = due ? n_due - 1 : 0;
  int n_pool = 0;
  int above[16] = {};
  double below_sum[16] = {};
  int below_n[16] = {};
  for (uint64_t m = pool; m; m &= m - 1) {
    int c = lowest(m);
    ++n_pool;
    int r = g.power(rank_of(c));
    for (int x = 0; x < r; ++x) above[x] += 1;
    for (int x = r + 1; x < 16; ++x) {
      below_sum[x] += worth[c];
      below_n[x] += 1;
    }
  }
  int n_unseen = 0;
  double unseen_sum = 0.0;
  for (uint64_t m = unseen; m; m &= m - 1) {
    unseen_sum += worth[lowest(m)];
    ++n_unseen;
  }
  const double mean_unseen = n_unseen ? unseen_sum / double(n_unseen) : 0.0;
  double pot = 0.0;
  for (uint64_t m = trick; m; m &= m - 1) pot += worth[lowest(m)];
  const double draw = g.stock_count() >= 1 ? mean_unseen : 0.0;  // View.stock_size
  const bool keep = w.win_keeps_card != 0.0;

  auto p_win = [&](int r) -> double {
    if (!n_pool || !later) return 1.0;
    return std::pow(1.0 - double(above[r]) / double(n_pool), double(later) * w.pwin_exp);
  };
  auto win_gain = [&](int r) -> double {
    double extra = below_n[r] ? double(later) * below_sum[r] / double(below_n[r]) : 0.0;
    return pot + extra;
  };
  auto play_gain = [&](int r, double own) -> double {
    if (r < high) return -own;
    double p = p_win(r);
    if (r == high) p *= 0.5;
    return p * (win_gain(r) + (keep ? own : 0.0)) - (1.0 - p) * own;
  };

  // Will this seat win the trick?  (View.trick_winner, View.round_seats, View.hand, View.rounds)
  const uint64_t hand = g.hand[me];
  bool losing;
  if (settled) {
    losing = g.winner != me;
  } else {
    bool in_round = false;
    for (int i = g.round_pos; i < g.n_round_seats; ++i) in_round |= g.round_seat[i] == me;
    if (in_round) {
      bool all_below = true;
      for (uint64_t m = hand; m; m &= m - 1) all_below &= g.power(rank_of(lowest(m))) < high;
      losing = high > 0 && all_below;
    } else {
      bool mine = false;
      for (int i = 0; i < g.n_round_cards; ++i)
        mine |= g.round_card_seat[i] == me && g.power(rank_of(g.round_card[i])) == high;
      losing = !mine;
    }
  }

  double best_sluff = 0.0;
  for (int i = 0; i < k; ++i) {
    const int kind = kind_of(acts[i]);
    const uint64_t cards = cards_of(acts[i]);
    if (kind == PLAY) {
      int r = g.power(rank_of(highest(cards)));
      double own = 0.0;
      for (uint64_t m = cards; m; m &= m - 1) own += worth[lowest(m)];
      scores[i] = play_gain(r, own) + draw * double(popcount(cards)) - w.hold * double(r);
    } else if (kind == STOCK) {
      double gsum = 0.0;
      for (uint64_t m = unseen; m; m &= m - 1) {
        int c = lowest(m);
        int r = g.power(rank_of(c));
        if (r >= high) {
          double p = p_win(r) * (r == high ? 0.5 : 1.0);
          gsum += p * (win_gain(r) + worth[c]);
        }
      }
      scores[i] = n_unseen ? gsum / double(n_unseen) : 0.0;
    } else if (kind == SLUFF) {
      double gain;
      if (losing) {
        double s = 0.0;
        for (uint64_t m = cards; m; m &= m - 1) s += draw - worth[lowest(m)];
        gain = s - w.sluff_margin;
      } else {
        gain = -1.0;
      }
      best_sluff = std::max(best_sluff, gain);
      scores[i] = gain;
    } else {  // PASS and anything unexpected
      scores[i] = 0.0;
    }
  }
  if (best_sluff > 0.0)
    for (int i = 0; i < k; ++i)
      if (kind_of(acts[i]) == SLUFF) scores[i] += 1e6;
}

// The heuristic rule's power of card c (HeuristicBot._score_two's `power`).
inline double two_power(int c, int trump, double trump_power) {
  return double(rank_of(c) - 2) / 12.0 + (suit_of(c) == trump ? trump_power : 0.0);
}

// HeuristicBot._score_two for seat `me` (to act in phase two).  Reads View.hand,
// View.trump_suit, View.table, View.kill_at and View.rules.pick_up (through pick_up_take).
template <class R>
void heuristic_two_scores(const Game<R>& g, int me, const Code* acts, int k, const HeuristicWeights& w,
                          double* scores) {
  const uint64_t hand = g.hand[me];
  const int trump = g.trump_suit;
  const double weight = power_weight(popcount(hand));
  double burden[kCards] = {};
  for (uint64_t m = hand; m; m &= m - 1) {
    int c = lowest(m);
    burden[c] = 1.0 - weight * two_power(c, trump, w.trump_power);
  }
  const bool kills = g.n_table && g.n_table + 1 >= g.kill_at;
  for (int i = 0; i < k; ++i) {
    const int kind = kind_of(acts[i]);
    if (kind == PLAY) {
      const uint64_t cards = cards_of(acts[i]);
      if (cards == hand) {
        scores[i] = w.out_bonus;
        continue;
      }
      double s = 0.0;
      for (uint64_t m = cards; m; m &= m - 1) s += burden[lowest(m)];
      if (kills) s += w.kill_bonus;
      scores[i] = s;
    } else if (kind == PICK_UP) {
      int below, above;
      const uint64_t eaten = g.pick_up_take(g.table, g.n_table, below, above);  // HeuristicBot._eaten
      double s = -w.pick_penalty;
      for (uint64_t m = eaten; m; m &= m - 1)
        s -= std::max(w.pick_floor, 1.0 - weight * two_power(lowest(m), trump, w.trump_power));
      scores[i] = s;
    } else {
      scores[i] = -1e6;
    }
  }
}

// HeuristicBot.choose for seat `me`, to act, given its legal actions `acts` (k of them, in
// State.legal_actions' order) and the public history so far (`history`: View.history, for the
// loop check).  Returns the index of the chosen action; ties within kTieEps are broken by
// `rng.randbelow(ties)` as HeuristicBot._best's `rng.randrange`, and a single legal action is
// taken without drawing.
template <class R>
int heuristic_choose(const Game<R>& g, int me, const Code* acts, int k, const Recent& history,
                     const HeuristicWeights& w, PyRandom& rng) {
  if (k == 1) return 0;
  double scores[Game<R>::kMaxLegal];
  if (g.phase == ONE && g.rules.beat) {  // View.phase, View.rules.first_phase
    heuristic_beat_scores(g, acts, k, scores);
  } else if (g.phase == ONE) {
    heuristic_one_scores(g, me, acts, k, w, scores);
  } else if (g.phase == TWO) {
    heuristic_two_scores(g, me, acts, k, w, scores);
    if (history.looping()) break_unique_best(scores, k);  // the cycle breaker
  } else {
    for (int i = 0; i < k; ++i) scores[i] = 0.0;
  }
  // HeuristicBot._best
  double top = scores[0];
  for (int i = 1; i < k; ++i) top = std::max(top, scores[i]);
  int best[Game<R>::kMaxLegal];
  int n = 0;
  for (int i = 0; i < k; ++i)
    if (scores[i] >= top - kTieEps) best[n++] = i;
  if (n == 1) return best[0];
  return best[rng.randbelow(uint32_t(n))];
}

// What one deal played by compiled bots ended with (skitgubbe.engine.compiled.BotDeal).
struct BotDealResult {
  int loser = -1;
  bool abandoned = false;
  int actions = 0;
  int tricks = 0;
  std::vector<int> out_order;
  std::vector<int> decisions;   // per seat: the bot's decisions (choose calls)
  std::vector<double> seconds;  // per seat: the time its decisions took (a measurement)
  std::vector<uint64_t> codes;  // every action in order (a chance action as DRECK | its cards), if asked
};

// skitgubbe.batch.runner.play_out with a compiled bot at every seat: seat s is played by
// kinds[s] (BotKind) drawing from seats[s]; a chance action deals the pending cards in ascending
// order shuffled by `chance` (State.chance_action), as play_python_random in module.cpp does.
template <class R, class Chance>
BotDealResult play_bots(Game<R>& g, const int* kinds, PyRandom* seats, Chance& chance, const HeuristicWeights& w,
                        bool record) {
  using clock = std::chrono::steady_clock;
  BotDealResult out;
  out.decisions.assign(size_t(g.players), 0);
  out.seconds.assign(size_t(g.players), 0.0);
  Code acts[Game<R>::kMaxLegal];
  uint8_t order[kCards];
  Recent history;
  while (g.phase != OVER) {
    if (g.phase == DRECK_DEAL) {
      uint64_t cards = g.pending_deal();
      int k = 0;
      for (uint64_t m = cards; m; m &= m - 1) order[k++] = uint8_t(lowest(m));
      chance.get().shuffle(order, k);
      g.deal_chance(order, k);
      history.push(kChance, code_of(DRECK, cards));
      if (record) out.codes.push_back(code_of(DRECK, cards));
      continue;
    }
    const int p = g.to_act;
    const int n = g.legal(acts);
    if (n < 1) throw std::logic_error("a seat to act with no legal action (an engine bug)");
    const auto start = clock::now();
    int i;
    if (kinds[p] == BOT_HEURISTIC)
      i = heuristic_choose(g, p, acts, n, history, w, seats[p]);
    else
      i = int(seats[p].randbelow(uint32_t(n)));  // RandomBot.choose
    out.seconds[size_t(p)] += std::chrono::duration<double>(clock::now() - start).count();
    ++out.decisions[size_t(p)];
    const Code a = acts[i];
    g.step(a);
    history.push(p, a);
    if (record) out.codes.push_back(a);
  }
  out.loser = g.loser;
  out.abandoned = g.abandoned;
  out.actions = g.actions;
  out.tricks = g.tricks;
  out.out_order.assign(g.out_order, g.out_order + g.n_out);
  return out;
}

}  // namespace sg
