"""Coverage-guided fuzz targets (atheris); see each module's docstring for how to run it."""
