"""What a run writes and reads back: the shared vocabulary and the versioned item result.

vocabulary  metrics, roles, statuses and modes, each spelled once
results     the per-item result (ItemResult) and its parts, pydantic models
texts       each distinct long text once: content ids, references to a table of texts
"""
