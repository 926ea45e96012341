"""What ``ngc-ref reproduce`` runs: the paper's experiments, one :class:`Target` per table or
figure, each a claim of the claim kit (its sentences are statements with scopes, its cells a
plan as a claim's ``--thorough`` cells are), and the plan of cells they expand to.

A *cell* is one run of one noise setting: (target, data set, noise level, reading, run). It
draws the noisy features once and trains every model of the target on them (the paper's
protocol, ``METHOD_QUOTES["protocol"]``), so the sweep store resumes at run granularity. A
*reading* is one answer to a choice the paper leaves open, run side by side (row normalisation
after flipping or not); the Ã normalisation (sym, the paper's footnote, against rw) is a pair
of extra models (``ngc-rw``, ``rngc-rw``) inside the heterophily cells, where it is cheap.

Run counts: ``paper_runs`` is the paper's (its captions and appendix tables), used by
``--full``; ``default_runs`` is what the default run affords on a 2-core machine within
45 minutes (measured per-run costs: the ``reproduce`` task's cost model,
:data:`.cells.COST`; see the README); ``--runs N`` overrides
both.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..kit.claim import Claim, Context, as_stated, extension, match_id
from ..paper.experiments import METHOD_QUOTES, QUOTES, SAID_OF
from ..paper.words import EXPERIMENTS_SYM

#: Models: our key -> what it is (the report's legend).
MODEL_HELP = {
    "ngc": "NGC: Ã_S X (appendix S, λ; Ã_sym) + the appendix classifier (linear, or '+MLP')",
    "rngc": "RNGC (Eq. 17) with the appendix ε, same classifier; mode 'full' (exact XXᵀ term) "
            "except where noted",
    "ngc-rw": "NGC with Ã = D̃⁻¹Ã (rw) instead of the experiments' D̃^{-1/2}ÃD̃^{-1/2}",
    "rngc-rw": "RNGC with Ã = D̃⁻¹Ã (rw)",
    "mlp": "2-layer ReLU MLP on X, no graph (pygcn settings: hidden 16, dropout 0.5, Adam lr "
           "0.01, 200 epochs, wd 5e-4)",
    "gcn": "2-layer GCN (Kipf & Welling), pygcn settings, full batch (ngc_ref.training.train_gcn)",
    "sgc": "SGC: Ã²X + the NGC classifier",
    "s2gc": "S²GC (K = 16, α = 0.05) + the NGC classifier",
    "appnp": "APPNP-style low-pass (K = 10, α = 0.1) + the NGC classifier (not GLP; Fig. 2 only)",
    "ngc/control": "structure-only control: NGC's propagation and classifier on signal-free "
                   "features Z ~ N(0, 1) rescaled to ‖X_noisy‖_F (what the graph alone gives)",
}

#: The structure-only control, run in every cell.
CONTROL = "ngc/control"

#: The depth figures' expansion orders S (the paper's figures print no axis values).
DEPTH_S = (1, 2, 4, 8, 16, 32)


def depth_models():
    return tuple(f"{m}@S={s}" for m in ("ngc", "rngc") for s in DEPTH_S)


def sentence_scope(key, target):
    """The scope of sentence ``key`` of :data:`~ngc_ref_theory.paper.experiments.QUOTES` judged
    on ``target``: ``as-stated`` on an experiment the paper says it of
    (:data:`~ngc_ref_theory.paper.experiments.SAID_OF`, whose words it quotes), our
    ``extension`` on any other.

    Examples
    --------
    >>> sentence_scope("bold", "tab:coauthor").name, sentence_scope("bold", "tab:flip").name
    ('as-stated', 'extension')
    """
    targets, words = SAID_OF[key]
    said = f"the paper says it of {' and '.join(targets)}: " + "; ".join(f"'{w}'" for w in words)
    if target in targets:
        return as_stated(said)
    return extension(f"{said}; not of {target}, on whose runs it is judged too (our reading)")


class Target(Claim):
    """One experiment of the paper: a claim of the kit, not registered (``ngc-ref check``,
    the sentence map and the claim table do not see it).

    Its id is the target's key and its own statement the experiment as printed (the paper's
    numbers, judged cell by cell against ours by :mod:`.judge`, not as a statement). Its parts
    are the sentences it judges (``quotes``, keys of
    :data:`~ngc_ref_theory.paper.experiments.QUOTES`), id ``"<key>:<sentence>"``, each with
    its scope (:func:`sentence_scope`); its planned cells (:meth:`Claim.plan`) are one run of
    one noise setting each, as ``("reproduce", params)`` (:meth:`planned_cells`). Its one norm
    is the experiments' Ã_sym (its kind under the normalisation rule: ``"experiments"``).

    ``levels`` maps each data set to its noise levels (ξ, or p for flipping; 0 = clean);
    ``readings`` maps a reading key to its description; ``options`` holds per-target settings
    (``rownorm`` per reading, RNGC ``mode`` per data set, ``splits``).
    """

    def __init__(self, key, title, kind, paper_label, noise, levels, models, readings,
                 paper_runs, default_runs, *, quotes=(), options=None, notes=()):
        super().__init__(key, title.split(":")[0], title, norms=("sym",), scope=EXPERIMENTS_SYM,
                         data_sets=tuple(levels), rule="experiments", doc=title)
        self.key, self.title, self.kind = key, title, kind     # kind: "table" or "figure"
        # the paper's table with numbers (None: a figure)
        self.paper_label, self.noise = paper_label, noise
        self.levels, self.models, self.readings = dict(levels), tuple(models), dict(readings)
        self.paper_runs, self.default_runs = paper_runs, dict(default_runs)
        self.quotes, self.options, self.notes = tuple(quotes), dict(options or {}), tuple(notes)
        for q in self.quotes:
            self.part(q, QUOTES[q], scope=sentence_scope(q, key))
        self.plan(self.planned_cells)

    @property
    def datasets(self):
        return tuple(self.levels)

    def sentence(self, key):
        """The statement of sentence ``key`` as this target judges it (``ValueError`` for a
        sentence it does not judge)."""
        st = self.statements.get(f"{self.id}:{key}")
        if st is None:
            raise ValueError(f"{self.id} does not judge the sentence {key!r}; it judges "
                             f"{', '.join(self.quotes)}")
        return st

    def planned_cells(self, ctx, norm):
        """The target's cells in a run of ``ctx`` (a :class:`RunContext`): every level and
        reading of the data sets ``ctx.chosen`` keeps, ``run_counts`` runs each, every model
        plus the structure-only control in each cell. ``norm`` is the claim's one norm (each
        model states its own Ã)."""
        chosen = ctx.chosen.get(self.key)
        counts = run_counts(self.key, runs=ctx.runs, full=ctx.full)
        models = ",".join((*self.models, CONTROL))
        return [("reproduce", {"target": self.key, "dataset": ds, "level": float(lv),
                               "reading": reading, "run": r, "models": models})
                for ds in self.datasets if chosen is None or ds in chosen
                for lv in self.levels[ds] for reading in self.readings
                for r in range(counts[ds])]


@dataclass
class RunContext(Context):
    """The run context of ``ngc-ref reproduce``: the kit's :class:`Context` (the seed, the
    store ``OUT/reproduce.jsonl``, the workers or the scheduler) with what ``--runs``,
    ``--full`` and ``--only`` chose (``chosen``: ``{target: data sets or None (all)}``).
    Always thorough: a target's planned cells are its whole work."""

    thorough: bool = True
    runs: int | None = None
    full: bool = False
    chosen: dict = field(default_factory=dict)
    #: ``{target: sentence keys}``: the targets of which ``--only`` named sentences
    #: (:func:`parse_sentences`); the report keeps only those of their sentences.
    sentences: dict = field(default_factory=dict)

    def reports(self, statement_id):
        """Whether the report keeps the sentence ``statement_id`` (``TARGET:KEY``)."""
        key, _, sentence = statement_id.rpartition(":")
        return key not in self.sentences or sentence in self.sentences[key]

    def rerun_words(self, statement_id):
        """``reproduce --only TARGET:SENTENCE [TARGET:DATASET ...] [--runs N | --full] --seed
        S``: the sentence on its target's cells of this run (its data sets where this run chose
        some), so the rerun judges it on the same runs
        (:func:`~ngc_ref_theory.kit.claim.rerun_command`).

        Examples
        --------
        >>> RunContext(seed=2, runs=1, chosen={"tab:flip": {"cora"}}).rerun_words("tab:flip:bold")
        ['reproduce', '--only', 'tab:flip:bold', 'tab:flip:cora', '--runs', '1', '--seed', '2']
        """
        key = statement_id.rpartition(":")[0]
        only = [statement_id, *(f"{key}:{d}" for d in sorted(self.chosen.get(key) or ()))]
        counts = ["--runs", str(self.runs)] if self.runs is not None else (
            ["--full"] if self.full else [])
        return ["reproduce", "--only", *only, *counts, "--seed", str(self.seed)]

    def claim_of(self, statement_id):
        """The target whose sentence ``statement_id`` is (None: none)."""
        return TARGETS.get(statement_id.rpartition(":")[0])


