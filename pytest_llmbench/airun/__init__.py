"""The public AIRUN-LLM-Benchmark layout (method.md section 6), read from a user's clone.

Nothing of that benchmark is shipped here: these modules read a clone the user has.

names      file names of scenario prompts, category folders onto our category ids, and
           the datasets the benchmark renamed (one table)
answers    published answer files (`<Scenario>_report_<N>.md`) and where they sit
criteria   criteria YAML files, linked to prompts by file name (Criteria/, Criteria_v1/)
importer   `llmbench import-airun`: scenarios, datasets and criteria into our layout
grading    grading.csv rows, read by their header (public 1-5 scale)
summary    summary.csv rows: published 0-4 figures, tokens and times, hand corrections
published  where a published result sits: its candidate and published set (Output/JS,
           Output_v1/JS, ...), its item's nodeid, the items of each set
grades     `llmbench import-airun-grades`: published grades into results.jsonl items
replay     the llmbench/replay model: published answers replayed (made through the
           pytest_llmbench_make_model hook)
"""
