"""``python -m paohuzi``: the same command line as the ``paohuzi`` script."""

from __future__ import annotations

from paohuzi.cli import main

if __name__ == "__main__":
    main()