CITATION = ("cora", "citeseer", "pubmed")
_PUBMED_NOTE = ("Pubmed: ind.pubmed.allx is not in the data folder, so only the 60 training "
                "and 1000 test nodes have features (the other 18,657 rows are zero): Pubmed "
                "numbers are not comparable with the paper's.")
_GAUSSIAN_RN = {"paper": "row-normalised after the Gaussian noise (Sec. 5: "
                         f"'{METHOD_QUOTES['row-norm-default']}')"}

TARGETS = {t.key: t for t in (
    Target("fig:noise", "Fig. 2: accuracy vs Gaussian noise level (semi-supervised, citation "
           "graphs)", "figure", None, "gaussian",
           {"cora": (0.1, 0.2, 0.3, 0.4, 0.5), "citeseer": (0.1, 0.2, 0.3, 0.4, 0.5),
            "pubmed": (0.01, 0.02, 0.03, 0.04, 0.05)},
           ("ngc", "rngc", "mlp", "gcn", "sgc", "s2gc", "appnp"), _GAUSSIAN_RN, 100,
           {"cora": 3, "citeseer": 3, "pubmed": 3},
           quotes=("mlp-random-guess", "ngc-best-fig", "rngc-over-ngc", "gcn-pubmed"),
           notes=(_PUBMED_NOTE,)),
    Target("tab:heterophily", "Table 1: heterophily graphs, Gaussian noise (10 runs, the 10 "
           "Geom-GCN splits)", "table", "tab:heterophily", "gaussian",
           {d: (0.01, 1.0) for d in ("cornell", "texas", "wisconsin", "actor")},
           ("ngc", "rngc", "mlp", "gcn", "s2gc", "ngc-rw", "rngc-rw"), _GAUSSIAN_RN, 10,
           {"cornell": 10, "texas": 10, "wisconsin": 10, "actor": 10},
           quotes=("bold", "heterophily-rngc", "heterophily-mlp", "rngc-over-ngc",
                   "ngc-beats-mlp"),
           options={"splits": "geom-gcn"},
           notes=("Run k uses Geom-GCN split k (k = 0..9); NGC/RNGC are the appendix's '+MLP' "
                  "variant (hidden 16, dropout 0.5).",)),
    Target("tab:coauthor", "Table 2: Coauthor-CS and Coauthor-Phy, Gaussian noise (10 runs, "
           "60/20/20)", "table", "tab:coauthor", "gaussian",
           {"coauthor-cs": (0.1, 1.0), "coauthor-physics": (0.1, 1.0)},
           ("ngc", "rngc", "mlp", "gcn", "s2gc"), _GAUSSIAN_RN, 10,
           {"coauthor-cs": 1, "coauthor-physics": 1},
           quotes=("bold", "coauthor-mlp", "coauthor-gcn", "rngc-over-ngc", "ngc-beats-mlp"),
           options={"splits": "random", "rngc_mode": "edges"},
           notes=("Run k uses the random 60/20/20 split drawn from seed k "
                  "(ngc_ref.datasets.load_dataset(split=k)).",
                  "RNGC runs the paper's scalable edge-masked variant (mode 'edges', Sec. 4.2): "
                  "the exact XXᵀ term of a dense noisy 18,333 x 6,805 (34,493 x 8,415) X costs "
                  "n·d² per step, out of reach here; the paper states the acceleration only "
                  "for ogbn-products.",
                  "Gaussian noise densifies the features: float32 throughout (the loader's "
                  "dtype), 1.2 GB per dense copy for Coauthor-Phy; the row normalisation after "
                  "the noise divides each row by its noisy sum, so Ã_S D⁻¹X changes with every "
                  "draw and cannot be propagated once per data set (linearity is used for the "
                  "control, NGC(cZ) = c·NGC(Z)).",
                  "NGC/RNGC run Ã_S = 1/(λ+1) Σ_s (λ/(λ+1) Ã)^s as the paper writes it: at "
                  "Coauthor-Phy ξ = 1 (λ = 1024, S = 16) Ã_S X is about (S+1)/(λ+1) ≈ 1/60 of "
                  "X's scale, against the appendix's weight decay 5e-4; "
                  "benchmarks/coauthor_scale.py trains the same features rescaled by "
                  "(λ+1)/(S+1) and without weight decay, to tell that scale from denoising.")),
    Target("tab:flip", "Table 4: Bernoulli feature flipping (100 runs)", "table", "tab:flip",
           "flip", {d: (0.1, 0.2, 0.4) for d in CITATION},
           ("ngc", "rngc", "mlp", "gcn", "s2gc"),
           {"raw": "flipped 0/1 features, not row-normalised (PAPER_ROW_NORMALIZE['flip'])",
            "rn": "row-normalised after flipping (the Gaussian experiments' default)"}, 100,
           {"cora": 3, "citeseer": 3, "pubmed": 3},
           quotes=("bold", "flip-rngc", "rngc-over-ngc", "ngc-beats-mlp"),
           options={"rownorm": {"raw": False, "rn": True}},
           notes=("The paper does not say whether the flipped features are row-normalised: "
                  "both readings are run on the same flips.",
                  "Pubmed's features are TF-IDF weights, not binary as the paper says "
                  "('three citation datasets with binary features'): they are binarised "
                  "(X > 0) before flipping.", _PUBMED_NOTE)),
    Target("tab:row normalization", "Appendix table: NGC with and without row normalisation "
           "(Gaussian ξ = 1, 10, 100)", "table", "tab:row normalization", "gaussian",
           {d: (1.0, 10.0, 100.0) for d in CITATION}, ("ngc",),
           {"rn": "w RN: row-normalised after the noise", "raw": "w/o RN: X + ξη as it is"},
           None, {"cora": 5, "citeseer": 5, "pubmed": 5},
           quotes=("row-norm",), options={"rownorm": {"rn": True, "raw": False}},
           notes=("The table states no run count; --full runs 100 (tab:citation_hyper).",
                  _PUBMED_NOTE)),
    Target("fig:depth", "Appendix Figs. depth_ngc and depth_rngc: accuracy vs S, clean and "
           "noisy (ξ = 1)", "figure", None, "gaussian", {d: (0.0, 1.0) for d in CITATION},
           depth_models(), _GAUSSIAN_RN, 100, {"cora": 3, "citeseer": 3, "pubmed": 3},
           quotes=("depth-clean", "depth-noisy"),
           notes=("λ = 32, ε = 1 (tab:citation_hyper) at every S; clean = ξ = 0, still "
                  "row-normalised; S ∈ {" + ", ".join(map(str, DEPTH_S)) + "} (the figures "
                  "print no axis values).", _PUBMED_NOTE)),
)}

