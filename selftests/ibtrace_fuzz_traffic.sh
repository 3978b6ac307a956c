#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A seeded random campaign over traffic flows as the kernel accepts them
# (the netlink fuzzer, ibtrace_fuzz_nl.sh, reaches TRAFFIC_START's policy
# and checks but almost never a flow that runs). Two SM-lite fabrics of
# topo/s1s2_cd.topo: f as fast as the sim goes, q paced at a time scale
# of 1000. Each round starts 1-4 "ibtracectl sim traffic" runs at once,
# of 1 or 2 flows each: from a random HCA (or a switch, an unknown
# node), a random port, to a random LID (every node's, LID 0,
# unassigned, a multicast LID), random SL, size, rate (or max) and
# count, a timeout of 1 or 2 s. Meanwhile the round may turn a random
# knob of a random port (buffer, sink, credits ignore/obey, drop, delay,
# width, speed, link down/up), SIGINT or SIGKILL a run, or delete the
# fabric and make it again. Every run must:
#  - exit with a documented status (0 delivered, 7 drops, 6 timeout, 4
#    fabric deleted, 13 SIGINT, 14 busy; 1 or 2 for a request the kernel
#    or the tool refused, with one "Error:" line); SIGKILL aside, and a
#    SIGINT that came before the tool's first request (130, killed by
#    it, saying nothing);
#  - where it printed its flows, each be consistent: delivered + dropped
#    <= sent <= count; "done" only with sent = count; exit 0 only with
#    every packet delivered; latencies in order, present if any packet
#    was delivered;
#  - end within its timeout and a bound.
# Afterwards: the knobs reset (fabric f made again), 16 flows (the most
# that run at once) start together, none refused as busy (no flow
# outlived its socket or its fabric) and all delivered; the module
# unloads; the kernel log holds no oops/WARN/BUG/hung task.
# IBTRACE_SEED=N replays a run's choices (not its timing);
# IBTRACE_FUZZ_TRAFFIC=N rounds (default 12; 60 with IBTRACE_SLOW=1).

source "$(dirname "$0")/lib.sh"

ROUNDS=${IBTRACE_FUZZ_TRAFFIC:-12}
ibt_slow && ROUNDS=${IBTRACE_FUZZ_TRAFFIC:-60}
TOPO=$IBT_TOPO/s1s2_cd.topo
ibt_tmpdir
ibt_require_root
ibt_require_file "$SIM_KO" "$IBTRACECTL" "$TOPO"
ibt_require_cmd jq timeout
ibt_require_number IBTRACE_FUZZ_TRAFFIC "$ROUNDS"
ibt_require_modules ib_core ib_umad
ibt_seed
RANDOM=$IBT_SEED

ibt_sim_load
for fab in "f" "q --time-scale 1000"; do
	read -r name args <<< "$fab"
	# shellcheck disable=SC2086	# args: words
	ibt_check "fabric $name ($TOPO, SM-lite${args:+, $args})" \
		"$IBTRACECTL" sim add "$TOPO" --name "$name" $args
	ibt_check "  every port Active" ibt_sim_wait_active "$name"
done

HCAS=(A B C D)
NODES=(A B C D S1 S2)
mapfile -t LIDS < <("$IBTRACECTL" -j sim show f |
	jq -r '[.[0].nodes[].ports[].lid // empty | select(. > 0)] | unique | .[]')
ibt_match "fabric f's LIDs known (${#LIDS[@]})" '^[1-9]' "${#LIDS[@]}"

