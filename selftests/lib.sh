#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Shared helpers of the ibtrace selftests: KTAP subtest output, the
# kernel-log gate, prerequisites, a scratch directory with its cleanup,
# loading the modules, ibtrace_sim fabrics (the topologies several tests
# share are in topo/), OpenSM, the peer VM, rxe devices, test runs and the
# ibtrace server, and trace paths.
#
# A test script sources this file, calls its checks, and ends with
# ibt_done, which prints the plan and exits 0 (all passed), 1 (a check
# failed or the kernel log shows an oops/WARN/BUG) or 4 (skipped).

ksft_skip=4

IBT_TEST=$(basename "$0" .sh)
IBT_DIR=$(cd "$(dirname "$0")" && pwd)
IBT_ROOT=${IBTRACE_ROOT:-$(cd "$IBT_DIR/.." && pwd)}
IBTRACECTL=${IBTRACECTL:-$IBT_ROOT/tool/ibtracectl}
IBT_MAD=${IBT_MAD:-$IBT_DIR/ibtrace_mad}
IBT_NLRAW=${IBT_NLRAW:-$IBT_DIR/ibtrace_nlraw}
IBT_RNR_CM=${IBT_RNR_CM:-$IBT_DIR/ibtrace_rnr_cm}
IBT_NETDEV=${IBTRACE_NETDEV:-eth0}

ibt_n=0
ibt_failed=0
ibt_passed=0

# Kernel-log lines that fail a test whatever else happened; the last one is
# ibt_kmsg_since's own, for a log that overflowed during the test.
IBT_BAD_LOG='(Oops|BUG:|WARNING:|refcount_t|list_(add|del) corruption|general protection fault|blocked for more than|rcu: INFO: .*stall|Kernel panic|UBSAN|KASAN|kernel BUG|unreferenced object|ibtrace-selftest: lost)'

ibt_kmsg_marked=0
ibt_kmsg_mark()
{
	echo "ibtrace-selftest: begin $IBT_TEST $$" > /dev/kmsg 2>/dev/null &&
		ibt_kmsg_marked=1
}

# Lines logged since this test began. The kernel's ring buffer drops its
# oldest lines first, so a marker that is gone means the test logged more
# than the buffer holds: every line left is the test's, but a report may
# have been dropped, and the line added to say so fails the test
# (IBT_BAD_LOG). A test that could not write its marker (not root) gets
# nothing.
ibt_kmsg_since()
{
	dmesg 2>/dev/null | awk -v m="ibtrace-selftest: begin $IBT_TEST $$" \
		-v marked="$ibt_kmsg_marked" \
		'index($0, m) { keep = 1; next }
		 keep { print; next }
		 { all[n++] = $0 }
		 END {
			if (keep || !marked || !n)
				exit
			print "ibtrace-selftest: lost the begin marker: the kernel log overflowed during the test, so a report may be lost"
			for (i = 0; i < n; i++)
				print all[i]
		 }'
}

echo "TAP version 13"
ibt_kmsg_mark

