#!/bin/sh
# install_hint.sh - how this user can get a missing piece, as one phrase
# for a message ("...; to get it: <phrase>").
#
# usage: scripts/install_hint.sh "DEBIAN PACKAGES" ["OTHER NAMES"]
#
# apt-get install DEB as root; sudo apt-get install DEB where sudo
# is this user's (may_sudo.sh: not a login node's, where trying it asks
# for a password and reports the user); else, given OTHER (the name
# elsewhere), brew install OTHER on macOS or the ways a cluster's user
# has (module, Spack, conda); without OTHER (what only root can add: the
# tests' tools), the command for an administrator. The programs' twin is
# sl_install_hint (bench/run/cli.c), whose sudo rule is the group half.
set -u
deb=$1 other=${2:-}
if command -v apt-get >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then echo "apt-get install $deb"; exit 0; fi
    if sh "$(dirname "$0")/may_sudo.sh"; then echo "sudo apt-get install $deb"; exit 0; fi
    [ -n "$other" ] || { echo "an administrator's apt-get install $deb"; exit 0; }
fi
if [ -n "$other" ] && command -v brew >/dev/null 2>&1; then
    echo "brew install $other"
elif [ -n "$other" ]; then
    echo "module load $other, spack install $other or conda install -c conda-forge $other"
else
    echo "the system's packages for: $deb"
fi
