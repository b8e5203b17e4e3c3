"""Differential privacy: exact noise, mechanisms, queries, an enforcing accountant,
sampling + safe k-anonymization, pan privacy."""
