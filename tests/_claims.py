"""Shared helpers of the claim tests (tests/test_claim_*.py): run claims by id and check the
scopes a statement of the paper's rw-only theory gets."""

from ngc_ref_theory import Context, run_checks


def run_claims(*ids, seed=0, **context):
    """``{(statement id, norm): Result}`` of ``ngc-ref check --only IDS`` at ``seed`` (no data
    folder, no figures unless ``context`` says otherwise)."""
    return {(r.id, r.norm): r for r in run_checks(Context(seed=seed, **context), only=list(ids),
                                                  progress=False)}


def assert_theory_rw_scopes(results, statement_id, words):
    """The scopes of a statement the paper's theory makes for rw only: as stated in rw, quoting
    ``words``; an extension in sym."""
    rw = results[statement_id, "rw"]
    assert rw.scope == "as-stated"
    assert words in rw.scope_reason
    assert results[statement_id, "sym"].scope == "extension"
