"""The paper's words and numbers: the quotes that decide scopes and the normalisation
rule (:mod:`.words`), its bounds (:mod:`.bounds`), its appendix hyper-parameter
tables (:mod:`.hyperparams`), its experiments' reported numbers
(:mod:`.experiments`), its LaTeX source (:mod:`.source`), split into units
(:mod:`.sentences`) and mapped to statements (:mod:`.sentence_map`)."""
