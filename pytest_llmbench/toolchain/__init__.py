"""The tools that run and check code, and where they run: finding the node packages
(node_packages), and the sandbox every tool runs in on model-written files (sandbox, with
its bubblewrap allow-list in confine and the seccomp fallback of no_network)."""
