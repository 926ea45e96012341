"""The paper's own words that decide a result's scope, quoted once for every claim that needs
them (see :data:`ngc_ref_theory._core.SCOPES`). A leaf module."""

from ._core import as_stated, erratum, extension

#: The footnote to Eq. 6: the paper's theory (row sums, Eq. 7, τ's range, Lemma 1, Theorem 1)
#: is stated for the random-walk normalisation.
RW_FOOTNOTE = ("footnote to Eq. 6: 'Note that this result is obtained by using "
               "Ã = D̃⁻¹Ã for the ease of theoretical analysis while in experiments we adopt "
               "more commonly used Ã = D̃^{-1/2}ÃD̃^{-1/2}'")
#: After Eq. 3: both normalisations are admitted for the GSD solution and its Neumann series.
BOTH_NORMS = ("after Eq. 3: 'where Ã can take the form of Ã = D̃^{-1/2}ÃD̃^{-1/2} or "
              "Ã = D̃⁻¹Ã'")

#: Scopes of a statement the paper makes for rw only (its theory).
THEORY_RW = {"rw": as_stated(f"the paper's theory is stated for D̃⁻¹Ã: {RW_FOOTNOTE}"),
             "sym": extension(f"the paper states this for D̃⁻¹Ã only: {RW_FOOTNOTE}")}
THEORY_RW_DEFAULT = THEORY_RW["rw"]
THEORY_RW_NORMS = {"sym": THEORY_RW["sym"]}


def theory_rw(words, rw_why, sym_why="the theory is stated for D̃⁻¹Ã only"):
    """``scope`` and ``norm_scopes`` (keywords of :func:`~ngc_ref_theory._core.claim` and
    ``Claim.part``) of a statement, quoted by ``words``, that the paper's theory makes for rw:
    as stated in rw (``rw_why``), an extension in sym (``sym_why``), each with the footnote."""
    return {"scope": as_stated(f"{words}; {rw_why}: {RW_FOOTNOTE}"),
            "norm_scopes": {"sym": extension(f"{words}; {sym_why}: {RW_FOOTNOTE}")}}


#: Scope of a statement the paper makes for both normalisations.
BOTH = as_stated(f"stated for both normalisations: {BOTH_NORMS}")

#: Scopes of the experiments' setting (sym); rw is ours.
EXPERIMENTS_SYM = as_stated(f"the paper's experiments use D̃^{{-1/2}}ÃD̃^{{-1/2}}: {RW_FOOTNOTE}")
EXPERIMENTS_NORMS = {"rw": extension(f"the paper's experiments use D̃^{{-1/2}}ÃD̃^{{-1/2}}, not "
                                     f"D̃⁻¹Ã: {RW_FOOTNOTE}")}

SYNTHETIC = extension("a synthetic or constructed setting chosen by the checker, beyond the "
                      "paper's own data and settings")

__all__ = ["BOTH", "BOTH_NORMS", "EXPERIMENTS_NORMS", "EXPERIMENTS_SYM", "ROW_NORMALIZATION_TABLE",
           "RW_FOOTNOTE", "SYNTHETIC", "THEORY_RW", "THEORY_RW_DEFAULT", "THEORY_RW_NORMS",
           "as_stated", "erratum", "extension", "theory_rw"]

#: The paper's Table 'row normalization' (label ``tab:row normalization``, appendix 'Analysis
#: on Row Normalization'): NGC test accuracy (%) without / with row normalisation, per data set
#: and noise level ξ. Entered once; tests/test_paper_numbers.py checks it against the LaTeX.
ROW_NORMALIZATION_TABLE = {
    "label": "tab:row normalization",
    "levels": (1.0, 10.0, 100.0),
    "without": {"cora": (68.3, 59.7, 56.1), "citeseer": (43.5, 40.4, 37.6),
                "pubmed": (43.1, 38.8, 37.4)},
    "with": {"cora": (66.1, 65.5, 66.2), "citeseer": (45.3, 45.1, 44.8),
             "pubmed": (62.3, 62.7, 62.1)},
}
