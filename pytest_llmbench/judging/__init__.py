"""Judging answers with LLMs and turning verdicts into numbers.

prompts     the evaluator's and grader's messages
judge       evaluator and grader calls for one answer
parsing     evaluator reports (JSON or Markdown) and grade distributions
scoring     per-step results, metric values and attempt quality
formulas    the leaderboard's score formulas, selectable by name
statistics  intervals, pass@k and agreement between judges
"""
