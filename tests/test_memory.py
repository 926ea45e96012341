"""The memory guard: work that cannot fit refuses with the numbers and the way out.

The budget is set tiny through ``NGC_REF_MEMORY_BUDGET``, so every refusal is reached without
allocating anything large.
"""

import re

import numpy as np
import pytest
import scipy.sparse as sp

import ngc_ref
from ngc_ref import _memory, graphs, noise, training

GIB = r"\d+(\.\d+)?(e[+-]?\d+)? [KMGT]?i?B"


@pytest.fixture
def budget(monkeypatch):
    def set_budget(value):
        monkeypatch.setenv(_memory.ENV_VAR, value)
    return set_budget


def test_parse_and_format():
    assert _memory.parse_bytes("4GiB") == 4 * 2**30
    assert _memory.parse_bytes("4 gb") == 4 * 10**9
    assert _memory.parse_bytes("2g") == 2 * 2**30
    assert _memory.parse_bytes("1e6") == 10**6
    assert _memory.parse_bytes(" 512 MiB ") == 512 * 2**20
    for bad in ("lots", "4 GiBs", "-1", ""):
        with pytest.raises(ValueError, match=_memory.ENV_VAR):
            _memory.parse_bytes(bad)
    assert _memory.format_bytes(12.3 * 2**30) == "12.3 GiB"
    assert _memory.format_bytes(100) == "100 B"
    assert _memory.format_bytes(1000 * 1024) == "1000 KiB"     # not "1e+03 KiB"
    assert _memory.format_bytes(2**50) == "1024 TiB"


def test_available_bytes_is_positive_or_unknown(monkeypatch):
    avail = _memory.available_bytes()
    assert avail is None or avail > 0
    monkeypatch.delenv(_memory.ENV_VAR, raising=False)
    assert _memory.memory_budget()[0] == avail or avail is None


def test_bad_budget_variable_names_it(budget):
    budget("plenty")
    with pytest.raises(ValueError, match=_memory.ENV_VAR):
        ngc_ref.neumann_matrix(graphs.ring(4), 1.0, 2)


def test_dense_guard_with_raised_max_nodes_still_refuses(budget):
    # 40000 nodes: 2 x 11.9 GiB; refused before anything is allocated (the graph is sparse).
    budget("1GiB")
    A = graphs.ring(40_000)
    with pytest.raises(ValueError) as info:
        ngc_ref.gsd_solve(A, np.ones(40_000), 1.0, method="dense", max_nodes=10**6)
    msg = str(info.value)
    assert "gsd_solve(method='dense')" in msg and "40000 x 40000" in msg
    assert re.search(r"would need 23\.8 GiB .* only 1 GiB is available", msg), msg
    assert "method='cg'" in msg and _memory.ENV_VAR in msg


@pytest.mark.parametrize("call", [
    lambda A: ngc_ref.neumann_matrix(A, 1.0, 2),
    lambda A: ngc_ref.NeumannFilter(A, 1.0, 2).matrix(),
    lambda A: ngc_ref.connectivity_factor(A, 1.0, 2, method="dense"),
])
def test_every_dense_path_is_guarded(budget, call):
    budget("1KiB")
    with pytest.raises(ValueError, match=rf"would need {GIB}.*dense 50 x 50.*sparse"):
        call(graphs.ring(50))


def test_direct_solve_refuses_when_its_factors_cannot_fit(budget):
    A = graphs.erdos_renyi(400, 8 / 400, seed=0)
    X = np.ones((400, 2))
    budget("64KiB")
    with pytest.raises(ValueError) as info:
        ngc_ref.gsd_solve(A, X, 1.0, method="direct")
    msg = str(info.value)
    assert "gsd_solve(method='direct')" in msg and "LU factors" in msg
    assert re.search(rf"would need {GIB}", msg) and "method='cg'" in msg
    # ... and "auto" does not pick it, but solves by CG.
    F, info2 = ngc_ref.gsd_solve(A, X, 1.0, return_info=True)
    assert info2.method == "cg" and info2.residual < 1e-8


def test_direct_estimate_grows_like_n_squared_on_random_graphs():
    from ngc_ref.solve import direct_factor_estimate
    # Pubmed-like: 19717 nodes, mean degree 4.5 (88648 entries with the self-loops).
    nbytes, entries, dbar = direct_factor_estimate(19_717, 88_648 + 19_717)
    assert dbar == pytest.approx(4.5, abs=0.01)
    assert 700 < entries / 19_717 < 2000
    # A path fills in only O(n).
    assert direct_factor_estimate(10**6, 3 * 10**6)[1] == 3 * 10**6


