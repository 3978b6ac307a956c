#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark (prints figures, asserts nothing): `ibtracectl trace --dlid`
# (the in-kernel pipelined walk plus agent probes) against infiniband-diags'
# `ibtracert` (user space over ib_umad, one SMP at a time) for the same
# pair of HCAs on ibtrace_sim fabrics routed by SM-lite: a chain of six
# switches (a 7-hop path) and the longest path of a small three-level fat
# tree (6 hops). Each figure is the mean over several runs, measured by
# the wall clock around a loop of runs:
#   wall   one trace, process start included
#   walk   wall minus the same tool's trace from the HCA to itself (the
#          cost of starting the process and opening the device, which
#          under TCG dwarfs the fabric's); without a per-link delay both
#          are mostly that start, and their difference is noise that can
#          come out negative: there "kernel" is the figure to read
#   smps   SMPs the source HCA port sent per trace (sim counters; for
#          ibtracectl without its class 0x30 probes, shown apart)
# With a per-link delay (every port's delay_us knob, each direction; the
# sim holds packets back by a delayed work item, so at least a jiffy), the
# fabric's latency is felt as on a large fabric with slow switch SMAs.
# Then the same for a multicast trace (--mlid, ibtracert -m), with the
# MLID forwarded out of every switch port: the search meets every switch.
# Run in the VM:
#   vm-run -- selftests/bench/trace.sh

