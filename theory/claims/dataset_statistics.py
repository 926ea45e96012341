"""Table 6 ("Datasets statistics") against the data sets the loaders read, and Sec. 5's "the node
degree on these three datasets is larger".

**Table 6** (``dataset-statistics``). Each row's # nodes, # edges, # features, # classes, as
exact integers, against :meth:`ngc_ref.datasets.Dataset.summary` of the files the paper's
experiments read through PyG (App. H.1: "We use Pytorch and PyG to implement NGC"): Planetoid's
Cora, Citeseer, Pubmed, Geom-GCN's Cornell, Texas, Wisconsin, Actor, and the Coauthor sets. The
loaders count edges undirected, without self-loops and repeats (data/README.md 'Counts', where
the other conventions — directed lines, self-loops kept — are counted too: none gives the
paper's edges either). ogbn-products is not available offline: its row is not checked.

**Mean degree** (``dataset-statistics:degree``). Sec. 5 compares "these three datasets"
(Coauthor-CS, Coauthor-Phy, ogbn-products, the large-scale graphs of Tables 2 and 3) with "the
above small datasets" (Cora, Citeseer, Pubmed of Fig. 2 and Cornell, Texas, Wisconsin, Actor of
Table 1). The node degree of a data set is its mean degree 2|E|/n; the statement holds when
each large data set's exceeds each small one's. Judged on Table 6's own counts (always) and on
the loaded counts (with the data; ogbn-products from Table 6 there too).
"""

from __future__ import annotations

from ..kit.evidence import counterexample
from ..kit.claim import Violation, as_stated, claim
from ..paper.words import DATASET_TABLE
from ._paper_data import PAPER_DATASETS, load

ID = "dataset-statistics"
WORDS = ("App. G, Table 6 'Datasets statistics': '# Nodes, # Edges, # Features, # Classes' of "
         "Cora, Citeseer, Pubmed, Cornell, Texas, Wisconsin, Actor, Coauthor-CS, Coauthor-Phy, "
         "ogbn-products; App. H.1: 'We use Pytorch and PyG to implement NGC'")
DEGREE_WORDS = ("Sec. 5 (large-scale graphs): 'Compared with the above small datasets, the node "
                "degree on these three datasets is larger, which means they have better "
                "connectivity.'")
STATEMENT = ("Table 6's counts are those of the data sets the experiments read: for each row, "
             "# nodes, # edges, # features and # classes equal the loaded data set's (nodes, "
             "undirected edges without self-loops, feature columns, classes), as exact "
             "integers; ogbn-products is not available offline.")
CLAIM = claim(ID, "App. G, Table 6", STATEMENT, norms=("sym",), order=170,
              scope=as_stated(f"{WORDS}; counts of the data, no normalisation involved"),
              data_sets=PAPER_DATASETS,
              rule="free", seconds=(0.5, 0.5),
              doc=("Table 6's nodes, edges, features, classes against the loaded data sets "
                   "(exact integers); `:degree` Sec. 5's \"the node degree on these three "
                   "datasets is larger\" (mean degree 2|E|/n, on Table 6's counts and on the "
                   "loaded ones)"))
DEGREE = CLAIM.part(
    "degree", "Sec. 5: 'the node degree on these three datasets is larger' than on 'the above "
              "small datasets': the mean degree 2|E|/n of each of Coauthor-CS, Coauthor-Phy and "
              "ogbn-products exceeds that of each of Cora, Citeseer, Pubmed, Cornell, Texas, "
              "Wisconsin and Actor — on Table 6's counts, and on the loaded data sets' counts "
              "(ogbn-products from Table 6).",
    scope=as_stated(f"{DEGREE_WORDS}; 'these three datasets' are the large-scale graphs of "
                    "Tables 2 and 3, 'the above small datasets' those of Fig. 2 and Table 1; a "
                    "count of the data, no normalisation involved"))

COLUMNS = ("nodes", "edges", "features", "classes")
LARGE = ("coauthor-cs", "coauthor-physics", "ogbn-products")
SMALL = ("cora", "citeseer", "pubmed", "cornell", "texas", "wisconsin", "actor")


def loaded_counts(ctx):
    """``{name: {column: count}}`` of the data sets that load (the others: the skip list),
    with the loaded adjacency under ``"A"``."""
    out = {}
    for name, ds in load(ctx, PAPER_DATASETS).items():
        s = ds.summary()
        out[name] = {"nodes": s["n"], "edges": s["edges"], "features": s["features"],
                     "classes": s["classes"], "A": ds.adjacency}
    return out


