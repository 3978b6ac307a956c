#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ibtrace on InfiniBand: two ibtrace_sim HCAs back to back, LIDs set and
# ports brought Active by SMPs, then ibtrace's agent on the sim HCAs
# answers LID-routed pings (ClassPortInfo, SourceRoute) and raw MADs.

source "$(dirname "$0")/lib.sh"

ibt_require_root
ibt_require_file "$SIM_KO" "$SIM_CTL" "$IBTRACECTL" "$IBT_MAD"
ibt_require_cmd ibportstate jq

ibt_require_modules ib_core ib_umad
ibt_tmpdir
ibt_sim_load
ibt_check "ibtrace loads" ibt_modprobe_ibtrace

ibt_check "fabric of two HCAs" "$SIM_CTL" add p0 "$IBT_TOPO/two_hcas.topo" no-sm
# shellcheck disable=SC2034	# nodes: read by ibt_simctl_dev
nodes=$("$SIM_CTL" nodes p0)
A=$(ibt_simctl_dev HcaA)
B=$(ibt_simctl_dev HcaB)

ibt_check "LIDs 1 and 2, ports Armed then Active (by SMPs)" sh -c "
	ibportstate -C $A -P 1 -t 500 -D 0 1 lid 1 &&
	ibportstate -C $A -P 1 -t 500 -D 0,1 1 lid 2 &&
	ibportstate -C $A -P 1 -t 500 -D 0 1 arm &&
	ibportstate -C $A -P 1 -t 500 -D 0,1 1 arm &&
	ibportstate -C $A -P 1 -t 500 1 1 active &&
	ibportstate -C $A -P 1 -t 500 2 1 active >/dev/null"

js=$("$IBTRACECTL" -j -d "$A" dev show)
ibt_expect "$A is an InfiniBand port" infiniband "$(jq -r '.[0].link_layer' <<< "$js")"
ibt_expect "$A LID 1" 1 "$(jq -r '.[0].lid' <<< "$js")"
ibt_expect "$A ACTIVE" ACTIVE "$(jq -r '.[0].state' <<< "$js")"
ibt_expect "$A agent registered" true "$(jq -r '.[0].agent' <<< "$js")"

js=$("$IBTRACECTL" -j -d "$A" ping --dlid 2 -c 5 -i 10)
ibt_expect "ping --dlid 2 from $A: exit 0" 0 "$?"
ibt_expect "5 of 5 answered" 5 "$(jq -r .summary.received <<< "$js")"
ibt_expect "answered from LID 2" 2 "$(jq -r '.probes[0].slid' <<< "$js")"
ibt_expect "ClassPortInfo over IB: class version 1" 1 "$(jq -r '.probes[0].class_version' <<< "$js")"

gid_b=$(ibt_gid0 "$B")
js=$("$IBTRACECTL" -j -d "$A" ping --dlid 2 --dgid "$gid_b" -c 2 -i 0)
ibt_expect "ping --dlid 2 --dgid <B's GID> (GRH over IB): 2 answered" 2 \
	"$(jq -r .summary.received <<< "$js")"
ibt_expect "  the answer carried B's GID" "$gid_b" \
	"$(ibt_gid_exploded "$(jq -r '.probes[0].sgid' <<< "$js")")"

out=$(timeout 60 "$IBTRACECTL" -d "$A" ping --dgid "$gid_b" -t 500 2>&1)
ibt_expect "--dgid alone without an SM: SA lookup fails (exit 1)" 1 "$?"
ibt_match "  and says so" "SA PathRecord" "$out"

js=$("$IBTRACECTL" -j -d "$B" ping --dlid 1 --source-route 1)
ibt_expect "SourceRoute $B -> LID 1, port 1: ok" ok "$(jq -r '.probes[0].status' <<< "$js")"
js=$("$IBTRACECTL" -j -d "$B" ping --dlid 1 --source-route 2)
ibt_expect "SourceRoute expecting port 2: 0x001c" 28 "$(jq -r '.probes[0].mad_status' <<< "$js")"
ibt_expect "  actual port 1" 1 "$(jq -r '.probes[0].actual_port' <<< "$js")"

