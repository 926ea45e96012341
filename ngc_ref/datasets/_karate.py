"""Zachary's karate club (networkx), needing no data files."""

from __future__ import annotations

import networkx as nx
import numpy as np

from ._dataset import Dataset, build_adjacency, stratified_split

#: faction (node attribute ``club``) -> label
CLUBS = {"Mr. Hi": 0, "Officer": 1}


def load_karate(split):
    G = nx.karate_club_graph()
    nodes = sorted(G.nodes())
    n = len(nodes)
    labels = np.array([CLUBS[G.nodes[v]["club"]] for v in nodes], dtype=np.int64)
    edges = np.array(list(G.edges()), dtype=np.int64).reshape(-1, 2)
    train, val, test = stratified_split(labels, split)
    return Dataset(
        name="karate", adjacency=build_adjacency(edges[:, 0], edges[:, 1], n),
        features=np.eye(n), labels=labels, train_mask=train, val_mask=val, test_mask=test,
        num_classes=2, feature_mask=np.ones(n, dtype=bool), features_complete=True,
        split=split,
        split_description=(f"stratified 60/20/20 split seeded with {split}: within each faction "
                           f"(0 = 'Mr. Hi', 1 = 'Officer', in that order) a permutation from one "
                           f"numpy.random.default_rng({split}); 10/3/4 nodes per faction"))
