"""Build hook: the example roster ships inside the package as ``tb_playground/roster/``.

``examples/roster/`` stays the one source of truth (the notebooks and tests read it there); a
wheel or a plain install gets a copy as package data, so the character sheet's roster picker
works without a checkout. The files to ship (package-data) and everything else are in
pyproject.toml.
"""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["tb_playground", "tb_playground.*"]), "tb_playground.roster"],
    package_dir={"tb_playground.roster": "examples/roster"},
)
