"""What the search's labels say about the heuristic: a study of a ``--search-data`` file.

``paohuzi train --search-data FILE`` keeps the decisions it had valued as the search
bot values them (``paohuzi.train.selfplay.search_label_job``). This prints, as JSON:

- how often the search bot's rule departs from the heuristic's choice, and the
  recorded gain of its choice (inflated by the selection: it picks what looked best
  on the same samples) beside the median standard error of a paired gain;
- for each kind of choice (the heuristic's first candidate against another: 打, 过,
  碰, 吃), the mean recorded gain of taking the other instead, over the decisions
  where the heuristic valued the other within ``--gap`` points of its choice (read
  from the prior in the network's input): a bias of the heuristic shows as a gain
  above zero by several standard errors;
- a ridge regression of the recorded gains on the network's input, the kinds of
  the two actions and the heuristic's value of the other (fitted on the
  first 85 % of the rows, the later rounds held out): its held-out correlation, and
  the held-out gain of departing wherever it predicts a gain above zero.

    python tools/label_study.py runs/labels-seed1.npz
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from paohuzi.bots.learned import PRIOR_SPREAD, PRIOR_STEPS
from paohuzi.bots.network import PUBLIC
from paohuzi.core.actions import CHI_BASE, HU_ID, PASS_ID, PENG_ID
from paohuzi.train.trainer import search_choice

KINDS = ("打", "过", "碰", "吃", "胡")


def kind(ids: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """0 打, 1 过, 2 碰, 3 吃, 4 胡 for each action id."""
    return np.select(
        [ids < PASS_ID, ids == PASS_ID, ids == PENG_ID, ids >= CHI_BASE, ids == HU_ID],
        [0, 1, 2, 3, 4],
    )


def mean_se(x: np.ndarray[Any, Any]) -> tuple[float, float]:
    if len(x) < 2:
        return float(x.mean()) if len(x) else 0.0, float("nan")
    return float(x.mean()), float(x.std(ddof=1) / np.sqrt(len(x)))


def study(path: Path, gap: float, lam: float, min_rows: int = 30) -> dict[str, Any]:
    with np.load(path) as z:
        obs, cand, q, se = z["obs"], z["cand"].astype(np.int64), z["q"], z["se"]
    n = len(q)
    rows = np.arange(n)
    out: dict[str, Any] = {"file": str(path), "rows": n}
    choice = search_choice(cand, q, se, 1.0)
    picked = (cand == choice[:, None]).argmax(1)
    departs = picked > 0
    g = q[rows, picked] - q[:, 0]
    out["search_departs"] = round(float(departs.mean()), 4)
    out["search_recorded_gain_per_decision"] = round(float(g.mean()), 4)
    valid = cand[:, 1:] >= 0
    out["median_se_of_a_paired_gain"] = round(float(np.median(se[:, 1:][valid])), 3)
    pairs = []
    k0 = kind(cand[:, 0])
    for j in range(1, cand.shape[1]):
        cj = np.clip(cand[:, j], 0, None)
        prior = obs[rows, PUBLIC + cj].astype(np.float64)
        within = (PRIOR_STEPS - prior) * PRIOR_SPREAD / PRIOR_STEPS <= gap
        kj = kind(cj)
        for a in range(len(KINDS)):
            for b in range(len(KINDS)):
                m = (cand[:, j] >= 0) & (k0 == a) & (kj == b) & within
                if m.sum() < min_rows:
                    continue
                mean, err = mean_se(q[m, j] - q[m, 0])
                pairs.append(
                    {
                        "rank": j + 1,
                        "heuristic": KINDS[a],
                        "instead": KINDS[b],
                        "rows": int(m.sum()),
                        "gain": round(mean, 3),
                        "se": round(err, 3),
                    }
                )
    out[f"kinds_within_{gap:g}_points"] = pairs
    out["ridge"] = _ridge(obs, cand, q, lam)
    return out


def _ridge(
    obs: np.ndarray[Any, Any], cand: np.ndarray[Any, Any], q: np.ndarray[Any, Any], lam: float
) -> dict[str, Any]:
    n = len(q)
    rows = np.arange(n)
    held = int(n * 0.15)
    fit = np.arange(n - held)
    x = obs.astype(np.float64)
    x /= np.maximum(x[fit].max(0), 1.0)
    pred = np.full(cand.shape, -np.inf)
    corr = []
    for j in range(1, cand.shape[1]):
        v = cand[:, j] >= 0
        cj = np.clip(cand[:, j], 0, None)
        onehot = np.zeros((n, 25))
        onehot[rows, kind(cand[:, 0]) * 5 + kind(cj)] = 1.0
        prior = obs[rows, PUBLIC + cj][:, None] / PRIOR_STEPS  # the heuristic's value of it
        xj = np.concatenate([x, onehot, prior, onehot * prior, np.ones((n, 1))], 1)
        y = q[:, j] - q[:, 0]
        t = fit[v[fit]]
        w = np.linalg.solve(xj[t].T @ xj[t] + lam * np.eye(xj.shape[1]), xj[t].T @ y[t])
        p = xj @ w
        pred[v, j] = p[v]
        h = np.arange(n - held, n)[v[n - held :]]
        if len(h) > 2:
            corr.append(round(float(np.corrcoef(p[h], y[h])[0, 1]), 3))
    pick = np.where(pred.max(1) > 0, pred.argmax(1), 0)
    gain = q[rows, pick] - q[:, 0]
    mean, err = mean_se(gain[n - held :])
    return {
        "lambda": lam,
        "heldout_rows": held,
        "heldout_correlation": corr,
        "heldout_departs": round(float((pick[n - held :] > 0).mean()), 4) if held else 0.0,
        "heldout_gain": round(mean, 4),
        "heldout_se": round(err, 4),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("labels", type=Path, help="a file written by paohuzi train --search-data")
    ap.add_argument("--gap", type=float, default=5.0, help="heuristic value gap (points)")
    ap.add_argument("--ridge", type=float, default=10000.0, help="the ridge penalty")
    ap.add_argument("--min-rows", type=int, default=30, help="smallest kind of choice shown")
    args = ap.parse_args(argv)
    try:
        result = study(args.labels, args.gap, args.ridge, args.min_rows)
    except (OSError, ValueError, KeyError) as e:
        print(f"error: cannot study {str(args.labels)!r}: {e}", file=sys.stderr)
        return 2
    print(json.dumps(result, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