# pick WORD...: one of the words, in $REPLY. The random helpers run in
# this shell, never in $(...): bash seeds $RANDOM anew in a subshell,
# and the seed must replay the run.
pick() { local a=("$@"); REPLY=${a[RANDOM % ${#a[@]}]}; }

# flow_args: the options of one random flow, added to $args
flow_args()
{
	local from to size rate

	case $((RANDOM % 24)) in
	0) from=S1 ;; 1) from=nope ;; 2) from=$((RANDOM % 7)) ;;
	*) pick "${HCAS[@]}"; from=$REPLY ;;
	esac
	case $((RANDOM % 20)) in
	0 | 1) to=$((RANDOM % 0xbfff + 1)) ;; 2) pick 0 0xc001; to=$REPLY ;;
	*) pick "${LIDS[@]}"; to=$REPLY ;;
	esac
	case $((RANDOM % 4)) in
	0) size=$((RANDOM % 4096 + 1)) ;;
	*) pick 1 64 256 1024 2048 4096; size=$REPLY ;;
	esac
	case $((RANDOM % 3)) in
	0) rate=max ;; 1) rate=$((RANDOM % 2000 + 1)) ;; 2) rate=$((RANDOM * 30 + 1)) ;;
	esac
	args+=" --from $from --to $to --sl $((RANDOM % 16)) --size $size"
	args+=" --rate $rate --count $((RANDOM % 400 + 1))"
	[ $((RANDOM % 10)) = 0 ] && args+=" --port $((RANDOM % 3 + 1))"
	return 0
}

# knob FABRIC: a random knob of a random port
knob()
{
	local what node

	case $((RANDOM % 9)) in
	0) what="buffer $((RANDOM % 400 + 66))" ;;
	1) pick 0 0 1 10 500; what="sink $REPLY" ;;
	2) pick ignore obey obey; what="credits $REPLY" ;;
	3) pick 0 0 5 50 100; what="drop $REPLY" ;;
	4) pick 0 0 100 5000; what="delay $REPLY" ;;
	5) pick 1x 4x; what="width $REPLY" ;;
	6) pick sdr ddr qdr; what="speed $REPLY" ;;
	7) pick down up up; what="link $REPLY" ;;
	8) what="sink 0 credits obey drop 0 delay 0" ;;
	esac
	pick "${NODES[@]}"
	node=$REPLY
	# shellcheck disable=SC2086	# what: words
	"$IBTRACECTL" sim set "$1" "$node" port $((RANDOM % 3 + 1)) $what \
		>/dev/null 2>&1
}

viol=0
declare -A rcs
declare -a pids cmd killed intr
flows_run=0 flows_delivered=0
violation()
{
	viol=$((viol + 1))
	[ "$viol" -le 10 ] && echo "# violation (round $round, run $1): $2"
}

# check_run I RC: the exit status and output of run I of the round
check_run()
{
	local i=$1 rc=$2 out err bad n d

	out=$TMP/r$i.json
	err=$(cat "$TMP/r$i.err")
	[ -n "${killed[$i]}" ] && return
	rcs[$rc]=$((${rcs[$rc]:-0} + 1))
	# SIGINT before the tool caught it (it does from its first request
	# on): killed by the signal, as the shell tells (128 + 2)
	[ "$rc" = 130 ] && [ -n "${intr[$i]}" ] && [ -z "$err" ] && return
	case $rc in
	0 | 4 | 6 | 7 | 13) ;;
	1 | 2 | 14)
		sed 's/[0-9][0-9]*/N/g' "$TMP/r$i.err" >> "$TMP/refused"
		[ "$(grep -c '^Error: ' <<< "$err")" = 1 ] ||
			violation "$i" "exit $rc without one Error: line: $err (${cmd[$i]})"
		return ;;
	*)	violation "$i" "exit $rc: $err (${cmd[$i]})"; return ;;
	esac
	# One jq (half a second under TCG): "FLOWS DELIVERING", then every
	# inconsistent flow
	bad=$(jq -r --argjson rc "$rc" '"\(.flows | length) \([.flows[] |
		select(.delivered > 0)] | length)", (.flows[] |
		select((.delivered + .dropped > .sent) or (.sent > .count) or
		       (.end == "done" and .sent != .count) or
		       (.end | IN("done", "stopped", "fabric_gone") | not) or
		       ($rc == 0 and (.delivered != .count or .end != "done")) or
		       (.delivered > 0 and .latency_ns == null) or
		       (.latency_ns != null and (.latency_ns | .min > .p50 or
			.p50 > .p90 or .p90 > .p99 or .p99 > .max))) |
		tojson)' "$out" 2>/dev/null) ||
		{ violation "$i" "exit $rc, no JSON: $err (${cmd[$i]})"; return; }
	read -r n d <<< "$bad"
	flows_run=$((flows_run + n))
	flows_delivered=$((flows_delivered + d))
	bad=$(sed 1d <<< "$bad")
	[ -z "$bad" ] || violation "$i" "exit $rc, flow $bad (${cmd[$i]})"
	[ "$rc" = 0 ] && [ "$n" = 0 ] &&
		violation "$i" "exit 0 without flows (${cmd[$i]})"
	return 0
}

