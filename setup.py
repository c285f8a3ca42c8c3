"""Packaging beyond what pyproject.toml can say: the data folders of the checkout ship inside the package.

``scenarios/`` and ``schemas/`` stay at the top of the checkout (where the
README and the tests name them) and are installed as ``pbem/shipped/scenarios``
and ``pbem/shipped/schemas`` (read through :mod:`pbem.shipped`), so that an
installed pbem has its scenarios, maps and schemas (issue 20).
"""

from setuptools import find_packages, setup

DATA = {"pbem.shipped.scenarios": "scenarios", "pbem.shipped.schemas": "schemas"}

setup(
    packages=find_packages(include=["pbem", "pbem.*"]) + sorted(DATA),
    package_dir=DATA,
    package_data={
        "pbem.data": ["*.json"],
        "pbem.web": ["*.js", "*.css"],
        "pbem.shipped.scenarios": ["*.json", "*/*.json"],
        "pbem.shipped.schemas": ["*.json"],
        "pbem.systems.legion": ["data/*.json", "data/charts/*.json"],
    },
    include_package_data=False,
)
