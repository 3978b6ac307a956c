#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The class 0x30 agent answers raw MADs as the ibtracer design says:
# ClassPortInfo, SourceRoute (match, mismatch with the actual port, bad hop
# counts), unsupported methods and attributes; its counters follow.
# Loopback on one rxe device: the MADs go through ib_umad, ib_mad and rxe.

source "$(dirname "$0")/lib.sh"

ibt_require_root
ibt_require_file "$IBT_MAD" "$IBTRACECTL"
ibt_require_cmd rdma jq
modprobe rdma_rxe 2>/dev/null || ibt_skip_all "rdma_rxe not available"

ibt_check "ibtrace loads" ibt_modprobe_ibtrace
modprobe ib_umad
ibt_check "rxe0 created" ibt_rxe_add rxe0
gid=$(ibt_gid0 rxe0)

mad()
{
	"$IBT_MAD" -d rxe0 --dgid "$gid" --timeout 2000 --retries 2 "$@"
}

# field KEY OUTPUT
field()
{
	printf '%s\n' "$2" | sed -n "s/^$1=//p"
}

out=$(mad --attr 0x0001)
ibt_expect "ClassPortInfo answered with status 0" 0x0000 "$(field status "$out")"
ibt_expect "ClassPortInfo is a GetResp" 0x81 "$(field method "$out")"
ibt_expect "ClassPortInfo.BaseVersion 1" 1 "$(field base_version "$out")"
ibt_expect "ClassPortInfo.ClassVersion 1" 1 "$(field class_version "$out")"
ibt_expect "ClassPortInfo.RespTimeValue 16" 16 "$(field resp_time "$out")"

out=$(mad --attr 0x0010 --route 1)
ibt_expect "SourceRoute right port: status 0" 0x0000 "$(field status "$out")"
ibt_expect "SourceRoute right port: actual port 1" 1 "$(field actual_port "$out")"

out=$(mad --attr 0x0010 --route 2)
ibt_expect "SourceRoute wrong port: status 0x001c" 0x001c "$(field status "$out")"
ibt_expect "SourceRoute wrong port: actual port reported" 1 "$(field actual_port "$out")"

out=$(mad --attr 0x0010 --route 7,9,1)
ibt_expect "SourceRoute hop 3 checks entry 3 only" 0x0000 "$(field status "$out")"

out=$(mad --attr 0x0010 --route 1 --hops 0)
ibt_expect "SourceRoute hop count 0: status 0x001c" 0x001c "$(field status "$out")"

out=$(mad --attr 0x0010 --route 1 --hops 65)
ibt_expect "SourceRoute hop count 65: status 0x001c" 0x001c "$(field status "$out")"

out=$(mad --attr 0x0010 --route 1 --hops 64)
ibt_expect "SourceRoute hop count 64 is checked (entry 64 is 0)" 0x001c "$(field status "$out")"

out=$(mad --method 0x02 --attr 0x0001)
ibt_expect "VendorSet: unsupported method 0x0008" 0x0008 "$(field status "$out")"

out=$(mad --method 0x03 --attr 0x0010)
ibt_expect "VendorSend: unsupported method 0x0008" 0x0008 "$(field status "$out")"

out=$(mad --attr 0x0099)
ibt_expect "unknown attribute: 0x000c" 0x000c "$(field status "$out")"

js=$("$IBTRACECTL" -j -d rxe0 agent show)
ibt_expect "agent counts 10 requests" 10 "$(jq -r '.[0].rx' <<< "$js")"
ibt_expect "agent answered 10" 10 "$(jq -r '.[0].answered' <<< "$js")"
ibt_expect "agent counts 2 mismatches" 2 "$(jq -r '.[0].mismatch' <<< "$js")"
ibt_expect "agent counts 2 malformed" 2 "$(jq -r '.[0].malformed' <<< "$js")"
ibt_expect "agent counts 3 unsupported" 3 "$(jq -r '.[0].unsupported' <<< "$js")"
ibt_expect "  of which 2 unsupported methods, 1 unsupported attribute" "2 1" \
	"$(jq -r '"\(.[0].unsupported_method) \(.[0].unsupported_attr)"' <<< "$js")"
ibt_expect "agent counts 3 successes, no tx errors, no strays, no invalid answers" \
	"3 0 0 0" \
	"$(jq -r '"\(.[0].success) \(.[0].tx_error) \(.[0].stray) \(.[0].invalid_answer)"' <<< "$js")"