#: Labels and names accepted for the targets besides their keys.
ALIASES = {"fig:depth_ngc": "fig:depth", "fig:depth_rngc": "fig:depth",
           "tab:row-normalization": "tab:row normalization",
           "tab:row_normalization": "tab:row normalization", "row-normalization":
           "tab:row normalization", "depth": "fig:depth", "noise": "fig:noise",
           "heterophily": "tab:heterophily", "coauthor": "tab:coauthor", "flip": "tab:flip"}

#: Experiments of the paper that are not run, and why (listed in every output).
NOT_RUN = {
    "tab:ogb": "ogbn-products (2,449,029 nodes) is not available offline; instead NGC/RNGC run "
               "on a synthetic graph of its size (--scale-run) to show the pipeline scales",
    "tab:attack": "the Metattack-perturbed Cora/Citeseer/Pubmed graphs (ptb rate 25 %) are not "
                  "available offline (and RobustGCN, GCN-Jaccard, GCN-SVD are not implemented)",
}

def resolve(name):
    """The target key for a key, a LaTeX label or an alias, in any letter case; ValueError
    suggests the closest ones."""
    if not isinstance(name, str):
        raise TypeError(f"target must be a str, got {type(name).__name__}")
    try:
        key = match_id(name, [*TARGETS, *NOT_RUN, "scale", *ALIASES], "target")
    except ValueError as exc:
        raise ValueError(f"{exc} (`ngc-ref reproduce --help` lists the targets; TARGET:DATASET "
                         "picks one data set, e.g. 'tab:heterophily:texas')") from None
    return ALIASES.get(key, key)