def compare(loaded):
    """One row per data set of Table 6: the paper's counts, the loaded ones, the mismatches."""
    rows = []
    for name, paper in DATASET_TABLE["rows"].items():
        got = loaded.get(name)
        row = {"dataset": name, "paper": dict(zip(COLUMNS, paper)),
               "loaded": None if got is None else {c: got[c] for c in COLUMNS}}
        row["mismatches"] = [] if got is None else [c for c, p in zip(COLUMNS, paper)
                                                    if got[c] != p]
        rows.append(row)
    return rows


def mean_degrees(counts):
    """{name: 2|E|/n} of ``counts`` ({name: {"nodes", "edges"}})."""
    return {name: 2 * c["edges"] / c["nodes"] for name, c in counts.items()}


def degree_pairs(degrees):
    """(large, small, its degree, the small one's) for every pair where the large data set's
    mean degree does not exceed the small one's."""
    return [(b, s, degrees[b], degrees[s]) for b in LARGE for s in SMALL
            if b in degrees and s in degrees and degrees[b] <= degrees[s]]


@CLAIM.checker
def check(ctx, norm):
    loaded = loaded_counts(ctx)
    ctx.skip("ogbn-products (Table 6's row)", "not available offline")
    out = [degree_result(ctx, norm, loaded)]
    if loaded:      # without data the skip list names every data set
        out.insert(0, table_result(ctx, norm, loaded))
    return out


def table_result(ctx, norm, loaded):
    rows = compare(loaded)
    checked = [r for r in rows if r["loaded"] is not None]
    ev = {"words": WORDS, "rows": rows, "edges_counted": "undirected, without self-loops and "
          "repeated edges (Dataset.summary()); data/README.md 'Counts' lists the other "
          "conventions, none of which gives the paper's edges",
          "not_checked": [r["dataset"] for r in rows if r["loaded"] is None]}
    per = {c: sum(c not in r["mismatches"] for r in checked) for c in COLUMNS}
    tally = ", ".join(f"{c} {per[c]}/{len(checked)}" for c in COLUMNS)
    bad = [(r, c) for r in checked for c in r["mismatches"]]
    if not bad:
        return CLAIM.result(norm, "holds", ev, f"every count of the {len(checked)} loaded data "
                                               f"sets equals Table 6's ({tally})")
    listing = "; ".join(f"{r['dataset']} {c} {r['loaded'][c]} vs {r['paper'][c]}"
                        for r, c in bad)
    r, c = bad[0]
    ce = counterexample(ID, ctx, graph=(r["dataset"], loaded[r["dataset"]]["A"]),
                        dataset=r["dataset"], column=c, loaded=r["loaded"][c],
                        paper=r["paper"][c])
    return CLAIM.result(norm, "fails", ev, f"equal to Table 6: {tally}; loaded vs Table 6: "
                                           f"{listing}", ce)


def degree_result(ctx, norm, loaded):
    paper = {k: dict(zip(COLUMNS, v)) for k, v in DATASET_TABLE["rows"].items()}
    sources = {"Table 6": mean_degrees(paper)}
    if loaded:
        sources["loaded"] = mean_degrees({**{k: paper[k] for k in LARGE if k not in loaded},
                                          **loaded})
    ev = {"words": DEGREE_WORDS, "large": list(LARGE), "small": list(SMALL),
          "mean_degree": sources, "rule": "each large data set's 2|E|/n exceeds each small one's"}
    bad = {src: degree_pairs(d) for src, d in sources.items()}
    margin = "; ".join(
        f"{src}: smallest large {min(d[b] for b in LARGE if b in d):.2f} "
        f"({min((b for b in LARGE if b in d), key=d.get)}) vs largest small "
        f"{max(d[s] for s in SMALL if s in d):.2f} ({max((s for s in SMALL if s in d), key=d.get)})"
        for src, d in sources.items())
    if not any(bad.values()):
        return DEGREE.result(norm, "holds", ev, f"every large data set has the larger mean "
                                                f"degree: {margin}")
    src, (b, s, db, ds) = next((k, v[0]) for k, v in bad.items() if v)
    ce = counterexample(DEGREE.id, ctx, no_graph="a comparison of counts", dataset=b,
                        against=s, source=src, mean_degree=db, against_mean_degree=ds)
    return DEGREE.result(norm, "fails", ev, f"{margin}", ce,
                         violation=Violation(f"2|E|/n of {b}", db, ">", ds, f"{s}'s",
                                             case=src))