out=$("$IBT_MAD" -d "$A" --dlid 2 --attr 0x0010 --route 1 --hops 0 --timeout 1000)
ibt_expect "raw SourceRoute hop count 0 over IB: 0x001c" 0x001c "$(sed -n 's/^status=//p' <<< "$out")"

js=$("$IBTRACECTL" -j -d "$B" agent show)
ibt_expect "$B's agent answered 8 requests" 8 "$(jq -r '.[0].answered' <<< "$js")"

# A flood (-i 0) chains its probes: each is posted by the answer to the one
# before. Still one probe at a time, each reported once and in order, and
# not one more than asked for on the wire (B's agent counts them).
a0=$("$IBTRACECTL" -j -d "$B" agent show | jq -r '.[0].answered')
js=$("$IBTRACECTL" -j -d "$A" ping --dlid 2 -c 1000 -i 0)
ibt_expect "a flood of 1000 probes: exit 0, 1000 answered, all ok" "0 1000 1000" \
	"$? $(jq -r '.summary.received, ([.probes[] | select(.status == "ok")] | length)' <<< "$js" | tr '\n' ' ' | sed 's/ $//')"
ibt_expect "  reported once each, in order: seq 1 to 1000" yes \
	"$(jq -r 'if [.probes[].seq] == [range(1; 1001)] then "yes" else "no" end' <<< "$js")"
ibt_expect "  $B's agent answered exactly 1000 more (none sent twice or beyond the count)" 1000 \
	"$(($("$IBTRACECTL" -j -d "$B" agent show | jq -r '.[0].answered') - a0))"
ibt_match "  each probe's RTT is its own: median <= p99 <= max, all > 0" yes \
	"$(jq -r '.summary | if .rtt_min_ns > 0 and .rtt_median_ns <= .rtt_p99_ns and .rtt_p99_ns <= .rtt_max_ns then "yes" else "no" end' <<< "$js")"

# start_flood OUT ERR TIMEOUT ARGS...: ibtracectl -j -d A ping --dlid 2 -i 0 ARGS
# in the background, under timeout TIMEOUT; $tpid is the timeout's PID,
# $pid the tool's (written by the tool's shell before its exec: pgrep can
# take 20 s on the debug kernel).
start_flood()
{
	local out=$1 err=$2 limit=$3 i

	shift 3
	rm -f "$TMP/flood.pid"
	# shellcheck disable=SC2016 # expanded by that shell
	timeout -k 5 "$limit" bash -c 'echo $$ >"$1.new" && mv "$1.new" "$1" && shift && exec "$@"' \
		_ "$TMP/flood.pid" "$IBTRACECTL" -j -d "$A" ping --dlid 2 -i 0 "$@" \
		>"$out" 2>"$err" &
	tpid=$!
	IBT_BG_PIDS+=("$tpid")
	for ((i = 0; i < 600; i++)); do
		[ -s "$TMP/flood.pid" ] && break
		sleep 0.05
	done
	pid=$(cat "$TMP/flood.pid" 2>/dev/null)
}

# The requests B's agent answered so far.
b_answered() { "$IBTRACECTL" -j -d "$B" agent show | jq -r '.[0].answered'; }

# Until B has answered more than $a0 (the flood has begun; at most 120 s).
until_started()
{
	local end=$((SECONDS + 120))

	while ((SECONDS < end)); do
		[ "$(b_answered)" -gt "$a0" ] && return
		sleep 0.05
	done
}

# A flood stopped by ^C ends at once; the probe in flight is taken back and
# no other is sent after the stop (B's count settles at most one above the
# probes reported).
a0=$("$IBTRACECTL" -j -d "$B" agent show | jq -r '.[0].answered')
start_flood "$TMP/stop.json" /dev/null 60 -c 100000
until_started
sleep 1
kill -INT "$pid"
wait "$tpid"
rc=$?
sleep 0.5
a1=$("$IBTRACECTL" -j -d "$B" agent show | jq -r '.[0].answered')
sent=$(jq -r .summary.sent "$TMP/stop.json")
echo "# a flood stopped after 1 s: exit $rc, $sent probes reported, B answered $((a1 - a0))"
ibt_expect "a flood stopped by SIGINT ends with exit 0, interrupted, with its statistics" "0 true yes" \
	"$rc $(jq -r '.interrupted, (if .summary.sent > 0 then "yes" else "no" end)' "$TMP/stop.json" | tr '\n' ' ' | sed 's/ $//')"
