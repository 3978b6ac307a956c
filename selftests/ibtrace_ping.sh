#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ibtracectl ping on one rxe device (loopback): ClassPortInfo and
# SourceRoute probes, statistics, exit codes (timeout, remote status, no
# device, no module, permission), and module unload during a running ping;
# mad send by DGID (a GRH) over RoCE, answered and not.

source "$(dirname "$0")/lib.sh"

ibt_require_root
ibt_require_file "$IBTRACECTL"
ibt_require_cmd rdma jq
modprobe rdma_rxe 2>/dev/null || ibt_skip_all "rdma_rxe not available"

ibt_check "ibtrace loads" ibt_modprobe_ibtrace
ibt_check "rxe0 created" ibt_rxe_add rxe0
gid=$(ibt_gid0 rxe0)
ping_()
{
	"$IBTRACECTL" -d rxe0 ping --dgid "$gid" "$@"
}

js=$(ping_ -j -c 5 -i 10)
ibt_expect "ping: exit 0" 0 "$?"
ibt_expect "5 probes sent" 5 "$(jq -r .summary.sent <<< "$js")"
ibt_expect "5 answered" 5 "$(jq -r .summary.received <<< "$js")"
ibt_expect "every probe ok" "ok ok ok ok ok" "$(jq -r '[.probes[].status] | join(" ")' <<< "$js")"
ibt_expect "ClassPortInfo class version 1" 1 "$(jq -r '.probes[0].class_version' <<< "$js")"
ibt_check "rtt min <= median <= p99 <= max, min > 0" jq -e \
	'.summary | .rtt_min_ns > 0 and .rtt_min_ns <= .rtt_median_ns and .rtt_median_ns <= .rtt_p99_ns and .rtt_p99_ns <= .rtt_max_ns' <<< "$js"

txt=$(ping_ -c 3 -i 10)
ibt_match "text: one line per reply" "seq=3" "$txt"
ibt_match "text: statistics block" "3 probes sent, 3 received, 0(\\.0+)?% loss" "$txt"
ibt_match "text: rtt min/avg/max/p99" "rtt min/avg/max/p99 = [0-9.]+/[0-9.]+/[0-9.]+/[0-9.]+ us" "$txt"

js=$(ping_ -j --source-route 1)
ibt_expect "SourceRoute right port: ok" ok "$(jq -r '.probes[0].status' <<< "$js")"
ibt_expect "SourceRoute right port: actual 1" 1 "$(jq -r '.probes[0].actual_port' <<< "$js")"

js=$(ping_ -j --source-route 2)
ibt_expect "SourceRoute wrong port: exit 7 (remote status)" 7 "$?"
ibt_expect "SourceRoute wrong port: status 0x001c" 28 "$(jq -r '.probes[0].mad_status' <<< "$js")"
ibt_expect "SourceRoute wrong port: actual 1" 1 "$(jq -r '.probes[0].actual_port' <<< "$js")"

# The exerciser's mad send by DGID over RoCE: a GMP with a GRH, answered
# by the agent as the ping's probes are.
js=$("$IBTRACECTL" -j -d rxe0 mad send --class ibtrace --attr ClassPortInfo \
	--dgid "$gid")
ibt_expect "mad send --dgid on rxe: exit 0" 0 "$?"
ibt_expect "  the agent's GetResp of class 0x30, status 0" "48 129 0" \
	"$(jq -r '.answers[0].mad | "\(.class) \(.method) \(.status)"' <<< "$js")"
ibt_expect "  from the GID it went to" "$gid" \
	"$(ibt_gid_exploded "$(jq -r '.answers[0].sgid' <<< "$js")")"
ibt_expect "  ClassPortInfo decoded: class version 1" 1 \
	"$(jq -r '.answers[0].attr.class_version' <<< "$js")"
js=$("$IBTRACECTL" -j -d rxe0 mad send --class ibtrace --attr ClassPortInfo \
	--dgid fe80::1234:56ff:fe78:9abc -t 100 -r 0)
ibt_expect "mad send --dgid to nobody: exit 6 (no answer)" 6 "$?"
ibt_expect "  its one MAD timed out" timeout \
	"$(jq -r '.answers[0].status' <<< "$js")"

