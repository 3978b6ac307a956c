#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark (prints figures, asserts nothing): ibtrace's dapltest tests,
# run by the kernel, beside dapltest itself (Debian's dapl2-utils, uDAPL's
# cma provider on rxe) between the same two rxe ports in one run:
#   - perf (dapltest -T P): operations/s and MiB/s of RDMA WRITE and READ,
#     pipeline 1 and 16, ours busy-polling beside dapltest -m p and ours
#     event-driven beside dapltest -m b (its default);
#   - txn (dapltest -T T): operations/s of the same operation lists (both
#     sides' operations, validation's three appended SENDs included, as
#     dapltest counts its WQEs), each waiting for its completions by
#     default, and once both polling (ours --poll busy, dapltest -P);
#   - limit (dapltest -T L): the count of each kind of object each one
#     made, capped at the same maximum, on this host's rxe0.
# Run by `make bench` as
#   vm-run --vms 2 --peer-cmd selftests/bench/dapl-peer.sh -- selftests/bench/dapl.sh

IBTRACE_ROOT=${IBTRACE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
source "$(dirname "$0")/../lib.sh" >/dev/null
source "$(dirname "$0")/dapl-runs.sh"

command -v dapltest >/dev/null || { echo "dapltest missing (apt-get install dapl2-utils)" >&2; exit 4; }
ibt_modprobe_ibtrace && ibt_rxe_add rxe0 || exit 1
ibt_wait_peer || { echo "the peer VM did not become ready" >&2; exit 1; }
peer=$(ibt_ll_gid_of_mac "$VMRUN_PEER_MAC")
peer4=${VMRUN_PEER_IP4:-198.18.0.2}
dapl_conf /tmp
ITERS=${IBTRACE_BENCH_COUNT:-1000}
SIZES=${IBTRACE_BENCH_SIZES:-64 4096 65536}
LIMIT_MAX=${IBTRACE_BENCH_LIMIT_MAX:-2000}

# dapl TEST ARGS...: dapltest -T TEST's output (its parser wants -T and
# the common options first); when it fails, its last lines on stderr.
dapl()
{
	local t=$1 out rc

	shift
	out=$(timeout 300 dapltest -T "$t" -D "$DAPL_IA" "$@" 2>&1)
	rc=$?
	[ "$rc" = 0 ] || { echo "# dapltest -T $t $* exited $rc:"; tail -n 5 <<< "$out" | sed 's/^/#   /'; } >&2
	printf '%s\n' "$out"
	return "$rc"
}
# ratio A B: A / B, 0 when B is not positive (awk reads jq's 1.5e-05).
ratio() { awk -v a="${1:-0}" -v b="${2:-0}" 'BEGIN { print (b + 0 > 0 ? a / b : 0) }'; }

# Warm up both sides' connection paths.
dapl P -s "$peer4" -i 10 -p 1 RW 64 1 >/dev/null
"$IBTRACECTL" -d rxe0 test run perf --peer "$peer" --iterations 10 RW 64 >/dev/null

# perf -----------------------------------------------------------------------

# ours_perf OP SIZE PIPELINE POLL: "op/s MiB/s"
ours_perf()
{
	"$IBTRACECTL" -j -d rxe0 test run perf --peer "$peer" --iterations "$ITERS" \
		--pipeline "$3" --poll "$4" "$1" "$2" |
		jq -r '.perf | if .elapsed_ns > 0 then
			"\(.ops * 1000000000 / .elapsed_ns) \(.bytes * 1000000000 / .elapsed_ns / 1048576)"
			else "0 0" end'
}

# dapl_perf OP SIZE PIPELINE MODE: "op/s MiB/s" from dapltest's raw line
# (raw: OP, iterations, seg size, segs, pipeline, cpu, op/s, MB/s, ...;
# its MB is 1048576 bytes).
dapl_perf()
{
	dapl P -s "$peer4" -m "$4" -i "$ITERS" -p "$3" "$1" "$2" 1 |
		awk -F', *' '/^raw:/ { print $7, $8; found = 1 } END { if (!found) print "0 0" }'
}

printf '\n%s\n' "perf: RDMA over rxe between two TCG VMs, $ITERS operations a run"
printf '%-3s %7s %4s %-11s | %10s %10s %6s | %9s %9s %6s\n' op size pipe "poll/mode" \
	"ours op/s" "dapl op/s" ratio "ours MiB/s" "dapl MiB/s" ratio
for op in RW RR; do
	for size in $SIZES; do
		for pipe in 1 16; do
			for pm in busy/p event/b; do
				read -r o_ops o_bw < <(ours_perf "$op" "$size" "$pipe" "${pm%/*}")
				read -r d_ops d_bw < <(dapl_perf "$op" "$size" "$pipe" "${pm#*/}")
				printf '%-3s %7s %4s %-11s | %10.0f %10.0f %6.2f | %9.1f %9.1f %6.2f\n' \
					"$op" "$size" "$pipe" "$pm" "$o_ops" "$d_ops" \
					"$(ratio "$o_ops" "$d_ops")" "$o_bw" "$d_bw" "$(ratio "$o_bw" "$d_bw")"
			done
		done
	done
done
echo "(ratio: ours / dapltest, higher is better; poll/mode: ours --poll / dapltest -m)"

# txn ------------------------------------------------------------------------

# ours_txn ARGS...: operations/s, validation's appended SENDs counted.
ours_txn()
{
	"$IBTRACECTL" -j -d rxe0 test run txn --peer "$peer" "$@" |
		jq -r '(if .validate then 3 * .totals.iterations else 0 end) as $app |
			if .totals.elapsed_ns > 0 then
			(.totals.ops + $app) * 1000000000 / .totals.elapsed_ns else 0 end'
}

# dapl_txn ARGS...: dapltest's "Total WQE : N WQE/Sec". Its -f comes in
# pairs (a client SR and a server SR); ours reaps per operation.
dapl_txn()
{
	dapl T -s "$peer4" "$@" |
		awk '/Total WQE/ { print $4; found = 1 } END { if (!found) print 0 }'
}

printf '\n%s\n' "txn: operations/s of the same sequence, $ITERS iterations (fewer with threads)"
printf '%-62s | %9s %9s %6s\n' "sequence (dapltest's words)" ours dapltest ratio
txn_iters=$ITERS
while IFS='|' read -r opts ours_opts seq; do
	o=$(ours_txn --iterations "$txn_iters" $ours_opts ${seq//-f/reap})
	d=$(dapl_txn -i "$txn_iters" $opts $seq)
	printf '%-62s | %9.0f %9.0f %6.2f\n' "$opts $seq" "$o" "$d" "$(ratio "$o" "$d")"
done <<'RUNS'
||client SR 256 server SR 256
-P|--poll busy|client SR 256 server SR 256
||client SR 4096 server SR 4096 client RW 65536
-V|--validate|client SR 256 server RW 4096 client RR 1024
-V|--validate|client SR 256 -f server SR 256 -f client RW 16384 4
-t 2 -w 2|--threads 2 --endpoints 2|client SR 4096 server SR 4096
RUNS
echo "(ratio: ours / dapltest, higher is better)"

# limit ----------------------------------------------------------------------

# The kinds of object both tests make, in dapltest's words and ours.
printf '\n%s\n' "limit: objects made on rxe0, at most $LIMIT_MAX of each (width 1)"
ours=$("$IBTRACECTL" -j -d rxe0 test run limit -m "$LIMIT_MAX" -w 1 pd cq qp mr rpost size_mr)
# dapl_count KIND: what dapltest's run of limit_KIND (output in $dl) made.
dapl_count()
{
	case $1 in
	pz) awk '/PZs created:/ { n = $NF } END { print n + 0 }' <<< "$dl" ;;
	evd) awk '/EVDs created:/ { n = $NF } END { print n + 0 }' <<< "$dl" ;;
	ep) awk '/EPs created:/ { n = $NF } END { print n + 0 }' <<< "$dl" ;;
	lmr) awk '/LMRs created:/ { n = $NF } END { print n + 0 }' <<< "$dl" ;;
	rpost) awk '/recv buffers posted per EP:/ { n = $NF } END { print n + 0 }' <<< "$dl" ;;
	size_lmr) # the size in hex; mawk has no strtonum(), bash reads 0x
		n=$(grep -oE 'LMR of 0x[0-9a-f]+ bytes OK' <<< "$dl" | tail -n 1 | cut -d' ' -f3)
		echo $((${n:-0})) ;;
	esac
}
printf '%-8s %-14s | %12s %12s %12s\n' ours dapltest "ours made" "dapl made" advertised
# One dapltest run per kind, so that one kind's crash leaves the others'.
for pair in pd:pz cq:evd qp:ep mr:lmr rpost:rpost size_mr:size_lmr; do
	o=${pair%:*} d=${pair#*:}
	dl=$(dapl L -m "$LIMIT_MAX" -w 1 "limit_$d")
	rc=$?
	dmade=$(dapl_count "$d")
	[ "$rc" = 0 ] || dmade="exit $rc"
	printf '%-8s %-14s | %12s %12s %12s\n' "$o" "limit_$d" \
		"$(jq -r --arg o "$o" '.limits[]? | select(.object == $o) | .made' <<< "$ours")" \
		"$dmade" \
		"$(jq -r --arg o "$o" '.limits[]? | select(.object == $o) | .advertised // "-"' <<< "$ours")"
done
echo "(dapltest's limit test, without -m, runs to the device's refusal; with it both stop at $LIMIT_MAX;"
echo " size_mr in bytes: ours doubles pages up to $LIMIT_MAX, advertised is max_fast_reg_page_list_len pages)"

dapl Q -s "$peer4" >/dev/null
echo "# the peer's dapltest server:"
sed 's/^/#   /' "$VMRUN_SHARED/dapltest-server.log" | tail -n 20