def test_auto_still_picks_direct_when_it_fits(monkeypatch):
    monkeypatch.delenv(_memory.ENV_VAR, raising=False)
    _, info = ngc_ref.gsd_solve(graphs.ring(30), np.ones(30), 1.0, return_info=True)
    assert info.method == "direct"


def test_exact_tau_blocks_are_guarded(budget):
    A = graphs.ring(300)
    budget("100KiB")
    with pytest.raises(ValueError) as info:
        ngc_ref.connectivity_factor(A, 1.0, 2, block_size=64, workers=1)
    msg = str(info.value)
    assert "connectivity_factor(method='exact')" in msg and "300 x 64" in msg
    assert re.search(rf"would need {GIB}", msg)
    assert "smaller block_size" in msg and "method='estimate'" in msg
    # A block that fits goes through.
    res = ngc_ref.connectivity_factor(A, 1.0, 2, block_size=4, workers=1)
    assert res.tau > 0


def test_estimate_probes_are_guarded(budget):
    budget("100KiB")
    with pytest.raises(ValueError, match=r"method='estimate'.*n_samples"):
        ngc_ref.connectivity_factor(graphs.ring(300), 1.0, 2, method="estimate",
                                    n_samples=256, seed=0)


def _big_sparse_features(n=20_000, d=10_000):
    # 1.49 GiB once densified, 20 stored entries: cheap to build, refused before densifying.
    rng = np.random.default_rng(0)
    return sp.csr_array((np.ones(20), (rng.integers(0, n, 20), rng.integers(0, d, 20))),
                        shape=(n, d))


@pytest.mark.parametrize("name, call", [
    ("neumann_propagate", lambda A, X: ngc_ref.neumann_propagate(A, X, 1.0, 2)),
    ("gsd_solve", lambda A, X: ngc_ref.gsd_solve(A, X, 1.0, method="cg")),
    ("robust_propagate", lambda A, X: ngc_ref.robust_propagate(A, X, 1.0, 2, 0.5)),
    ("gaussian_noise", lambda A, X: noise.gaussian_noise(X, 0.1, seed=0)),
    ("GraphPropagation", lambda A, X: training.GraphPropagation(A, X).fit()),
])
def test_sparse_features_are_not_densified_past_the_budget(budget, name, call):
    # Before: each densified X (1.49 GiB) and propagated it, peaking at 4.7 GB, whatever the
    # budget said.
    budget("100MB")
    with pytest.raises(ValueError) as info:
        call(graphs.ring(20_000), _big_sparse_features())
    msg = str(info.value)
    assert re.search(rf"would need {GIB}", msg) and "20000 x 10000" in msg, msg
    assert "95.4 MiB is available" in msg and _memory.ENV_VAR in msg
    assert "columns" in msg        # the way out: fewer columns at a time


def test_work_buffers_of_dense_features_are_guarded(budget):
    X = np.ones((20_000, 100))          # 15 MiB: the two Horner buffers need 30.5 MiB more
    budget("20MiB")
    with pytest.raises(ValueError, match=rf"neumann_propagate would need {GIB}.*columns"):
        ngc_ref.neumann_propagate(graphs.ring(20_000), X, 1.0, 2)
    budget("64MiB")
    assert ngc_ref.neumann_propagate(graphs.ring(20_000), X, 1.0, 2).shape == X.shape


def test_random_graph_sampling_is_guarded(budget):
    # 1.6e9 expected edges: before, a raw MemoryError after trying to allocate 12 GiB.
    budget("1GiB")
    with pytest.raises(ValueError) as info:
        graphs.erdos_renyi(60_000, 0.9, seed=0)
    msg = str(info.value)
    assert "erdos_renyi" in msg and re.search(rf"would need {GIB}", msg)
    assert "edges" in msg and _memory.ENV_VAR in msg
    with pytest.raises(ValueError, match=rf"sbm.*would need {GIB}"):
        graphs.sbm(60_000, 2, 0.9, 0.5, seed=0)
    assert graphs.erdos_renyi(300, 0.5, seed=0).nnz > 0


@pytest.mark.parametrize("value", ["1e400", "inf", "nan"])
def test_unrepresentable_budget_names_the_variable(budget, value):
    # Before: OverflowError from int(float("1e400")).
    budget(value)
    with pytest.raises(ValueError, match=_memory.ENV_VAR):
        ngc_ref.neumann_matrix(graphs.ring(4), 1.0, 2)
