#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Two hosts: ping the ibtrace agent of a peer VM over RoCE (rxe on both
# ends) by its link-local and its IPv4-mapped GID, and check the agent's
# answers to raw MADs on the wire. Needs the peer started by
# `vm-run --vms 2 --peer-cmd selftests/peer.sh`.

source "$(dirname "$0")/lib.sh"

ibt_require_root
ibt_require_file "$IBTRACECTL" "$IBT_MAD"
ibt_require_cmd jq
[ -n "$VMRUN_PEER_MAC" ] && [ -n "$VMRUN_SHARED" ] ||
	ibt_skip_all "no peer host (run under vm-run --vms 2)"

ibt_wait_peer || ibt_skip_all "peer did not become ready"

ibt_check "ibtrace loads" ibt_modprobe_ibtrace
modprobe ib_umad
ibt_rxe_add rxe0 >/dev/null 2>&1 || ibt_check "rxe0 present" test -d /sys/class/infiniband/rxe0
peer_ll=$(ibt_ll_gid_of_mac "$VMRUN_PEER_MAC")
peer_v4=::ffff:${VMRUN_PEER_IP4:-198.18.0.2}

js=$("$IBTRACECTL" -j -d rxe0 ping --dgid "$peer_ll" -c 5 -i 50 -t 2000)
ibt_expect "ping peer (link-local GID): exit 0" 0 "$?"
ibt_expect "ping peer: 5 of 5 answered" 5 "$(jq -r .summary.received <<< "$js")"
ibt_expect "peer's ClassPortInfo: class version 1" 1 "$(jq -r '.probes[0].class_version' <<< "$js")"
ibt_expect "peer's ClassPortInfo: base version 1" 1 "$(jq -r '.probes[0].base_version' <<< "$js")"
ibt_expect "answer came from the peer's GID" "$(ibt_gid_exploded "$peer_ll")" \
	"$(ibt_gid_exploded "$(jq -r '.probes[0].sgid' <<< "$js")")"

# ib_mad matches an answer to its request by comparing raw GRH bytes,
# which hold an IPv4 header for IPv4 RoCEv2 packets: answers from IPv4
# GIDs never match. ibtrace refuses such a ping with a reason instead of
# timing out.
out=$("$IBTRACECTL" -d rxe0 ping --dgid "$peer_v4" -c 1 -t 500 2>&1)
ibt_expect "ping to an IPv4-mapped GID is refused (exit 1)" 1 "$?"
ibt_match "ping to an IPv4-mapped GID: reason given" "IPv4" "$out"

js=$("$IBTRACECTL" -j -d rxe0 ping --dgid "$peer_ll" --source-route 3)
ibt_expect "peer SourceRoute wrong port: status 0x001c" 28 "$(jq -r '.probes[0].mad_status' <<< "$js")"
ibt_expect "peer SourceRoute wrong port: actual port 1" 1 "$(jq -r '.probes[0].actual_port' <<< "$js")"

# mad KEY ARGS...: one field of the answer to a raw MAD
mad()
{
	local key=$1

	shift
	"$IBT_MAD" -d rxe0 --dgid "$peer_ll" --timeout 2000 --retries 2 "$@" |
		sed -n "s/^$key=//p"
}
ibt_expect "raw ClassPortInfo to peer: status 0" 0x0000 "$(mad status --attr 0x0001)"
ibt_expect "raw SourceRoute right port: status 0" 0x0000 "$(mad status --attr 0x0010 --route 1)"
ibt_expect "raw SourceRoute wrong port: actual 1" 1 "$(mad actual_port --attr 0x0010 --route 4)"
ibt_expect "raw SourceRoute hop count 0: 0x001c" 0x001c "$(mad status --attr 0x0010 --route 1 --hops 0)"
ibt_expect "raw SourceRoute hop count 65: 0x001c" 0x001c "$(mad status --attr 0x0010 --route 1 --hops 65)"
ibt_expect "raw VendorSet: 0x0008" 0x0008 "$(mad status --method 0x02)"
ibt_expect "raw unknown attribute: 0x000c" 0x000c "$(mad status --attr 0x0042)"

ibt_check "rxe0 deleted" ibt_rxe_del rxe0
ibt_check "ibtrace unloads" ibt_unload_ibtrace
ibt_done
