"""Reading the benchmark's input files: categories, datasets, scenarios, prompt templates."""