def _parse_item(item):
    """``(target key, data set or None, sentence key or None)`` of one ``--only`` item: a
    target, ``TARGET:DATASET`` or ``TARGET:SENTENCE`` (a statement id; no sentence key is a
    data set's name, ``tests/test_reproduce.py``)."""
    from ngc_ref.datasets import canonical_name
    try:
        return resolve(item), None, None
    except ValueError as exc:
        head, sep, tail = item.rpartition(":")
        if not sep or not head:
            raise
        try:
            key = resolve(head)
        except ValueError:
            if ":" not in head:     # 'tab:nope': the whole item is the unknown target
                raise exc from None
            raise
    if key not in TARGETS:
        raise ValueError(f"{item!r}: {key!r} is not run, so it has no data sets or sentences "
                         "to choose from") from None
    t = TARGETS[key]
    sentences = {q.lower(): q for q in t.quotes}
    if tail.lower() in sentences:
        return key, None, sentences[tail.lower()]
    try:
        ds = canonical_name(tail)
    except ValueError:
        ds = tail
    if ds not in t.levels:
        raise ValueError(f"{item!r}: {key} runs on {', '.join(t.datasets)}, not {ds!r}, and "
                         f"judges the sentences {', '.join(t.quotes)}") from None
    return key, ds, None


