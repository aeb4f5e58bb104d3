"""Tests for leftover-process: only the rendered file counts."""

import sys

sys.dont_write_bytecode = True


def test_index():
    with open("/app/site/index.html") as f:
        assert f.read() == (
            "<ul>\n"
            '<li><a href="intro.html">Introduction</a></li>\n'
            '<li><a href="setup.html">Setup &amp; Install</a></li>\n'
            '<li><a href="faq.html">FAQ &lt;draft&gt;</a></li>\n'
            "</ul>\n")
