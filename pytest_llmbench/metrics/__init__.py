"""Code metrics: complexity of code bases and answers."""