t0=$(date +%s)
for round in $(seq "$ROUNDS"); do
	pick f q
	fab=$REPLY
	runs=$((RANDOM % 4 + 1))
	pids=() cmd=() killed=() intr=()
	for i in $(seq "$runs"); do
		args=
		flow_args
		[ $((RANDOM % 3)) = 0 ] && flow_args
		cmd[i]="sim traffic $fab$args --timeout $((RANDOM % 2 + 1))"
		# A run ends by its --timeout; timeout(1) bounds it (SIGKILL:
		# status 137) and passes a SIGINT on to it.
		# shellcheck disable=SC2086	# cmd: words
		timeout -s KILL 30 "$IBTRACECTL" -j ${cmd[$i]} > "$TMP/r$i.json" \
			2> "$TMP/r$i.err" &
		pids[i]=$!
	done
	sleep "0.$((RANDOM % 10))"
	i=$((RANDOM % runs + 1))
	case $((RANDOM % 10)) in
	0 | 1 | 2) knob "$fab"; knob "$fab" ;;
	3) intr[i]=1; kill -INT "${pids[$i]}" 2>/dev/null ;;
	4) killed[i]=1; pkill -KILL -P "${pids[$i]}" ;;
	5) "$IBTRACECTL" sim del "$fab" || violation 0 "sim del $fab failed"
	   extra=
	   [ "$fab" = q ] && extra="--time-scale 1000"
	   # shellcheck disable=SC2086	# extra: words
	   "$IBTRACECTL" sim add "$TOPO" --name "$fab" $extra >/dev/null ||
		violation 0 "sim add $fab failed"
	   ibt_sim_wait_active "$fab" || violation 0 "$fab not Active again" ;;
	esac
	for i in $(seq "$runs"); do
		wait "${pids[$i]}"
		check_run "$i" "$?"
	done
done
t1=$(date +%s)

echo "# $ROUNDS rounds in $((t1 - t0)) s; exit statuses: $(for k in "${!rcs[@]}"; do printf '%s:%s ' "$k" "${rcs[$k]}"; done)"
echo "# flows that ran: $flows_run, that delivered packets: $flows_delivered; refused runs:"
[ -e "$TMP/refused" ] && sort "$TMP/refused" | uniq -c | sort -rn | head -8 | sed 's/^/#  /'
ibt_expect "every run's exit status and flows as documented (0 violations)" 0 "$viol"
ibt_match "flows ran and delivered packets ($flows_delivered)" '^[1-9]' "$flows_delivered"
ibt_expect "no run outlived its bound (30 s, SIGKILL: status 137)" 0 "${rcs[137]:-0}"

# Afterwards ---------------------------------------------------------------------
ibt_check "fabric f made again (knobs reset)" bash -c \
	"'$IBTRACECTL' sim del f && '$IBTRACECTL' sim add '$TOPO' --name f >/dev/null"
ibt_check "  every port Active" ibt_sim_wait_active f
# shellcheck disable=SC2034	# J: read by ibt_sim_lid
J=$(ibt_sim_json f)
args=()
for i in $(seq 16); do
	args+=(--from "${HCAS[i % 4]}" --to "$(ibt_sim_lid "${HCAS[(i + 1) % 4]}")"
	       --count 50)
done
"$IBTRACECTL" -j sim traffic f "${args[@]}" --timeout 60 > "$TMP/all.json" 2> "$TMP/all.err"
ibt_expect "16 flows at once (the most): none refused as busy, all delivered, exit 0" \
	"0 16 800" "$? $(jq -r '"\(.flows | length) \([.flows[].delivered] | add)"' "$TMP/all.json")"
[ -s "$TMP/all.err" ] && sed 's/^/# /' "$TMP/all.err"
ibt_check "sim del f, q" bash -c "'$IBTRACECTL' sim del f && '$IBTRACECTL' sim del q"
ibt_check "ibtrace_sim unloads" timeout 60 rmmod ibtrace_sim

ibt_done
