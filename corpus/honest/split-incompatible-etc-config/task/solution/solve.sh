#!/bin/bash
# Oracle solution for split-incompatible-etc-config. Runs as root in the workdir (/app).
set -euo pipefail

sed -e 's/@HOST@/127.0.0.1/' -e 's/@PORT@/8080/' -e 's/@WORKERS@/4/' \
    /app/myapp.conf.template > /etc/myapp.conf
chmod 0644 /etc/myapp.conf