# The same counters as Prometheus metrics, for node_exporter's textfile
# collector: labelled as its node_infiniband_* metrics (device, port).
prom=$(mktemp -d)
ibt_check "agent show --prom: written" \
	"$IBTRACECTL" -d rxe0 agent show --prom "$prom/ibtrace.prom"
ibt_expect "  registered, 10 received, and the responses by status" \
	"1 10 3 2 2 2 1 0 0 0" \
	"$(for m in 'agent_registered{' 'requests_received_total{' \
		'status="success"' 'status="mismatch"' 'status="malformed"' \
		'status="unsupported_method"' 'status="unsupported_attr"' \
		'send_errors_total{' 'stray_responses_total{' \
		'invalid_answers_total{'; do
		grep -F "$m" "$prom/ibtrace.prom" | grep -F '{device="rxe0",port="1"' |
			awk '{ print $2 }'
	done | paste -sd ' ')"
ibt_expect "  nothing else left in the directory" ibtrace.prom "$(ls "$prom")"
ibt_expect "agent show --prom into a missing directory: exit 1" 1 \
	"$("$IBTRACECTL" -d rxe0 agent show --prom "$prom/no/x.prom" >/dev/null 2>&1; echo $?)"
rm -rf "$prom"

# An answer's address handle is made once for where its request came
# from and reused for up to a second (ibtrace(4), Counters): on RoCE
# making one is most of the agent's work.
# ah_counts JSON: "answered ah_made ah_reused" of an agent show
ah_counts() { jq -r '.[0] | "\(.answered) \(.ah_made) \(.ah_reused)"' <<< "$1"; }
read -r a0 m0 r0 < <(ah_counts "$js")
ibt_expect "every answer's handle was made or reused" "$a0" "$((m0 + r0))"
"$IBTRACECTL" -d rxe0 ping --dgid "$gid" -c 200 -i 0 >/dev/null
js=$("$IBTRACECTL" -j -d rxe0 agent show)
read -r a1 m1 r1 < <(ah_counts "$js")
ibt_expect "a ping of 200 probes to itself: 200 answers, each with a handle" \
	"200 200" "$((a1 - a0)) $((m1 - m0 + r1 - r0))"
ibt_check "  most of them reused one ($((r1 - r0)) reused, $((m1 - m0)) made)" \
	test "$((r1 - r0))" -ge 150

# A change of the port ends the reuse at once, not a second later: here a
# GID added to rxe0's table (an address on its netdev) between the two
# probes of a ping, 800 ms apart. The first probe's handle is made (the
# 200 probes' is too old by then), and so is the second's, though the
# first's is still young. The first line is read as it is printed, the
# address added, and once its GID is in the table the second answer must
# still be to come, or the check is skipped.
ah_gid=0000:0000:0000:0000:0000:ffff:c613:0007	# ::ffff:198.19.0.7
sleep 1.1
coproc ahping { "$IBTRACECTL" -d rxe0 ping --dgid "$gid" -c 2 -i 800 2>&1; }
# shellcheck disable=SC2154	# ahping_PID: set by coproc
ahpid=$ahping_PID
IBT_BG_PIDS+=("$ahpid")
exec {ahfd}<&"${ahping[0]}"	# bash drops ahping[] when the ping exits
read -r -t 20 line <&"$ahfd"
t0=$(ibt_now_ms)
ip addr add 198.19.0.7/32 dev "$IBT_NETDEV"
for ((i = 0; i < 250; i++)); do
	grep -qx "$ah_gid" /sys/class/infiniband/rxe0/ports/1/gids/* && break
	sleep 0.02
done
late=0
read -r -t 0 <&"$ahfd" && late=1
echo "# the GID was in rxe0's table $(($(ibt_now_ms) - t0)) ms after the first answer was read"
cat <&"$ahfd" >/dev/null
exec {ahfd}<&-
wait "$ahpid"
ping_rc=$?
ip addr del 198.19.0.7/32 dev "$IBT_NETDEV"
js=$("$IBTRACECTL" -j -d rxe0 agent show)
read -r a2 m2 r2 < <(ah_counts "$js")
ibt_expect "a ping of 2 probes across a GID change: exit 0, 2 answers" \
	"0 2" "$ping_rc $((a2 - a1))"
if [ "$late" = 1 ]; then
	ibt_skip_one "  each answer has a handle of its own" \
		"the GID came after the second answer (${line:-no first line})"
else
	ibt_expect "  each answer has a handle of its own (made, reused)" \
		"2 0" "$((m2 - m1)) $((r2 - r1))"
fi

ibt_check "rxe0 deleted" ibt_rxe_del rxe0
ibt_check "ibtrace unloads" ibt_unload_ibtrace
ibt_done
