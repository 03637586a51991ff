"""Running the answer's code: hidden acceptance tests on the dataset with the answer's
files applied, or the answer's own tests against mutants of the dataset. Every run is a
sandboxed subprocess (toolchain/sandbox.py) in a pool sized to the cores, off the event loop."""
