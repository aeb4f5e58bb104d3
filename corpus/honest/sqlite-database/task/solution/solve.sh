#!/bin/bash
# Oracle solution for sqlite-database. Runs as root in the workdir (/app).
set -euo pipefail

rm -f /app/library.db
python3 - <<'PY'
import csv
import sqlite3

con = sqlite3.connect("/app/library.db")
with con:
    con.execute("CREATE TABLE books(isbn TEXT PRIMARY KEY, title TEXT NOT NULL, "
                "author TEXT NOT NULL, year INTEGER NOT NULL, copies INTEGER NOT NULL)")
    con.execute("CREATE INDEX books_by_year ON books(year)")
    con.execute("CREATE VIEW available(isbn, title) AS "
                "SELECT isbn, title FROM books WHERE copies > 0 ORDER BY title")
    with open("/app/books.csv", newline="") as f:
        rows = [(r["isbn"], r["title"], r["author"], int(r["year"]), int(r["copies"]))
                for r in csv.DictReader(f)]
    con.executemany("INSERT INTO books VALUES (?, ?, ?, ?, ?)", rows)
con.close()
PY
chmod 0644 /app/library.db
