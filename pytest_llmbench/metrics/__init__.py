"""Measuring code: complexity, size and the code-base index of a dataset (complexity,
eslint_ci, lizard_ci, python_metrics), per-file syntax and structure checks in the sandbox
(syntax, structure), and an answer's code metrics against its dataset and reference
(answer_metrics)."""
