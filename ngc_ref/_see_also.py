"""The neighbours of each public function and class: the one table of the See Also sections.

``SEE_ALSO["module.qualname"]`` lists ``(name, description)`` pairs, the closest relatives of
that object (the exact solve ↔ the series ↔ τ, a builder ↔ its family, a record ↔ the function
that returns it). :func:`ngc_ref._docs.add_see_also` writes them into the docstrings as a
numpydoc ``See Also`` section when the package is imported (before ``Notes``, ``References``
and ``Examples``), so ``help()``, the rendered docs and the doctests see them; a new public
function gets its entry here (``tests/test_docs.py`` checks that every public object has one
and that every name in it resolves). A name is looked up as numpydoc does: in the object's
public namespace, or as a full dotted path.
"""

SEE_ALSO = {
    "ngc_ref.connectivity.ConnectivityResult": [
        ('connectivity_factor', 'Computes it'),
    ],
    "ngc_ref.connectivity.connectivity_factor": [
        ('NeumannFilter', 'The operator Ã_S whose rows τ_i measures'),
        ('series_mass', 'The row sum 1 − r^{S+1} of Ã_S for "rw", the denominator of τ_i'),
        ('neumann_matrix', 'Ã_S as a dense array, what ``method="dense"`` forms'),
        ('ngc_ref.training.theory_trajectory',
         "Theorem 1's terms, whose noise floor is τ log n / n"),
    ],
    "ngc_ref.neumann.series_ratio": [
        ('series_mass', '1 − r^{S+1}, the mass the truncated series keeps'),
        ('neumann_order', 'The S at which the truncation r^{S+1} falls below a tolerance'),
    ],
    "ngc_ref.neumann.series_mass": [
        ('series_ratio', 'r = λ/(λ+1)'),
        ('NeumannFilter.row_sums', 'Ã_S 1, which equals it for every row when ``norm="rw"``'),
        ('connectivity_factor', 'τ, normalised by its square'),
    ],
    "ngc_ref.neumann.neumann_order": [
        ('series_ratio', 'The ratio r whose powers bound the truncation'),
        ('neumann_propagate', 'The series of that order applied to features'),
        ('gsd_solve', 'The S = ∞ limit, solved directly'),
    ],
    "ngc_ref.neumann.NeumannFilter": [
        ('neumann_propagate', 'One product Ã_S X, without keeping the filter'),
        ('neumann_matrix', 'Ã_S as a dense array'),
        ('gsd_solve', 'The untruncated (I + λL̃)⁻¹ X (also :meth:`exact`)'),
        ('robust_propagate', 'RNGC: the series of Ã − εXXᵀ/‖XXᵀ‖_F'),
        ('normalized_adjacency', 'Ã_norm, which the filter computes once'),
    ],
    "ngc_ref.neumann.neumann_matrix": [
        ('NeumannFilter.matrix', 'The same for a filter already made'),
        ('neumann_propagate', 'Ã_S X without forming Ã_S'),
        ('connectivity_factor', 'τ from the rows of Ã_S, blockwise'),
    ],
    "ngc_ref.normalize.add_self_loops": [
        ('normalized_adjacency', 'Ã_norm, built from this Ã'),
        ('ngc_ref.validation.check_adjacency', 'The checks A passes first'),
    ],
    "ngc_ref.normalize.normalized_adjacency": [
        ('add_self_loops', 'Ã = A − diag(A) + I'),
        ('NeumannFilter', 'The series in Ã_norm, with Ã_norm kept'),
        ('ngc_ref.validation.check_adjacency', 'How A is read'),
    ],
    "ngc_ref.robust.neumann_partial_sums": [
        ('neumann_propagate', 'NGC at one S, by Horner\'s rule'),
        ('robust_propagate', 'RNGC at one S, by Horner\'s rule'),
        ('ngc_ref.training.fit_models', 'The experiment step that trains on them'),
    ],
    "ngc_ref.robust.robust_propagate": [
        ('neumann_propagate', 'NGC, the ε = 0 case'),
        ('neumann_partial_sums', 'The same series at several S from one pass'),
        ('NeumannFilter', 'The NGC operator, reused across features'),
        ('ngc_ref.training.propagate', 'Every propagation of the experiments by name (``"rngc"``)'),
    ],
    "ngc_ref._validation.check_scalar": [
        ('check_array', 'The same rules for arrays'),
        ('as_generator', 'The coercion point for seeds'),
    ],
    "ngc_ref._validation.check_option": [
        ('check_scalar', 'Numbers'),
        ('check_array', 'Arrays'),
    ],
    "ngc_ref._validation.as_generator": [
        ('check_scalar', 'Numbers'),
        ('numpy.random.default_rng', 'What it calls'),
    ],
    "ngc_ref._validation.check_adjacency": [
        ('ngc_ref.add_self_loops', 'Ã from the checked adjacency'),
        ('check_array', 'Features and signals'),
    ],
    "ngc_ref._validation.check_array": [
        ('check_adjacency', 'Graphs'),
        ('check_scalar', 'Numbers'),
    ],
    "ngc_ref.noise.gaussian_noise": [
        ('add_subgaussian_noise', 'The same with ``kind="gaussian"``, returning σ too'),
        ('corrupt', "Noise, then the paper's row normalisation"),
    ],
    "ngc_ref.noise.subgaussian_noise": [
        ('add_subgaussian_noise', 'Added to features'),
        ('gaussian_noise', "The paper's X + ξη"),
    ],
    "ngc_ref.noise.add_subgaussian_noise": [
        ('subgaussian_noise', 'The noise alone, with its σ'),
        ('gaussian_noise', 'The Gaussian case, without σ'),
        ('corrupt', 'Noise and row normalisation in one call'),
    ],
    "ngc_ref.noise.flip_features": [
        ('corrupt', 'Flipping (``kind="flip"``) then row normalisation'),
        ('gaussian_noise', "The paper's additive noise"),
    ],
    "ngc_ref.noise.row_normalize": [
        ('corrupt', 'Noise then this normalisation'),
        ('gaussian_noise', 'The noise it follows in the paper'),
    ],
    "ngc_ref.noise.corrupt": [
        ('gaussian_noise', 'The ``"gaussian"`` step'),
        ('flip_features', 'The ``"flip"`` step'),
        ('row_normalize', 'The normalisation step'),
    ],
    "ngc_ref.graphs.deterministic.isolated": [
        ('star', "Figure 1's G2"),
        ('complete', 'G3, the other extreme of τ'),
        ('figure1', 'All four by name'),
    ],
    "ngc_ref.graphs.deterministic.star": [
        ('isolated', 'G1'),
        ('complete', 'G3'),
        ('figure1', 'The four graphs by name'),
    ],
    "ngc_ref.graphs.deterministic.complete": [
        ('isolated', 'G1, no edges'),
        ('ring', 'G4'),
        ('figure1', 'The four graphs by name'),
    ],
    "ngc_ref.graphs.deterministic.ring": [
        ('path', 'The ring without its closing edge'),
        ('torus', 'Its product C_p □ C_p'),
        ('figure1', 'G4 = ring(8)'),
    ],
    "ngc_ref.graphs.deterministic.torus": [
        ('ring', 'The factor C_p'),
        ('grid', 'The lattice without wrap-around'),
    ],
    "ngc_ref.graphs.deterministic.path": [
        ('ring', 'With the edge n−1 -- 0'),
        ('grid', 'Its 2-D version'),
    ],
    "ngc_ref.graphs.deterministic.grid": [
        ('path', 'One row'),
        ('torus', 'With wrap-around'),
    ],
    "ngc_ref.graphs.deterministic.figure1": [
        ('figure1_graphs', 'All four at once'),
        ('isolated', 'G1'),
        ('star', 'G2'),
        ('complete', 'G3'),
        ('ring', 'G4'),
    ],
    "ngc_ref.graphs.deterministic.figure1_graphs": [
        ('figure1', 'One of them by name'),
        ('ngc_ref.connectivity_factor', 'Their τ, the case study of Sec. 3'),
    ],
    "ngc_ref.graphs.stochastic.block_sizes": [
        ('sbm', 'The blocks it sizes'),
        ('contextual_sbm', 'The same blocks, with features'),
    ],
    "ngc_ref.graphs.stochastic.erdos_renyi": [
        ('sbm', 'Several blocks, each pair with its own p'),
        ('random_regular', 'Every degree equal instead of binomial'),
    ],
    "ngc_ref.graphs.stochastic.sbm": [
        ('erdos_renyi', 'One block'),
        ('block_sizes', 'How n is split'),
        ('contextual_sbm', 'With class-dependent features'),
        ('edge_homophily', 'The share of edges inside a block'),
    ],
    "ngc_ref.graphs.stochastic.barabasi_albert": [
        ('erdos_renyi', 'No hubs'),
        ('random_regular', 'No degree spread at all'),
    ],
    "ngc_ref.graphs.stochastic.random_regular": [
        ('erdos_renyi', 'Binomial degrees'),
        ('barabasi_albert', 'Heavy-tailed degrees'),
        ('ring', 'The deterministic 2-regular graph'),
    ],
    "ngc_ref.graphs.stochastic.ContextualSBM": [
        ('contextual_sbm', 'Draws one'),
    ],
    "ngc_ref.graphs.stochastic.contextual_sbm": [
        ('sbm', 'Its graph'),
        ('ContextualSBM', 'The record it returns'),
        ('ngc_ref.noise.corrupt', 'Other noises on ``X_clean``'),
        ('ngc_ref.training.theory_trajectory', "Theorem 1's terms on it"),
    ],
    "ngc_ref.graphs.stochastic.edge_homophily": [
        ('sbm', 'Homophily set by ``p_in``/``p_out``'),
        ('contextual_sbm', 'The same, with features'),
    ],
    "ngc_ref.graphs._registry.GraphFamily": [
        ('register_family', 'Adds one'),
        ('family_info', 'Looks one up'),
    ],
    "ngc_ref.graphs._registry.register_family": [
        ('resolve_family', 'Registers ``package.module:function`` on first use'),
        ('make_graph', 'Builds the family by name'),
        ('GraphFamily', 'The record made'),
    ],
    "ngc_ref.graphs._registry.resolve_family": [
        ('register_family', 'Registration by name'),
        ('family_info', 'The public lookup'),
    ],
    "ngc_ref.graphs._registry.graph_families": [
        ('make_graph', 'Builds one by name'),
        ('family_info', 'What a family declares'),
    ],
    "ngc_ref.graphs._registry.family_info": [
        ('GraphFamily', 'Its fields'),
        ('family_params', 'Its parameter names'),
        ('graph_families', 'The registered names'),
    ],
    "ngc_ref.graphs._registry.family_params": [
        ('make_graph', 'Takes them as keywords'),
        ('family_info', 'The whole record'),
    ],
    "ngc_ref.graphs.make_graph": [
        ('graph_families', 'The names it accepts'),
        ('family_params', "a family's parameters"),
        ('register_family', 'Adds your own family'),
    ],
    "ngc_ref.datasets._names.canonical_name": [
        ('load_dataset', 'Loads a data set by any of its names'),
        ('dataset_files', 'The files of a data set'),
    ],
    "ngc_ref.datasets.load_dataset": [
        ('Dataset', 'The record returned'),
        ('canonical_name', 'The name a spelling stands for'),
        ('fetch', 'Downloads the files it reads'),
        ('resolve_root', 'The data folder it reads when no root is given'),
        ('ngc_ref.training.run_experiment', "The paper's experiments on it"),
    ],
    "ngc_ref.datasets._fetch.fetch": [
        ('verify', 'Checks a data folder without downloading'),
        ('dataset_files', 'The files of each data set'),
        ('default_root', 'Where the files go by default'),
        ('FetchError', 'Raised when some file could not be fetched'),
    ],
    "ngc_ref.datasets._fetch.verify": [
        ('fetch', 'Downloads what is missing'),
        ('load_dataset', 'Verifies each file again as it reads it'),
    ],
    "ngc_ref.datasets._fetch.fetch_root": [
        ('fetch', 'Works on it'),
        ('default_root', 'Its default when NGC_REF_DATA is unset'),
    ],
    "ngc_ref.datasets._fetch.FetchError": [
        ('fetch', 'Raises it'),
    ],
    "ngc_ref.datasets._fetch.dataset_files": [
        ('fetch', 'Downloads them'),
        ('canonical_name', 'The name a spelling stands for'),
    ],
    "ngc_ref.datasets._root.default_root": [
        ('find_root', 'Uses it when NGC_REF_DATA is unset and it holds data'),
        ('fetch', 'Fills it'),
    ],
    "ngc_ref.datasets._root.find_root": [
        ('resolve_root', "A loader's folder: root=, else this"),
        ('default_root', 'The default data folder'),
    ],
    "ngc_ref.datasets._root.resolve_root": [
        ('find_root', 'The folder without root='),
        ('load_dataset', 'Reads from it'),
    ],
    "ngc_ref.datasets._dataset.Dataset": [
        ('load_dataset', 'Loads one'),
    ],
    "ngc_ref.datasets._planetoid.RestrictedUnpickler": [
        ('load_dataset', 'Which reads the Planetoid files with it'),
    ],
    "ngc_ref.training.classifier.TrainResult": [
        ('train_classifier', 'Returns it'),
    ],
    "ngc_ref.training.classifier.train_classifier": [
        ('SoftmaxClassifier', 'The same as a scikit-learn estimator'),
        ('train_gcn', 'The two-layer GCN, which propagates inside the model'),
        ('propagate', 'The features it is trained on'),
    ],
    "ngc_ref.training.controls.frobenius_norm": [
        ('match_frobenius', 'Rescales to a given norm'),
        ('signal_free_features', 'Uses both'),
    ],
    "ngc_ref.training.controls.match_frobenius": [
        ('frobenius_norm', 'The norm matched'),
        ('signal_free_features', 'The control built with it'),
    ],
    "ngc_ref.training.controls.signal_free_features": [
        ('match_frobenius', 'The scaling step'),
        ('fit_models', 'Where the control runs beside the models'),
    ],
    "ngc_ref.training.estimators.SoftmaxClassifier": [
        ('train_classifier', 'The trainer it wraps'),
        ('GraphPropagation', 'Its input transformer'),
        ('make_node_classifier', 'The two in one pipeline'),
    ],
    "ngc_ref.training.estimators.GraphPropagation": [
        ('propagate', 'The propagation it applies'),
        ('SoftmaxClassifier', 'The classifier after it'),
        ('make_node_classifier', 'The two in one pipeline'),
    ],
    "ngc_ref.training.estimators.make_node_classifier": [
        ('GraphPropagation', 'The first step'),
        ('SoftmaxClassifier', 'The second step'),
        ('run_experiment', "The paper's repeated noisy-feature runs"),
    ],
    "ngc_ref.training.gcn.GCNResult": [
        ('train_gcn', 'Returns it'),
    ],
    "ngc_ref.training.gcn.train_gcn": [
        ('train_classifier', 'a classifier on features propagated beforehand'),
        ('ngc_ref.normalized_adjacency', 'The Ã_sym it propagates with'),
    ],
    "ngc_ref.training.optim.Adam": [
        ('GradientDescent', 'The plain update'),
        ('train_classifier', 'Chooses one by name'),
    ],
    "ngc_ref.training.optim.GradientDescent": [
        ('Adam', 'The adaptive update'),
        ('train_classifier', 'Chooses one by name'),
    ],
    "ngc_ref.training.propagations.Propagation": [
        ('get_propagation', 'Looks one up by name'),
        ('propagate', 'Applies one'),
    ],
    "ngc_ref.training.propagations.get_propagation": [
        ('propagate', 'Applies it'),
        ('Propagation', 'The record returned'),
    ],
    "ngc_ref.training.propagations.propagate": [
        ('get_propagation', 'The registry entry of a name'),
        ('ngc_ref.neumann_propagate', 'NGC (``"ngc"``)'),
        ('ngc_ref.robust_propagate', 'RNGC (``"rngc"``)'),
        ('ngc_ref.gsd_solve', 'The exact GSD solution (``"gsd"``)'),
    ],
    "ngc_ref.training.experiment.ModelSpec": [
        ('model_spec', 'Builds one'),
    ],
    "ngc_ref.training.experiment.model_spec": [
        ('ModelSpec', 'The record returned'),
        ('run_experiment', 'Runs the models'),
    ],
    "ngc_ref.training.experiment.ExperimentResult": [
        ('run_experiment', 'Returns it'),
    ],
    "ngc_ref.training.experiment.fit_and_score": [
        ('fit_models', 'Calls it for every model of a run'),
        ('ngc_ref.neumann_partial_sums', 'Every depth S from one pass, passed as ``H``'),
    ],
    "ngc_ref.training.experiment.fit_models": [
        ('fit_and_score', 'One model'),
        ('run_experiment', 'Calls it for every run and level'),
        ('signal_free_features', "The controls' features"),
        ('ngc_ref.neumann_partial_sums', 'The depth grid of ``partial_sums=True``'),
    ],
    "ngc_ref.training.experiment.run_experiment": [
        ('fit_models', 'Every model of one run'),
        ('model_spec', "One model's settings"),
        ('ngc_ref.noise.corrupt', 'The feature corruption of each run'),
        ('ngc_ref.load_dataset', 'The data sets'),
    ],
    "ngc_ref.training.least_squares.lipschitz_constant": [
        ('least_squares', 'The minimiser of the same objective'),
        ('theory_trajectory', 'GD with step 1/L'),
    ],
    "ngc_ref.training.least_squares.LeastSquaresResult": [
        ('least_squares', 'Returns it'),
    ],
    "ngc_ref.training.least_squares.least_squares": [
        ('lipschitz_constant', 'The smoothness of its objective'),
        ('theory_trajectory', "Gradient descent on the same objective, with Theorem 1's terms"),
    ],
    "ngc_ref.training.least_squares.TheoryTrajectory": [
        ('theory_trajectory', 'Returns it'),
    ],
    "ngc_ref.training.least_squares.theory_trajectory": [
        ('ngc_ref.connectivity_factor', 'τ of the noise floor τ log n / n'),
        ('least_squares', 'The minimisers W_f*, W_g*'),
        ('ngc_ref.graphs.contextual_sbm', 'a testbed with clean and noisy features'),
    ],
    "ngc_ref.neumann.neumann_propagate": [
        ('NeumannFilter', 'The same operator with the normalisation cached'),
        ('gsd_solve', 'The untruncated solution (I + λL̃)⁻¹ X'),
        ('robust_propagate', 'RNGC, the series with −εXXᵀ/‖XXᵀ‖_F added to Ã'),
        ('neumann_order', 'The S that makes the truncation error r^{S+1} small enough'),
    ],
    "ngc_ref.solve.gsd_solve": [
        ('gsd_solve_normalized', 'The same solve for an Ã_norm already built (many λ, one graph)'),
        ('NeumannFilter.exact', 'The S = ∞ limit of the NGC filter, by this solve'),
        ('neumann_propagate', 'The truncated series Ã_S X, its S-term approximation'),
        ('SolveInfo', 'What the solve did, returned with ``return_info=True``'),
        ('scipy.sparse.linalg.cg', 'Whose ``x0`` and ``callback`` these follow'),
    ],
    "ngc_ref.solve.SolveInfo": [
        ('gsd_solve', 'Returns it'),
    ],
    "ngc_ref.exceptions.ConvergenceWarning": [
        ('gsd_solve', 'Warns with it'),
        ('SolveInfo', 'Its ``converged`` flag'),
        ('ngc_ref.training.lipschitz_constant', 'Warns with it when the power iteration stops'),
        ('sklearn.exceptions.ConvergenceWarning', 'Its base class: one filter for both'),
    ],
    "ngc_ref.exceptions.PrecisionWarning": [
        ('neumann_propagate', 'Warns with it for a float32 series of large λ and S'),
        ('ngc_ref.neumann.float32_error_estimate', 'The error estimate it compares'),
    ],
}
