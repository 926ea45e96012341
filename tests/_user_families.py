"""Graph families defined outside the library, as a user's own module would define them (the
tests of ``ngc-ref check --family`` and of sweep configs name them as
``tests._user_families:NAME``)."""

import networkx as nx
import numpy as np
import scipy.sparse as sp


def ring_plus_chord(n, seed):
    """A ring C_n with one random chord: sparse, connected, no hub (τ/n decays at λ = √n)."""
    rng = np.random.default_rng(seed)
    G = nx.cycle_graph(n)
    i, j = rng.choice(n, size=2, replace=False)
    G.add_edge(int(i), int(j))
    return G


#: What the checks and the cost model may read (register_family's keywords).
ring_plus_chord.graph_family = {"avg_degree": 2.0, "local": True}


def hub_and_ring(n, seed):
    """A ring whose node 0 is joined to every node: a hub (outside the hypotheses)."""
    G = nx.cycle_graph(n)
    G.add_edges_from((0, k) for k in range(2, n - 1))
    return nx.to_scipy_sparse_array(G, format="csr")


def not_square(n, seed):
    """A broken builder: an n × (n + 1) matrix."""
    return sp.csr_array((n, n + 1))


def wrong_signature(n):
    return nx.cycle_graph(n)
