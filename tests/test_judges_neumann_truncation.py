"""neumann-truncation's judge at its threshold (issue 34): an error is within the bound when
it is at most :func:`allowed` = r^{S+1}(1 + 1e-9) + 1e-14(1 + 2λ)n, in the sampled check and
in the atlas test alike; hand-made errors at, just below and just above it. The claim's numbers
are pinned in tests/test_claims_exact.py."""

from types import SimpleNamespace

import numpy as np

from ngc_ref_theory.claims import neumann_truncation as nt


def test_allowed_is_the_bound_with_its_rounding_slack():
    # written out: 1e-9 relative on the bound, 1e-14 per unit of (1 + 2λ)·n on top
    assert nt.allowed(0.25, 3.0, 5) == 0.25 * (1 + 1e-9) + 1e-14 * 7 * 5
    assert nt.allowed(0.0, 0.0, 1) == 1e-14
    assert nt.allowed(1.0, 0.0, 1) > 1 + 1e-9               # the slack only ever widens


def _cells(norm, err, S=2, lam=1.0, n=2):
    """Cells of one graph whose Ã_S − (I+λL̃)⁻¹ is diag(err, 0) at every S (both norms read
    |err|)."""
    D = np.zeros((S + 1, 1, n, n))
    D[:, :, 0, 0] = err
    return SimpleNamespace(norm=norm, M=D, inverse=np.zeros((1, n, n)), r=lam / (lam + 1.0),
                           S=np.arange(S + 1), lam=lam, n=n)


def test_atlas_test_at_the_allowed_error():
    for norm in ("sym", "rw"):
        S, lam, n = 2, 1.0, 2
        room = nt.allowed(0.5 ** (S + 1.0), lam, n)
        for err, bad in ((room, False), (np.nextafter(room, 0), False),
                         (np.nextafter(room, np.inf), True)):
            got, ratio = nt._atlas_test(_cells(norm, err, S, lam, n))
            assert bool(got[S, 0]) is bad, (norm, err)
            assert ratio[S, 0] == err / room
        assert not nt._atlas_test(_cells(norm, 0.5 ** 3))[0].any()   # attained bound: holds


def test_sampled_violation_at_the_allowed_error(monkeypatch):
    """_measure records a violation exactly when an error exceeds allowed()."""
    lam, S = 1.0, 3
    bound = (lam / (lam + 1)) ** (S + 1)
    A = np.array([[0.0, 1.0], [1.0, 0.0]])
    for err, violated in ((nt.allowed(bound, lam, 2), False),
                          (np.nextafter(nt.allowed(bound, lam, 2), np.inf), True)):
        monkeypatch.setattr(nt, "_errors", lambda A, An, lam, norm, err=err: [
            (S, err, bound, 0.0)])
        m = nt._measure({"K2": A}, [lam], "rw")
        assert (m["violation"] is not None) is violated
        assert m["worst_ratio"] == err / bound
