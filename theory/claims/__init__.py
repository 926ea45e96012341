"""One module per claim of the paper; each registers its check with :func:`theory.claim`."""
