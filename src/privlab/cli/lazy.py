"""Command groups that import a command's module only when that command runs.

A group is a table ``name → (module, attribute, short help)``.  Its help lists the names and
short helps from the table without importing anything; running one command imports its
module alone and builds that one command.  (Typer would otherwise import every module of
the group and build every command's parameters on each call: about 0.15 s of the start of a
``privlab graph attack …`` run.)  A test checks that each table's short help is the loaded
command's own, and that the tables name every command.
"""

from __future__ import annotations

import importlib
from typing import Any, ClassVar

import typer
from typer.core import TyperGroup

#: name → (module, attribute, short help).  The attribute is a Typer app (a group of
#: commands) or a command function (its docstring is its help).
CommandTable = dict[str, tuple[str, str, str]]

#: How every privlab command group is set up: plain help text, as ``privlab --help`` prints
#: it (rich's help formatter alone costs about 0.15 s per call), help when called without a
#: command, no shell-completion options.
GROUP_SETTINGS: dict[str, Any] = {
    "no_args_is_help": True,
    "add_completion": False,
    "rich_markup_mode": None,
}


def load_command(table: CommandTable, name: str) -> Any:
    """Import command ``name`` of ``table`` and return it as a click command of Typer's."""
    module, attribute, _ = table[name]
    target = getattr(importlib.import_module(module), attribute)
    if isinstance(target, typer.Typer):
        return typer.main.get_command(target)
    single = typer.Typer(add_completion=False, rich_markup_mode=None)  # as command_group's
    single.command(name)(target)
    return typer.main.get_command(single)


class LazyGroup(TyperGroup):
    """A group whose commands are imported when one is run, not when help is listed
    (subclasses set ``table``; :func:`group_class` makes one)."""

    table: ClassVar[CommandTable] = {}

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self.table)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.table:
            return None
        if getattr(self, "_listing", False):
            short = self.table[cmd_name][2]
            return typer.core.TyperCommand(name=cmd_name, help=short, short_help=short)
        return load_command(self.table, cmd_name)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True  # list the commands from the table, without importing them
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


def group_class(table: CommandTable) -> type[LazyGroup]:
    """A :class:`LazyGroup` class over ``table``."""
    return type("LazyGroup", (LazyGroup,), {"table": table})


def _no_group_options() -> None:
    """The group itself takes no options (Typer builds a group from an app with a callback)."""


def lazy_group(table: CommandTable, help: str) -> typer.Typer:
    """A command group over ``table`` (set up as every group: :data:`GROUP_SETTINGS`)."""
    return typer.Typer(
        cls=group_class(table), callback=_no_group_options, help=help, **GROUP_SETTINGS
    )
