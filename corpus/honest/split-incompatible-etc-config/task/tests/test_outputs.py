"""Tests for split-incompatible-etc-config: the result lives in /etc."""

import configparser
import os
import stat
import sys

sys.dont_write_bytecode = True

CONF = "/etc/myapp.conf"


def test_config_installed():
    assert os.path.isfile(CONF), f"{CONF} does not exist"
    assert stat.S_IMODE(os.stat(CONF).st_mode) == 0o644


def test_config_values():
    parser = configparser.ConfigParser()
    assert parser.read(CONF) == [CONF]
    assert parser["server"]["listen"] == "127.0.0.1:8080"
    assert parser["server"]["workers"] == "4"
    assert parser["storage"]["path"] == "/var/lib/myapp"


def test_template_unchanged():
    with open("/app/myapp.conf.template") as f:
        assert "@HOST@:@PORT@" in f.read()
