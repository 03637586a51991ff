"""Running one item: asking the candidate (single shot or dialog) and scoring each attempt.

case      a scenario x dataset, and how its candidate is asked
pipeline  one item from prompt to result: attempts, checks, judges, best attempt
dialog    a multi-turn attempt with tools
tools     the tools a dialog offers, and their two protocols
turns     per-turn checks and scores of a dialog
"""
