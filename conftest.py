"""Repository-level pytest configuration.

`pytest` in this checkout runs the benchmark over scenarios/ (see [tool.pytest.ini_options]);
`pytest tests` runs the test suite. Folders that hold no tests are not collected.
"""

collect_ignore = ["reports", "docs", "bench", "datasets"]
