#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark (prints figures, asserts nothing), run in the VM:
#   vm-run -- selftests/bench/sim_opensm.sh
#
# 1. `opensm -o` until it exits with SUBNET UP, on ibtrace_sim (in-kernel
#    fabric, OpenSM on a sim HCA through ib_umad) against ibsim (user
#    space: `ibsim -s FILE` with OpenSM under its LD_PRELOAD library
#    libumad2sim, as ibsim-run does), for an ibsim example, the 504-HCA
#    fat tree of gen_fattree.sh and a 1,728-HCA three-level tree (1,914
#    nodes, within ibsim's default bounds). Both attach OpenSM to the first
#    HCA of the file. Wall clock of the whole `opensm -o` run. ibtrace_sim
#    runs twice: every HCA an RDMA device (each with ib_core's clients:
#    ib_sa asks the SA for its ClassPortInfo once a port goes Active, and
#    retries every 300 ms while the path to the SM is not Active yet,
#    as a real host's kernel does), and only OpenSM's HCA a device
#    (`sim add --devices 1`; the sim's firmware answers for the other
#    HCAs). The second is ibsim's model: ibsim simulates no host but
#    OpenSM's, so "1/ibsim" (ours over ibsim) compares like with like.
# 2. The largest fat tree ibtrace_sim builds in this VM's memory: trees of
#    growing size (three levels, radix 48: pods of 24 leaves x 24 HCAs and
#    24 middle switches, 576 top switches) until FABRIC_ADD fails, memory
#    would run low (the next tree, at the last tree's bytes per node, would
#    leave less than IBTRACE_BENCH_RESERVE_MB, default 256; the next tree's
#    bytes are predicted from the bytes per HCA and per switch the last two
#    trees give, plus 5 %, or from the one tree's bytes per node plus
#    20 %), the next step
#    would not fit in what is left of IBTRACE_BENCH_BUDGET_S (default
#    1200 s, at the last tree's seconds per node) or the tree passes
#    IBTRACE_BENCH_MAX_NODES (default 20000). Bytes per node: MemAvailable
#    (and Slab) before and after building the fabric, caches dropped.
#    Every HCA is an RDMA device with ib_mad's QP0/QP1 receive rings and
#    ib_umad's device files; ib_core's default ring sizes unless
#    IBTRACE_BENCH_MAD_RQ (ib_core recv_queue_size, 64..) says otherwise.
#    IBTRACE_BENCH_PODS: the sizes tried (default "1 4 8 16 24 32");
#    IBTRACE_BENCH_MEM_ONLY=1 skips part 1.

