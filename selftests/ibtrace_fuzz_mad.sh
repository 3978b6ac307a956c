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
# 0x000C by ib_mad, answered by the agent with the status of DESIGN §3)
# and checks every answer (status, method, header, data) and every
# silence. Then the agent's counters must account for every MAD that
# reached it, by reason (rx = answered + tx_error, answered = success +
# mismatch + malformed + unsupported), nothing crashed, and a normal ping
# and trace still work. On rxe, most responses carry the TID of the
# agent's ib_mad agent (found with the ib_mad_create_agent tracepoint):
# those with RMPP Active must count as strays, the others vanish in
# ib_mad. Prints the MADs/s; IBTRACE_SEED=N replays a run.

source "$(dirname "$0")/lib.sh"

SIM_KO=${IBTRACE_SIM_KO:-$IBT_ROOT/kmod/sim/ibtrace_sim.ko}
ITER=${IBTRACE_FUZZ_ITER:-10000}
TMP=$(mktemp -d /tmp/ibtrace_fuzzmad.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

ibt_require_root
ibt_require_file "$SIM_KO"
ibt_require_file "$IBT_MAD"
ibt_require_file "$IBTRACECTL"
ibt_require_cmd jq
case $ITER in
'' | *[!0-9]* | 0) ibt_skip_all "IBTRACE_FUZZ_ITER=\"$ITER\" is not a positive number" ;;
esac
modprobe ib_core && modprobe ib_umad || ibt_skip_all "ib_core/ib_umad not available"
ibt_seed
echo "# $ITER MADs per target"

rmmod ibtrace 2>/dev/null
rmmod ibtrace_sim 2>/dev/null
ibt_check "insmod ibtrace_sim" insmod "$SIM_KO"
ibt_check "ibtrace loads" ibt_modprobe_ibtrace

# counters DEV PORT: the agent's counters as "name value" lines
counters()
{
	"$IBTRACECTL" -j -d "$1" -p "$2" agent show |
		jq -r '.[0] | to_entries[] | select(.value | type == "number") |
			select(.key != "port") | "\(.key) \(.value)"' | sort
}

# field KEY FILE
field()
{
	sed -n "s/^$1=//p" "$2"
}

# fuzz NAME TARGET_DEV TARGET_PORT IBTRACE_MAD_ARGS...: one campaign
fuzz()
{
	local name=$1 tdev=$2 tport=$3 rc k want got c i
	local -A d

	shift 3
	counters "$tdev" "$tport" > "$TMP/before"
	"$IBT_MAD" "$@" --fuzz "$ITER" --seed "$IBT_SEED" --target-port "$tport" \
		> "$TMP/out" 2> "$TMP/err"
	rc=$?
	# an answer may reach us just before the agent counts it: settle
	counters "$tdev" "$tport" > "$TMP/after"
	for i in $(seq 10); do
		sleep 0.1
		counters "$tdev" "$tport" > "$TMP/after2"
		cmp -s "$TMP/after" "$TMP/after2" && break
		mv "$TMP/after2" "$TMP/after"
	done
	paste -sd ' ' "$TMP/out" | fold -w 76 -s | sed 's/^/# /'
	ibt_expect "$name: $ITER MADs tried" "$ITER" "$(field tried "$TMP/out")"
	ibt_expect "$name: every answer and silence as derived from its request (seed $IBT_SEED)" \
		"0 lost 0 unexpected 0 bad 0" \
		"$rc lost $(field lost "$TMP/out") unexpected $(field unexpected "$TMP/out") bad $(field bad "$TMP/out")"
	[ -s "$TMP/err" ] && head -20 "$TMP/err" | sed 's/^/# /'
	if [ "$ITER" -ge 1000 ]; then
		# each way a MAD can end, and each status, was tried
		got=""
		for k in einval response dropped core agent exp_success \
			 exp_mismatch exp_malformed exp_unsupported_method \
			 exp_unsupported_attr ${STRAYS:+exp_stray}; do
			[ "$(field "$k" "$TMP/out")" -gt 0 ] 2>/dev/null || got="$got $k"
		done
		ibt_expect "$name: the campaign covered every fate and status" "" "$got"
	fi

	# The counters' growth: what the MADs that reached the agent explain.
	while read -r k c; do
		d[$k]=$((c - $(awk -v k="$k" '$1 == k { print $2 }' "$TMP/before")))
	done < "$TMP/after"
	want="rx $(field exp_rx "$TMP/out") answered $(field exp_rx "$TMP/out")"
	want="$want success $(field exp_success "$TMP/out")"
	want="$want mismatch $(field exp_mismatch "$TMP/out")"
	want="$want malformed $(field exp_malformed "$TMP/out")"
	want="$want unsupported_method $(field exp_unsupported_method "$TMP/out")"
	want="$want unsupported_attr $(field exp_unsupported_attr "$TMP/out")"
	want="$want tx_error 0 stray $(field exp_stray "$TMP/out")"
	got="rx ${d[rx]} answered ${d[answered]} success ${d[success]}"
	got="$got mismatch ${d[mismatch]} malformed ${d[malformed]}"
	got="$got unsupported_method ${d[unsupported_method]}"
	got="$got unsupported_attr ${d[unsupported_attr]}"
	got="$got tx_error ${d[tx_error]} stray ${d[stray]}"
	ibt_expect "$name: the agent's counters grew by exactly the MADs that reached it, by reason" \
		"$want" "$got"
	ibt_expect "$name: rx = answered + tx_error, answered = success + mismatch + malformed + unsupported, unsupported = method + attr" \
		"${d[rx]} ${d[answered]} ${d[unsupported]}" \
		"$((d[answered] + d[tx_error])) $((d[success] + d[mismatch] + d[malformed] + d[unsupported])) $((d[unsupported_method] + d[unsupported_attr]))"
	echo "# $name: $(field tried "$TMP/out") MADs in $(field elapsed_ms "$TMP/out") ms: $(field mads_per_s "$TMP/out") MADs/s"
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
h1=$(jq -r '.[0].nodes[] | select(.name == "H1") | .dev' <<< "$show")
h2=$(jq -r '.[0].nodes[] | select(.name == "H2") | .dev' <<< "$show")
lid=$(jq -r '.[0].nodes[] | select(.name == "H2") | .ports[] | select(.port == 2) | .lid' <<< "$show")
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
ibt_done
