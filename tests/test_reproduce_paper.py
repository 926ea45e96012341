"""The paper's numbers of ``ngc-ref reproduce`` (ngc_ref_theory.paper.experiments) against the
paper's LaTeX, in both directions: every number, std and bold mark of every result table is in
the registry, the registry holds nothing else, and every quoted sentence is in the text."""

import re

import pytest

from ngc_ref_theory.paper.experiments import METHOD_QUOTES, QUOTES, SAID_OF, TABLES, lookup
from ngc_ref_theory.reproduce.targets import ALIASES, TARGETS

#: The LaTeX column headers' data-set names -> the registry's.
NAMES = {"Cornell": "cornell", "Texas": "texas", "Wisconsin": "wisconsin", "Actor": "actor",
         "Coauthor-CS": "coauthor-cs", "Coauthor-Phy": "coauthor-physics",
         "ogbn-products": "ogbn-products", "Cora": "cora", "Citeseer": "citeseer",
         "Pubmed": "pubmed"}


def _tabular(tex, label):
    start = tex.index(f"\\label{{{label}}}")
    body = tex[tex.index("\\begin{tabular}", start):]
    return body[:body.index("\\end{tabular}")]


def _name(cell):
    """The row name in a row's first cell: its last line, unless that is a LaTeX command
    (a rule, \\multirow, the tabular's opening) -> ''."""
    lines = cell.strip().splitlines()
    last = lines[-1].strip() if lines else ""
    return "" if last.startswith("\\") else last


def _rows(body):
    """{row name: [(mean, std or None, bold)]} of the data rows of a tabular."""
    rows = {}
    for line in body.split("\\\\"):
        cells = [c.strip() for c in line.split("&")]
        name = _name(cells[0])
        if len(cells) < 2 or not name:
            continue
        parsed = []
        for c in cells[1:]:
            nums = re.findall(r"\d+(?:\.\d+)?", c.replace("S$^2$", ""))
            if not nums:
                break
            parsed.append((float(nums[0]), float(nums[1]) if len(nums) > 1 else None,
                           "\\textbf" in c))
        else:
            rows[name.replace("S$^2$GC", "S2GC")] = parsed
    return rows


def _header(body):
    datasets = re.findall(r"\\multicolumn\{(\d+)\}\{c\}\{([^}]*)\}", body)
    levels = []
    for line in body.split("\\\\"):
        cells = [c.strip() for c in line.split("&")]
        if len(cells) > 1 and not _name(cells[0]) and all(
                re.fullmatch(r"\d+(\.\d+)?", c) for c in cells[1:]):
            levels = [float(c) for c in cells[1:]]
            break
    return [(NAMES[name], int(k)) for k, name in datasets], levels


@pytest.mark.parametrize("label", sorted(TABLES))
def test_every_number_of_the_table_is_in_the_registry_and_nothing_else(tex, label):
    table = TABLES[label]
    body = _tabular(tex, label)
    rows = _rows(body)
    assert set(rows) == set(table.rows), f"{label}: rows differ"
    for name, cells in rows.items():
        ours = [(e.mean, e.std, e.bold) for e in table.rows[name]]
        assert ours == cells, f"{label} row {name}"


@pytest.mark.parametrize("label", sorted(set(TABLES) - {"tab:attack"}))
def test_the_columns_are_the_tables_columns(tex, label):
    table = TABLES[label]
    datasets, levels = _header(_tabular(tex, label))
    expected = [d for d, k in datasets for _ in range(k)]
    assert [d for d, _ in table.columns] == expected
    assert [lv for _, lv in table.columns] == levels


def test_the_attack_table_columns(tex):
    head = _tabular(tex, "tab:attack").split("\\hline\\hline")[0]
    assert re.findall(r"&\s*(\w+)", head) == ["Cora", "Citeseer", "Pubmed"]
    assert [d for d, _ in TABLES["tab:attack"].columns] == ["cora", "citeseer", "pubmed"]


def test_run_counts_are_the_captions(tex):
    for label, table in TABLES.items():
        start = tex.index(f"\\label{{{label}}}")
        caption = tex[max(0, start - 400):start + 200]
        found = re.findall(r"(\d+) runs", caption)
        if table.runs is None:
            assert not found or label == "tab:row normalization"
        else:
            assert str(table.runs) in found, label


def _normalised(text):
    text = text.replace("R\\name", "RNGC").replace("\\name", "NGC").replace("$", "")
    text = text.replace("~", " ")
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("key", sorted(QUOTES) + sorted(METHOD_QUOTES))
def test_every_quote_is_in_the_paper(tex, key):
    assert re.sub(r"\s+", " ", {**QUOTES, **METHOD_QUOTES}[key]) in _normalised(tex)


def test_the_words_that_say_which_experiment_a_sentence_is_about_are_the_papers(tex):
    """SAID_OF's words (its scope's reason) are verbatim, and each experiment it names is one
    they refer to (\\ref of the target's label or an alias of it)."""
    assert set(SAID_OF) == set(QUOTES)
    for key, (targets, words) in SAID_OF.items():
        for w in words:
            assert re.sub(r"\s+", " ", w) in _normalised(tex), (key, w)
        for t in targets:
            labels = {t, *(a for a, k in ALIASES.items() if k == t)}
            assert any(f"\\ref{{{lb}}}" in w for w in words for lb in labels), (key, t)


def test_targets_point_at_tables_and_quotes_that_exist():
    for t in TARGETS.values():
        assert t.paper_label is None or t.paper_label in TABLES
        assert all(q in QUOTES for q in t.quotes)
        if t.paper_label is not None:
            cols = {c for c in TABLES[t.paper_label].columns}
            assert {(d, lv) for d, lvs in t.levels.items() for lv in lvs} <= cols


def test_lookup():
    assert lookup("tab:coauthor", "rngc", "coauthor-physics", 1.0).std == 0.8
    assert lookup("tab:row normalization", "w/o RN", "cora", 100.0).mean == 56.1
    assert lookup("tab:flip", "ngc", "cora", 0.3) is None
