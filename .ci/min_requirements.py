"""Print the oldest versions setup.cfg declares, as pins, for the minimum-versions job.

Every ``name>=X`` of install_requires (and of the extras named on the command line) becomes
``name==X``; environment markers are kept. A requirement without a lower bound is an error:
a floor that is not declared cannot be tested.
"""

import configparser
import re
import sys
from pathlib import Path

cfg = configparser.ConfigParser()
cfg.read(Path(__file__).resolve().parents[1] / "setup.cfg")
lines = cfg["options"]["install_requires"].strip().splitlines()
for extra in sys.argv[1:]:
    lines += cfg["options.extras_require"][extra].strip().splitlines()
for line in lines:
    req, _, marker = line.partition(";")
    m = re.fullmatch(r"\s*([A-Za-z0-9_.\-\[\]]+)\s*>=\s*([0-9][^,\s]*)\s*(,.*)?", req)
    if m is None:
        sys.exit(f"no lower bound to test in setup.cfg requirement {line!r}")
    print(f"{m.group(1)}=={m.group(2)}" + (f"; {marker.strip()}" if marker.strip() else ""))
