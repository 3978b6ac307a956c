#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Bad netlink input is rejected before anything happens, with an errno
# and an extended ACK naming the bad attribute, and without kernel log
# noise: missing, unknown, oversized and out-of-range attributes, unknown
# devices and ports.

source "$(dirname "$0")/lib.sh"

ibt_require_root
ibt_require_file "$IBT_NLRAW"
ibt_require_cmd rdma
modprobe rdma_rxe 2>/dev/null || ibt_skip_all "rdma_rxe not available"

ibt_check "ibtrace loads" ibt_modprobe_ibtrace
ibt_check "rxe0 created" ibt_rxe_add rxe0
gid=$(ibt_gid0 rxe0 | tr -d :)
# Not ours: rxe logs "speed is unknown" on every port query, the
# netlink core (lib/nlattr.c) warns about a fixed-size attribute of the
# wrong length for every family before the policy rejects it (rate
# limited: "validate_nla: N callbacks suppressed" when a test before this
# one in the same boot made it drop some), an emulated CPU on a loaded
# host makes the hrtimer core note a slow interrupt ("hrtimer: interrupt
# took N ns"), whatever runs, and, run first after boot, the suite meets
# the entropy pool's "crng init done".
log_lines()
{
	dmesg | grep -v -e 'speed is unknown' \
		-e "netlink: 'ibtrace_nlraw': attribute type [0-9]* has an invalid length" \
		-e 'validate_nla: [0-9]* callbacks suppressed' \
		-e 'hrtimer: interrupt took [0-9]* ns' \
		-e 'random: crng init done'
}
log_before=$(log_lines | wc -l)

# nl EXPECTED_ERRNAME EXPECTED_BAD_ATTR_TYPE_OR_- MSG_REGEX DESCRIPTION -- ARGS
nl()
{
	local errname=$1 bad=$2 msg=$3 desc=$4 out

	shift 5
	out=$("$IBT_NLRAW" "$@" 2>&1)
	ibt_expect "$desc: $errname" "$errname" "$(sed -n 's/^errname=//p' <<< "$out")"
	if [ "$bad" != - ]; then
		ibt_expect "$desc: names attribute $bad" "$bad" \
			"$(sed -n 's/^bad_attr_type=//p' <<< "$out")"
	fi
	ibt_match "$desc: message" "$msg" "$(sed -n 's/^msg=//p' <<< "$out")"
}

nl EINVAL 999 "[Uu]nknown attribute" "dev_get with an unknown attribute" -- \
	dev_get 999=u32:1
nl EINVAL 3 "." "dev_get with a device name without NUL" -- \
	dev_get dev_name=strn:rxe0
nl EINVAL 3 "." "dev_get with a 100-byte device name" -- \
	dev_get dev_name=str:$(printf 'x%.0s' $(seq 100))
nl ENODEV 3 "no such RDMA device" "dev_get of an unknown device" -- \
	dev_get dev_name=str:nosuch0 port=u32:1
nl ENODEV 4 "no such port" "dev_get of an unknown port" -- \
	dev_get dev_name=str:rxe0 port=u32:9
nl ERANGE 4 "." "port 0 is out of range" -- \
	dev_get dev_name=str:rxe0 port=u32:0
nl EINVAL - "port number is required" "dev_get do without port" -- \
	dev_get dev_name=str:rxe0
nl EINVAL 2 "." "u8 where a u32 is expected" -- \
	agent_get dev_index=u8:1
nl EINVAL - "destination .*required" "ping without destination" -- \
	ping dev_name=str:rxe0
nl EINVAL - "device .*required" "ping without device" -- \
	ping ping_dgid=hex:$gid
nl ERANGE 14 "." "ping with a 15-byte DGID" -- \
	ping dev_name=str:rxe0 ping_dgid=hex:${gid:0:30}
nl ERANGE 15 "." "ping with DLID 0xc000 (multicast)" -- \
	ping dev_name=str:rxe0 ping_dlid=u32:0xc000
nl ERANGE 79 "." "trace with MLID 0xbfff (unicast)" -- \
	trace dev_name=str:rxe0 trace_dlid=u32:1 trace_mlid=u32:0xbfff
