#!/bin/sh
# may_sudo.sh - whether this user may install with sudo: exit 0 when sudo
# is there and this user may use it (a member of the group Debian and
# Ubuntu (sudo, admin) or RHEL (wheel) give it to, or allowed without a
# password), 1 otherwise. A cluster's login node has sudo, but not for
# its users: trying it there asks for a password, then reports the user
# "not in the sudoers file" to the administrators. Never asks (sudo -n).
# Root needs no sudo: the callers check for root first. The programs'
# install hints use the group rule alone (sl_install_hint, bench/run/cli.c;
# the scripts' is install_hint.sh).
command -v sudo >/dev/null 2>&1 || exit 1
id -Gn 2>/dev/null | tr ' ' '\n' | grep -qxE 'sudo|admin|wheel' && exit 0
sudo -n true >/dev/null 2>&1
