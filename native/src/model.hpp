// The search bot's phase-two model in compiled code: the heuristic rule, its playouts, the
// counter bot's rule and the modelled rollout, read off a complete Game<R> (every card placed, as
// in a determinized world), making the same moves as the Python functions they mirror:
// skitgubbe/bots/playouts.py (heuristic_listed, _play_on, heuristic_outcome, heuristic_loser),
// skitgubbe/bots/counter.py (counter_two, _strengths, _two_scores, _rolled_totals) and
// skitgubbe/bots/heuristic.py (is_looping, power_weight).  The Python ones remember positions
// (OutcomeMemo); these do not, so they differ only where a Python playout stopped at a remembered
// position that this one's action limit cuts short, and where the Python search remembered a
// model move from the same position reached by another history (its loop check reads the
// history).  The weights are the Python bots' own, set once from Python (ModelWeights).
//
// Scores are doubles summed in the Python order, so ties break as in Python (the build turns
// floating-point contraction off).  Only the rules the compiled engine plays are seen here (one
// pack, no partners, no anti-trump, forced pick-up or high-trump rule).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

#include "game.hpp"

namespace sg {

// The bots' weights (HeuristicBot and CounterBot class attributes), set by set_model_weights in
// module.cpp before any model function runs.
struct ModelWeights {
  // HeuristicBot: heuristic_two
  double trump_power = 0, kill_bonus = 0, pick_penalty = 0, pick_floor = 0;
  // CounterBot: counter_two
  double c_out_bonus = 0, c_kill_bonus = 0, c_pick_penalty = 0, c_pick_floor = 0, c_power_scale = 0,
         c_master_bonus = 0, c_rank_tiebreak = 0, c_force_bonus = 0, c_rollout_weight = 0;
  int c_rollout_limit = 0;
  bool set = false;
};
inline ModelWeights model_weights;

constexpr double kTieEps = 1e-9;  // heuristic.TIE_EPS

// The loop break of HeuristicBot.choose: when a single score is best (within kTieEps), it is set
// 1e6 lower, so the runner-up is played; scores tied at the top are left as they are.
inline void break_unique_best(double* scores, int k) {
  double top = scores[0];
  for (int i = 1; i < k; ++i) top = std::max(top, scores[i]);
  int tied = 0;
  for (int i = 0; i < k; ++i) tied += scores[i] >= top - kTieEps;
  if (tied == 1)
    for (int i = 0; i < k; ++i)
      if (scores[i] >= top - kTieEps) scores[i] -= 1e6;
}
constexpr int kLoopMax = 60;      // heuristic._LOOP_MAX

// The latest actions of a deal's history as (seat, code) pairs, for the loop check: a ring of
// the last kKeep entries and the length of the whole history.
struct Recent {
  static constexpr int kKeep = 128;  // the loop check reads at most 2 * kLoopMax entries back
  int64_t n = 0;
  int8_t seat[kKeep];
  Code code[kKeep];
  void push(int s, Code c) {
    seat[n % kKeep] = int8_t(s);
    code[n % kKeep] = c;
    ++n;
  }
  bool same(int64_t i, int64_t j) const {
    return seat[i % kKeep] == seat[j % kKeep] && code[i % kKeep] == code[j % kKeep];
  }
  // heuristic.is_looping: the last action is a pick-up and the actions before it repeat in a
  // cycle of fewer than kLoopMax actions that came round twice and holds a play.
  bool looping() const {
    if (!n || kind_of(code[(n - 1) % kKeep]) != PICK_UP) return false;
    const int64_t last = n - 1;
    const int64_t stop = std::max<int64_t>(n - 1 - kLoopMax, -1);
    for (int64_t j = n - 2; j > stop; --j) {
      if (!same(j, last)) continue;
      const int64_t period = n - 1 - j;
      if (2 * period > n) continue;
      bool repeat = true, play = false;
      for (int64_t i = n - period; i < n && repeat; ++i) {
        repeat = same(i, i - period);
        play |= kind_of(code[i % kKeep]) == PLAY;
      }
      if (repeat && play) return true;
    }
    return false;
  }
};

// heuristic.power_weight
inline double power_weight(int size) { return std::min(1.0, std::max(0.2, (size - 1) / 6.0)); }

// playouts._power: the heuristic rule's power of card c.
inline double heuristic_power(int c, int trump) {
  return (c % 13) / 12.0 + (c / 13 == trump ? model_weights.trump_power : 0.0);
}

// tracker.beaters: the cards of `cards` that beat card `card` alone (no anti-trump here).
inline uint64_t beaters_of(int card, uint64_t cards, int trump) {
  int suit = card / 13;
  uint64_t m = cards & suit_mask(suit) & ~((uint64_t(2) << card) - 1);
  if (suit != trump && trump >= 0) m |= cards & suit_mask(trump);
  return m;
}

// playouts.heuristic_listed (= heuristic_two): seat p's move by the heuristic bot's rules of
// thumb; p is to act in phase two.
template <class R>
Code heuristic_move(const Game<R>& g, int p) {
  const ModelWeights& w = model_weights;
  Code acts[Game<R>::kMaxLegal];
  int k = g.legal(acts);
  uint64_t hand = g.hand[p];
  int trump = g.trump_suit;
  double weight = power_weight(popcount(hand));
  bool kills = g.n_table && g.n_table + 1 >= g.kill_at;
  Code best = acts[k - 1];
  double best_v = -1e18;
  for (int i = 0; i < k; ++i) {
    Code a = acts[i];
    double v;
    if (kind_of(a) == PLAY) {
      uint64_t cards = cards_of(a);
      if (cards == hand) return a;
      v = kills ? w.kill_bonus : 0.0;
      for (uint64_t m = cards; m; m &= m - 1) v += 1.0 - weight * heuristic_power(lowest(m), trump);
    } else if (kind_of(a) == PICK_UP) {
      int below, above;
      uint64_t take = g.pick_up_take(g.table, g.n_table, below, above);
      v = -w.pick_penalty;
      for (uint64_t m = take; m; m &= m - 1) v -= std::max(w.pick_floor, 1.0 - weight * heuristic_power(lowest(m), trump));
    } else {
      continue;
    }
    if (v > best_v) {
      best = a;
      best_v = v;
    }
  }
  return best;
}

// playouts.greedy_listed (= greedy_two): go out if possible, else the play that sheds the most
// cards for the lowest highest card (a trump counting 13 ranks above any non-trump), else (no
// play) the last legal action, the pick-up.
template <class R>
Code greedy_move(const Game<R>& g, int p) {
  Code acts[Game<R>::kMaxLegal];
  int k = g.legal(acts);
  uint64_t hand = g.hand[p];
  int trump = g.trump_suit;
  int best = -1, best_v = -1000000000;
  for (int i = 0; i < k; ++i) {
    if (kind_of(acts[i]) != PLAY) continue;
    uint64_t cards = cards_of(acts[i]);
    if (cards == hand) return acts[i];
    int top = highest(cards);
    int v = 4 * popcount(cards) - top % 13 - (top / 13 == trump ? 13 : 0);
    if (v > best_v) {
      best = i;
      best_v = v;
    }
  }
  return best >= 0 ? acts[best] : acts[k - 1];
}

// ismcts.ISMCTSBot._rollout with greedy phase-two play, from phase two on: every seat plays
// greedy_move until the deal ends or `stop` actions have been taken in all (then -1, as for a
// deal that ended with no loser).  Returns the loser, or -3 if a chance action came up.
template <class R>
int greedy_rollout(Game<R>& g, int64_t stop) {
  while (g.phase != OVER) {
    if (g.actions >= stop) return -1;
    if (g.phase != TWO || g.to_act < 0) return -3;
    g.step(greedy_move(g, g.to_act));
  }
  return g.loser;
}

// ismcts.ISMCTSBot._rollout without the model, from any position: phase one and the chance
// deals at random with `rng` (random_action, random_chance: the module's own generator, not
// Python's), phase two by `rule` (0: at random, 1: greedy_move, 2: heuristic_move), until the deal
// ends or `stop` actions have been taken in all.  Returns the loser, or -1 for a deal cut short
// or ended with no loser.
template <class R>
int random_rollout(Game<R>& g, Rng& rng, int rule, int64_t stop) {
  while (g.phase != OVER) {
    if (g.actions >= stop) return -1;
    if (g.phase == DRECK_DEAL) {
      g.random_chance(rng);
      continue;
    }
    Code a;
    if (g.phase == TWO && rule == 1)
      a = greedy_move(g, g.to_act);
    else if (g.phase == TWO && rule == 2)
      a = heuristic_move(g, g.to_act);
    else
      a = g.random_action(rng);
    g.step(a);
  }
  return g.loser;
}

// The cards of the seats that have gone out, as a seat set.
template <class R>
uint32_t out_seats(const Game<R>& g) {
  uint32_t safe = 0;
  for (int i = 0; i < g.n_out; ++i) safe |= 1u << g.out_order[i];
  return safe;
}

// playouts._play_on without a memo: play phase two on by heuristic_move for every seat, at most
// `limit` actions, stopping once every seat of `bits` (a seat set; 0: none) is out.  Returns
// false if the limit cut it short or it ended with no loser; else true with `safe` (the seats
// out) and `loser` (-1 when it stopped because the seats of `bits` went out).
template <class R>
bool play_on(Game<R>& g, uint32_t bits, int limit, uint32_t& safe, int& loser, Recent* recent = nullptr) {
  int n = 0;
  while (g.phase == TWO) {
    if (bits) {
      safe = out_seats(g);
      if ((safe & bits) == bits) {
        loser = -1;
        return true;
      }
    }
    if (n >= limit) return false;
    int p = g.to_act;
    if (p < 0) return false;  // a chance action: not the heuristic rule's
    Code a = heuristic_move(g, p);
    g.step(a);
    if (recent) recent->push(p, a);
    ++n;
  }
  if (g.loser < 0) return false;
  loser = g.loser;
  safe = out_seats(g);
  return true;
}

// playouts.heuristic_outcome: 1 if seat `seat` is not the loser when phase two is played on by
// the heuristic rule, -1 if it is, 0 if cut short at `limit` actions or ended with no loser.
template <class R>
int heuristic_outcome(Game<R>& g, int seat, int limit) {
  uint32_t bits = 1u << seat, safe = 0;
  int loser = -1;
  if (!play_on(g, bits, limit, safe, loser)) return 0;
  if ((safe & bits) == bits) return 1;
  return loser == seat ? -1 : 1;
}

// counter.counter_two: the counter bot's phase-two move for seat p (to act), every hand read;
// `recent` is the history up to now (the loop check).
template <class R>
Code counter_move(const Game<R>& g, int p, const Recent& recent) {
  const ModelWeights& w = model_weights;
  Code acts[Game<R>::kMaxLegal];
  int k = g.legal(acts);
  if (k == 1) return acts[0];
  const int n = g.players;
  const uint64_t hand = g.hand[p];
  const int trump = g.trump_suit;
  uint64_t opp = 0, table = 0;
  for (int s = 0; s < n; ++s)
    if (s != p) opp |= g.hand[s];
  for (int i = 0; i < g.n_table; ++i) table |= g.table[i];
  // the next seat in the game, whose hand is known
  bool has_following = false;
  uint64_t following = 0;
  const uint32_t out = out_seats(g);
  for (int i = 1; i < n; ++i) {
    int s = (p + i) % n;
    if (g.hand[s] && !(out >> s & 1)) {
      has_following = true;
      following = g.hand[s];
      break;
    }
  }
  // counter._strengths of hand | table against opp
  double power[kCards] = {};
  const int n_opp = popcount(opp);
  for (uint64_t m = hand | table; m; m &= m - 1) {
    int c = lowest(m);
    int suit = c / 13;
    uint64_t below = opp & suit_mask(suit) & (bit(c) - 1);
    if (suit == trump) below |= opp & ~suit_mask(trump);
    double v = n_opp ? w.c_power_scale * double(popcount(below)) / double(n_opp) : w.c_power_scale;
    if (!beaters_of(c, opp, trump)) v += w.c_master_bonus;
    power[c] = v + w.c_rank_tiebreak * double(c % 13 + 2 + (suit == trump ? 13 : 0));
  }
  // counter._two_scores
  const double weight = power_weight(popcount(hand));
  const bool kills = g.n_table && g.n_table + 1 >= g.kill_at;
  double scores[Game<R>::kMaxLegal];
  for (int i = 0; i < k; ++i) {
    Code a = acts[i];
    if (kind_of(a) == PLAY) {
      uint64_t cards = cards_of(a);
      if (cards == hand) {
        scores[i] = w.c_out_bonus;
        continue;
      }
      double s = 0.0;
      for (uint64_t m = cards; m; m &= m - 1) s += 1.0 - weight * power[lowest(m)];
      if (kills) {
        s += w.c_kill_bonus;
      } else if (has_following && !beaters_of(highest(cards), following, trump)) {
        uint64_t plays[Game<R>::M + 1];
        for (int j = 0; j < g.n_table; ++j) plays[j] = g.table[j];
        plays[g.n_table] = cards;
        int below, above;
        s += w.c_force_bonus * double(popcount(g.pick_up_take(plays, g.n_table + 1, below, above)));
      }
      scores[i] = s;
    } else if (kind_of(a) == PICK_UP) {
      int below, above;
      uint64_t take = g.pick_up_take(g.table, g.n_table, below, above);
      double s = -w.c_pick_penalty;
      for (uint64_t m = take; m; m &= m - 1) s -= std::max(w.c_pick_floor, 1.0 - weight * power[lowest(m)]);
      scores[i] = s;
    } else {
      scores[i] = -1e6;
    }
  }
  // counter._rolled_totals: one heuristic rollout per action, from the best score down, until
  // even a won rollout cannot come within a tie of the best total (every action when looping)
  const bool every = recent.looping();
  int order[Game<R>::kMaxLegal];
  for (int i = 0; i < k; ++i) order[i] = i;
  std::stable_sort(order, order + k, [&](int a, int b) { return scores[a] > scores[b]; });
  double totals[Game<R>::kMaxLegal];
  constexpr double kNone = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < k; ++i) totals[i] = kNone;
  double top = kNone;
  for (int r = 0; r < k; ++r) {
    int i = order[r];
    if (!every && scores[i] + w.c_rollout_weight < top - kTieEps) break;
    Game<R> world = g;
    world.step(acts[i]);
    double v = scores[i] + w.c_rollout_weight * double(heuristic_outcome(world, p, w.c_rollout_limit));
    totals[i] = v;
    if (v > top) top = v;
  }
  if (every) break_unique_best(totals, k);  // the loop check: the runner-up is played
  int best = 0;
  for (int i = 1; i < k; ++i)
    if (totals[i] > totals[best]) best = i;
  return acts[best];
}

// ismcts.ISMCTSBot._rollout in a modelled phase-two search: every seat plays counter_move for
// the first `depth` actions (counted from the history's length when it starts), then the
// heuristic rule to the end (heuristic_loser); `limit` actions in all.  Returns the loser, -1
// for a deal that ended with no loser or was cut short, -3 when a chance action came up (the
// caller plays that rollout itself).
template <class R>
int model_rollout(Game<R>& g, Recent& recent, int depth, int limit) {
  const int64_t stop = recent.n + limit;
  const int64_t modelled = recent.n + depth;
  while (g.phase != OVER) {
    if (recent.n >= stop) return -1;
    int p = g.to_act;
    if (p == kChance) return -3;
    if (recent.n >= modelled && g.phase == TWO) {
      uint32_t safe = 0;
      int loser = -1;
      if (!play_on(g, 0, int(stop - recent.n), safe, loser)) return -1;
      return loser;
    }
    if (g.phase != TWO) return -3;
    Code a = counter_move(g, p, recent);
    g.step(a);
    recent.push(p, a);
  }
  return g.loser;
}

}  // namespace sg
