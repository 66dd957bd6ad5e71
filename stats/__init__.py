"""Gauntlet's match statistics: paired games, the sequential test, Elo with error bars.

Pure functions and small objects: no I/O, nothing of the server, the games or the
protocols, so that the CLI, the API and the tests share one definition. Everything is on
the math module alone except `stats.batch`, which uses numpy and choix.

- `stats.pairs`: a pair of games → the pentanomial bucket; counts, W/D/L;
- `stats.sprt`: the GSPRT (normalized, logistic and BayesElo models), its bounds, and
  `SequentialTest`, fed one pair at a time;
- `stats.elo`: Elo and normalized Elo with 95 % intervals, LOS;
- `stats.stopped`: the median-unbiased Elo of a stopped SPRT;
- `stats.batch`: batch ratings, one Bradley–Terry fit over all games with 95 % intervals,
  independent of the order of the games (numpy, choix);
- `stats.numeric`: root finding and the normal distribution.

>>> from stats import SequentialTest, batch_fit, estimate, llr
>>> round(llr([365, 16618, 36229, 16974, 390], 0, 2), 2)
2.25
>>> round(estimate([365, 16618, 36229, 16974, 390]).nelo, 2)
1.96
>>> [round(r.elo) for r in batch_fit([("a", "b", 1.0), ("b", "a", 0.5)]).ratings]
[60, -60]
"""

from stats.batch import BatchFit, BatchRating, Difference, batch_fit, batch_ratings
from stats.elo import Estimate, elo_from_score, estimate, nelo_from_score
from stats.pairs import pair_index, pentanomial, wdl, wdl_of_pairs
from stats.sprt import (
                        MODELS,
                        NELO_PER_T,
                        Model,
                        SequentialTest,
                        State,
                        llr,
                        lower_bound,
                        upper_bound,
)
from stats.stopped import StoppedEstimate, stopped_estimate

__all__ = ["MODELS", "NELO_PER_T", "BatchFit", "BatchRating", "Difference", "Estimate",
           "Model", "SequentialTest", "State", "StoppedEstimate", "batch_fit", "batch_ratings",
           "elo_from_score", "estimate", "llr", "lower_bound",
           "nelo_from_score", "pair_index", "pentanomial", "stopped_estimate", "upper_bound",
           "wdl", "wdl_of_pairs"]
