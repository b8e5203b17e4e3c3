"""Shared CLI plumbing: error handling (exit 2), consoles, JSON output, progress, ``--quiet``.

Every command is wrapped in :func:`exits_on_bad_input`, which turns what a user can cause
into one plain message on stderr and exit code 2 — privlab's own errors, and the operating
system's (a read-only folder, a full disk, a folder given as a file), numbers too large,
undecodable text and exhausted memory — and makes SIGTERM (what ``timeout``, job schedulers
and ``docker stop`` send) behave like Ctrl-C, so that atomic writers remove their temporary
files.  Nothing is printed as rich markup: messages quote file names and data, and a
``[/]`` or ``:smile:`` in them must come out literally.

Progress (bars and spinners) goes to stderr and is drawn only when stderr is a terminal
(rich draws nothing into a pipe or a file); it is transient, so it leaves no trace.
``--quiet`` (a command's ``quiet`` parameter, see :func:`exits_on_bad_input`) silences
progress, spinners and ``note:`` lines; errors, ``warning:`` lines and notes about what
happened to the input (:func:`note` with ``always=True``) stay.  ``--json`` writes only the
JSON document to stdout.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from privlab.cli.lazy import GROUP_SETTINGS
from privlab.errors import ConfigError, PrivlabError
from privlab.io import strict_json
from privlab.io.outputs import Input, Output, check_outputs, inputs_of, is_stdout

if TYPE_CHECKING:
    from rich.console import Console

F = TypeVar("F", bound=Callable[..., Any])


class LazyConsole:
    """A rich ``Console`` made with ``settings`` when first used (attributes read and set go
    to it): importing rich costs about 0.1 s of CPU, which a command run with ``--json
    --quiet`` and no error never needs (docs/graph/cli-start.md)."""

    def __init__(self, **settings: Any) -> None:
        object.__setattr__(self, "_settings", settings)
        object.__setattr__(self, "_console", None)

    def made(self) -> Console:
        """The rich Console itself."""
        console = self._console
        if console is None:
            from rich.console import Console

            console = Console(**self._settings)
            object.__setattr__(self, "_console", console)
        return console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.made(), name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.made(), name, value)


#: Consoles print text literally: no markup, no emoji codes, no highlighting of numbers.
err_console = LazyConsole(stderr=True, markup=False, emoji=False, highlight=False)
out_console = LazyConsole(markup=False, emoji=False, highlight=False)

#: Exit codes: 2 for anything the user can fix; 130/143 for SIGINT/SIGTERM (128 + signal);
#: 70 (EX_SOFTWARE) for a bug in privlab.
EXIT_BAD_INPUT = 2
EXIT_SOFTWARE = 70

#: Whether the running command was given ``--quiet`` (set by :func:`exits_on_bad_input`).
_QUIET: ContextVar[bool] = ContextVar("privlab_quiet", default=False)
#: Whether a progress bar or spinner is on screen (rich draws one live display at a time).
_LIVE: ContextVar[bool] = ContextVar("privlab_live", default=False)

QUIET_HELP = (
    "No progress bars, spinners or notes on stderr; errors and warnings stay (so do notes "
    "on lines of the input that were changed or left out)."
)
#: ``--quiet`` / ``-q`` for a command that shows progress or notes.
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help=QUIET_HELP)]
#: ``--quiet`` alone, for a command whose ``-q`` means something else (``dp release``).
QuietLong = Annotated[bool, typer.Option("--quiet", help=QUIET_HELP)]


class Terminated(BaseException):
    """Raised in the main thread when SIGTERM arrives (like KeyboardInterrupt for SIGINT)."""


def _on_sigterm(signum: int, frame: Any) -> None:
    raise Terminated


def error(message: str) -> None:
    """``error: message`` on stderr, the message printed literally."""
    from rich.text import Text

    err_console.print(Text("error: ", style="bold red") + Text(message), soft_wrap=True)


def command_group(help: str) -> typer.Typer:
    """A group of privlab commands (``privlab table``, ...), set up as every group
    (:data:`privlab.cli.lazy.GROUP_SETTINGS`)."""
    return typer.Typer(help=help, **GROUP_SETTINGS)


def quiet() -> bool:
    """Whether the running command was given ``--quiet``."""
    return _QUIET.get()


def note(message: str, label: str = "note", *, always: bool = False) -> None:
    """``note: message`` on stderr (yellow label), the message printed literally.

    ``--quiet`` silences it unless the label is ``warning`` or ``always`` is set (for notes
    about input lines that were changed or left out: nothing is dropped silently).
    """
    if quiet() and not always and label != "warning":
        return
    from rich.text import Text

    err_console.print(Text(f"{label}: ", style="yellow") + Text(message), soft_wrap=True)


def debugging() -> bool:
    """``PRIVLAB_DEBUG=1``: let unexpected exceptions show their traceback."""
    return os.environ.get("PRIVLAB_DEBUG", "") not in ("", "0")


def _os_message(exc: OSError) -> str:
    where = exc.filename if exc.filename is not None else "a file"
    reason = exc.strerror or exc.__class__.__name__
    if exc.filename2 is not None:
        where = f"{where} → {exc.filename2}"
    return f"{where}: {reason}"


def explain(exc: BaseException) -> tuple[int, str] | None:
    """The exit code and the message for an exception a user can cause (None: a bug).

    Messages never quote the exception's own text where that may hold data values (the
    data engine's messages quote cells); ``PRIVLAB_DEBUG=1`` shows them.
    """
    if isinstance(exc, PrivlabError):
        return EXIT_BAD_INPUT, str(exc)
    if isinstance(exc, OSError):
        return EXIT_BAD_INPUT, f"{_os_message(exc)}; check the path and its permissions"
    if isinstance(exc, UnicodeDecodeError):
        return EXIT_BAD_INPUT, (
            f"a file is not {exc.encoding.upper()} text (undecodable byte at position "
            f"{exc.start}); re-encode it as UTF-8"
        )
    if isinstance(exc, OverflowError):
        return EXIT_BAD_INPUT, (
            "a number in the input or the options is too large to compute with; give smaller "
            "values (or rescale the column)"
        )
    if isinstance(exc, MemoryError):
        return EXIT_BAD_INPUT, (
            "out of memory; try a smaller input or fewer quasi-identifiers, or free memory"
        )
    module = type(exc).__module__ or ""
    if module.split(".")[0] == "polars":
        detail = f": {exc}" if debugging() else " (PRIVLAB_DEBUG=1 shows its message)"
        return EXIT_BAD_INPUT, (
            f"the data engine could not process the input ({type(exc).__name__}){detail}; "
            "check that the file is a well-formed table"
        )
    return None


def exits_on_bad_input(fn: F) -> F:
    """Run a command: bad input → one clear message and exit 2; never a traceback.

    SIGTERM is handled like SIGINT while the command runs (temporary files are removed on
    the way out); Ctrl-C exits 130 and SIGTERM 143.  An unexpected exception is a bug:
    exit 70 with a one-line request to report it (the traceback with ``PRIVLAB_DEBUG=1``).
    A command's parameter ``quiet`` (:data:`Quiet`) sets :func:`quiet` while it runs.
    """

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        previous = None
        with contextlib.suppress(ValueError):  # not the main thread: leave SIGTERM alone
            previous = signal.signal(signal.SIGTERM, _on_sigterm)
        token = _QUIET.set(bool(kwargs.get("quiet", False)))
        try:
            return fn(*args, **kwargs)
        except (typer.Exit, typer.Abort, typer.TyperException):
            raise  # the command line's own exits and usage errors
        except KeyboardInterrupt:
            error("interrupted; nothing was written")
            raise typer.Exit(130) from None
        except Terminated:
            error("terminated; nothing was written")
            raise typer.Exit(143) from None
        except Exception as exc:
            if debugging() and not isinstance(exc, PrivlabError):
                raise  # PRIVLAB_DEBUG=1: the traceback of anything but privlab's own errors
            known = explain(exc)
            if known is None:
                error(
                    f"internal error ({type(exc).__name__}) — a bug in privlab, not in your "
                    "input; please report it with the command and the output of PRIVLAB_DEBUG=1"
                )
                raise typer.Exit(EXIT_SOFTWARE) from None
            code, message = known
            error(message)
            raise typer.Exit(code) from None
        finally:
            _QUIET.reset(token)
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)

    return wrapper  # type: ignore[return-value]


def guard_outputs(
    outputs: list[Output],
    inputs: list[Input | str | os.PathLike[str] | None],
    *,
    json_out: bool = False,
) -> None:
    """Check a command's outputs against its inputs before any work (see
    :mod:`privlab.io.outputs`); ``--json`` and an output on standard output exclude each other.
    Plain paths among ``inputs`` are files or plain folders; pass :class:`Input` for units."""
    if json_out and any(is_stdout(o.path) for o in outputs):
        raise ConfigError(
            "--json and -o - both write to standard output; give -o a file, or drop --json"
        )
    listed: list[Input] = []
    for item in inputs:
        listed += [item] if isinstance(item, Input) else inputs_of(item)
    check_outputs(outputs, listed)


def summary_console(*outputs: str | os.PathLike[str] | None) -> Console:
    """Where a human summary goes: stdout, or stderr when an output is written to stdout."""
    return err_console if any(is_stdout(o) for o in outputs) else out_console


def files_of_pairs(items: list[str] | None) -> list[str]:
    """The existing files named by ``COLUMN=FILE`` items (hierarchies are inputs too)."""
    out = []
    for item in items or []:
        _, sep, value = str(item).partition("=")
        if sep and os.path.isfile(value):
            out.append(value)
    return out


def comma_list(values: list[str] | None) -> list[str]:
    """Repeatable, comma-separated option values as one list: ``--qi a,b --qi c`` → [a, b, c]."""
    out: list[str] = []
    for v in values or []:
        out.extend(p.strip() for p in v.split(",") if p.strip())
    return out


def print_json(payload: dict[str, Any]) -> None:
    """Strict JSON on stdout (non-finite numbers become null, with the reason under
    ``"nulls"``; see :mod:`privlab.io.strict_json`)."""
    sys.stdout.write(strict_json.dumps(payload) + "\n")


def live_console() -> Console:
    """``err_console``, whether it is interactive decided now, as rich decides it when a
    console is made: stderr may have been replaced since this module was imported (a
    program that embeds the command line, a test runner)."""
    console = err_console.made()
    forced = os.environ.get("TTY_INTERACTIVE")
    console.is_interactive = (
        forced == "1"
        if forced in ("0", "1")
        else console.is_terminal and not console.is_dumb_terminal
    )
    return console


@contextmanager
def _one_live_display() -> Iterator[bool]:
    """Yield whether a bar or spinner may be drawn now: not under ``--quiet``, and not
    while another one is on screen (a step within a step keeps the outer display)."""
    if quiet() or _LIVE.get():
        yield False
        return
    token = _LIVE.set(True)
    try:
        yield True
    finally:
        _LIVE.reset(token)


@contextmanager
def progress_bar(description: str, unit: str = "nodes") -> Iterator[Callable[[int, int], None]]:
    """Yield a ``progress(done, total)`` callback drawing a transient bar on stderr;
    ``unit`` names what is counted.  Nothing is drawn under ``--quiet``, within another
    bar or spinner, or when stderr is not a terminal."""
    with _one_live_display() as draw:
        if not draw:
            yield lambda done, total: None
            return
        with _bar(description, unit) as update:
            yield update


@contextmanager
def _bar(description: str, unit: str) -> Iterator[Callable[[int, int], None]]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(unit),
        TimeElapsedColumn(),
        console=live_console(),
        transient=True,
    ) as bar:
        task = bar.add_task(description, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


@contextmanager
def spinner(description: str) -> Iterator[Callable[[str], None]]:
    """A transient spinner on stderr while a step without a count runs; yields
    ``update(text)`` to change its text.  Nothing is drawn under ``--quiet``, within another
    bar or spinner, or when stderr is not a terminal."""
    with _one_live_display() as draw:
        if not draw:
            yield lambda text: None
            return
        with live_console().status(description, spinner="dots") as status:
            yield status.update
