from typer.testing import CliRunner

from privlab import __version__
from privlab.cli.main import app


def test_version_flag_prints_version():
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"privlab {__version__}"
