#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Random MADs at the class 0x30 agent (issue 20): ibtrace_mad --fuzz sends
# IBTRACE_FUZZ_ITER (default 10000) seeded random MADs of the class from
# user space (ib_umad) to an agent, (a) across an ibtrace_sim fabric,
# LID-routed through two switches (SM-lite) to port 2 of a two-port HCA,
# half of them with a GRH, and (b) on rxe in loopback: random method, attribute, modifier, class and
# base version, status, OUI, RMPP header, TID, SourceRoute hop count and
# vector, payload, and short, truncated and oversized writes. From each
# request it derives its fate (refused by ib_umad, dropped or answered
# 0x000C by ib_mad, answered by the agent with the status that ibtrace(4),
# "Methods and status", gives)
# and checks every answer (status, method, header, data) and every
# silence. Then the agent's counters must account for every MAD that
# reached it, by reason (rx = answered + tx_error, answered = success +
# mismatch + malformed + unsupported), nothing crashed, and a normal ping
# and trace still work. On rxe, most responses carry the TID of the
# agent's ib_mad agent (found with the ib_mad_create_agent tracepoint):
# those with RMPP Active must count as strays, the others vanish in
# ib_mad. Prints the MADs/s; IBTRACE_SEED=N replays a run.

source "$(dirname "$0")/lib.sh"

ITER=${IBTRACE_FUZZ_ITER:-10000}
ibt_tmpdir

ibt_require_root
ibt_require_file "$SIM_KO" "$IBT_MAD" "$IBTRACECTL"
ibt_require_cmd jq
ibt_require_count IBTRACE_FUZZ_ITER "$ITER"
ibt_require_modules ib_core ib_umad
ibt_seed
echo "# $ITER MADs per target"

ibt_sim_load_ibtrace "ibtrace loads"

# counters DEV PORT: the agent's counters as "name value ..." (one line of
# "ibtracectl agent show": few processes, each costs in a TCG guest)
counters()
{
	local line

	line=$("$IBTRACECTL" -d "$1" -p "$2" agent show) || return 1
	echo "${line#* registered * }"
}

