#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# After `make install` on the host (whose root the VM shares), the module
# loads the way a user loads it - modprobe resolves it and its
# dependencies - the installed ibtracectl works, and its man pages and
# bash completion are where man(1) and bash-completion look.

source "$(dirname "$0")/lib.sh"

ibt_require_root
installed=$(modinfo -n ibtrace 2>/dev/null)
[ -n "$installed" ] || ibt_skip_all "ibtrace is not installed (make install)"
command -v ibtracectl >/dev/null || ibt_skip_all "ibtracectl is not installed (make install)"

ibt_match "modprobe finds ibtrace under updates/" "/updates/" "$installed"
ibt_expect "the installed module is the one built here" \
	"$(modinfo -F srcversion "$IBT_KO")" "$(modinfo -F srcversion ibtrace)"
rmmod ibtrace 2>/dev/null
modprobe -r ib_umad ib_core 2>/dev/null
if [ -d /sys/module/ib_core ]; then
	ibt_skip_one "modprobe pulls in ib_core" "ib_core was already loaded"
	ibt_check "modprobe ibtrace" modprobe ibtrace
else
	ibt_check "modprobe ibtrace" modprobe ibtrace
	ibt_check "modprobe pulled in ib_core" test -d /sys/module/ib_core
fi
ibt_check "the installed ibtracectl talks to it" ibtracectl dev show
ibt_check "modprobe -r ibtrace" modprobe -r ibtrace
for page in ibtracectl.8 ibtrace.4 ibtrace_sim.4; do
	ibt_check "man finds the installed page ${page%.*}(${page##*.})" \
		man -w "${page##*.}" "${page%.*}"
done
ibt_check "bash completion for ibtracectl is installed" \
	test -r "$(dirname "$(dirname "$(command -v ibtracectl)")")/share/bash-completion/completions/ibtracectl"
ibt_done
