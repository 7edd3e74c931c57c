"""The --warehouse value: a folder, or a shared warehouse's location (see warehouse/location.py)."""

from __future__ import annotations

from pathlib import Path

import click

from perfledger.warehouse import lake, location


class WarehouseLocation(click.ParamType):
    """A folder as click.Path takes it; a postgres:// URL or a .toml file as this machine's
    folder for that shared warehouse (its catalog and data are named in the folder)."""

    name = "warehouse"
    _folder = click.Path(file_okay=False, path_type=Path)

    def convert(self, value, param, ctx) -> Path:
        if isinstance(value, Path) or not location.is_location_text(str(value)):
            return self._folder.convert(value, param, ctx)
        try:
            return location.resolve(str(value))
        except lake.WarehouseError as error:
            self.fail(str(error), param, ctx)
