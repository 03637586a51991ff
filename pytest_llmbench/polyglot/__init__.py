"""Aider's polyglot benchmark (exercism exercises in six languages), read from a user's
clone. Nothing of that benchmark is shipped here: these modules read a clone the user has.

exercises  one exercise of the clone: its files sorted into stubs, hidden tests and the
           example solution, the tests prepared as Aider's harness prepares them
importer   `llmbench import-polyglot`: every exercise as a dataset, a scenario, its
           hidden tests and its reference answer
"""
