#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ibtrace follows RDMA devices: load and unload with and without rxe
# devices, devices added and removed while loaded, repeated cycles.

source "$(dirname "$0")/lib.sh"

ibt_require_root
ibt_require_file "$IBTRACECTL"
ibt_require_cmd rdma jq
modprobe rdma_rxe 2>/dev/null || ibt_skip_all "rdma_rxe not available"

ports_of()
{
	"$IBTRACECTL" -j dev show | jq -r '.[] | "\(.dev)/\(.port) agent=\(.agent) ll=\(.link_layer)"' | sort | tr '\n' ' '
}

# This test counts RDMA devices: none may be left from an earlier one.
rdma link show 2>/dev/null | awk '$2 ~ /^rxe/ { sub("/.*", "", $2); print $2 }' |
	sort -u | while read -r l; do rdma link delete "$l"; done
rmmod ibtrace_sim 2>/dev/null
ibt_unload_ibtrace 2>/dev/null
"$IBTRACECTL" dev show >/dev/null 2>&1
ibt_expect "tool says module not loaded (exit 3)" 3 "$?"

ibt_check "load without RDMA devices" ibt_modprobe_ibtrace
ibt_expect "no ports listed" "" "$(ports_of)"
ibt_check "unload without RDMA devices" ibt_unload_ibtrace

ibt_check "rxe0 on $IBT_NETDEV" ibt_rxe_add rxe0
ibt_check "load with rxe0 present" ibt_modprobe_ibtrace
ibt_expect "rxe0 listed with its agent" "rxe0/1 agent=true ll=ethernet " "$(ports_of)"

ip link add ibtv0 type veth peer name ibtv1 && ip link set ibtv1 up
IBT_NETDEV=ibtv0 ibt_check "rxe1 hot-added while loaded" ibt_rxe_add rxe1
ibt_expect "rxe1 appears" "rxe0/1 agent=true ll=ethernet rxe1/1 agent=true ll=ethernet " "$(ports_of)"
js=$("$IBTRACECTL" -j -d rxe1 dev show)
ibt_expect "single-device query names rxe1" rxe1 "$(jq -r '.[0].dev' <<< "$js")"
ibt_expect "rxe1 port is ACTIVE" ACTIVE "$(jq -r '.[0].state' <<< "$js")"
ibt_expect "rxe1 GID 0 reported" "$(ibt_gid0 rxe1)" \
	"$(ibt_gid_exploded "$(jq -r '.[0].gid' <<< "$js")")"

ibt_check "rxe1 removed while loaded" ibt_rxe_del rxe1
ibt_expect "rxe1 gone" "rxe0/1 agent=true ll=ethernet " "$(ports_of)"
"$IBTRACECTL" -d rxe1 dev show >/dev/null 2>&1
ibt_expect "removed device: exit 4 (no such device)" 4 "$?"

ibt_check "unload with rxe0 present" ibt_unload_ibtrace
ibt_check "rxe0 still works without ibtrace" test -d /sys/class/infiniband/rxe0

for i in 1 2 3; do
	ibt_modprobe_ibtrace && ibt_rxe_del rxe0 && ibt_rxe_add rxe0 &&
		ibt_unload_ibtrace || break
done
ibt_expect "3 load / device remove+add / unload cycles" 3 "$i"

ibt_check "load again" ibt_modprobe_ibtrace
ibt_check "rxe0 deleted while loaded" ibt_rxe_del rxe0
ibt_check "unload" ibt_unload_ibtrace
ip link del ibtv0 2>/dev/null
ibt_done