# IBTRACE_TIMES=1: each result is preceded by the seconds since the one
# before ("# +2.5 s"), to see where a suite's time goes.
ibt_t0=${EPOCHREALTIME//[!0-9]/}
ibt_time()
{
	local now us

	[ "${IBTRACE_TIMES:-0}" = 1 ] || return 0
	now=${EPOCHREALTIME//[!0-9]/}
	us=$((now - ibt_t0))
	ibt_t0=$now
	printf '# +%d.%d s\n' $((us / 1000000)) $((us / 100000 % 10))
}

# ok DESCRIPTION / not ok DESCRIPTION [DETAIL...]
ibt_ok()
{
	ibt_time
	ibt_n=$((ibt_n + 1))
	ibt_passed=$((ibt_passed + 1))
	echo "ok $ibt_n - $1"
}

ibt_fail()
{
	local desc=$1

	shift
	ibt_time
	ibt_n=$((ibt_n + 1))
	ibt_failed=$((ibt_failed + 1))
	echo "not ok $ibt_n - $desc"
	[ $# -gt 0 ] && printf '# %s\n' "$@"
	# a log cut to the failure still tells how to replay it
	[ -n "${IBT_SEED:-}" ] &&
		echo "# seed $IBT_SEED (IBTRACE_SEED=$IBT_SEED replays this run)"
	return 0
}

ibt_skip_one()
{
	ibt_time
	ibt_n=$((ibt_n + 1))
	echo "ok $ibt_n - $1 # SKIP $2"
}

# Is this the debug kernel of make check-debug (kmemleak on)? There KASAN's
# quarantine keeps freed objects in Slab and kmemleak's records live there:
# memory margins are not judged; kmemleak's scan at the end judges leaks.
IBT_DEBUG_KERNEL_MEM="a debug kernel (kmemleak on): freed objects stay in KASAN's quarantine; kmemleak judges leaks"
ibt_debug_kernel() { [ -e /sys/kernel/debug/kmemleak ]; }

# Is a slow variant asked for? make check runs every test at its quick
# variant (its time on two cores without KVM is bounded); IBTRACE_SLOW=1
# adds the long ones (README, "Slow variants").
ibt_slow() { [ "${IBTRACE_SLOW:-0}" = 1 ]; }

# Skip the whole test with a reason (kselftest exit code 4).
ibt_skip_all()
{
	echo "1..0 # SKIP $*"
	exit $ksft_skip
}

# ibt_check DESCRIPTION COMMAND... : passes when COMMAND succeeds.
ibt_check()
{
	local desc=$1 out

	shift
	if out=$("$@" 2>&1); then
		ibt_ok "$desc"
	else
		ibt_fail "$desc" "command: $*" "${out:-(no output)}"
	fi
}

# ibt_expect DESCRIPTION EXPECTED ACTUAL
ibt_expect()
{
	if [ "$2" = "$3" ]; then
		ibt_ok "$1"
	else
		ibt_fail "$1" "expected: $2" "actual:   $3"
	fi
}

# ibt_match DESCRIPTION REGEX TEXT
ibt_match()
{
	if printf '%s\n' "$3" | grep -Eq -- "$2"; then
		ibt_ok "$1"
	else
		ibt_fail "$1" "expected to match: $2" "actual: $3"
	fi
}

# Taint bits other than O (4096, out-of-tree) and E (8192, unsigned).
ibt_bad_taint()
{
	local t

	t=$(cat /proc/sys/kernel/tainted 2>/dev/null) || return 1
	[ $((t & ~(4096 | 8192))) -ne 0 ] && echo "$t"
}

ibt_done()
{
	local bad taint

	bad=$(ibt_kmsg_since | grep -E "$IBT_BAD_LOG")
	taint=$(ibt_bad_taint)
	if [ -n "$bad" ] || [ -n "$taint" ]; then
		ibt_fail "kernel log clean during $IBT_TEST" "$bad" \
			${taint:+"unexpected taint: $taint"}
	else
		ibt_ok "kernel log clean during $IBT_TEST"
	fi
	echo "1..$ibt_n"
	[ "$ibt_failed" -eq 0 ] || exit 1
	exit 0
}

# Prerequisites -------------------------------------------------------------

ibt_require_root()
{
	[ "$(id -u)" -eq 0 ] || ibt_skip_all "needs root"
}

# ibt_require_file PATH...: skip unless each exists (the first missing named)
ibt_require_file()
{
	local f

	for f; do
		[ -e "$f" ] || ibt_skip_all "$f not found (run make)"
	done
}

# ibt_require_cmd COMMAND...: skip unless each is installed
ibt_require_cmd()
{
	local c

	for c; do
		command -v "$c" >/dev/null 2>&1 || ibt_skip_all "$c not installed"
	done
}

# ibt_require_modules MODULE...: modprobe each, or skip naming them all
# ("ib_core/ib_umad not available")
ibt_require_modules()
{
	local m

	for m; do
		modprobe "$m" || ibt_skip_all "$(IFS=/; echo "$*") not available"
	done
}

# ibt_require_debugfs: debugfs mounted on /sys/kernel/debug, or skip
ibt_require_debugfs()
{
	mountpoint -q /sys/kernel/debug && return 0
	mount -t debugfs none /sys/kernel/debug 2>/dev/null ||
		ibt_skip_all "debugfs cannot be mounted"
}

# ibt_require_count NAME VALUE: skip unless VALUE (of the environment
# variable NAME) is a positive whole number
ibt_require_count()
{
	case $2 in
	'' | *[!0-9]* | 0) ibt_skip_all "$1=\"$2\" is not a positive number" ;;
	esac
}

# ibt_require_number NAME VALUE: the same, 0 allowed
ibt_require_number()
{
	case $2 in
	'' | *[!0-9]*) ibt_skip_all "$1=\"$2\" is not a number" ;;
	esac
}

# ibt_unpriv ARGS...: ibtracectl ARGS as user nobody (its exit status)
ibt_unpriv()
{
	setpriv --reuid=65534 --regid=65534 --clear-groups "$IBTRACECTL" "$@"
}

# Scratch directory and cleanup ----------------------------------------------

IBT_BG_PIDS=()
IBT_AT_EXIT=()

# ibt_tmpdir: a private directory $TMP (/tmp/TEST.XXXXXX), removed at exit
# after the processes of IBT_BG_PIDS are killed (SIGKILL) and the
# commands given to ibt_at_exit have run, in their order.
ibt_tmpdir()
{
	TMP=$(mktemp -d "/tmp/$IBT_TEST.XXXXXX")
	trap ibt_cleanup EXIT
}

# ibt_at_exit COMMAND: run COMMAND (a shell string) at exit
ibt_at_exit()
{
	IBT_AT_EXIT+=("$1")
}

ibt_cleanup()
{
	local p c

	for p in "${IBT_BG_PIDS[@]}"; do
		kill -9 "$p" 2>/dev/null
	done
	for c in "${IBT_AT_EXIT[@]}"; do
		eval "$c"
	done
	[ -n "$TMP" ] && rm -rf "$TMP"
}

# ibt_wait_for SECONDS COMMAND...: poll every 0.1 s until COMMAND succeeds
ibt_wait_for()
{
	local n=$(($1 * 10))

	shift
	while [ "$n" -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

# Modules -------------------------------------------------------------------

IBT_KO=${IBTRACE_KO:-$IBT_ROOT/kmod/ibtrace/ibtrace.ko}

# Load the module under test (the one built in this tree) with its
# dependencies; idempotent.
ibt_modprobe_ibtrace()
{
	ibt_loaded && return 0
	modprobe ib_core && modprobe ib_umad && modprobe rdma_cm && insmod "$IBT_KO"
}

ibt_unload_ibtrace()
{
	rmmod ibtrace
}

ibt_loaded()
{
	[ -d /sys/module/ibtrace ]
}

# ibtrace_sim ----------------------------------------------------------------

SIM_KO=${IBTRACE_SIM_KO:-$IBT_ROOT/kmod/sim/ibtrace_sim.ko}
# (these three are for the tests that source this file)
# shellcheck disable=SC2034
SIM_CTL=${IBTRACE_SIM_CTL:-$IBT_DIR/ibtrace_sim_ctl}
# shellcheck disable=SC2034
SIM_SMP=${IBTRACE_SIM_SMP:-$IBT_DIR/ibtrace_sim_smp}
# Topologies used by several tests (ibnetdiscover/ibsim text):
#   two_hcas.topo     HcaA - HcaB, back to back
#   s1s2.topo         HCA A - switch S1 - switch S2 - HCA B, HCA C on S1;
#                     the switches first (node 0, debugfs 0-S1, is S1)
#   s1s2_a_first.topo the same fabric, A first (node 0: SM-lite's HCA)
#   fz.topo           HCAs H1 (node 0), H2, H3, H4 (two ports each on H1
#                     and H4), switches S1, S2 (parallel links), S3
#   a_s1s2_b.topo     HCA A - switch S1 - switch S2 - HCA B, A first
# shellcheck disable=SC2034
IBT_TOPO=$IBT_DIR/topo

# ibt_sim_load: ibtrace_sim inserted anew (the check "insmod ibtrace_sim")
ibt_sim_load()
{
	rmmod ibtrace_sim 2>/dev/null
	ibt_check "insmod ibtrace_sim" insmod "$SIM_KO"
}

# ibt_sim_load_ibtrace DESCRIPTION: ibtrace removed, ibtrace_sim inserted
# anew, then ibtrace loaded (a check of DESCRIPTION)
ibt_sim_load_ibtrace()
{
	rmmod ibtrace 2>/dev/null
	ibt_sim_load
	ibt_check "$1" ibt_modprobe_ibtrace
}

# ibt_insmod_sim_ibtrace: ib_core, ib_umad, ibtrace_sim and ibtrace loaded,
# without a check (the benchmarks); fails when one does not load
ibt_insmod_sim_ibtrace()
{
	modprobe ib_core && modprobe ib_umad && insmod "$SIM_KO" &&
		ibt_modprobe_ibtrace
}

# ibt_sim_pair_up NAME: fabric NAME of two_hcas.topo (the checkout's, for
# the benches too) without an SM, brought up by hand from ibtsim0 as an SM
# would: LIDs 1 and 2, both ports Armed, then Active. Returns non-zero if
# a step fails.
ibt_sim_pair_up()
{
	local args

	"$IBT_ROOT/selftests/ibtrace_sim_ctl" add "$1" \
		"$IBT_ROOT/selftests/topo/two_hcas.topo" no-sm >/dev/null || return
	for args in "-D 0 1 lid 1" "-D 0,1 1 lid 2" "-D 0 1 arm" "-D 0,1 1 arm" \
		    "1 1 active" "2 1 active"; do
		# shellcheck disable=SC2086
		ibportstate -C ibtsim0 -P 1 -t 500 $args >/dev/null || return
	done
}

# ibt_sim_json FABRIC: FABRIC's object of "ibtracectl -j sim show", one line
ibt_sim_json()
{
	"$IBTRACECTL" -j sim show "$1" | jq -c '.[0]'
}

# A fabric's nodes, from J=$(ibt_sim_json FABRIC):
# ibt_sim_node NAME FILTER: jq's FILTER applied to node NAME of $J
ibt_sim_node()
{
	jq -r --arg n "$1" ".nodes[] | select(.name == \$n) | $2" <<< "$J"
}

# ibt_sim_dev NAME: node NAME's RDMA device
ibt_sim_dev()
{
	ibt_sim_node "$1" .dev
}

# ibt_sim_lid NAME [PORT]: the LID of node NAME's port PORT in $J; without
# PORT, of its first port (an HCA's port 1, a switch's port 0)
ibt_sim_lid()
{
	if [ $# -gt 1 ]; then
		ibt_sim_node "$1" ".ports[] | select(.port == $2) | .lid"
	else
		ibt_sim_node "$1" '.ports[0].lid'
	fi
}

# ibt_simctl_dev NAME: node NAME's RDMA device in $nodes (the output of
# "ibtrace_sim_ctl nodes FABRIC")
# shellcheck disable=SC2154	# $nodes is the caller's
ibt_simctl_dev()
{
	sed -n "s/.*name \"$1\".* dev \([^ ]*\) .*/\1/p" <<< "$nodes"
}

# ibt_sim_active FABRIC: is every linked port of FABRIC Active?
ibt_sim_active()
{
	[ "$(ibt_sim_json "$1" | jq '[.nodes[].ports[] | select(.peer != null and .state != "ACTIVE")] | length')" = 0 ]
}

# ibt_sim_credit DIR PORT VL FIELD: FIELD (fctbs, fccl, abr, used, buf,
# queued) of data VL VL in the credits file of port PORT of the node
# whose debugfs directory is DIR; nothing if there is none
ibt_sim_credit()
{
	awk -v vl="$3" -v f="$4" '$1 == "vl" && $2 == vl {
		for (i = 3; i < NF; i++) if ($i == f) print $(i + 1) }' \
		"$1/port$2/credits" 2>/dev/null
}

# ibt_sim_wait_active FABRIC: wait up to 10 s for SM-lite to bring every
# linked port of FABRIC Active
ibt_sim_wait_active()
{
	ibt_wait_for 10 ibt_sim_active "$1"
}

# ibt_sim_capture OUT ERR ARGS...: start "ibtracectl ARGS" (a sim capture)
# in the background, its standard output to OUT and standard error to ERR
# (the same file if ERR is OUT), and wait up to 10 s for the kernel to have
# started it (its "capturing at" line); the pid in IBT_CAP_PID. 1 if it
# ended or never started.
ibt_sim_capture()
{
	local out=$1 err=$2 end=$((SECONDS + 10))

	shift 2
	if [ "$err" = "$out" ]; then
		"$IBTRACECTL" "$@" > "$out" 2>&1 &
	else
		"$IBTRACECTL" "$@" > "$out" 2> "$err" &
	fi
	IBT_CAP_PID=$!
	while [ "$SECONDS" -le "$end" ]; do
		grep -q '^capturing at ' "$err" 2>/dev/null && return 0
		kill -0 "$IBT_CAP_PID" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# ibt_sim_devs: the sim's RDMA devices ("ibtsim0 ibtsim1 "), to check
# that none is left
ibt_sim_devs()
{
	local d

	for d in /sys/class/infiniband/*; do
		case ${d##*/} in
		ibtsim[0-9]*) printf '%s ' "${d##*/}" ;;
		esac
	done
}

# ibt_opensm_once DIR SECONDS GUID LOG [ARGS...]: one sweep of OpenSM
# (opensm -o) bound to port GUID, at most SECONDS long, with DIR (created)
# as its cache and dump directory: a cache left by a run on another fabric
# would be reported as errors. ARGS are more of OpenSM's options. It
# writes LOG through a buffer: read it once this returned. Its output goes
# to stdout and stderr.
ibt_opensm_once()
{
	mkdir -p "$1"
	OSM_CACHE_DIR=$1 OSM_TMP_DIR=$1 timeout "$2" opensm -o -g "$3" -f "$4" \
		"${@:5}"
}

# ibt_osm_qos_conf FILE CA_SL2VL SWE_SL2VL [HIGH LOW LIMIT]: an OpenSM
# configuration (opensm -F FILE) with QoS and no policy file: up to 8 data
# VLs; SLtoVL tables (16 VLs, comma-separated) CA_SL2VL for HCAs and
# switch port 0 and SWE_SL2VL for switches' external ports; when given, the
# VL arbitration tables HIGH and LOW ("VL:weight,...") and VLHighLimit
# LIMIT for every kind of port. OpenSM's first sweep masks a switch's SLtoVL
# tables with the OperationalVLs from before it set them: sweep twice.
ibt_osm_qos_conf()
{
	local t

	{
		echo "qos TRUE"
		echo "qos_policy_file ${1%/*}/no-policy"
		echo "qos_max_vls 8"
		echo "qos_ca_sl2vl $2"
		echo "qos_swe_sl2vl $3"
		echo "qos_sw0_sl2vl $2"
		if [ $# -ge 6 ]; then
			for t in "" ca_ swe_ sw0_; do
				echo "qos_${t}vlarb_high $4"
				echo "qos_${t}vlarb_low $5"
				echo "qos_${t}high_limit $6"
			done
		fi
	} > "$1"
}

# ibt_sim_stat FABRIC FIELD: a value of the fabric's debugfs stats ("sent",
# "in_flight", "dropped_link_loss"...); a drop reason not counted yet has no
# line: 0
ibt_sim_stat()
{
	awk -v f="$2" '$1 == f { v = $2 } END { print v + 0 }' \
		"/sys/kernel/debug/ibtrace_sim/$1/stats"
}

# SL n on VL n (SL 8-15 on VL 0-7): an SLtoVL table for ibt_osm_qos_conf
IBT_SL2VL_IDENT=0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,7

# ibt_mad_events 1|0: ib_mad's trace events of a send posted, a receive
# and a send completed on (the trace cleared first, 16 MiB a CPU) or off.
# Non-zero without tracefs.
ibt_mad_events()
{
	local t=/sys/kernel/tracing e

	[ -d "$t/events" ] || mount -t tracefs nodev "$t" 2>/dev/null
	[ -d "$t/events/ib_mad" ] || return 1
	if (($1)); then
		echo 16384 > "$t/buffer_size_kb" && echo > "$t/trace" || return 1
	fi
	for e in ib_mad_ib_send_mad ib_mad_recv_done_handler ib_mad_send_done_handler; do
		echo "$1" > "$t/events/ib_mad/$e/enable" || return 1
	done
}

# The peer VM (vm-run --vms 2 --peer-cmd selftests/peer.sh) ----------------

# ibt_wait_shared FILE SECONDS: wait up to SECONDS for FILE to appear in
# the directory both VMs share (one VM's signal to the other).
ibt_wait_shared()
{
	local i

	[ -n "$VMRUN_SHARED" ] || return 1
	for i in $(seq $(($2 * 10))); do
		[ -e "$VMRUN_SHARED/$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# Wait up to 60 s for the peer to say it is ready.
ibt_wait_peer()
{
	ibt_wait_shared peer-ready 60
}

# ibt_peer_run CMD: run the shell command CMD on the peer (as root, with
# $IBTRACECTL set, at most 120 s) and print its output; its exit status,
# or 124 when the peer did not answer within 150 s.
ibt_peer_run()
{
	local f i

	[ -n "$VMRUN_SHARED" ] || return 124
	f=$VMRUN_SHARED/cmd.$$$RANDOM
	printf '%s\n' "$1" > "$f.tmp" && mv "$f.tmp" "$f" || return 124
	for i in $(seq 1500); do
		if [ -e "$f.rc" ]; then
			cat "$f.out"
			i=$(cat "$f.rc")
			rm -f "$f.out" "$f.rc"
			return "$i"
		fi
		sleep 0.1
	done
	rm -f "$f"
	return 124
}

# ibt_peer_mode WHAT: with a peer VM ready, "# peer mode: WHAT" printed and
# $peer its link-local GID; else the check "peer mode" skipped and false
# (the test then cleans up and ends).
ibt_peer_mode()
{
	if [ -z "${VMRUN_PEER_MAC:-}" ] || ! ibt_wait_peer; then
		ibt_skip_one "peer mode" "no peer host (run under vm-run --vms 2 with selftests/peer.sh)"
		return 1
	fi
	echo "# peer mode: $1"
	# shellcheck disable=SC2034	# for the caller
	peer=$(ibt_ll_gid_of_mac "$VMRUN_PEER_MAC")
}

# rxe -----------------------------------------------------------------------

# ibt_rxe_add NAME: an rxe device on the test NIC, waiting for its GID 0.
ibt_rxe_add()
{
	local name=$1 i

	modprobe rdma_rxe || return 1
	ip link set "$IBT_NETDEV" up
	rdma link add "$name" type rxe netdev "$IBT_NETDEV" || return 1
	for i in $(seq 100); do
		ibt_gid0 "$name" >/dev/null && return 0
		sleep 0.1
	done
	echo "no GID on $name" >&2
	return 1
}

ibt_rxe_del()
{
	rdma link delete "$1"
}

# ibt_now_ms: the wall clock in ms.
ibt_now_ms() { echo $(($(date +%s%N) / 1000000)); }

# ibt_avail_kb: MemAvailable, KiB
ibt_avail_kb() { awk '/^MemAvailable:/ { print $2 }' /proc/meminfo; }

# ibt_min_avail FILE CMD...: CMD run while MemAvailable is sampled every
# 0.2 s; the lowest value seen (KiB) goes into FILE. Returns CMD's status.
ibt_min_avail()
{
	local file=$1 pid min a rc

	shift
	"$@" &
	pid=$!
	min=$(ibt_avail_kb)
	while kill -0 "$pid" 2>/dev/null; do
		a=$(ibt_avail_kb)
		[ "$a" -lt "$min" ] && min=$a
		sleep 0.2
	done
	wait "$pid"
	rc=$?
	echo "$min" > "$file"
	return "$rc"
}

# ibt_timed_check DESCRIPTION WHAT COMMAND...: ibt_check, then a comment
# line saying how long COMMAND (WHAT) took.
ibt_timed_check()
{
	local desc=$1 what=$2 t0

	shift 2
	t0=$(ibt_now_ms)
	ibt_check "$desc" "$@"
	echo "# $what took $(($(ibt_now_ms) - t0)) ms"
}

# ibt_rxe_del_mid WHEN [REASON]: rxe0 deleted while the caller's test job
# runs (WHEN: "mid-run"...): the job has ended in error once the delete
# returned, its reason matching the regex REASON when given; rxe0 back.
ibt_rxe_del_mid()
{
	ibt_timed_check "rxe0 deleted in $1" "rdma link delete" ibt_rxe_del rxe0
	ibt_expect "  the job ended: error" "finished error" \
		"$(ibt_test_state '"\(.state) \(.verdict)"')"
	[ -z "${2:-}" ] || ibt_match "  reason" "$2" "$(ibt_test_state .reason)"
	ibt_check "rxe0 again" ibt_rxe_add rxe0
}

# ibt_gid0 DEV: GID 0 of port 1, failing while it is still all zeros.
ibt_gid0()
{
	local gid

	gid=$(cat "/sys/class/infiniband/$1/ports/1/gids/0" 2>/dev/null) ||
		return 1
	[ -n "$gid" ] && [ "$gid" != "0000:0000:0000:0000:0000:0000:0000:0000" ] ||
		return 1
	echo "$gid"
}

# A GID in the exploded form sysfs uses.
ibt_gid_exploded()
{
	python3 -c 'import ipaddress, sys; print(ipaddress.IPv6Address(sys.argv[1]).exploded)' "$1"
}

# The MAC-derived (EUI-64) link-local GID of an interface MAC.
ibt_ll_gid_of_mac()
{
	local m

	IFS=: read -r -a m <<< "$1"
	printf 'fe80::%02x%s:%sff:fe%s:%s%s\n' $((0x${m[0]} ^ 2)) "${m[1]}" \
		"${m[2]}" "${m[3]}" "${m[4]}" "${m[5]}" |
		sed -E 's/:0+([0-9a-f])/:\1/g'
}

# ibt_load_rxe0: the check "ibtrace loads", then rxe0 on the test NIC; when
# it cannot be added (a test before left one), the check "rxe0 present".
ibt_load_rxe0()
{
	ibt_check "ibtrace loads" ibt_modprobe_ibtrace
	ibt_rxe_add rxe0 >/dev/null 2>&1 ||
		ibt_check "rxe0 present" test -d /sys/class/infiniband/rxe0
}

# ibt_self_gid: this host's link-local address on the test NIC, the GID by
# which its own ibtrace server is reached over rxe0 (rxe loops back).
ibt_self_gid()
{
	ip -6 -o addr show dev "$IBT_NETDEV" scope link | awk '{ print $4 }' |
		cut -d/ -f1 | head -n 1
}

# ibt_res_counts: what rxe0's resource tracking holds, by kind (the summary
# line of "rdma resource show" without its "N: rxe0: ").
ibt_res_counts()
{
	rdma resource show rxe0 2>/dev/null | sed 's/^[0-9]*: rxe0: //'
}

# ibt_res_back_to COUNTS: rxe0 holds COUNTS (ibt_res_counts) again.
ibt_res_back_to()
{
	[ "$(ibt_res_counts)" = "$1" ]
}

# ibt_rc_qps: the RC QPs on rxe0 (the module's are kernel QPs of type RC;
# QP0 and QP1 are not).
ibt_rc_qps()
{
	rdma resource show qp link rxe0/1 2>/dev/null | grep -c 'type RC'
}

# ibt_rc_qps_at_least N: rxe0 has N RC QPs or more.
ibt_rc_qps_at_least()
{
	[ "$(ibt_rc_qps)" -ge "$1" ]
}

# ibt_rc_qps_none: rxe0 has no RC QP.
ibt_rc_qps_none()
{
	[ "$(ibt_rc_qps)" = 0 ]
}

# Test runs and the ibtrace server -------------------------------------------

# ibt_jr FILTER: jq -r FILTER of $js (the caller's: a run's JSON), nothing
# when $js is not JSON.
# shellcheck disable=SC2154	# $js is the caller's
ibt_jr()
{
	jq -r "$1" <<< "$js" 2>/dev/null
}

# ibt_uapi NAME: the value of enumerator NAME of enum ibtrace_cmd or
# ibtrace_attr in the uAPI header (commands and attributes are numbered by
# their place, which a merge may change), for ibtrace_nlraw.
ibt_uapi()
{
	awk -v n="$1" '/^enum ibtrace_(cmd|attr) \{/ { f = 1; v = 0; next }
	f && /^\}/ { f = 0 } f && $1 == n "," { print v } f && /^\t[A-Z_]+,$/ { v++ }' \
		"$IBT_ROOT/uapi/linux/ibtrace.h"
}

# ibt_test_run_raw TEST ARG...: ibtrace_nlraw sends a TEST_RUN of TEST on
# rxe0 with the attributes ARG (NUMBER=TYPE:VALUE) unchecked; its output
# (the kernel's errname=, bad_attr_type=, msg= lines)
ibt_test_run_raw()
{
	local test=$1

	shift
	"$IBT_NLRAW" "$(ibt_uapi IBTRACE_CMD_TEST_RUN)" \
		"$(ibt_uapi IBTRACE_A_DEV_NAME)=str:rxe0" \
		"$(ibt_uapi IBTRACE_A_TEST_NAME)=str:$test" "$@" 2>&1
}

# ibt_test_bad_attrs TEST NAME=TYPE:VALUE...: for each, the check that the
# kernel refuses a TEST_RUN of TEST whose attribute NAME (the uAPI's
# enumerator) has that value, naming the attribute
ibt_test_bad_attrs()
{
	local test=$1 bad a

	shift
	for bad; do
		a=$(ibt_uapi "${bad%%=*}")
		ibt_match "raw ${bad%%=*} ${bad#*=}: refused, naming the attribute" \
			"^bad_attr_type=$a\$" "$(ibt_test_run_raw "$test" "$a=${bad#*=}")"
	done
}

# A detached test job, $job (the caller's: "test run ... --detach"):
# ibt_test_state FILTER: jq -r FILTER of its "test show", nothing once gone
# shellcheck disable=SC2154	# $job is the caller's
ibt_test_state()
{
	"$IBTRACECTL" -j test show "$job" 2>/dev/null | jq -r "$1"
}

# ibt_test_finished: it has finished (ibt_wait_for SECONDS ibt_test_finished)
ibt_test_finished()
{
	[ "$(ibt_test_state .state)" = finished ]
}

# ibt_srv ARGS...: ibtracectl -j server ARGS; $js its JSON, $rc its exit
# status, $TMP/srv.err its stderr.
ibt_srv()
{
	js=$("$IBTRACECTL" -j server "$@" 2>"$TMP/srv.err")
	# shellcheck disable=SC2034	# for the caller
	rc=$?
}

# ibt_srv_conns N: this host's server holds N connections.
ibt_srv_conns()
{
	[ "$("$IBTRACECTL" -j server show 2>/dev/null | jq -r .conns)" = "$1" ]
}

# ibt_test_cancel_served BASE: the checks of "test cancel" of $job, a run
# against this host's server: it is cancelled, finishes within 30 s with
# verdict error, reason cancelled (the time it took printed), the server
# lets its connection go and rxe0 holds BASE again, each within 15 s.
ibt_test_cancel_served()
{
	local t0

	t0=$(ibt_now_ms)
	ibt_check "  cancelled" "$IBTRACECTL" test cancel "$job"
	ibt_check "  it finishes" ibt_wait_for 30 ibt_test_finished
	echo "# cancel to finished: $(($(ibt_now_ms) - t0)) ms"
	ibt_expect "  verdict error, reason cancelled" "error cancelled" \
		"$(ibt_test_state '"\(.verdict) \(.reason)"' | sed 's/ (.*//')"
	ibt_check "  the server let its connection go" ibt_wait_for 15 ibt_srv_conns 0
	ibt_check "  rdma resource: nothing left" ibt_wait_for 15 ibt_res_back_to "$1"
}

# Paths of a trace, to compare ibtracectl with ibtracert ----------------------

# ibt_rert_path CA PORT SLID DLID: ibtracert's path as "node_guid in out
# lid" lines, parsed from its text
ibt_rert_path()
{
	ibtracert -C "$1" -P "$2" -t 300 "$3" "$4" 2>&1 | awk '
	function g(s) { match(s, /\{0x[0-9a-f]+\}/); return substr(s, RSTART + 1, RLENGTH - 2) }
	function l(s) { match(s, / lid [0-9]+/); return substr(s, RSTART + 5, RLENGTH - 5) }
	/^From / { guid = g($0); inp = ""; lid = l($0); next }
	/^\[[0-9]+\] -> / {
		match($0, /^\[[0-9]+\]/); out = substr($0, 2, RLENGTH - 2)
		print guid, inp, out, lid
		guid = g($0); match($0, /\}\[[0-9]+\]/)
		inp = substr($0, RSTART + 2, RLENGTH - 3); lid = l($0); next
	}
	/^To / { print guid, inp, "", lid }'
}

# ibt_trace_path < JSON: the same from an "ibtracectl -j trace" document;
# ibtracert names the source by its node GUID and the other hops by the
# GUID of the port entered (IBT_TRACE_PATH_JQ: its jq filter)
IBT_TRACE_PATH_JQ='.hops[] | "\(if .hop == 0 then .node_guid else .port_guid end) \(.in_port // "") \(.out_port // "") \(.lid)"'
ibt_trace_path()
{
	jq -r "$IBT_TRACE_PATH_JQ"
}

# ibt_rert_mc_path CA MLID SLID DLID: ibtracert -m's path from port 1 of
# CA as "node_guid in out lid" lines, parsed from its multicast text
# ("From ca 0xGUID port P lid A-B", "[OUT] -> switch 0xGUID[IN] lid L",
# "To ..."; GUIDs not zero-padded there)
ibt_rert_mc_path()
{
	ibtracert -C "$1" -P 1 -t 300 -m "$2" "$3" "$4" 2>/dev/null | awk '
	function g(s,  h) {
		match(s, / 0x[0-9a-f]+/); h = substr(s, RSTART + 3, RLENGTH - 3)
		while (length(h) < 16) h = "0" h
		return "0x" h
	}
	function l(s) { match(s, / lid [0-9]+/); return substr(s, RSTART + 5, RLENGTH - 5) }
	/^From / { guid = g($0); inp = ""; lid = l($0); next }
	/^\[[0-9]+\] -> / {
		match($0, /^\[[0-9]+\]/); out = substr($0, 2, RLENGTH - 2)
		print guid, inp, out, lid
		guid = g($0); match($0, /0x[0-9a-f]+\[[0-9]+\]/)
		t = substr($0, RSTART, RLENGTH); sub(/.*\[/, "", t); sub(/\]/, "", t)
		inp = t; lid = l($0); next
	}
	/^To / { print guid, inp, "", lid }'
}

# ibt_trace_mc_path < JSON: the same from "ibtracectl -j trace --mlid"
ibt_trace_mc_path()
{
	jq -r '.hops[] | "\(.node_guid) \(.in_port // "") \(.out_port // "") \(.lid)"'
}

# ibt_seed: the seed of this run's random decisions (a fabric's losses:
# "sim add --seed"), from $IBTRACE_SEED, else picked here; printed, so
# that IBTRACE_SEED=N replays a run. Sets IBT_SEED.
ibt_seed()
{
	IBT_SEED=${IBTRACE_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
	case $IBT_SEED in
	'' | *[!0-9]*) ibt_skip_all "IBTRACE_SEED=\"$IBT_SEED\" is not a number" ;;
	esac
	echo "# seed $IBT_SEED (IBTRACE_SEED=$IBT_SEED replays this run)"
}