out=$("$IBTRACECTL" -d rxe0 ping --dgid fe80::1234:56ff:fe78:9abc -c 2 -i 0 -t 100 -r 1 2>&1)
ibt_expect "unanswered ping: exit 6 (timeout)" 6 "$?"
ibt_match "unanswered ping: 100% loss" "100(\\.0+)?% loss" "$out"

out=$("$IBTRACECTL" -d nosuchdev ping --dgid "$gid" 2>&1)
ibt_expect "unknown device: exit 4" 4 "$?"
ibt_match "unknown device: kernel message shown" "^Error: .*device" "$out"

out=$("$IBTRACECTL" -d rxe0 -p 2 ping --dgid "$gid" 2>&1)
ibt_expect "unknown port: exit 4" 4 "$?"

out=$(ibt_unpriv -d rxe0 ping --dgid "$gid" 2>&1)
ibt_expect "unprivileged ping: exit 5 (EPERM)" 5 "$?"
ibt_unpriv dev show >/dev/null 2>&1
ibt_expect "unprivileged dev show is allowed" 0 "$?"

# A running ping blocks nothing else (parallel ops), and Ctrl-C ends it
# with the statistics of the probes so far.
# (The tool itself in the background, not a function: $! must be its PID.)
"$IBTRACECTL" -d rxe0 ping --dgid "$gid" -c 100000 -i 20 \
	> /tmp/ibt_ping_int.out 2>&1 &
pid=$!
sleep 2
ibt_check "dev show answers while a ping runs" timeout 10 "$IBTRACECTL" dev show
ibt_check "a second ping runs beside the first" timeout 20 \
	"$IBTRACECTL" -d rxe0 ping --dgid "$gid" -c 2 -i 0
kill -INT "$pid"
(sleep 15; kill -KILL "$pid" 2>/dev/null) &
killer=$!
wait "$pid"
rc=$?
kill "$killer" 2>/dev/null
ibt_check "Ctrl-C ends the ping by itself (exit $rc)" test "$rc" -ne 137
ibt_match "Ctrl-C: statistics of the probes so far" "[1-9][0-9]* probes sent" \
	"$(cat /tmp/ibt_ping_int.out)"

# timeout(1) sends SIGINT to the tool and then to its process group: the
# second one, right after the first, must not kill it before it prints.
timeout --preserve-status -s INT 3 "$IBTRACECTL" -d rxe0 ping --dgid "$gid" \
	-c 100000 -i 20 > /tmp/ibt_ping_int2.out 2>&1
ibt_expect "timeout -s INT (SIGINT twice): the ping ends as for one, exit 0" \
	0 "$?"
ibt_match "  and prints the statistics" "[1-9][0-9]* probes sent" \
	"$(cat /tmp/ibt_ping_int2.out)"

# Unload while a ping runs: the ping ends with an error, unload completes.
"$IBTRACECTL" -d rxe0 ping --dgid "$gid" -c 100000 -i 20 \
	> /tmp/ibt_ping_unload.out 2>&1 &
pid=$!
sleep 2
start=$(date +%s)
ibt_check "unload during a running ping" timeout 30 rmmod ibtrace
wait "$pid"
rc=$?
ibt_check "unload took < 10 s" test $(($(date +%s) - start)) -lt 10
ibt_check "running ping ended with an error (exit $rc)" test "$rc" -ne 0
ibt_match "running ping said why" "removed|unload" "$(cat /tmp/ibt_ping_unload.out)"

out=$(ping_ 2>&1)
ibt_expect "module absent: exit 3" 3 "$?"

# Remove the device while a ping runs on it: the ping ends with ENODEV.
ibt_check "ibtrace loads again" ibt_modprobe_ibtrace
"$IBTRACECTL" -d rxe0 ping --dgid "$gid" -c 100000 -i 20 \
	> /tmp/ibt_ping_devdel.out 2>&1 &
pid=$!
sleep 2
ibt_check "rxe0 deleted during a running ping" timeout 30 rdma link delete rxe0
(sleep 15; kill -KILL "$pid" 2>/dev/null) &
killer=$!
wait "$pid"
rc=$?
kill "$killer" 2>/dev/null
ibt_expect "the ping ended: exit 4 (device gone)" 4 "$rc"
ibt_match "the ping said why" "removed" "$(cat /tmp/ibt_ping_devdel.out)"
ibt_check "ibtrace unloads" ibt_unload_ibtrace
ibt_done
