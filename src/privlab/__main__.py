"""``python -m privlab``: the same command line as ``privlab``."""

from privlab.cli.main import app

app(prog_name="privlab")
