"""Shared CLI plumbing: error handling (exit 2), consoles, JSON output, progress bars."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from privlab.errors import PrivlabError

F = TypeVar("F", bound=Callable[..., Any])

err_console = Console(stderr=True)
out_console = Console()


def exits_on_bad_input(fn: F) -> F:
    """Turn a PrivlabError into one clear message on stderr and exit code 2."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except PrivlabError as exc:
            err_console.print(f"[bold red]error:[/] {exc}", highlight=False, soft_wrap=True)
            raise typer.Exit(2) from None

    return wrapper  # type: ignore[return-value]


def comma_list(values: list[str] | None) -> list[str]:
    """Repeatable, comma-separated option values as one list: ``--qi a,b --qi c`` → [a, b, c]."""
    out: list[str] = []
    for v in values or []:
        out.extend(p.strip() for p in v.split(",") if p.strip())
    return out


def print_json(payload: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(payload, indent=2, default=_jsonable) + "\n")


def _jsonable(value: Any) -> Any:
    if hasattr(value, "item"):
        return value.item()
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"not JSON serializable: {type(value).__name__}")


@contextmanager
def progress_bar(
    description: str, enabled: bool, unit: str = "nodes"
) -> Iterator[Callable[[int, int], None]]:
    """Yield a ``progress(done, total)`` callback drawing a bar on stderr (when enabled);
    ``unit`` names what is counted."""
    if not enabled:
        yield lambda done, total: None
        return
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn(f"{{task.completed}}/{{task.total}} {unit}"),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
    ) as bar:
        task = bar.add_task(description, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update
