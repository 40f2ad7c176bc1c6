"""The logistic regression the quote library's learned decisions are fitted with
(novelty-calibration.py, taste-model.py): Newton's method, a ridge on the weights (never on the
intercept), deterministic."""
import numpy as np


def fit(x, y, ridge, standardise=False):
    """Weights and intercept for rows `x` (n × d) and 0/1 labels `y`. With `standardise`, the
    features are fitted scaled to mean 0 and deviation 1 (so one ridge suits features of any
    range) and the result is turned back into weights on the raw features."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    mean, scale = (x.mean(axis=0), x.std(axis=0)) if standardise else (np.zeros(x.shape[1]), np.ones(x.shape[1]))
    z = np.column_stack([(x - mean) / scale, np.ones(len(x))])
    penalty = np.diag([ridge] * x.shape[1] + [0.0])
    w = np.zeros(z.shape[1])
    for _ in range(100):
        p = 1 / (1 + np.exp(-z @ w))
        step = np.linalg.solve((z * (p * (1 - p))[:, None]).T @ z + penalty, z.T @ (p - y) + penalty @ w)
        w -= step
        if np.max(np.abs(step)) < 1e-12:
            break
    weights = w[:-1] / scale
    return weights, float(w[-1] - weights @ mean)


def out_of_fold(x, y, folds, ridge):
    """Each row's log-odds from a fit on the other folds (`folds`: one fold label per row)."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    logits = np.zeros(len(y))
    for fold in sorted(set(folds.tolist())):
        w, b = fit(x[folds != fold], y[folds != fold], ridge)
        logits[folds == fold] = x[folds == fold] @ w + b
    return logits


def choose_ridge(x, y, folds, ridges):
    """The ridge of `ridges` with the lowest mean log-loss over the folds of `folds` (one fold
    label per row; each fold is predicted by a fit on the others), the smaller on ties; and every
    ridge's loss."""
    y = np.asarray(y, dtype=np.float64)
    losses = {}
    for ridge in ridges:
        p = np.clip(1 / (1 + np.exp(-out_of_fold(x, y, folds, ridge))), 1e-9, 1 - 1e-9)
        losses[ridge] = -np.sum(y * np.log(p) + (1 - y) * np.log(1 - p)) / len(y)
    return min(ridges, key=lambda r: (losses[r], r)), losses
