"""Extra `perfledger` commands: each module here that defines COMMAND (a click command) adds
one, named as the module with "-" for "_" ("map_label" -> `perfledger map-label`). A module is
imported when its command is run or listed, not at every start: together they cost a command
a third of a second."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

import click


@cache
def command_names() -> tuple[str, ...]:
    """The name of the command of each module here, without importing any (listed once: a
    command's lookup asks for every name)."""
    return tuple(sorted(info.name.replace("_", "-") for info in pkgutil.iter_modules(__path__)))


def load_command(name: str) -> click.Command | None:
    """The command `name` a module here defines, or None when no module does."""
    if name not in command_names():
        return None
    module = importlib.import_module(f"{__name__}.{name.replace('-', '_')}")
    command = getattr(module, "COMMAND", None)
    if not isinstance(command, click.Command):
        return None
    if command.name != name:
        raise RuntimeError(
            f"{module.__name__} defines the command {command.name!r}; its module's name says "
            f"{name!r}"
        )
    return command


class CommandGroup(click.Group):
    """The commands defined with the group, and those of this package's modules, each loaded
    when it is asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *command_names()})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is None:
            command = load_command(cmd_name)
            if command is not None:
                self.add_command(command)
        return command
