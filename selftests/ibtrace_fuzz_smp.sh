#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# MAD fuzzing of ibtrace_sim's SMAs, switches, SA and PMA from user space
# (ib_umad): `ibtrace_sim_smp -R SEED -N ITERS` sends IBTRACE_FUZZ_ITER
# (default 10000) random SMPs (directed route with random hop counts,
# hop pointers, paths, direction, DrSLID/DrDLID; LID-routed) and GMPs (SA,
# PMA, other classes, on QP0 and QP1) into a fabric of three switches and
# four HCAs run by SM-lite, with checks of known answers among them
# (statuses 0, 0x0004, 0x0008, 0x000C, NodeGUIDs; drops of directed-route
# SMPs through missing ports, with a hop pointer past the path or a hop
# count above 63). Then: the fabric's packet accounting holds (every
# packet sent was delivered or dropped, debugfs "stats"; the expected drops
# are among the drops), unmodified OpenSM brings the fabric up (SUBNET UP,
# every linked port Active) and ibping crosses it. Seeded (IBTRACE_SEED
# replays a run); the kernel log must stay clean.

source "$(dirname "$0")/lib.sh"

ITER=${IBTRACE_FUZZ_ITER:-10000}
DBG=/sys/kernel/debug/ibtrace_sim
ibt_tmpdir

ibt_require_root
ibt_require_file "$SIM_KO" "$SIM_CTL" "$SIM_SMP"
ibt_require_cmd opensm ibping timeout jq
ibt_require_modules ib_core ib_umad
ibt_require_debugfs
ibt_seed
ibt_sim_load

# topo/fz.topo: H1 (node 0) holds SM-lite and its SA; the fuzzer runs on
# H2. Parallel links S1-S2, a two-port HCA on two switches, free switch
# ports.
ibt_check "fabric fz added (SM-lite)" "$SIM_CTL" add fz "$IBT_TOPO/fz.topo"
# The LID-routed checks come first: a GMP leaves no port below Active.
ibt_check "  every linked port Active" ibt_sim_wait_active fz

# NAME DEV GUID of node NAME
node_of()
{
	"$SIM_CTL" nodes fz | sed -n "s/.* name \"$1\" guid \(0x[0-9a-f]*\) dev \([^ ]*\).*/$1 \2 \1/p"
}
read -r _ dev1 guid1 <<< "$(node_of H1)"
read -r _ dev2 _ <<< "$(node_of H2)"
read -r _ dev3 _ <<< "$(node_of H3)"
[ -n "$dev1" ] && [ -n "$dev2" ] && [ -n "$dev3" ] ||
	ibt_skip_all "no RDMA devices of the fabric ($dev1 $dev2 $dev3)"

# stats field $1 of the fabric
stat() { ibt_sim_stat fz "$1"; }

# Wait (up to 10 s) for the fabric to be quiet: nothing in flight.
wait_quiet()
{
	local i

	for ((i = 0; i < 100; i++)); do
		[ "$(stat in_flight)" = 0 ] && return 0
		sleep 0.1
	done
	return 1
}

wait_quiet
sent0=$(stat sent)
dropped0=$(stat dropped)
t0=$(date +%s%N)
"$SIM_SMP" -C "$dev2" -P 1 -t 200 -w 64 -R "$IBT_SEED" -N "$ITER" \
	> "$TMP/out" 2>&1
rc=$?
t1=$(date +%s%N)
ms=$(( (t1 - t0) / 1000000 ))
grep -v '^# node' "$TMP/out" | sed 's/^/# /' | head -40
summary=$(grep '^mads ' "$TMP/out")
read -r _ mads _ ans _ unans _ refused _ eaten _ checks _ failed _ dexp _ <<< "$summary"
ibt_expect "ibtrace_sim_smp -R: discovered the 7 nodes" 1 \
	"$(grep -c '^# discovered 7 nodes' "$TMP/out")"
ibt_expect "ibtrace_sim_smp -R: $ITER random MADs and the checks, none failed" \
	"0 0" "$rc ${failed:-?}"
echo "# ${mads:-0} MADs in $ms ms: $(( ${mads:-0} * 1000 / (ms ? ms : 1) )) MADs/s; answered $ans, unanswered $unans, refused by the local SMI $refused, processed locally and unanswered $eaten, checks passed $checks"
ibt_expect "MADs sent >= $ITER, answered > 0, checks passed > 100" "1 1 1" \
	"$(( ${mads:-0} >= ITER )) $(( ${ans:-0} > 0 )) $(( ${checks:-0} > 100 ))"

if wait_quiet; then
	ibt_ok "fabric quiet: every packet sent was delivered or dropped ($(tr '\n' ' ' < "$DBG/fz/stats"))"
else
	ibt_fail "fabric quiet: every packet sent was delivered or dropped" \
		"$(tr '\n' ' ' < "$DBG/fz/stats")"
fi
ibt_expect "the fabric carried >= the answered MADs, dropped >= the $dexp expected drops" \
	"1 1" "$(( $(stat sent) - sent0 >= ${ans:-0} - 64 )) $(( $(stat dropped) - dropped0 >= ${dexp:-0} ))"

# OpenSM brings the fabric up again -----------------------------------------------

pguid=$("$SIM_CTL" nodes fz | sed -n 's/.* name "H1" .* port 1 guid \(0x[0-9a-f]*\).*/\1/p')
ibt_opensm_once "$TMP/osm" 300 "${pguid:-$guid1}" "$TMP/osm.log" > "$TMP/osm.out" 2>&1
ibt_match "opensm -o on $dev1: SUBNET UP after the fuzzing" 'SUBNET UP' \
	"$(cat "$TMP/osm.log" 2>/dev/null) $(tail -3 "$TMP/osm.out")"
bad=$("$SIM_CTL" nodes fz | awk '{
	name = ""; sw = 0
	for (i = 1; i <= NF; i++) {
		if ($i == "name") name = $(i + 1)
		if ($i == "type" && $(i + 1) == "switch") sw = 1
		if ($i == "port") { p = $(i + 1); st = ""; peer = "" }
		if ($i == "state") st = $(i + 1)
		if ($i == "peer") peer = $(i + 1)
		if (p != "" && st != "" && (i == NF || $(i + 1) == "port")) {
			if ((peer != "" || (sw && p == 0)) && st != "Active")
				print name " port " p ": " st
			p = ""
		}
	}
}')
ibt_expect "every linked port and switch port 0 Active" "" "$bad"

lid3=$(cat "/sys/class/infiniband/$dev3/ports/1/lid" 2>/dev/null)
ibping -S -C "$dev3" -P 1 > /dev/null 2>&1 &
IBT_BG_PIDS+=($!)
sleep 1
out=$(timeout 30 ibping -C "$dev1" -P 1 -c 5 -L "$((lid3))" 2>&1)
ibt_match "ibping $dev1 -> $dev3 (LID $((lid3))) across the fabric" \
	'5 packets transmitted, 5 received' "$out"
kill "${IBT_BG_PIDS[@]}" 2>/dev/null
wait 2>/dev/null
IBT_BG_PIDS=()

ibt_check "fabric fz deleted" "$SIM_CTL" del fz
ibt_check "rmmod ibtrace_sim" rmmod ibtrace_sim
ibt_done
