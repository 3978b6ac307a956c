#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Netlink fuzzing of both generic netlink families (ibtrace, ibtrace_sim),
# as root and as an unprivileged user, with ibtrace_nlsweep:
#
#  1. --lengths: every command, as "do" and "dump" where it has them, with
#     one attribute of each type from 0 to the family's highest + 8, of
#     each length in {0, 1, 2, 3, 4, 7, 8, 16, 255, 4096} (zero bytes);
#  2. --fuzz: IBTRACE_FUZZ_ITER (default 20000) random requests per family
#     and user: random command (mostly the family's), flags (NLM_F_DUMP,
#     ECHO, any bit), version, 1-8 attributes of random type (mostly of
#     the command's policy), length and content (in-range values, device,
#     fabric, node and test names among them), nests of random contents up
#     to 3 deep, and truncations: a short nlmsghdr, nlmsg_len below a
#     header, a short genlmsghdr, nlmsg_len past the datagram or inside
#     the attributes, genlmsghdr.reserved set. Seeded: the seed is printed
#     and IBTRACE_SEED=N replays the run.
#
# Every request is classified before it is sent (ibtrace_nlsweep.c,
# enum cls) and its answer checked:
#  - a request our families' policy or code reject carries an extended ACK
#    message (errno without one is a failure);
#  - an accepted request holds only attributes its policy lists, of the
#    sizes their types have;
#  - rejected by the genetlink core before the family sees it, without an
#    extended ACK message on 6.1, counted apart (not our code): a command
#    the family does not have, or do/dump it lacks (EOPNOTSUPP), a
#    genlmsghdr cut short (EINVAL), and a GENL_ADMIN_PERM command from the
#    unprivileged user, which must be EPERM whatever its attributes;
#    genl_header_check()'s EINVAL (reserved bits) comes with a message;
#  - what netlink_rcv_skb() drops (a short or overlong nlmsg_len) is not
#    answered, a message without NLM_F_REQUEST only ACKed.
# The non-admin commands answer the unprivileged user as they answer root.
#
# As root the requests really act: pings, traces, tests, the server and
# fabrics can start. They run against rxe0 and a two-HCA sim fabric made
# here; each 256 requests the socket is closed (which ends the jobs it
# started that are not detached). Afterwards whatever is left (running
# jobs, the server, fabrics) is counted, cancelled, stopped and deleted,
# then nothing of it may remain, the kernel log holds no oops/WARN/hung
# task, and the modules still answer: dev, a new fabric pinged across,
# job show, and both modules unload.

source "$(dirname "$0")/lib.sh"

IBT_NLSWEEP=${IBT_NLSWEEP:-$IBT_DIR/ibtrace_nlsweep}
ITER=${IBTRACE_FUZZ_ITER:-20000}
TOPO=$IBT_TOPO/two_hcas.topo
ibt_tmpdir
chmod 755 "$TMP"	# written by the unprivileged runs below

ibt_require_root
ibt_require_file "$IBT_NLSWEEP" "$SIM_KO" "$IBTRACECTL"
ibt_require_cmd setpriv jq
ibt_require_number IBTRACE_FUZZ_ITER "$ITER"
modprobe rdma_rxe 2>/dev/null || ibt_skip_all "rdma_rxe not available"
ibt_seed

