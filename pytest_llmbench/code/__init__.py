"""Code as data: workspaces of answer files, syntax and structure checks in a sandbox,
deterministic checks, and complexity and similarity metrics of code bases and answers.

workspace      an answer's files, written under safe relative paths
checks         deterministic criterion checks (contains, regex, parses)
syntax         per-file syntax checks (node, esbuild, javac, Python) in the sandbox
structure      whether a file is the kind of file its name says
sandbox        running a checker with limits; no_network takes the network away
complexity     CI, LoC and GCI of a code base (lizard_ci, python_metrics)
answer_metrics the code metrics of one answer against its dataset and reference
"""
