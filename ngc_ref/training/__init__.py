"""Trainers: the least-squares theory setting (Sec. 3) and node classification (Sec. 5).

Modules
-------
least_squares GD on f(W) = ‖Ã_S X W − Y‖² with the terms of Theorem 1.
propagations  NGC, RNGC, exact GSD and the linear baselines by name.
classifier    full-batch softmax / "+MLP" training (Adam or GD) in NumPy.
estimators    scikit-learn estimators (``SoftmaxClassifier``, ``GraphPropagation``).
experiment    repeated noisy-feature experiments, mean ± std per model.
gcn           the two-layer GCN (Kipf & Welling, pygcn settings) in NumPy.
controls      the structure-only control: signal-free features of the same scale.
"""

from .classifier import TrainResult, train_classifier
from .controls import frobenius_norm, match_frobenius, signal_free_features
from .estimators import GraphPropagation, SoftmaxClassifier, make_node_classifier
from .gcn import PYGCN_SETTINGS, GCNResult, train_gcn
from .optim import Adam, GradientDescent
from .propagations import PROPAGATIONS, Propagation, get_propagation, propagate
from .experiment import (DEFAULT_HYPERPARAMS, PAPER_ROW_NORMALIZE, ExperimentResult, ModelSpec,
                     fit_and_score, fit_models, model_spec, run_experiment)
from .least_squares import (LeastSquaresResult, TheoryTrajectory, least_squares,
                            lipschitz_constant, theory_trajectory)
from .._docs import add_see_also

__all__ = [
    "Adam", "DEFAULT_HYPERPARAMS", "ExperimentResult", "fit_and_score", "fit_models",
    "frobenius_norm", "GCNResult", "get_propagation", "GradientDescent", "GraphPropagation",
    "least_squares", "LeastSquaresResult", "lipschitz_constant", "make_node_classifier",
    "match_frobenius", "model_spec", "ModelSpec", "PAPER_ROW_NORMALIZE", "propagate",
    "Propagation", "PROPAGATIONS", "PYGCN_SETTINGS", "run_experiment", "signal_free_features",
    "SoftmaxClassifier", "theory_trajectory", "TheoryTrajectory", "train_classifier", "train_gcn",
    "TrainResult",
]

add_see_also(__name__)   # the See Also sections of training (ngc_ref/_see_also.py)
