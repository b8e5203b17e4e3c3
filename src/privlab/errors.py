"""The privlab error tree.

Every error a user can cause is a :class:`PrivlabError`.  Messages name the file, line,
column or parameter at fault and say how to fix it; the CLI turns them into exit code 2.
"""

from __future__ import annotations


class PrivlabError(Exception):
    """Base class of all errors caused by input or configuration."""


class InputError(PrivlabError, ValueError):
    """A data or hierarchy file, a data frame or a value in it is unusable."""


class ConfigError(PrivlabError, ValueError):
    """A parameter or job-file setting is invalid."""


class BudgetExceeded(PrivlabError):
    """A differential-privacy budget would be overspent."""


class InfeasibleError(PrivlabError):
    """No transformation satisfies the privacy models within the limits given."""
