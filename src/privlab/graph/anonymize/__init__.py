"""Graph anonymization schemes: naive relabelling, perturbation, k-degree, safe grouping."""
