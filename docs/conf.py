"""Sphinx configuration of the tcg-arbiter documentation.

Build with ``sphinx-build -W --keep-going -b html docs docs/_build/html`` from the
repository root; warnings are errors.
"""

from __future__ import annotations

import sys
from pathlib import Path

# autodoc imports the project's packages (grammar, spec, verifier) from the repository
# root, whether or not the distribution is installed.
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# The project's own Sphinx extension (the generated rules reference, CLI reference, event
# reference, grammar reference and rulebook lint): docs/_ext/arbiter_docs.
sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))

project = "tcg-arbiter"
author = "the tcg-arbiter authors"
copyright = "the tcg-arbiter authors"
release = "0.1.0"
version = "0.1"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "sphinx.ext.graphviz",
    "arbiter_docs",
]

# Turn-structure diagrams: Graphviz ``dot`` (Debian's graphviz, installed by ``make setup``)
# writes SVG, whose boxes link to the rules.
graphviz_output_format = "svg"
graphviz_dot_args = ["-Gfontname=Helvetica", "-Nfontname=Helvetica", "-Efontname=Helvetica"]

root_doc = "index"
source_suffix = {".rst": "restructuredtext"}
exclude_patterns = ["_build", "_ext", "Thumbs.db", ".DS_Store"]
language = "en"

nitpicky = False

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {
    "members": True,
    "show-inheritance": True,
}

napoleon_google_docstring = True
napoleon_numpy_docstring = False

html_theme = "alabaster"
html_title = "tcg-arbiter"
html_static_path: list[str] = []
html_theme_options = {
    "description": "Rules specification and replay verifier for trading card games",
    "fixed_sidebar": True,
}
