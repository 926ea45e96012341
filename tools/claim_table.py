"""Write the claim table of docs/checker.md from the claims' declarations.

    python tools/claim_table.py          # rewrite docs/checker.md's table
    python tools/claim_table.py --check  # exit 1 when it is out of date

Each row is a registered claim's id, ``paper_ref`` and ``doc`` (``claim(..., doc="...")``), in
report order (:func:`ngc_ref_theory.output.report.claim_table`): a new claim declares its row and
this writes it; ``tests/test_extension_points.py`` fails while the page and the declarations
differ.
"""

import sys
from pathlib import Path

from ngc_ref_theory.output.report import with_claim_table

PAGE = Path(__file__).resolve().parents[1] / "docs" / "checker.md"


def main(argv):
    text = PAGE.read_text(encoding="utf-8")
    new = with_claim_table(text)
    if "--check" in argv:
        if new != text:
            print(f"{PAGE}: the claim table is out of date; run python tools/claim_table.py")
            return 1
        return 0
    if new != text:
        PAGE.write_text(new, encoding="utf-8")
        print(f"wrote the claim table of {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