IBTRACE_ROOT=${IBTRACE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
source "$(dirname "$0")/../lib.sh" >/dev/null

SIM_CTL=$IBT_ROOT/selftests/ibtrace_sim_ctl
GEN=$IBT_ROOT/selftests/gen_fattree.sh
EXAMPLE=${IBTRACE_BENCH_EXAMPLE:-/usr/share/doc/ibsim-utils/net-examples/net.2sw2path4hca}
UMAD2SIM=$(dpkg -L libumad2sim0 2>/dev/null | grep 'libumad2sim\.so$' | head -1)
RESERVE_MB=${IBTRACE_BENCH_RESERVE_MB:-256}
BUDGET_S=${IBTRACE_BENCH_BUDGET_S:-1200}
MAX_NODES=${IBTRACE_BENCH_MAX_NODES:-20000}
W=$(mktemp -d /tmp/bench_osm.XXXXXX)
IBSIM_PID=

cleanup()
{
	[ -n "$IBSIM_PID" ] && kill -9 "$IBSIM_PID" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT

ms()
{
	echo $(( $(date +%s%N) / 1000000 ))
}

mad_rq=${IBTRACE_BENCH_MAD_RQ:+recv_queue_size=$IBTRACE_BENCH_MAD_RQ}
# shellcheck disable=SC2086
# the memory is watched here (IBTRACE_BENCH_RESERVE_MB): lift the sim's
# budget (a quarter of RAM) to all of it
mem_mb=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
modprobe ib_core $mad_rq && modprobe ib_umad &&
	insmod "$SIM_KO" mem_budget_mb="$mem_mb" || exit 1
mad_rq=$(cat /sys/module/ib_core/parameters/recv_queue_size)
if [ -n "${IBTRACE_BENCH_MAD_RQ:-}" ] && [ "$mad_rq" != "$IBTRACE_BENCH_MAD_RQ" ]; then
	echo "# ib_core was loaded already: recv_queue_size is $mad_rq, not $IBTRACE_BENCH_MAD_RQ"
fi
cd "$W" || exit 1		# ibsim-run writes ./sys-PID
"$GEN" > "$W/fattree" || exit 1
# about 2,000 nodes: within ibsim's default bounds (2048 nodes, 256 switches)
"$GEN" shape=3 pods=4 leaves=24 hcas=18 spines=18 tops=18 radix=36 \
	> "$W/fattree2k" || exit 1

# First HCA name of a topology file.
first_hca()
{
	sed -n 's/^\(Hca\|Ca\)[[:space:]]\+[0-9]\+[[:space:]]\+"\([^"]*\)".*/\2/p' "$1" | head -1
}

# osm_ours FILE [DEVICES]: ms of `opensm -o` on ibtrace_sim, "-" if no
# SUBNET UP; DEVICES: how many HCAs are RDMA devices (default all).
osm_ours()
{
	local host guid t0 t1

	"$IBTRACECTL" sim add "$1" --name bench --no-sm ${2:+--devices "$2"} \
		>/dev/null || { echo -; return; }
	host=$(first_hca "$1")
	guid=$("$SIM_CTL" nodes bench | awk -v h="\"$host\"" '
		{ for (i = 1; i < NF; i++) if ($i == "name" && $(i + 1) == h) hit = 1 }
		hit { for (i = 1; i < NF; i++)
			if ($i == "port" && $(i + 2) == "guid") { g = $(i + 3); p = 1 }
			else if (p && $i == "peer") { print g; exit } }')
	rm -rf "$W/osm" "$W/osm.log" && mkdir -p "$W/osm"
	t0=$(ms)
	OSM_CACHE_DIR=$W/osm OSM_TMP_DIR=$W/osm timeout 900 \
		opensm -o -g "$guid" -f "$W/osm.log" >/dev/null 2>&1
	t1=$(ms)
	"$SIM_CTL" del bench >/dev/null
	grep -q 'SUBNET UP' "$W/osm.log" && echo $((t1 - t0)) || echo -
}

# osm_ibsim FILE: the same under ibsim; "-" if it failed.
osm_ibsim()
{
	local t0 t1 i

	[ -n "$UMAD2SIM" ] && command -v ibsim >/dev/null || { echo -; return; }
	ibsim -n -s "$1" > "$W/ibsim.log" 2>&1 &
	IBSIM_PID=$!
	for ((i = 0; i < 600; i++)); do
		grep -q 'simulator ready' "$W/ibsim.log" && break
		kill -0 "$IBSIM_PID" 2>/dev/null || break
		sleep 0.1
	done
	rm -rf "$W/osm" "$W/osm.log" && mkdir -p "$W/osm"
	t0=$(ms)
	SIM_HOST=$(first_hca "$1") LD_PRELOAD=$UMAD2SIM OSM_CACHE_DIR=$W/osm \
		OSM_TMP_DIR=$W/osm timeout 900 \
		opensm -o -f "$W/osm.log" >/dev/null 2>&1
	t1=$(ms)
	kill -9 "$IBSIM_PID" 2>/dev/null	# ibsim ignores SIGTERM
	wait "$IBSIM_PID" 2>/dev/null
	IBSIM_PID=
	grep -q 'SUBNET UP' "$W/osm.log" && echo $((t1 - t0)) || echo -
}

ratio()
{
	[ "$1" != - ] && [ "$2" != - ] && [ "$1" -gt 0 ] &&
		printf '%.2f' "$(bc -l <<< "$2/$1")" || echo -
}

osm_compare()
{
	local f n a b one name fmt='%-22s %6s %11s %9s %9s %8s %6s\n'

	echo
	echo "opensm -o to SUBNET UP, wall clock, TCG VM ($(nproc) vCPUs)"
	# shellcheck disable=SC2059 # one format for the header and the rows
	printf "$fmt" topology nodes \
		"ours ms:all" "ours ms:1" "ibsim ms" "all/ibsim" "1/ibsim"
	for f in "$EXAMPLE" "$W/fattree" "$W/fattree2k"; do
		[ -f "$f" ] || continue
		n=$(grep -Ec '^(Switch|Hca|Ca)[[:space:]]' "$f")
		a=$(osm_ours "$f")
		one=$(osm_ours "$f" 1)
		b=$(osm_ibsim "$f")
		name=$(basename "$f")
		case $f in "$W"/fattree*) name="fat tree ($(grep -c '^Hca' "$f") HCAs)" ;; esac
		# shellcheck disable=SC2059
		printf "$fmt" "$name" "$n" "$a" "$one" "$b" \
			"$(ratio "$b" "$a")" "$(ratio "$b" "$one")"
	done
	echo "(all: every HCA an RDMA device, its kernel's ib_sa and ib_mad at work;"
	echo " 1: only OpenSM's HCA, as in ibsim, which simulates no other host:"
	echo " 1/ibsim compares like with like; ibsim: at most 2048 nodes and"
	echo " 256 switches by default, ibsim -N/-S)"
}

# IBTRACE_BENCH_MEM_ONLY=1: only part 2.
[ -n "${IBTRACE_BENCH_MEM_ONLY:-}" ] || osm_compare

# Largest fat tree ---------------------------------------------------------------

meminfo()	# FIELD: kB
{
	awk -v f="$1:" '$1 == f { print $2 }' /proc/meminfo
}

settle()
{
	sync
	echo 3 > /proc/sys/vm/drop_caches
	sleep 1
}

echo
echo "Largest fat tree in this VM ($(( $(meminfo MemTotal) / 1024 )) MiB total;" \
	"ib_core recv_queue_size $mad_rq)"
printf '%6s %7s %6s %9s %11s %13s %13s %8s\n' pods nodes HCAs "add s" \
	"MemAvail MiB" "bytes/node" "slab B/node" result
best_nodes=0 best_bpn=0 bpn=0 ms_per_node=0
prev_h=0 prev_s=0 prev_b=0 last_h=0 last_s=0 last_b=0

# predict HCAS SWITCHES: bytes the tree will take, 0 when nothing is known
predict()
{
	local h=$1 s=$2 det bh bs
	if [ "$prev_b" -gt 0 ]; then
		# bytes = bh * HCAs + bs * switches, through the last two trees
		det=$(( prev_h * last_s - last_h * prev_s ))
		if [ "$det" -ne 0 ]; then
			bh=$(( (prev_b * last_s - last_b * prev_s) / det ))
			bs=$(( (prev_h * last_b - last_h * prev_b) / det ))
			if [ "$bh" -gt 0 ] && [ "$bs" -gt 0 ]; then
				echo $(( (h * bh + s * bs) * 21 / 20 ))
				return
			fi
		fi
	fi
	echo $(( (h + s) * bpn * 6 / 5 ))
}

deadline=$(( $(ms) + BUDGET_S * 1000 ))
settle
avail_start=$(meminfo MemAvailable)
for pods in ${IBTRACE_BENCH_PODS:-1 4 8 16 24 32}; do
	args="shape=3 radix=48 leaves=24 hcas=24 spines=24 tops=576 pods=$pods"
	# shellcheck disable=SC2086
	"$GEN" $args > "$W/big" || break
	nodes=$(grep -Ec '^(Switch|Hca)[[:space:]]' "$W/big")
	hcas=$(grep -c '^Hca' "$W/big")
	settle
	avail0=$(meminfo MemAvailable)
	slab0=$(meminfo Slab)
	if [ "$bpn" -gt 0 ] &&
	   [ $(( $(predict "$hcas" $(( nodes - hcas ))) / 1024 )) -gt \
	     $(( avail0 - RESERVE_MB * 1024 )) ]; then
		printf '%6s %7s %6s %9s %11s %13s %13s %8s\n' "$pods" "$nodes" "$hcas" \
			- $((avail0 / 1024)) - - "too big"
		break
	fi
	# Building and deleting take about as long as each other.
	if [ $(( $(ms) + 2 * nodes * ms_per_node )) -gt "$deadline" ]; then
		printf '%6s %7s %6s %9s %11s %13s %13s %8s\n' "$pods" "$nodes" "$hcas" \
			"~$(( nodes * ms_per_node / 1000 ))" - - - "no time"
		break
	fi
	t0=$(ms)
	"$SIM_CTL" add big "$W/big" no-sm > "$W/add.out" 2>&1
	rc=$?
	t1=$(ms)
	if [ "$rc" -ne 0 ]; then
		printf '%6s %7s %6s %9s %11s %13s %13s %8s\n' "$pods" "$nodes" "$hcas" \
			$(( (t1 - t0) / 1000 )) - - - "failed"
		sed 's/^/#   /' "$W/add.out" | head -3
		"$SIM_CTL" del big >/dev/null 2>&1
		break
	fi
	settle
	avail1=$(meminfo MemAvailable)
	slab1=$(meminfo Slab)
	bpn=$(( (avail0 - avail1) * 1024 / nodes ))
	prev_h=$last_h prev_s=$last_s prev_b=$last_b
	last_h=$hcas last_s=$(( nodes - hcas )) last_b=$(( (avail0 - avail1) * 1024 ))
	printf '%6s %7s %6s %9s %11s %13s %13s %8s\n' "$pods" "$nodes" "$hcas" \
		$(( (t1 - t0) / 1000 )) $((avail1 / 1024)) "$bpn" \
		$(( (slab1 - slab0) * 1024 / nodes )) ok
	best_nodes=$nodes best_bpn=$bpn
	ms_per_node=$(( (t1 - t0) / nodes + 1 ))
	t0=$(ms)
	"$SIM_CTL" del big >/dev/null
	t1=$(ms)
	echo "#   deleted in $(( (t1 - t0) / 1000 )) s"
	[ "$nodes" -lt "$MAX_NODES" ] || break
done
echo "largest fat tree built: $best_nodes nodes, $best_bpn bytes per node" \
	"($(( best_nodes * best_bpn / 1048576 )) MiB)"
[ "$best_bpn" -gt 0 ] &&
	echo "at that rate the $(( avail_start / 1024 )) MiB available at the start hold" \
		"about $(( (avail_start - RESERVE_MB * 1024) * 1024 / best_bpn )) nodes" \
		"(keeping $RESERVE_MB MiB free)"

if [ "$prev_b" -gt 0 ]; then
	det=$(( prev_h * last_s - last_h * prev_s ))
	[ "$det" -ne 0 ] &&
		echo "the last two trees give $(( (prev_b * last_s - last_b * prev_s) / det ))" \
			"bytes per HCA and $(( (prev_h * last_b - last_h * prev_b) / det ))" \
			"per switch"
fi

rmmod ibtrace_sim
