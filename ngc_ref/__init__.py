"""ngc_ref: reference implementation of Neumann Graph Convolution (NGC) and its robust variant.

Notation follows the paper "How Powerful is Implicit Denoising in Graph Neural Networks":
``lam`` = λ, ``S`` = expansion order, ``eps`` = ε, ``norm`` = "sym" | "rw", ``tau`` / ``tau_i``.
"""

from .connectivity import ConnectivityResult, connectivity_factor
from .neumann import (NeumannFilter, neumann_matrix, neumann_order, neumann_propagate,
                      series_mass, series_ratio)
from .normalize import add_self_loops, normalized_adjacency
from .robust import neumann_partial_sums, robust_propagate
from .solve import SolveInfo, gsd_solve
from .exceptions import PrecisionWarning
# Submodules users reach by name: ngc_ref.graphs.sbm, ngc_ref.noise.corrupt,
# ngc_ref.datasets.load_dataset, ngc_ref.training.run_experiment, ngc_ref.validation.check_scalar,
# ngc_ref.exceptions.PrecisionWarning. ``training`` (and ``ConvergenceWarning``, a subclass of
# scikit-learn's) are made on first use: they pull in scikit-learn (~1 s), which the operators
# and the theory checks of exact identities do not need.
from . import _docs, datasets, exceptions, graphs, noise, validation  # noqa: E402
from .datasets import Dataset, load_dataset

__version__ = "0.1.0"


def __getattr__(name):
    if name == "training":
        import importlib
        return importlib.import_module(".training", __name__)
    if name == "ConvergenceWarning":      # made on first use: see ngc_ref.exceptions
        return exceptions.ConvergenceWarning
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "ConnectivityResult", "ConvergenceWarning", "Dataset", "NeumannFilter", "PrecisionWarning",
    "SolveInfo", "add_self_loops", "connectivity_factor", "gsd_solve", "neumann_matrix",
    "neumann_order", "neumann_partial_sums", "neumann_propagate", "normalized_adjacency",
    "robust_propagate", "series_mass", "series_ratio", "load_dataset", "datasets", "exceptions",
    "graphs", "noise", "training", "validation",
]

# The See Also sections, from their one table (ngc_ref/_see_also.py); training adds its own.
_docs.add_see_also(__name__)
