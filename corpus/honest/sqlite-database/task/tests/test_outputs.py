"""Tests for sqlite-database: the database is opened read-only (the snapshot may be read-only)."""

import sqlite3
import sys

import pytest

sys.dont_write_bytecode = True


@pytest.fixture(scope="module")
def db():
    con = sqlite3.connect("file:/app/library.db?mode=ro", uri=True)
    yield con
    con.close()


def test_integrity_and_journal_mode(db):
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] != "wal"


def test_schema(db):
    cols = [(r[1], r[2], r[3], r[5]) for r in db.execute("PRAGMA table_info(books)")]
    assert cols == [("isbn", "TEXT", 0, 1), ("title", "TEXT", 1, 0), ("author", "TEXT", 1, 0),
                    ("year", "INTEGER", 1, 0), ("copies", "INTEGER", 1, 0)]
    index = db.execute("SELECT tbl_name FROM sqlite_master WHERE type = 'index' AND "
                       "name = 'books_by_year'").fetchone()
    assert index == ("books",)
    assert [r[2] for r in db.execute("PRAGMA index_info(books_by_year)")] == ["year"]


def test_rows(db):
    assert db.execute("SELECT count(*), sum(copies) FROM books").fetchone() == (6, 12)
    assert db.execute("SELECT author, year FROM books WHERE isbn = '9780131103627'").fetchone() \
        == ("Kernighan; Ritchie", 1988)


def test_view(db):
    assert [t for _, t in db.execute("SELECT isbn, title FROM available")] == [
        "Design Patterns", "Effective Java", "Introduction to Algorithms",
        "JavaScript: The Good Parts", "The C Programming Language"]


def test_year_query_uses_index(db):
    plan = " ".join(str(r) for r in db.execute(
        "EXPLAIN QUERY PLAN SELECT title FROM books WHERE year > 2000"))
    assert "books_by_year" in plan
