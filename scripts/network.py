"""A small neural network of the register's attribution head (register-model.py averages four, one
per seed): one hidden layer of rectified units under one sigmoid output, fitted by Adam on the
weighted cross-entropy with weight decay; deterministic for a seed on one machine."""
import numpy as np


def fit(x, y, hidden=64, decay=1e-3, epochs=30, rate=1e-3, batch=128, seed=0):
    """A network for rows `x` (n × d) and 0/1 labels `y` (n). Each feature is scaled to mean 0 and
    deviation 1 first (folded into the first layer by `first_layer`). Positives weigh the square root
    of the negative-to-positive ratio, so that a rare label is not drowned. Returns (mean, scale,
    first weights d × hidden, first bias, second weights hidden, second bias)."""
    rng = np.random.default_rng(seed)
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float32)
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
    z = ((x - mean) / scale).astype(np.float32)
    d = z.shape[1]
    params = [(rng.standard_normal((d, hidden)) * np.sqrt(2 / d)).astype(np.float32), np.zeros(hidden, np.float32),
              (rng.standard_normal(hidden) * np.sqrt(1 / hidden)).astype(np.float32), np.float32(0)]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    positives = y.sum()
    weight = np.float32(np.sqrt((len(y) - positives) / max(positives, 1)))
    step = 0
    for _ in range(epochs):
        order = rng.permutation(len(z))
        for start in range(0, len(z), batch):
            rows = order[start:start + batch]
            first, first_bias, second, second_bias = params
            inner = z[rows] @ first + first_bias
            active = np.maximum(inner, 0)
            p = 1 / (1 + np.exp(-(active @ second + second_bias)))
            target = y[rows]
            outer = (p - target) * (1 + (weight - 1) * target) / len(rows)
            back = np.outer(outer, second) * (inner > 0)
            grads = [z[rows].T @ back + decay * first, back.sum(axis=0), active.T @ outer + decay * second, outer.sum()]
            step += 1
            for i, g in enumerate(grads):
                moments[i] = 0.9 * moments[i] + 0.1 * g
                squares[i] = 0.999 * squares[i] + 0.001 * g * g
                params[i] = params[i] - rate * (moments[i] / (1 - 0.9 ** step)) / (np.sqrt(squares[i] / (1 - 0.999 ** step)) + 1e-8)
    return (mean, scale, *params)


def first_layer(network):
    """The first layer on the raw features, the scaling folded in: weights d × hidden and bias."""
    mean, scale, first, first_bias = network[:4]
    weights = first / scale[:, None]
    return weights, first_bias - mean @ weights


def log_odds(network, x):
    """The log-odds for rows `x` (n)."""
    weights, bias = first_layer(network)
    return np.maximum(np.asarray(x, dtype=np.float64) @ weights + bias, 0) @ network[4] + float(network[5])