def parse_only(items):
    """``{target key: set of data sets or None (all)}`` from ``--only`` arguments.

    Each item is a target (key, LaTeX label or alias), ``TARGET:DATASET`` or a sentence's
    statement id ``TARGET:SENTENCE`` (:func:`parse_sentences`), which runs the target on the
    data sets its ``TARGET:DATASET`` items name (all where none does).
    """
    out, whole = {}, set()
    for key, ds, sentence in map(_parse_item, items):
        out.setdefault(key, set())
        if ds is None and sentence is None:
            whole.add(key)
        elif ds is not None:
            out[key].add(ds)
    return {k: None if k in whole or not v else v for k, v in out.items()}


def parse_sentences(items):
    """``{target key: set of sentence keys}`` of the targets whose ``--only`` items name
    sentences (``TARGET:SENTENCE``) and not the whole target: the report keeps only those of
    their sentences (:meth:`RunContext.reports`)."""
    out, whole = {}, set()
    for key, ds, sentence in map(_parse_item, items):
        if sentence is not None:
            out.setdefault(key, set()).add(sentence)
        elif ds is None:
            whole.add(key)
    return {k: v for k, v in out.items() if k not in whole}


def run_counts(target, *, runs=None, full=False):
    """``{dataset: runs}`` for one target: ``runs`` if given, the paper's with ``full``, else
    the default."""
    t = TARGETS[target]
    if runs is not None:
        return {d: runs for d in t.datasets}
    if full:
        return {d: t.paper_runs or 100 for d in t.datasets}
    return dict(t.default_runs)


__all__ = ["ALIASES", "CITATION", "DEPTH_S", "MODEL_HELP", "NOT_RUN", "RunContext", "TARGETS",
           "Target", "depth_models", "parse_only", "parse_sentences", "resolve", "run_counts",
           "sentence_scope"]
