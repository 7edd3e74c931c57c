"""perfledger: vendor accelerator benchmark pages turned into a versioned SQL warehouse.

The repository keeps the design's stages as top-level folders (flows/, sources/, schemas/,
warehouse/); they install as this package's subpackages, so that nothing of perfledger's
takes a top-level module name another package may want (see pyproject.toml).
"""
