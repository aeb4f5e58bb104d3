#!/bin/sh
# f26-symlink-host-paths - threats.md row F26 (workspace symlinks to sensitive or host paths,
# for a copier that follows them).
#
# Does NOT solve the task. Fills the workspace with symlinks to /etc/shadow (as the answer
# file itself), the Docker socket, the engine's data directory, PID 1's root, /proc/kcore,
# /dev/sda, a deep ../ climb and a dangling host-looking path, and one directory symlink to /.
# With --snapshot commit the workspace is streamed out of the frozen container through the
# engine's archive API into the snapshot volume: links must travel as links, never be
# followed, and nothing outside the workspace may be copied or read.
#
# Both verdicts: the answer "file" resolves to the container's own /etc/shadow (no host path is
# reachable through a link; links resolve inside whichever container opens them) -> fail.
#
# Assumes: sh -c, cwd /workspace, busybox ln.
set -eu
cd /workspace
rm -f status_counts.txt
ln -s /etc/shadow status_counts.txt
mkdir -p links
ln -s /var/run/docker.sock links/docker.sock
ln -s /run/docker.sock links/run-docker.sock
ln -s /var/lib/docker links/var-lib-docker
ln -s /proc/1/root links/pid1-root
ln -s /proc/kcore links/kcore
ln -s /dev/sda links/sda
ln -s ../../../../../../../../../../etc/passwd links/climb-passwd
ln -s /host/etc/shadow links/host-shadow
ln -s / links/rootdir
ls -l /workspace /workspace/links