nobody()
{
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# Another suite in the same VM may have left ibtrace_sim loaded: this one
# starts from a fresh insert.
ibt_sim_load_ibtrace "ibtrace loads"
ibt_check "rxe0 created" ibt_rxe_add rxe0

ibt_check "fabric fz (two HCAs, SM lite)" "$IBTRACECTL" sim add "$TOPO" --name fz

# Words the random strings are drawn from: devices, fabric, nodes, tests,
# and a topology (a FABRIC_ADD may build a fabric).
words=(fz HcaA HcaB nope "" "$(cat "$TOPO")" $(ls /sys/class/infiniband)
	$("$IBTRACECTL" test list 2>/dev/null | awk '{ print $1 }'))

# A MAD send allowed to Set (IBTRACE_A_MAD_ALLOW_SET) could write random
# PortInfo, tables or LIDs into the campaign's own fabric: requests with
# it are drawn again. Every other MAD send attribute is fuzzed.
NO_ATTR=$(ibt_uapi IBTRACE_A_MAD_ALLOW_SET)

# run TAG USER MODE FAMILY: one campaign; its output in $TMP/TAG
run()
{
	local tag=$1 user=$2 mode=$3 fam=$4 rc pre=() no=

	[ "$user" = nobody ] && pre=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	[ "$fam" = ibtrace ] && no=$NO_ATTR
	IBTRACE_FUZZ_NO_ATTR=$no \
	IBTRACE_SEED=$IBT_SEED IBTRACE_FUZZ_ITER=$ITER timeout 600 \
		"${pre[@]}" "$IBT_NLSWEEP" "$mode" "$fam" "${words[@]}" \
		> "$TMP/$tag" 2> "$TMP/$tag.err"
	rc=$?
	ibt_expect "$tag: ran to its end" "0 " "$rc $(head -c 300 "$TMP/$tag.err")"
	sed -n 's/^\(stat\|class\) /# /p; s/^accepted_by_cmd/# accepted by command:/p' "$TMP/$tag"
	ibt_expect "$tag: every answer as expected" 0 \
		"$(sed -n 's/^stat .* violations \([0-9]*\) .*/\1/p' "$TMP/$tag")"
	if grep -q '^v ' "$TMP/$tag"; then
		grep '^v ' "$TMP/$tag" | head -20 | sed 's/^/# /'
	fi
}

# field TAG KEY: a number from the stat line
field()
{
	sed -n "s/^stat .* $2 \([0-9.]*\) .*/\1/p" "$TMP/$1"
}

# class TAG NAME: requests of a class
class()
{
	sed -n "s/^class $2 \([0-9]*\) .*/\1/p" "$TMP/$1"
}

for fam in ibtrace ibtrace_sim; do
	run "$fam-lengths-root" root --lengths "$fam"
	run "$fam-lengths-user" nobody --lengths "$fam"
	ibt_expect "$fam lengths: the non-admin commands answer both users alike" "" \
		"$(diff <(grep '^n ' "$TMP/$fam-lengths-root") \
			<(grep '^n ' "$TMP/$fam-lengths-user") | head -5)"
	ibt_expect "$fam lengths: root and the user sent as many requests" \
		"$(field "$fam-lengths-root" sent)" "$(field "$fam-lengths-user" sent)"
	n=$(class "$fam-lengths-user" admin_eperm)
	ibt_match "$fam lengths: the unprivileged user got EPERM for admin commands ($n)" \
		'^[1-9][0-9]*$' "$n"

	run "$fam-random-root" root --fuzz "$fam"
	run "$fam-random-user" nobody --fuzz "$fam"
	sent=$(field "$fam-random-root" sent)
	ibt_expect "$fam random: $ITER requests as root" "$ITER" "$sent"
	n=$(class "$fam-random-root" family)
	ibt_match "$fam random: requests reached the family ($n)" '^[1-9][0-9]*$' "$n"
	n=$(class "$fam-random-user" admin_eperm)
	ibt_match "$fam random: admin commands refused the user with EPERM ($n)" \
		'^[1-9][0-9]*$' "$n"
done

bad=$(ibt_kmsg_since | grep -E "$IBT_BAD_LOG")
ibt_expect "kernel log: no oops/WARN/BUG/hung task during the fuzzing" "" "$bad"

# What the root requests left, then cleaned up --------------------------

running_jobs()
{
	"$IBTRACECTL" -j job show | jq -r '.[] | select(.state == "running") | .id'
}

jobs=$(running_jobs)
srv=$("$IBTRACECTL" -j server show | jq -r .running)
fabrics=$("$IBTRACECTL" -j sim show | jq -r '.[].fabric' | grep -vx fz)
echo "# left by the fuzzing: $(wc -w <<< "$jobs") running jobs, server running: $srv," \
	"fabrics other than fz: $(echo $fabrics)"
for id in $jobs; do
	"$IBTRACECTL" job cancel "$id" >/dev/null 2>&1
done
for i in $(seq 100); do
	[ -z "$(running_jobs)" ] && break
	sleep 0.1
done
ibt_expect "no job running after job cancel" "" "$(running_jobs | tr '\n' ' ')"
[ "$srv" = true ] && "$IBTRACECTL" server stop >/dev/null
ibt_expect "the server stopped" false "$("$IBTRACECTL" -j server show | jq -r .running)"
for f in $("$IBTRACECTL" -j sim show | jq -r '.[].fabric'); do
	"$IBTRACECTL" sim del "$f" >/dev/null
done
ibt_expect "no fabric left" 0 "$("$IBTRACECTL" -j sim show | jq length)"
ibt_expect "no sim device left" "rxe0" "$(ls /sys/class/infiniband | tr '\n' ' ' | sed 's/ $//')"

# A multicast DGID is no destination: once accepted (found by this test),
# each MAD sent there leaked a reference to rxe's QP1, and deleting rxe0
# below hung 10 s per leak and WARNed in __rxe_cleanup().
for cmd in ping trace; do
	out=$("$IBTRACECTL" -d rxe0 $cmd --dgid ff02::1 -t 100 -r 0 2>&1)
	ibt_expect "$cmd --dgid ff02::1 on rxe0: refused (exit 1) with the reason" \
		"1 Error: a multicast DGID is not a destination (attribute ${cmd}_dgid)" \
		"$? $out"
done

# The modules still answer -----------------------------------------------

out=$("$IBTRACECTL" dev 2>&1)
ibt_match "dev lists rxe0/1" "^rxe0/1 " "$out"
js=$("$IBTRACECTL" -j sim add "$TOPO" --name after 2>&1)
ibt_expect "a new fabric" 0 "$?"
A=$("$IBTRACECTL" -j sim show after | jq -r '.[0].nodes[] | select(.name == "HcaA") | .dev')
js=$("$IBTRACECTL" -j -d "$A" ping --dlid 2 -c 3 -i 10 2>&1)
ibt_expect "ping across it from $A to LID 2: 3 of 3" 3 "$(jq -r .summary.received <<< "$js" 2>&1)"
js=$("$IBTRACECTL" -j job show 2>&1)
ibt_expect "job show: exit 0, the ping listed" "0 ping" \
	"$? $(jq -r '[.[] | select(.kind == "ping")] | last | .kind' <<< "$js" 2>&1)"
ibt_check "sim del after" "$IBTRACECTL" sim del after
ibt_check "rxe0 deleted" ibt_rxe_del rxe0
ibt_check "ibtrace_sim unloads" rmmod ibtrace_sim
ibt_check "ibtrace unloads" ibt_unload_ibtrace
ibt_done