ibt_expect "  B answered what was reported, at most one more (the one taken back)" yes \
	"$( [[ $sent =~ ^[0-9]+$ ]] && (( a1 - a0 >= sent && a1 - a0 <= sent + 1 )) && echo yes || echo no)"

# A flood's results reach the reader in batches, so a reader that sleeps
# through a whole flood of 8000 still loses none: one message per probe
# (about 1.3 KB of socket buffer each) would have overrun its 2 MiB after
# some 1600. The reader is stopped once B has answered the first probe and
# woken when B has answered them all. The debug kernel, slower, runs 1000.
n=8000
if ibt_debug_kernel; then
	n=1000
fi
a0=$(b_answered)
start_flood "$TMP/sleep.json" "$TMP/sleep.err" 300 -c "$n"
until_started
kill -STOP "$pid"
end=$((SECONDS + 300))
while ((SECONDS < end)); do
	x=$(b_answered)
	[ "$x" -ge $((a0 + n)) ] && break
	sleep 0.1
done
echo "# B answered $((x - a0)) of $n while the reader slept; its jobs:"
"$IBTRACECTL" job show 2>&1 | sed 's/^/#   /'
sleep 0.5
kill -CONT "$pid"
wait "$tpid"
ibt_expect "a reader asleep through a flood of $n: exit 0, $n probes reported, in order" \
	"0 yes" "$? $(jq -r --argjson n "$n" 'if [.probes[].seq] == [range(1; $n + 1)] then "yes" else "no" end' "$TMP/sleep.json")"
ibt_expect "  and nothing was dropped on the way" "" "$(cat "$TMP/sleep.err")"

# A reader that falls behind a fast ping: stopped until its socket has
# overflowed (the kernel dropped probe messages), and so will be the
# answer to the job read it sends next. It must still end, with the
# statistics of every probe (the read's answer, once the job is quiet).
# The results come in batches (above): 50000 probes, to overrun it for
# sure. The debug kernel takes about 7 ms a probe, so its batches are of one
# or two: 10000 probes there (some 6000 messages), with a longer bound.
flood=50000 bound=120
if ibt_debug_kernel; then
	flood=10000 bound=300
fi
start_flood "$TMP/flood.json" "$TMP/flood.err" "$bound" -c "$flood"

# nl_drops PID: the messages PID's netlink sockets dropped (the Drops column
# of /proc/net/netlink, for the inodes of PID's sockets)
nl_drops()
{
	local inodes

	inodes=$(readlink /proc/"$1"/fd/* 2>/dev/null |
		sed -n 's/^socket:\[\([0-9]*\)\]$/\1/p' | tr '\n' ' ')
	awk -v list=" $inodes " 'NR > 1 && index(list, " " $10 " ") { d += $9 }
		END { print d + 0 }' /proc/net/netlink
}

sleep 0.3
kill -STOP "$pid"
# Stopped until its socket has dropped results (at most 60 s), whatever
# the machine's speed: the overrun is what this is about.
t0=$SECONDS
while ((SECONDS - t0 < 60)); do
	[ "$(nl_drops "$pid")" -gt 0 ] && break
	sleep 0.2
done
echo "# the reader was stopped $((SECONDS - t0)) s; its socket dropped $(nl_drops "$pid") messages"
kill -CONT "$pid"
wait "$tpid"
ibt_expect "a ping whose reader was stopped until its socket overran ends (within $bound s), exit 0" 0 "$?"
ibt_expect "  its statistics count all $flood probes" "$flood" \
	"$(jq -r .summary.sent "$TMP/flood.json")"
ibt_match "  and it says that probe results were dropped" "dropped probe results" \
	"$(cat "$TMP/flood.err")"

"$IBTRACECTL" -d "$A" ping --dlid 3 -c 1 -t 200 -r 0 >/dev/null 2>&1
ibt_expect "no node at LID 3: exit 6 (timeout)" 6 "$?"

ibt_check "delete the fabric with ibtrace loaded" "$SIM_CTL" del p0
ibt_check "ibtrace unloads" ibt_unload_ibtrace
ibt_check "rmmod ibtrace_sim" rmmod ibtrace_sim
ibt_done
