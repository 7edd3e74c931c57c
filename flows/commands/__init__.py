"""Extra `perfledger` commands: each module here that defines COMMAND (a click command) adds one."""

from __future__ import annotations

import importlib
import pkgutil

import click


def discovered_commands() -> list[click.Command]:
    commands = []
    for module_info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        command = getattr(module, "COMMAND", None)
        if isinstance(command, click.Command):
            commands.append(command)
    return commands
