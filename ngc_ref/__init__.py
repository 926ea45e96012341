"""ngc_ref: reference implementation of Neumann Graph Convolution (NGC) and its robust variant.

Notation follows the paper "How Powerful is Implicit Denoising in Graph Neural Networks":
``lam`` = λ, ``S`` = expansion order, ``eps`` = ε, ``norm`` = "sym" | "rw", ``tau`` / ``tau_i``.
"""

from .connectivity import ConnectivityResult, connectivity_factor
from .neumann import (NeumannFilter, NeumannOperator, neumann_matrix, neumann_order,
                      neumann_propagate, series_mass, series_ratio)
from .normalize import add_self_loops, normalized_adjacency
from .robust import robust_propagate
from .solve import ConvergenceWarning, SolveInfo, gsd_solve
from . import datasets  # noqa: E402  (submodule: ngc_ref.datasets.load_dataset)
from .datasets import Dataset, load_dataset

__version__ = "0.1.0"

__all__ = [
    "ConnectivityResult", "ConvergenceWarning", "Dataset", "load_dataset", "NeumannFilter", "NeumannOperator", "SolveInfo",
    "add_self_loops", "connectivity_factor", "gsd_solve", "neumann_matrix", "neumann_order",
    "neumann_propagate", "normalized_adjacency", "robust_propagate", "series_mass",
    "series_ratio",
]
