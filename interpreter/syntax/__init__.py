"""Package marker so setuptools ships this folder."""
