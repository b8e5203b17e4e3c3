"""Graphs: the CSR core, anonymization schemes, attacks and utility metrics."""
