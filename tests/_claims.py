"""Shared helpers of the claim tests (tests/test_claim_*.py): run claims by id and check the
scopes a statement of the paper's rw-only theory gets."""

import pytest

from ngc_ref_theory import Context, run_checks


def run_claims(*ids, seed=0, **context):
    """``{(statement id, norm): Result}`` of ``ngc-ref check --only IDS`` at ``seed`` (no data
    folder, no figures unless ``context`` says otherwise)."""
    return {(r.id, r.norm): r for r in run_checks(Context(seed=seed, **context), only=list(ids),
                                                  progress=False)}


def claim_fixture(*ids, **context):
    """A module-scoped fixture holding :func:`run_claims` ``(*ids, **context)``: one run
    shared by the tests of a module. Assign it to the fixture's name::

        res = claim_fixture("inner-max")
    """
    @pytest.fixture(scope="module")
    def results():
        return run_claims(*ids, **context)
    return results


def assert_theory_rw_scopes(results, statement_id, words):
    """The scopes of a statement the paper's theory makes for rw only: as stated in rw, quoting
    ``words``; an extension in sym."""
    rw = results[statement_id, "rw"]
    assert rw.scope == "as-stated"
    assert words in rw.scope_reason
    assert results[statement_id, "sym"].scope == "extension"


#: Values along n = 100, 200, 400, 800 that decay (n^-1/2), scatter (an inconclusive trend)
#: and stay flat (no decay over 8× in n): holds, inconclusive, fails by the decay rule.
DECAYS = {"holds": [n ** -0.5 for n in (100, 200, 400, 800)],
          "inconclusive": [0.4, 0.22, 0.3, 0.2], "fails": [0.5] * 4}


def assert_worst_verdict_of_families(grown_result, key):
    """A λ = √n result over families (``grown_result(series) -> Result``, ``series`` family ->
    rows with ``key`` along n) is the worst verdict of the families inside the hypotheses:
    fails if one fails (its counterexample on the first failing one), else inconclusive if one
    is undecided, holds only when all hold, inconclusive with none inside; a hub (outside) is
    listed, not judged."""
    def verdict(*trends, hub=None):
        series = {f"f{k}": decay_series(key, DECAYS[t]) for k, t in enumerate(trends)}
        if hub:
            series["hub"] = decay_series(key, DECAYS[hub], share=0.25)
        r = grown_result(series)
        fams = r.evidence["families"]
        assert [fams[f"f{k}"]["verdict"] for k in range(len(trends))] == list(trends)
        assert r.evidence["outside_the_hypotheses"].keys() == ({"hub"} if hub else set())
        return r.verdict, (r.counterexample or {}).get("family")
    assert verdict("holds", "holds", hub="fails") == ("holds", None)
    assert verdict("holds", "inconclusive") == ("inconclusive", None)
    assert verdict("inconclusive", "fails", "holds") == ("fails", "f1")
    assert verdict(hub="fails") == ("inconclusive", None)


def decay_series(key, values, *, share=None):
    """One family's rows along n = 100…800 for a λ = √n result: ``key`` takes ``values``; no
    isolated node and a largest degree share 1/n (inside the hypotheses; ``share``, a constant
    one: a hub, outside); every graph a 4-cycle (a counterexample needs one)."""
    import scipy.sparse as sp
    ring = sp.csr_array(([1.0] * 8, ([0, 1, 1, 2, 2, 3, 3, 0], [1, 0, 2, 1, 3, 2, 0, 3])))
    return [{"n": n, key: v, "isolated_nodes": 0, "max_degree_share": share or 1 / n,
             "graph_seed": 1, "lam": n ** 0.5, "S": 1, "A": ring, "argmax_node": 0,
             "argmax_degree": 2.0} for n, v in zip((100, 200, 400, 800), values)]
