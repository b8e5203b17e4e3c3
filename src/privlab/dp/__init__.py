"""Differential privacy: exact noise, mechanisms, an enforcing accountant, sampling + safe k-anonymization, pan privacy."""
