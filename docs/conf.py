"""Sphinx configuration of ruchey's documentation: Markdown pages (MyST), the
API reference from the docstrings of the installed ruchey, and tables made
at each build from the project's own data (tables.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import ruchey  # noqa: E402
import tables  # noqa: E402

project = "ruchey"
author = "The ruchey authors"
copyright = "2026, The ruchey authors"
release = ruchey.__version__
extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "_generated", "README.md"]
myst_heading_anchors = 3
autodoc_member_order = "bysource"
html_theme = "alabaster"
html_title = f"ruchey {release}"


def setup(app):
    app.connect("builder-inited",
                lambda app: tables.write_generated(os.path.join(app.srcdir, "_generated")))
