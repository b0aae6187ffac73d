"""Training the ``learned`` bot (extra ``train``: CPU torch, matplotlib).

:mod:`.selfplay` makes data and evaluates (numpy only); :mod:`.trainer` is the
recipe behind ``paohuzi train``. Nothing else in the package imports this.
"""
