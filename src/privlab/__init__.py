"""privlab — privacy-preserving data publishing.

Anonymize microdata tables and social graphs, release statistics with differential
privacy, attack releases the way a real adversary would, and measure what leaks and what
utility survives.  See ``docs/`` for the user guide.
"""

__version__ = "0.1.0"
