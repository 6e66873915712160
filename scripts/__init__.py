"""Developer scripts: ``python -m scripts.deps`` (the import graph check); ``scripts/test`` runs the checks."""
