"""Interactive lessons, driven by the same engines as real games."""
