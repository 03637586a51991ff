"""Reading the benchmark's input files and answer text: categories, datasets, scenarios,
prompt templates, dialogs, images, and code blocks in answers."""