# fuzz NAME TARGET_DEV TARGET_PORT IBTRACE_MAD_ARGS...: one campaign
fuzz()
{
	local name=$1 tdev=$2 tport=$3 rc k v want got before after i miss
	local -A F B A d

	shift 3
	before=$(counters "$tdev" "$tport")
	"$IBT_MAD" "$@" --fuzz "$ITER" --seed "$IBT_SEED" --target-port "$tport" \
		> "$TMP/out" 2> "$TMP/err"
	rc=$?
	# an answer may reach us just before the agent counts it: settle
	after=$(counters "$tdev" "$tport")
	for i in {1..10}; do
		sleep 0.1
		v=$(counters "$tdev" "$tport")
		[ "$v" = "$after" ] && break
		after=$v
	done
	while IFS='=' read -r k v; do
		F[$k]=$v
	done < "$TMP/out"
	set -- $before
	while [ $# -ge 2 ]; do B[$1]=$2; shift 2; done
	set -- $after
	while [ $# -ge 2 ]; do A[$1]=$2; shift 2; done
	for k in "${!A[@]}"; do
		d[$k]=$((A[$k] - ${B[$k]:-0}))
	done

	paste -sd ' ' "$TMP/out" | fold -w 76 -s | sed 's/^/# /'
	ibt_expect "$name: $ITER MADs tried" "$ITER" "${F[tried]}"
	ibt_expect "$name: every answer and silence as derived from its request (seed $IBT_SEED)" \
		"0 lost 0 unexpected 0 bad 0" \
		"$rc lost ${F[lost]} unexpected ${F[unexpected]} bad ${F[bad]}"
	[ -s "$TMP/err" ] && head -20 "$TMP/err" | sed 's/^/# /'
	if [ "$ITER" -ge 1000 ]; then
		# each way a MAD can end, and each status, was tried
		miss=""
		for k in einval response dropped core agent exp_success \
			 exp_mismatch exp_malformed exp_unsupported_method \
			 exp_unsupported_attr ${STRAYS:+exp_stray}; do
			[ "${F[$k]:-0}" -gt 0 ] || miss="$miss $k"
		done
		ibt_expect "$name: the campaign covered every fate and status" "" "$miss"
	fi

	# The counters' growth: what the MADs that reached the agent explain.
	want="rx ${F[exp_rx]} answered ${F[exp_rx]} success ${F[exp_success]}"
	want="$want mismatch ${F[exp_mismatch]} malformed ${F[exp_malformed]}"
	want="$want unsupported_method ${F[exp_unsupported_method]}"
	want="$want unsupported_attr ${F[exp_unsupported_attr]}"
	want="$want tx_error 0 stray ${F[exp_stray]}"
	got="rx ${d[rx]} answered ${d[answered]} success ${d[success]}"
	got="$got mismatch ${d[mismatch]} malformed ${d[malformed]}"
	got="$got unsupported_method ${d[unsupported_method]}"
	got="$got unsupported_attr ${d[unsupported_attr]}"
	got="$got tx_error ${d[tx_error]} stray ${d[stray]}"
	ibt_expect "$name: the agent's counters grew by exactly the MADs that reached it, by reason" \
		"$want" "$got"
	ibt_expect "$name: rx = answered + tx_error, answered = success + mismatch + malformed + unsupported, unsupported = method + attr" \
		"${A[rx]} ${A[answered]} ${A[unsupported]}" \
		"$((A[answered] + A[tx_error])) $((A[success] + A[mismatch] + A[malformed] + A[unsupported])) $((A[unsupported_method] + A[unsupported_attr]))"
	echo "# $name: ${F[tried]} MADs in ${F[elapsed_ms]} ms: ${F[mads_per_s]} MADs/s"
}

# (a) ibtrace_sim: H1 - SwA - SwB - H2 port 2, SM-lite assigns the LIDs ---------
cat > "$TMP/fabric" <<'TOPO'
Hca 1 "H1"
[1] "SwA"[1]

Switch 4 "SwA"
[1] "H1"[1]
[2] "SwB"[1]

Switch 4 "SwB"
[1] "SwA"[2]
[2] "H2"[2]

Hca 2 "H2"
[2] "SwB"[2]
TOPO
ibt_check "fabric H1 - SwA - SwB - H2/2 with SM-lite" \
	"$IBTRACECTL" sim add "$TMP/fabric" --name fz
show=$("$IBTRACECTL" -j sim show fz)
read -r h1 h2 lid < <(jq -r '.[0].nodes | (.[] | select(.name == "H1") | .dev) + " " +
	(.[] | select(.name == "H2") | "\(.dev) \(.ports[] | select(.port == 2) | .lid)")' <<< "$show")
ok=0
for i in $(seq 50); do
	"$IBTRACECTL" -d "$h1" ping --dlid "$lid" -c 1 -t 300 -r 0 >/dev/null 2>&1 &&
		ok=1 && break
	sleep 0.2
done
ibt_expect "H1 reaches H2/2 (LID $lid) through two switches" 1 "$ok"

# --dgid: half of the MADs (at random) go with a GRH, the agent's answer too
gid2=$(cat "/sys/class/infiniband/$h2/ports/2/gids/0")
fuzz "sim" "$h2" 2 -d "$h1" --dlid "$lid" --dgid "$gid2"

js=$("$IBTRACECTL" -j -d "$h1" ping --dlid "$lid" -c 3 -i 0)
ibt_expect "sim: a normal ping afterwards: exit 0, 3 of 3" "0 3" "$? $(jq -r .summary.received <<< "$js")"
js=$("$IBTRACECTL" -j -d "$h1" trace --dlid "$lid")
ibt_expect "sim: a normal trace afterwards: exit 0, 3 hops, H2 verified on port 2" \
	"0 4 verified 2" \
	"$? $(jq -r '"\(.hops | length) \(.hops[-1].agent) \(.hops[-1].in_port)"' <<< "$js")"
ibt_check "sim: delete the fabric" "$IBTRACECTL" sim del fz

# (b) rxe in loopback ---------------------------------------------------------
# The ib_mad tracepoint tells the hi_tid of the agent ibtrace registers on
# rxe0: responses carrying it (and RMPP Active) reach the agent as strays.
TR=/sys/kernel/tracing
[ -d "$TR/events" ] || mount -t tracefs nodev "$TR" 2>/dev/null
EV=$TR/events/ib_mad/ib_mad_create_agent/enable
[ -w "$EV" ] && echo 1 > "$EV" && : > "$TR/trace"
if modprobe rdma_rxe 2>/dev/null && ibt_rxe_add rxe0 >/dev/null 2>&1; then
	gid=$(ibt_gid0 rxe0)
	hi=
	if [ -w "$EV" ]; then
		echo 0 > "$EV"
		hi=$(sed -n 's/.*hi_tid \(0x[0-9a-f]*\) class 0x30 class_ver 0x01.*/\1/p' \
			"$TR/trace" | tail -1)
	fi
	if [ -n "$hi" ]; then
		echo "# rxe0's class 0x30 agent: hi_tid $hi"
		STRAYS=1
		fuzz "rxe" rxe0 1 -d rxe0 --dgid "$gid" --resp-tid-hi "$hi"
	else
		echo "# no ib_mad tracepoint: the agent's hi_tid unknown, no strays sent"
		fuzz "rxe" rxe0 1 -d rxe0 --dgid "$gid"
	fi
	js=$("$IBTRACECTL" -j -d rxe0 ping --dgid "$gid" -c 3 -i 0)
	ibt_expect "rxe: a normal ping afterwards: exit 0, 3 of 3" "0 3" \
		"$? $(jq -r .summary.received <<< "$js")"
	js=$("$IBTRACECTL" -j -d rxe0 trace --dgid "$gid")
	ibt_expect "rxe: a normal trace afterwards: exit 0, one hop, verified" \
		"0 true verified" "$? $(jq -r '"\(.one_hop) \(.hops[1].agent)"' <<< "$js")"
	ibt_check "rxe0 deleted" ibt_rxe_del rxe0
else
	ibt_skip_one "rxe campaign" "no rdma_rxe or no rxe device on $IBT_NETDEV"
fi

ibt_check "ibtrace unloads" ibt_unload_ibtrace
ibt_check "rmmod ibtrace_sim" rmmod ibtrace_sim
echo "# $IBT_TEST ran in ${SECONDS} s"
ibt_done
