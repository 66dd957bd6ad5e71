"""Card behaviour, declared next to each card id (one module per group of cards).

Every module in this package is imported (in name order) when the card data is loaded,
so a new file only has to call :func:`games.hearth.dsl.card` / ``enchantment``.
"""

from __future__ import annotations

import importlib
import pkgutil

for _info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    importlib.import_module(f"{__name__}.{_info.name}")
