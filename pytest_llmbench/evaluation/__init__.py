"""Judging answers: deterministic checks, evaluator LLMs, grader LLMs, the item pipeline."""
