"""Dense, obviously-correct reference computations, written independently of ngc_ref.

Everything here follows the paper's formulas literally with dense NumPy: explicit matrix powers,
explicit inverses, explicit XXᵀ. Use only on small graphs.
"""

import numpy as np


def dense(A):
    return A.toarray() if hasattr(A, "toarray") else np.asarray(A, dtype=float)


def tilde(A):
    """Ã = A with its diagonal replaced by ones."""
    At = dense(A).astype(float).copy()
    np.fill_diagonal(At, 1.0)
    return At


def norm_adj(A, norm):
    At = tilde(A)
    d = At.sum(axis=1)
    if norm == "sym":
        return At / np.sqrt(np.outer(d, d))
    return At / d[:, None]


def neumann(A, lam, S, norm):
    """Ã_S = 1/(λ+1) Σ_{s=0}^{S} (r Ã)^s with explicit matrix powers."""
    An = norm_adj(A, norm)
    r = lam / (lam + 1)
    n = An.shape[0]
    total = np.zeros((n, n))
    for s in range(S + 1):
        total += np.linalg.matrix_power(r * An, s)
    return total / (lam + 1)


def gsd_inverse(A, lam, norm):
    """(I + λ L̃)⁻¹ with L̃ = I − Ã."""
    An = norm_adj(A, norm)
    n = An.shape[0]
    return np.linalg.inv(np.eye(n) + lam * (np.eye(n) - An))


def tau_i(A, lam, S, norm):
    M = neumann(A, lam, S, norm)
    n = M.shape[0]
    r = lam / (lam + 1)
    return n * (M ** 2).sum(axis=1) / (1 - r ** (S + 1)) ** 2


def rngc(A, X, lam, S, eps, norm, mask=None):
    """Eq. 12 with the n x n XXᵀ formed explicitly; ``mask`` keeps it only on a pattern."""
    An = norm_adj(A, norm)
    XXt = X @ X.T
    fro = np.linalg.norm(XXt)
    P = XXt / fro if fro > 0 else np.zeros_like(XXt)
    if mask is not None:
        P = P * mask
    r = lam / (lam + 1)
    M = r * (An - eps * P)
    total = np.zeros_like(An)
    for s in range(S + 1):
        total += np.linalg.matrix_power(M, s)
    return total @ X / (lam + 1)


def ring_row(n, lam, S):
    """Row 0 of Ã_S on the ring C_n (Ã = (I + A)/3 in both norms), by the recursion
    v ← e_0 + r·vÃ (Horner), without forming Ã_S: Σ_j of its squares is ρ_0."""
    r = lam / (lam + 1)
    e0 = np.zeros(n)
    e0[0] = 1.0
    v = e0.copy()
    for _ in range(S):
        v = e0 + r * (v + np.roll(v, 1) + np.roll(v, -1)) / 3
    return v / (lam + 1)


def softmax_adam(H, y, n_classes, seed, lr=0.2, epochs=100, weight_decay=1e-5):
    """The linear classifier softmax(HW + b) of Eq. 4 trained as the paper's appendix says:
    full-batch mean cross-entropy, ``epochs`` steps of Adam with torch.optim.Adam's update and its
    L2 weight decay (g ← ∇ + wd·θ; β = (0.9, 0.999), eps 1e-8; bias-corrected moments); W, b ~
    U(±1/√d) drawn in that order from ``default_rng(seed)`` (PyTorch's nn.Linear init).
    Returns (W, b)."""
    rng = np.random.default_rng(seed)
    d = H.shape[1]
    W = rng.uniform(-1 / np.sqrt(d), 1 / np.sqrt(d), (d, n_classes))
    b = rng.uniform(-1 / np.sqrt(d), 1 / np.sqrt(d), n_classes)
    Y = np.eye(n_classes)[y]
    first = [np.zeros_like(W), np.zeros_like(b)]
    second = [np.zeros_like(W), np.zeros_like(b)]
    for t in range(1, epochs + 1):
        Z = H @ W + b
        P = np.exp(Z - Z.max(axis=1, keepdims=True))
        P /= P.sum(axis=1, keepdims=True)
        G = (P - Y) / len(y)                      # ∂(mean cross-entropy)/∂Z
        for k, (theta, grad) in enumerate(((W, H.T @ G), (b, G.sum(axis=0)))):
            grad = grad + weight_decay * theta
            first[k] = 0.9 * first[k] + 0.1 * grad
            second[k] = 0.999 * second[k] + 0.001 * grad ** 2
            theta -= lr * (first[k] / (1 - 0.9 ** t)) / (
                np.sqrt(second[k] / (1 - 0.999 ** t)) + 1e-8)
    return W, b
