"""The paper's numbers entered in the checker match the paper's LaTeX (when it is available:
NGC_REF_PAPER, or ../shared/paper/implicit-denoising-gnn.tex beside the checkout, as in CI)."""

import re


from ngc_ref_theory.paper.words import ROW_NORMALIZATION_TABLE
from ngc_ref_theory.claims.tau_range import EQ_7


def _table_rows(tex, label):
    body = tex[tex.index(f"\\label{{{label}}}"):]
    body = body[:body.index("\\end{tabular}")]
    rows = {}
    for line in body.splitlines():
        cells = [c.strip() for c in line.strip().rstrip("\\").split("&")]
        if len(cells) > 2:
            nums = [re.sub(r"\\textbf\{([^}]*)\}", r"\1", c) for c in cells[1:]]
            try:
                rows[cells[0]] = tuple(float(x) for x in nums)
            except ValueError:
                continue
    return rows


def test_row_normalization_table_matches_the_paper(tex):
    rows = _table_rows(tex, ROW_NORMALIZATION_TABLE["label"])
    t = ROW_NORMALIZATION_TABLE
    datasets = ("cora", "citeseer", "pubmed")          # the column order of the LaTeX table
    assert rows["w/o RN"] == sum((t["without"][d] for d in datasets), ())
    assert rows["w RN"] == sum((t["with"][d] for d in datasets), ())
    header = tex[tex.index(f"\\label{{{t['label']}}}"):].split("\\midrule")[0]
    assert re.findall(r"&\s*(\d+)", header)[:3] == ["1", "10", "100"]


def test_remark_1_cites_eq_7_the_bounds(tex):
    """Remark 1's 'Eq. (7) reaches its lower / upper bound' cite \\ref{range}, the seventh numbered
    display (Eq. 7, the bounds on the row square sums), as tau-range's EQ_7 says: no erratum."""
    end = tex.index("\\label{range}")
    numbered = re.findall(r"\\begin\{(equation|align)\}", tex[tex.index("\\begin{document}"):end])
    assert len(numbered) == 7 and "seventh numbered display" in EQ_7
    for bound in ("lower", "upper"):
        assert f"Eq.~(\\ref{{range}}) reaches its {bound} bound" in tex


def test_dataset_table_matches_the_paper(tex):
    """Table 6 ('Datasets statistics'): every row's four counts, as DATASET_TABLE enters them."""
    from ngc_ref_theory.paper.words import DATASET_TABLE
    body = tex[tex.index(f"\\label{{{DATASET_TABLE['label']}}}"):]
    body = body[body.index("\\midrule"):body.index("\\bottomrule")]
    rows = {}
    for line in body.splitlines():
        cells = [c.strip() for c in line.strip().rstrip("\\").split("&")]
        if len(cells) == 5:
            rows[cells[0]] = tuple(int(c) for c in cells[1:])
    want = {DATASET_TABLE["names"][k]: v for k, v in DATASET_TABLE["rows"].items()}
    assert rows == want
