"""The paper's own words that decide a result's scope, quoted once for every claim that needs
them (see :data:`ngc_ref_theory.kit.claim.SCOPES`)."""

from ..kit.claim import as_stated, erratum, extension

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
#: The same as the keywords of :func:`~ngc_ref_theory.kit.claim.claim`:
#: ``claim(ID, ref, STATEMENT, order=..., **THEORY_RW_SCOPES)``.
THEORY_RW_SCOPES = {"scope": THEORY_RW_DEFAULT, "norm_scopes": THEORY_RW_NORMS}

#: The (λ, S) of the paper's experiments (the citation table's NGC rows: 'NGC and RNGC model
#: with 16 layers (S=16)', λ = 32): the fixed setting of the claims about growing graphs.
EXPERIMENTS_LAM_S = (32.0, 16)


def theory_rw(words, rw_why, sym_why="the theory is stated for D̃⁻¹Ã only"):
    """``scope`` and ``norm_scopes`` (keywords of :func:`~ngc_ref_theory.kit.claim.claim` and
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

#: What the experiments' sentence of the footnote to Eq. 6 says, quoted on its own.
EXPERIMENTS_WORDS = ("footnote to Eq. 6: '... while in experiments we adopt more commonly used "
                     "Ã = D̃^{-1/2}ÃD̃^{-1/2}'")

#: The one rule that decides the scope of each normalisation, from the paper's two sentences
#: about them (after Eq. 3 and the footnote to Eq. 6). Every claim declares its kind
#: (``claim(..., rule="theory")``, one of :data:`RULE_SCOPES`); ``tests/test_scopes.py`` holds
#: every statement to it.
NORMALISATION_RULE = (
    "One rule, from the paper's two sentences about the normalisations. "
    f"(generic) {BOTH_NORMS}: an equation or derivation the paper writes with a generic Ã or L̃ "
    "(Eq. 1-5, GSD to Def. 1, and Sec. 2's framework sentences about them, Eq. 8's loss f and "
    "Assumption 4's L, the AGSD problem to RNGC, Eq. 14-17, and the appendix derivations of "
    "them) is stated for "
    "both normalisations, so it is as-stated in sym and in rw; a statement about that formula "
    "(RNGC's τ, the convergence and the approximation of Eq. 17) inherits it. "
    f"(theory) {RW_FOOTNOTE}: what the paper derives from Eq. 6's row sums (Eq. 6-7, Remark 1's "
    "τ ∈ [1, n], Assumption 2, Lemma 1, Theorem 1, Remarks 2-3, the case study and the depth "
    "analysis built on them, and the introduction's sentences on how τ and n speed up the noise's "
    "convergence, which appeal to Lemma 1) is as-stated in rw only, an extension in sym. "
    "(experiments) the same footnote: a measured outcome of the paper's experiments (its "
    "accuracy tables and figures, its timing) is as-stated in sym, the normalisation the "
    "experiments adopt, an extension in rw. "
    "(free) a statement that does not involve Ã (the noise, the features, row normalisation of "
    "X) reads the same in both: as-stated in both. "
    "Independently of the rule, a setting the paper does not use (constructed graphs, our "
    "thresholds, our readings) is an extension, and a typo whose meaning is clear an erratum.")

#: Per kind: the scope name in (sym, rw) the rule gives a statement of the paper.
RULE_SCOPES = {"generic": ("as-stated", "as-stated"), "theory": ("extension", "as-stated"),
               "experiments": ("as-stated", "extension"), "free": ("as-stated", "as-stated")}


def rule_problems(c):
    """What of claim ``c`` disagrees with :data:`NORMALISATION_RULE` (empty: nothing): a kind
    (``claim(..., rule=)``) that is not one of :data:`RULE_SCOPES`, or a statement of the paper
    whose scopes are not the kind's in each of the claim's norms. A statement that is an
    extension or an erratum in every norm is decided by something else (our setting, our
    reading, a typo), and a corrected statement is ours: both pass.

    Examples
    --------
    >>> from ngc_ref_theory.kit.claim import Claim
    >>> rule_problems(Claim("x", "Eq. 6", "rows sum to 1", rule="theory", **THEORY_RW_SCOPES))
    []
    >>> rule_problems(Claim("x", "Eq. 6", "rows sum to 1", rule="theory", scope=BOTH))
    ["x: scopes {'sym': 'as-stated', 'rw': 'as-stated'}; the rule's 'theory' gives {'sym': \
'extension', 'rw': 'as-stated'}"]
    """
    if c.rule not in RULE_SCOPES:
        return [f"{c.id}: rule {c.rule!r} is not a kind of the normalisation rule "
                f"({', '.join(RULE_SCOPES)})"]
    want = dict(zip(("sym", "rw"), RULE_SCOPES[c.rule]))
    out = []
    for sid, st in c.statements.items():
        if st.corrects:
            continue
        got = {norm: st.scope_for(norm).name for norm in c.norms}
        if len(set(got.values())) == 1 and "as-stated" not in got.values():
            continue
        if got != {norm: want[norm] for norm in c.norms}:
            out.append(f"{sid}: scopes {got}; the rule's {c.rule!r} gives "
                       f"{ {norm: want[norm] for norm in c.norms} }")
    return out


def generic(words):
    """``scope``/``norm_scopes`` of a statement about a formula written with a generic Ã or L̃
    (the rule's 'generic' kind): as-stated in both normalisations, quoting ``words`` and the
    sentence after Eq. 3."""
    return {"scope": as_stated(f"{words}; Ã is generic: {BOTH_NORMS}"), "norm_scopes": {}}


SYNTHETIC = extension("a synthetic or constructed setting chosen by the checker, beyond the "
                      "paper's own data and settings")

__all__ = ["BOTH", "BOTH_NORMS", "EXPERIMENTS_NORMS", "EXPERIMENTS_SYM", "EXPERIMENTS_WORDS",
           "NORMALISATION_RULE", "ROW_NORMALIZATION_TABLE", "RULE_SCOPES",
           "RW_FOOTNOTE", "SYNTHETIC", "THEORY_RW", "THEORY_RW_DEFAULT", "THEORY_RW_NORMS",
           "THEORY_RW_SCOPES", "EXPERIMENTS_LAM_S", "EQ", "EQUATIONS", "DATASET_TABLE",
           "as_stated", "eq", "generic", "erratum", "extension", "rule_problems", "theory_rw"]

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


# --------------------------------------------------------------------------- equation numbers

#: The paper's numbered equations as its LaTeX prints them (``equation`` environments counted in
#: order, the two assumption displays and g's loss included): key -> (the LaTeX label whose
#: number it is, or for a display without a label ``"in:<label>"`` of the assumption it sits in,
#: or ``"after:<label>"`` of the labelled display it follows; the number; what it is; the words
#: that name it in a text). The one home of the numbers every text of the checker writes
#: (:func:`eq`); ``tests/test_equation_numbers.py`` checks them against
#: :func:`~ngc_ref_theory.paper.sentences.label_numbers` of the shipped LaTeX, and every "Eq. N" the
#: checker and its documentation write against the words around it. Earlier reports (before
#: issue 33) numbered Lemma 1's bound 9, Theorem 1's 10, the fixed point 11 and RNGC 12.
EQUATIONS = {
    "gsd": ("graph signal denoising", 1, "the GSD problem q(F)",
            r"GSD|q\(F\)|[Dd]enois|smoothness|tr\(FᵀL̃F\)|trace|L̃ as written"),
    "gsd-solution": ("eq:inverse", 2, "its solution F = (I + λL̃)⁻¹X",
                     r"\(I ?\+ ?λL̃\)⁻¹|gsd_solve|exact solve|GSD|solution|q\(F\)|∇q|gradient|"
                     r"S = infinity|S = ∞"),
    "neumann": ("Neum Series", 3, "the Neumann series of (I + λL̃)⁻¹",
                r"Neumann|\(I ?\+ ?λL̃\)⁻¹|\(I ?− ?rÃ\)|series|can take the form|"
                r"normalisation|truncat|approximation|inverse"),
    "ngc": ("NGC filter", 4, "NGC, H = Ã_S X W", r"(?i:NGC)|Ã_S|filter|propagat|truncat|framework|"
            r"spectral convolution|recursion|Horner"),
    "tau": ("evenness factor", 5, "τ (Definition 1)", r"τ|connectivity|Def"),
    "row-sum": ("row sum", 6, "the row sums 1 − r^{S+1}",
                r"[Rr]ows?\b|[Rr]ow[ -]sum|Σ_j ?\[Ã_S\]_ij(?!²)|1 − r\^\{?\(?S ?\+ ?1|"
                r"\(λ/\(λ\+1\)\)\^\{S\+1\}|footnote|series_mass|[Ss]ummation"),
    "row-square-bounds": ("range", 7, "the bounds on Σ_j[Ã_S]_ij²",
                          r"lower bound|upper bound|ρ_i|\[Ã_S\]_ij²|[Rr]ow square|m²/n|Remark 1|"
                          r"range|τ ∈ \[1, n\]|reaches"),
    "loss-f": ("loss function", 8, "the noisy loss f(W) = ‖Ã_S X W − Y‖_F²",
               r"f\(W\)|\bf\b|loss|least.squares|MSE|sum|written|regression|target"),
    "assumption-1": ("in:sub-Gaussian assumption", 9, "Assumption 1's sub-Gaussian bound",
                     r"Assumption 1"),
    "assumption-4": ("in:loss function assumption", 10, "Assumption 4's L-smoothness",
                     r"Assumption 4|L-smooth"),
    "lemma-1": ("concentration bound of aggregated noises", 11, "Lemma 1's bound on ‖Ã_Sη‖_F²",
                r"[Ll]emma[ -]1|‖Ã_S ?η‖|exceed|bound|Gaussian η|1/d|right-hand side"),
    "loss-g": ("GNN loss", 12, "the clean loss g(W) = ‖Ã_S X* W − Y‖_F²",
               r"g\(W\)|clean loss|\bg\b|f and g"),
    "theorem-1": ("eq:main", 13, "Theorem 1's bound",
                  r"Theorem 1|τ ?·? ?log ?n ?/ ?n|\\+tau ?\\+log n|1/\(2kα\)|\bterms?\b|"
                  r"left side|Remark 2|theorem-1"),
    "agsd": ("adv gsd", 14, "the AGSD problem", r"AGSD|adversarial|min-max|Plugging|δ\*|"
             r"‖L′ − L̃‖|poses"),
    "outer": ("after:adv gsd", 15, "the outer objective ρ(F)", r"ρ\(F\)|outer objective"),
    "fixed-point": ("eq:advF", 16, "RNGC's fixed point F = (I + λL̃ + λεFFᵀ/‖FFᵀ‖_F)⁻¹X",
                    r"fixed point|stationar|λεFFᵀ|F ≈ X|F (by|with) X|RNGC inverse|G\(F\)|ρ|"
                    r"F\*|damped|solution|iteration"),
    "rngc": ("RNGC filter", 17, "RNGC, H ≈ (1/(λ+1))Σ_s[r(Ã − εXXᵀ/‖XXᵀ‖_F)]^s X W",
             r"RNGC|rngc|robust|XXᵀ|Ã − εP|series|G\(X\)|F ≈ X|iterate|approximat|H ≈"),
    # the appendix displays the checker cites (the proof of Theorem 1, App. E)
    "descent-step": ("part 1", 27, "the one-step descent inequality of the proof of Theorem 1",
                     r"descent|one-step"),
    "descent": ("part 2", 28, "f decreases by at least (α/2)‖∇f‖² per step",
                r"decrease|\(α/2\)‖∇f‖²"),
    "convexity": ("strctly decrease", 29, "the convexity inequality of f", r"convex"),
    "gd-bound": ("part 3", 30, "the gradient-descent bound of the proof of Theorem 1",
                 r"gradient-descent|descent"),
}
#: Key -> the number LaTeX prints.
EQ = {key: number for key, (_label, number, _what, _names) in EQUATIONS.items()}


def eq(*keys, parens=False):
    """How a text of the checker cites the paper's equations ``keys`` (of :data:`EQUATIONS`):
    ``"Eq. 11"``, or ``"Eq. (13)"`` with ``parens``; several keys are listed, as a range
    ``"Eq. 6–7"`` when their numbers are consecutive, else ``"Eq. 8, 12"``.

    >>> eq("lemma-1"), eq("theorem-1", parens=True), eq("row-sum", "row-square-bounds")
    ('Eq. 11', 'Eq. (13)', 'Eq. 6–7')
    >>> eq("loss-f", "loss-g")
    'Eq. 8, 12'
    """
    if not keys:
        raise TypeError("eq() needs at least one equation key")
    unknown = [k for k in keys if k not in EQ]
    if unknown:
        raise ValueError(f"unknown equation key(s) {unknown}; known: {', '.join(EQ)}")
    nums = [EQ[k] for k in keys]
    if len(nums) == 1:
        text = str(nums[0])
    elif nums == list(range(nums[0], nums[0] + len(nums))):
        text = f"{nums[0]}–{nums[-1]}"
    else:
        text = ", ".join(str(x) for x in nums)
    return f"Eq. ({text})" if parens else f"Eq. {text}"


# --------------------------------------------------------------------------- Table 6

#: The paper's Table 'Datasets statistics' (label ``tab:stat``, appendix 'Datasets Details'):
#: data set -> (nodes, edges, features, classes), keyed by the ``ngc_ref.datasets`` name
#: (ogbn-products has no loader: not available offline). Entered once;
#: tests/test_paper_numbers.py checks it against the LaTeX.
DATASET_TABLE = {
    "label": "tab:stat",
    "rows": {"cora": (2708, 5429, 1433, 7), "citeseer": (3327, 4732, 3703, 6),
             "pubmed": (19717, 44338, 500, 3), "cornell": (183, 295, 1703, 5),
             "texas": (183, 309, 1703, 5), "wisconsin": (251, 499, 1703, 5),
             "actor": (7600, 33544, 931, 5), "coauthor-cs": (18333, 81894, 6805, 15),
             "coauthor-physics": (34493, 247962, 8415, 5),
             "ogbn-products": (2449029, 61859140, 100, 42)},
    #: The name each row carries in the LaTeX table.
    "names": {"cora": "Cora", "citeseer": "Citeseer", "pubmed": "Pubmed", "cornell": "Cornell",
              "texas": "Texas", "wisconsin": "Wisconsin", "actor": "Actor",
              "coauthor-cs": "Coauthor-CS", "coauthor-physics": "Coauthor-Phy",
              "ogbn-products": "ogbn-products"},
}