nl ERANGE 79 "." "trace with MLID 0xffff (permissive)" -- \
	trace dev_name=str:rxe0 trace_dlid=u32:1 trace_mlid=u32:0xffff
nl ERANGE 16 "." "ping with count 0" -- \
	ping dev_name=str:rxe0 ping_dgid=hex:$gid ping_count=u32:0
nl ERANGE 16 "." "ping with count 100001" -- \
	ping dev_name=str:rxe0 ping_dgid=hex:$gid ping_count=u32:100001
nl ERANGE 18 "." "ping with timeout 0" -- \
	ping dev_name=str:rxe0 ping_dgid=hex:$gid ping_timeout_ms=u32:0
nl ERANGE 20 "." "ping with a 65-hop source route" -- \
	ping dev_name=str:rxe0 ping_dgid=hex:$gid ping_sroute=zero:65
nl ERANGE 20 "." "ping with an empty source route" -- \
	ping dev_name=str:rxe0 ping_dgid=hex:$gid ping_sroute=zero:0
nl EINVAL - "DLID|DGID" "RoCE ping by DLID only" -- \
	ping dev_name=str:rxe0 ping_dlid=u32:5
nl EINVAL 2 "disagree" "device name and index disagree" -- \
	dev_get dev_name=str:rxe0 dev_index=u32:4242 port=u32:1

# The audit's proof (IBTRACE_CMD_PROVE): each destination a nest (with
# NLA_F_NESTED, which strict validation wants) of its LID (u32, type 2)
# and its vector of incoming ports (binary, type 3).
prove=$(ibt_uapi IBTRACE_CMD_PROVE)
pdest=$(($(ibt_uapi IBTRACE_A_PROVE_DEST) | 0x8000))
dest5=08000200050000000500030001000000	# LID 5, vector {1}
nl EINVAL - "no destination to prove" "prove without a destination" -- \
	"$prove" dev_name=str:rxe0
nl EOPNOTSUPP - "RoCE port has no LIDs" "prove from a RoCE port" -- \
	"$prove" dev_name=str:rxe0 "$pdest=hex:$dest5"
nl ERANGE - "." "prove to LID 0" -- \
	"$prove" dev_name=str:rxe0 "$pdest=hex:08000200000000000500030001000000"
nl ERANGE - "." "prove with a 65-port vector" -- \
	"$prove" dev_name=str:rxe0 "$pdest=hex:0800020005000000$(printf '4500'; printf '0300'; printf '01%.0s' $(seq 65); printf '000000')"
nl EINVAL - "needs its LID and its vector" "prove to a destination without its vector" -- \
	"$prove" dev_name=str:rxe0 "$pdest=hex:0800020005000000"
many=()
for i in $(seq 1025); do many+=("$pdest=hex:$dest5"); done
nl E2BIG - "at most 1024 destinations" "prove to 1025 destinations" -- \
	"$prove" dev_name=str:rxe0 "${many[@]}"
nl EINVAL - "which proof" "prove-dest dump without a job" -- \
	--dump "$(ibt_uapi IBTRACE_CMD_PROVE_DEST)"
nl ENOENT - "no such proof" "prove-dest dump of a job that is not a proof" -- \
	--dump "$(ibt_uapi IBTRACE_CMD_PROVE_DEST)" "$(ibt_uapi IBTRACE_A_JOB)=u32:4000000000"

out=$("$IBT_NLRAW" ping dev_name=str:rxe0 ping_dgid=hex:$gid ping_count=u32:2 ping_interval_ms=u32:0)
ibt_expect "a good ping request succeeds" 0 "$(sed -n 's/^errno=//p' <<< "$out")"
# A ping is a job: the reply (its ID) comes at once; the probes follow
# as notifications, which ibtrace_ping.sh checks through ibtracectl.
ibt_expect "one reply, the job's ID, before the ACK" 1 "$(sed -n 's/^messages=//p' <<< "$out")"

new_log=$(log_lines | tail -n +$((log_before + 1)))
ibt_expect "no kernel log lines from bad input" "" "$new_log"

ibt_check "rxe0 deleted" ibt_rxe_del rxe0
ibt_check "ibtrace unloads" ibt_unload_ibtrace
ibt_done
