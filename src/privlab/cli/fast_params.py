"""Command-line values converted without building a Pydantic validator per parameter.

Typer (from 0.2x on) converts each parameter's text through a Pydantic ``TypeAdapter`` it
builds when the command runs: importing Pydantic and building the adapters of one
``privlab graph attack …`` command cost about 0.15–0.4 s of CPU, as much as many attack
calls themselves (docs/graph/cli-start.md).  :func:`install` gives each parameter of a loaded
command a converter that handles the plain cases directly — a string, a whole number, a
decimal number within its bounds, a path, a choice — and hands every other value (anything
it is not sure of: a bad number, an out-of-range one, a missing file…) to Typer's own
converter, built only then.  So an accepted value is the value Typer gives, and an error is
Typer's own message, word for word; ``tests/cli/test_fast_params.py`` checks both against
Typer's converters.  With a Typer that has no such converters (older ones convert through
click), :func:`install` does nothing.

Each conversion is O(length of the value).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:  # Typer's runtime-conversion layer (absent before Typer moved to Pydantic)
    from typer import _coercion, _param_types
except ImportError:  # pragma: no cover - depends on the installed Typer
    _coercion = _param_types = None  # type: ignore[assignment]

#: "use Typer's converter": the fast path is not sure of this value
SLOW = object()

#: a whole number as Pydantic's lax mode reads it, kept to forms that int() reads the same way
#: (at most 18 digits: no big-number limits to think about)
_INT = re.compile(r"[+-]?[0-9]{1,18}")
#: a decimal number without spaces, underscores, inf or nan (those go to Typer)
_FLOAT = re.compile(r"[+-]?(?:[0-9]{1,30}(?:\.[0-9]{0,30})?|\.[0-9]{1,30})(?:[eE][+-]?[0-9]{1,3})?")


def fast_value(kind: str, value: Any, info: Any) -> Any:
    """``value`` converted as Typer's converter of ``kind`` would, or :data:`SLOW`.

    ``kind``: ``"str"``, ``"bool"``, ``"int"`` or ``"float"`` (paths and choices go through
    Typer's own functions, :class:`FastRuntimeParam`); ``info``: the parameter's
    ``typer.models.ParameterInfo`` (its ``min`` and ``max``)."""
    if kind in ("str", "bool"):  # bool: a flag's True or False (process_value skips those)
        return value if type(value) is (str if kind == "str" else bool) else SLOW
    if kind in ("int", "float"):
        return _number(kind, value, info)
    return SLOW


def _number(kind: str, value: Any, info: Any) -> Any:
    if type(value) is str:
        if not (_INT if kind == "int" else _FLOAT).fullmatch(value):
            return SLOW
        number = int(value) if kind == "int" else float(value)
    elif type(value) is int or (kind == "float" and type(value) is float):
        number = float(value) if kind == "float" else value
    else:
        return SLOW
    if kind == "float" and not math.isfinite(number):
        return SLOW  # inf and nan against bounds: Typer decides
    if (info.min is not None and number < info.min) or (info.max is not None and number > info.max):
        return SLOW  # Typer's message, or its clamping
    return number


def kind_of(descriptor: Any) -> tuple[str, Any] | None:
    """The fast converter for a parameter's type descriptor: (kind, extra), or None when the
    parameter keeps Typer's converter (files, lists, tuples, dates, custom parsers…)."""
    info, annotation = descriptor.parameter_info, descriptor.annotation
    if descriptor.file_annotation is not None or info.parser is not None:
        return None
    if descriptor.is_list or descriptor.is_tuple:
        return None
    if descriptor.is_choice:
        return "choice", tuple(descriptor.choices)
    if annotation is int or annotation is float:
        return None if info.clamp else (annotation.__name__, None)
    if annotation is str or annotation is bool:
        return annotation.__name__, None
    if descriptor.is_path:
        path_type = info.path_type
        if path_type is None and isinstance(annotation, type) and issubclass(annotation, Path):
            path_type = annotation
        return ("path", path_type) if path_type in (None, str, Path) else None
    return None


if _coercion is not None:

    @dataclass(frozen=True)
    class FastRuntimeParam(_coercion.RuntimeParam):
        """A parameter's converter: the plain cases here, the rest through Typer's own
        converter (built on first use and then kept on the parameter)."""

        kind: str = "str"
        extra: Any = None
        descriptor: Any = None

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            try:
                got = self._fast(value, param, ctx)
            except Exception:  # any doubt: Typer decides, with its own message
                got = SLOW
            if got is not SLOW:
                return got
            slow = _coercion.build_runtime_param(self.descriptor)
            param._runtime_param = slow
            return slow._coerce_value(value, param=param, ctx=ctx)

        def _fast(self, value: Any, param: Any, ctx: Any) -> Any:
            if self.kind == "choice":
                return _param_types.coerce_cli_choice(
                    value, choices=self.extra, case_sensitive=self.parameter_info.case_sensitive,
                    ctx=ctx,
                )  # fmt: skip
            if self.kind == "path":
                if self.extra is Path:
                    if type(value) is not str or not value or "\x00" in value:
                        return SLOW
                    value = Path(value)  # what Pydantic's Path validator makes of a str
                return _param_types.coerce_cli_path(
                    value, self.parameter_info, path_type=self.extra, param=param, ctx=ctx
                )
            return fast_value(self.kind, value, self.parameter_info)


def install(command: Any) -> Any:
    """Give every Typer parameter of ``command`` and of its subcommands, its help option
    included, a :class:`FastRuntimeParam` where it has no converter yet; returns
    ``command``.  Nothing to do with a Typer without runtime converters."""
    if _coercion is None:  # pragma: no cover - depends on the installed Typer
        return command
    for param in getattr(command, "params", ()):
        install_param(param)
    if "get_help_option" not in vars(command) and hasattr(command, "get_help_option"):
        made = command.get_help_option  # click makes the --help option on first use

        def get_help_option(ctx: Any) -> Any:
            return install_param(made(ctx))

        command.get_help_option = get_help_option
    for sub in (getattr(command, "commands", None) or {}).values():
        install(sub)
    return command


def install_param(param: Any) -> Any:
    """Give one Typer parameter a :class:`FastRuntimeParam` if it has no converter yet and
    takes one plain value; returns ``param``."""
    descriptor = getattr(param, "type_descriptor", None)
    if _coercion is None or descriptor is None or param.multiple or param.nargs != 1:
        return param
    if getattr(param, "_runtime_param", SLOW) is not None:  # Typer's converter, already made
        return param
    found = kind_of(descriptor)
    if found is not None:
        param._runtime_param = FastRuntimeParam(
            descriptor.parameter_info, descriptor.annotation, found[0], found[1], descriptor
        )
    return param
