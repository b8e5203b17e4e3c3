"""Graph de-anonymization attacks."""
