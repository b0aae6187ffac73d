"""The pure core: standard library only, no I/O, no global randomness."""
