#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The runs of bench/perf.sh, sourced by both sides: "TOOL SIZE ITERATIONS
# [TX_DEPTH]" per perftest run, in order (the peer serves them one by one).

PERF_SIZES=${IBTRACE_BENCH_SIZES:-64 1024 4096 65536 1048576}
PERF_ITERS=${IBTRACE_BENCH_COUNT:-200}
PERF_DEPTH=16
# Local ACK timeout of both tools' QPs (ours --ack-timeout, perftest -u):
# 4.096 us << N, 14 (67 ms) the default of both.
PERF_ACK=${IBTRACE_BENCH_ACK_TIMEOUT:-14}

# iterations SIZE: fewer of the large ones (TCG moves a few MB/s).
perf_iters() { if (($1 >= 1048576)); then echo $((PERF_ITERS / 20 + 5)); else echo "$PERF_ITERS"; fi; }

perf_runs()
{
	local op size

	for op in write read; do
		for size in $PERF_SIZES; do
			echo "ib_${op}_lat $size $(perf_iters "$size")"
			echo "ib_${op}_bw $size $(perf_iters "$size") $PERF_DEPTH"
		done
	done
}
