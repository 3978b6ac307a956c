#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Shared helpers of the ibtrace selftests: KTAP subtest output, the
# kernel-log gate, loading the modules and making rxe devices.
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
IBT_NETDEV=${IBTRACE_NETDEV:-eth0}

ibt_n=0
ibt_failed=0
ibt_passed=0

# Kernel-log lines that fail a test whatever else happened.
IBT_BAD_LOG='(Oops|BUG:|WARNING:|refcount_t|list_(add|del) corruption|general protection fault|blocked for more than|Kernel panic|UBSAN|KASAN|kernel BUG|unreferenced object)'

ibt_kmsg_mark()
{
	echo "ibtrace-selftest: begin $IBT_TEST $$" > /dev/kmsg 2>/dev/null || true
}

# Lines logged since this test began.
ibt_kmsg_since()
{
	dmesg 2>/dev/null | awk -v m="ibtrace-selftest: begin $IBT_TEST $$" \
		'index($0, m) { keep = 1; next } keep'
}

echo "TAP version 13"
ibt_kmsg_mark

# ok DESCRIPTION / not ok DESCRIPTION [DETAIL...]
ibt_ok()
{
	ibt_n=$((ibt_n + 1))
	ibt_passed=$((ibt_passed + 1))
	echo "ok $ibt_n - $1"
}

ibt_fail()
{
	local desc=$1

	shift
	ibt_n=$((ibt_n + 1))
	ibt_failed=$((ibt_failed + 1))
	echo "not ok $ibt_n - $desc"
	[ $# -gt 0 ] && printf '# %s\n' "$@"
	return 0
}

ibt_skip_one()
{
	ibt_n=$((ibt_n + 1))
	echo "ok $ibt_n - $1 # SKIP $2"
}

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

ibt_require_file()
{
	[ -e "$1" ] || ibt_skip_all "$1 not found (run make)"
}

ibt_require_cmd()
{
	command -v "$1" >/dev/null 2>&1 || ibt_skip_all "$1 not installed"
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

# The peer VM (vm-run --vms 2 --peer-cmd selftests/peer.sh) ----------------

# Wait up to 60 s for the peer to say it is ready.
ibt_wait_peer()
{
	local i

	[ -n "$VMRUN_SHARED" ] || return 1
	for i in $(seq 600); do
		[ -e "$VMRUN_SHARED/peer-ready" ] && return 0
		sleep 0.1
	done
	return 1
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
# GUID of the port entered
ibt_trace_path()
{
	jq -r '.hops[] | "\(if .hop == 0 then .node_guid else .port_guid end) \(.in_port // "") \(.out_port // "") \(.lid)"'
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
