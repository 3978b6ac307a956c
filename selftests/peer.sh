#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The peer VM's part (vm-run --peer-cmd): an rxe device with the ibtrace
# agent and its RDMA CM server started (the RNR test's peer mode connects
# to it; nothing listens unless started), then serve the tests' commands
# (lib.sh's ibt_peer_run: a file cmd.N in the shared directory, answered
# by cmd.N.out and cmd.N.rc) until vm-run stops the VM.

source "$(dirname "$0")/lib.sh"

ibt_modprobe_ibtrace || exit 1
ibt_rxe_add rxe0 || exit 1
"$IBTRACECTL" server start || exit 1
echo "peer: rxe0 $(ibt_gid0 rxe0) ready"
touch "$VMRUN_SHARED/peer-ready"
export IBTRACECTL
# The wait between two looks at the directory starts no process: under
# TCG each start of sleep(1) cost 0.07-0.09 s of CPU, five times a second
# (the idle peer took 60% of a host core from the VM under test). A read
# of a pipe nobody writes to times out instead.
exec {nap}<> <(:)
while :; do
	for f in "$VMRUN_SHARED"/cmd.*; do
		case $f in *.out | *.rc | *.tmp) continue ;; esac
		[ -e "$f" ] || continue
		timeout 120 bash -c "$(cat "$f")" > "$f.out" 2>&1
		echo $? > "$f.rc.tmp"
		rm -f "$f"
		mv "$f.rc.tmp" "$f.rc"
	done
	read -r -t 0.2 -u "$nap"
done