IBTRACE_ROOT=${IBTRACE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
source "$(dirname "$0")/../lib.sh" >/dev/null

runs=${IBTRACE_BENCH_RUNS:-10}
SIM_SMP=$IBT_ROOT/selftests/ibtrace_sim_smp
ibt_tmpdir

ibt_insmod_sim_ibtrace || exit 1

ns()
{
	date +%s%N
}

# tx_of FABRIC DEV: packets sent by the HCA's port 1
tx_of()
{
	ibt_sim_json "$1" | jq -r --arg d "$2" \
		'.nodes[] | select(.dev == $d) | .ports[0].tx'
}

# delay_all FABRIC USEC: the delay knob on every linked port
delay_all()
{
	local node port

	ibt_sim_json "$1" | jq -r '.nodes[] | .name as $n |
		.ports[] | select(.peer != null) | "\($n) \(.port)"' |
	while read -r node port; do
		"$IBTRACECTL" sim set "$1" "$node" port "$port" delay "$2" ||
			return 1
	done
}

# mean_ms CMD...: mean wall time of $runs runs of CMD, in ms (3 decimals)
mean_ms()
{
	local t0 t1 i

	"$@" >/dev/null 2>&1	# warm up
	t0=$(ns)
	for ((i = 0; i < runs; i++)); do
		"$@" >/dev/null 2>&1
	done
	t1=$(ns)
	echo $(((t1 - t0) / runs / 1000))
}

# us2ms US: microseconds as milliseconds with three decimals
us2ms()
{
	local v=$1 sign=

	if [ "$v" -lt 0 ]; then
		sign=-
		v=$((-v))
	fi
	printf '%s%d.%03d' "$sign" $((v / 1000)) $((v % 1000))
}

# ratio A B: A/B rounded to two decimals, n/a unless both are positive
ratio()
{
	local r

	if [ "$1" -gt 0 ] && [ "$2" -gt 0 ]; then
		r=$((($1 * 200 / $2 + 1) / 2))
		printf '%d.%02d' $((r / 100)) $((r % 100))
	else
		echo n/a
	fi
}

# bench NAME SRCDEV SRCLID DSTLID HOPS
bench()
{
	local f=$1 dev=$2 sl=$3 dl=$4 hops=$5 d js
	local cw cs rw rs ck tx0 tx1 vend csmp rsmp

	for d in 0 1000; do
		delay_all "$f" "$d" || { echo "# cannot set delay $d on $f"; return; }
		cw=$(mean_ms "$IBTRACECTL" -d "$dev" trace --dlid "$dl")
		cs=$(mean_ms "$IBTRACECTL" -d "$dev" trace --dlid "$sl")
		rw=$(mean_ms ibtracert -C "$dev" -P 1 "$sl" "$dl")
		rs=$(mean_ms ibtracert -C "$dev" -P 1 "$sl" "$sl")
		tx0=$(tx_of "$f" "$dev")
		js=$("$IBTRACECTL" -j -d "$dev" trace --dlid "$dl")
		tx1=$(tx_of "$f" "$dev")
		vend=$(jq -r .vendor_mads <<< "$js")
		ck=$(jq -r '.elapsed_ns / 1000 | floor' <<< "$js")
		csmp=$((tx1 - tx0 - vend))
		tx0=$(tx_of "$f" "$dev")
		ibtracert -C "$dev" -P 1 "$sl" "$dl" >/dev/null 2>&1
		tx1=$(tx_of "$f" "$dev")
		rsmp=$((tx1 - tx0))
		printf '%-10s %4s %6s | %9s %9s %9s %5s+%-2s | %9s %9s %5s | %5s %5s\n' \
			"$f" "$hops" "$d" "$(us2ms "$cw")" "$(us2ms $((cw - cs)))" \
			"$(us2ms "$ck")" "$csmp" "$vend" "$(us2ms "$rw")" \
			"$(us2ms $((rw - rs)))" "$rsmp" "$(ratio "$cw" "$rw")" \
			"$(ratio $((cw - cs)) $((rw - rs)))"
	done
	delay_all "$f" 0
}

# mc_flood FABRIC DEV: MLID 0xc000 forwarded out of every port of every
# switch (SubnSet(MulticastForwardingTable), LID-routed from DEV)
mc_flood()
{
	local lid ports pos m p

	ibt_sim_json "$1" | jq -r '.nodes[] | select(.type == "switch") |
		"\(.ports[] | select(.port == 0) | .lid) \(.ports | length - 1)"' |
	while read -r lid ports; do
		for ((pos = 0; pos <= ports / 16; pos++)); do
			m=0
			for ((p = pos * 16; p < pos * 16 + 16 && p <= ports; p++)); do
				[ "$p" -gt 0 ] && m=$((m | 1 << (p % 16)))
			done
			"$SIM_SMP" -C "$2" -P 1 -L "$lid" set 0x1b $((pos << 28)) \
				"0=$(printf '%02x,%02x' $((m >> 8)) $((m & 0xff)))" \
				>/dev/null || return 1
		done
	done
}

# bench_mc NAME SRCDEV SRCLID DSTLID: trace --mlid against ibtracert -m,
# MLID 0xc000 flooded (the search meets every switch)
bench_mc()
{
	local f=$1 dev=$2 sl=$3 dl=$4 d js cw rw ck tx0 tx1 csmp rsmp

	mc_flood "$f" "$dev" || { echo "# cannot program the MFTs of $f"; return; }
	for d in 0 1000; do
		delay_all "$f" "$d" || { echo "# cannot set delay $d on $f"; return; }
		cw=$(mean_ms "$IBTRACECTL" -d "$dev" trace --mlid 0xc000 --dlid "$dl")
		rw=$(mean_ms ibtracert -C "$dev" -P 1 -m 0xc000 "$sl" "$dl")
		tx0=$(tx_of "$f" "$dev")
		js=$("$IBTRACECTL" -j -d "$dev" trace --mlid 0xc000 --dlid "$dl")
		tx1=$(tx_of "$f" "$dev")
		ck=$(jq -r '.elapsed_ns / 1000 | floor' <<< "$js")
		csmp=$((tx1 - tx0))
		tx0=$(tx_of "$f" "$dev")
		ibtracert -C "$dev" -P 1 -m 0xc000 "$sl" "$dl" >/dev/null 2>&1
		tx1=$(tx_of "$f" "$dev")
		rsmp=$((tx1 - tx0))
		printf '%-10s %4s %6s | %9s %9s %5s | %9s %5s | %5s\n' \
			"$f" "$(jq -r '.hops | length - 1' <<< "$js")" "$d" \
			"$(us2ms "$cw")" "$(us2ms "$ck")" "$csmp" "$(us2ms "$rw")" \
			"$rsmp" "$(ratio "$cw" "$rw")"
	done
	delay_all "$f" 0
}

# up NAME TOPOLOGY: a fabric routed by SM-lite; prints "dev lid" of the
# first HCA and the LID of the last one
up()
{
	"$IBTRACECTL" sim add "$2" --name "$1" >/dev/null || return 1
	ibt_sim_json "$1" | jq -r '[.nodes[] | select(.type == "ca")] |
		"\(.[0].dev) \(.[0].ports[0].lid) \(.[-1].ports[0].lid)"'
}

echo "# ibtracectl trace --dlid vs ibtracert, mean of $runs runs each (ms)"
printf '%-10s %4s %6s | %9s %9s %9s %8s | %9s %9s %5s | %5s %5s\n' \
	fabric hops delay ctl_wall ctl_walk kernel smps+vnd rert_wall \
	rert_walk smps wall× walk×

bash "$IBT_ROOT/selftests/gen_fattree.sh" shape=chain leaves=6 hcas=1 radix=8 \
	> "$TMP/chain"
read -r dev sl dl < <(up chain "$TMP/chain") || exit 1
bench chain "$dev" "$sl" "$dl" 7
"$IBTRACECTL" sim del chain

bash "$IBT_ROOT/selftests/gen_fattree.sh" shape=3 pods=2 leaves=2 spines=2 tops=2 \
	hcas=2 radix=8 > "$TMP/ft3"
read -r dev sl dl < <(up ft3 "$TMP/ft3") || exit 1
bench ft3 "$dev" "$sl" "$dl" 6
"$IBTRACECTL" sim del ft3

echo "# delay: us added per link and direction; wall×, walk×: ibtracectl / ibtracert"

echo "# ibtracectl trace --mlid vs ibtracert -m (MLID 0xc000 out of every switch port), mean of $runs runs (ms)"
printf '%-10s %4s %6s | %9s %9s %5s | %9s %5s | %5s\n' \
	fabric hops delay ctl_wall kernel smps rert_wall smps wall×
read -r dev sl dl < <(up chain "$TMP/chain") || exit 1
bench_mc chain "$dev" "$sl" "$dl"
"$IBTRACECTL" sim del chain
read -r dev sl dl < <(up ft3 "$TMP/ft3") || exit 1
bench_mc ft3 "$dev" "$sl" "$dl"
"$IBTRACECTL" sim del ft3
rmmod ibtrace
rmmod ibtrace_sim
