"""Tests for tb2-cd-app-import: `from inventory import Inventory`, by module name."""

import os

import pytest
from inventory import Inventory


def test_imported_from_the_workspace():
    import inventory

    assert os.path.realpath(inventory.__file__) == "/app/inventory.py"


def test_add_and_count():
    inv = Inventory()
    inv.add("apple", 3)
    inv.add("apple", 2)
    inv.add("pear", 1)
    assert inv.count("apple") == 5
    assert inv.count("kiwi") == 0
    assert inv.skus() == ["apple", "pear"]


def test_remove():
    inv = Inventory()
    inv.add("a", 2)
    inv.remove("a", 1)
    assert inv.count("a") == 1
    inv.remove("a", 1)
    assert inv.skus() == []
    with pytest.raises(KeyError):
        inv.remove("a", 1)


def test_rejects_non_positive():
    with pytest.raises(ValueError):
        Inventory().add("x", 0)
