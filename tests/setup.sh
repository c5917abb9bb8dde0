#!/bin/sh
# Installs what the report/notebook/browser and sandbox tests need on a
# fresh Debian machine (run as root): Jupyter's nbclient/nbconvert,
# Chromium, bubblewrap with Debian's python3 for the native Python
# sandbox, and Slurm (slurm-wlm: slurmctld, slurmd, sbatch) with munge for
# the single-node cluster test. Idempotent: does nothing when all is present.
set -eu
need=""
command -v jupyter-nbconvert >/dev/null 2>&1 || need="$need jupyter-nbconvert"
/usr/bin/python3 -c "import nbclient" >/dev/null 2>&1 || need="$need python3-nbclient"
/usr/bin/python3 -c "import jupyter_client" >/dev/null 2>&1 || need="$need jupyter-client"
/usr/bin/python3 -c "import ipykernel" >/dev/null 2>&1 || need="$need python3-ipykernel"
[ -x /usr/bin/chromium ] || need="$need chromium"
[ -x /usr/bin/bwrap ] || need="$need bubblewrap"
[ -x /usr/bin/python3 ] || need="$need python3"
{ [ -x /usr/sbin/slurmctld ] && [ -x /usr/sbin/slurmd ] && [ -x /usr/bin/sbatch ]; } || need="$need slurm-wlm"
[ -x /usr/sbin/munged ] || need="$need munge"
if [ -n "$need" ]; then
  if [ "$(id -u)" != "0" ]; then
    echo "Cannot install test dependencies: not root; missing:$need" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  # shellcheck disable=SC2086
  apt-get install -y --no-install-recommends $need
fi
if ! /usr/bin/python3 -c "from jupyter_client.kernelspec import find_kernel_specs as f; import sys; sys.exit(0 if 'deno' in f() else 1)" >/dev/null 2>&1; then
  deno jupyter --install
fi
# The npm packages, once, before the tests start many Deno processes at
# a time (in a fresh clone they would otherwise wait on each other for
# node_modules' lock and say so on stderr).
deno install >/dev/null
echo "test dependencies ready"
