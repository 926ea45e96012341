"""Trainers: the least-squares theory setting (Sec. 3) and node classification (Sec. 5).

Modules
-------
theory        GD on f(W) = ‖Ã_S X W − Y‖² with the terms of Theorem 1.
propagations  NGC, RNGC, exact GSD and the linear baselines by name.
classifier    full-batch softmax / "+MLP" training (Adam or GD) in NumPy.
estimators    scikit-learn estimators (``SoftmaxClassifier``, ``GraphPropagation``).
hyperparams   the appendix hyper-parameter tables in one registry.
runner        repeated noisy-feature experiments, mean ± std per model.
"""

from .classifier import TrainResult, train_classifier
from .estimators import GraphPropagation, SoftmaxClassifier, make_node_classifier
from .hyperparams import PAPER_HYPERPARAMS, paper_config
from .optim import Adam, GradientDescent
from .propagations import PROPAGATIONS, Propagation, get_propagation, propagate
from .runner import PAPER_ROW_NORMALIZE, ExperimentResult, ModelSpec, model_spec, run_experiment
from .theory import (LeastSquaresResult, TheoryTrajectory, least_squares, lipschitz_constant,
                     theory_trajectory)

__all__ = [
    "Adam", "ExperimentResult", "ModelSpec", "model_spec", "run_experiment", "GradientDescent",
    "GraphPropagation", "SoftmaxClassifier", "make_node_classifier", "LeastSquaresResult",
    "PAPER_HYPERPARAMS", "PAPER_ROW_NORMALIZE", "PROPAGATIONS",
    "Propagation", "TheoryTrajectory", "TrainResult", "get_propagation", "least_squares",
    "lipschitz_constant", "paper_config", "propagate", "theory_trajectory", "train_classifier",
]
