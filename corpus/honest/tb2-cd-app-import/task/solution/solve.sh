#!/bin/bash
# Oracle solution for tb2-cd-app-import. Runs as root in the workdir (/app).
set -euo pipefail

cat > /app/inventory.py <<'PY'
class Inventory:
    def __init__(self):
        self._items = {}

    def add(self, sku: str, qty: int) -> None:
        if qty <= 0:
            raise ValueError("quantity must be positive")
        self._items[sku] = self._items.get(sku, 0) + qty

    def remove(self, sku: str, qty: int) -> None:
        held = self._items.get(sku, 0)
        if qty > held:
            raise KeyError(sku)
        if held == qty:
            del self._items[sku]
        else:
            self._items[sku] = held - qty

    def count(self, sku: str) -> int:
        return self._items.get(sku, 0)

    def skus(self) -> list:
        return sorted(self._items)
PY
