#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ibtrace_sim at the sizes users give it. A topology of 20,000 "Switch
# 254" lines (gigabytes) is refused at once, before it is allocated, with
# one sentence naming its cost and the memory budget (exit 1), and
# leaves nothing behind. The fabrics share the budget (module parameter
# mem_budget_mb): a fabric that fits alone is refused beside another, the
# refusal counts the memory in use, and fits again once the other is
# deleted. While a large fabric (a fat tree of 504 HCAs, within budget)
# is being built, "ibtracectl dev" (the ibtrace family) and modprobe and
# rmmod of a module with a generic netlink family each answer within a
# few seconds (their times are printed); sim show lists it as building,
# sim del refuses it (exit 14). rmmod ibtrace_sim during a build stops it
# and leaves no device; sim add then fails with a reason (exit 1).
#
# IBTRACE_FATTREE="KEY=VALUE..." changes the large fabric (gen_fattree.sh).

source "$(dirname "$0")/lib.sh"

PARAM=/sys/module/ibtrace_sim/parameters/mem_budget_mb
FATTREE=${IBTRACE_FATTREE:-}
ibt_tmpdir

ibt_require_root
ibt_require_file "$SIM_KO" "$IBT_KO" "$IBTRACECTL"
ibt_require_cmd jq
ibt_require_modules ib_core ib_umad

# A module with a generic netlink family of its own, not loaded yet.
GENL_MOD=
for m in wireguard team macsec; do
	if modinfo "$m" >/dev/null 2>&1 && ! grep -q "^$m " /proc/modules; then
		GENL_MOD=$m
		break
	fi
done

ibt_sim_load
ibt_check "load ibtrace" ibt_modprobe_ibtrace

# Seconds (3 decimals) that "$@" takes, in $secs; its status in $rc, its
# output in $out.
timed()
{
	local t0 t1

	t0=$(date +%s%N)
	out=$("$@" 2>&1)
	rc=$?
	t1=$(date +%s%N)
	secs=$(printf '%d.%03d' $(((t1 - t0) / 1000000000)) \
		$(((t1 - t0) / 1000000 % 1000)))
}

# wait_building NAME: until sim show says fabric NAME is being built (at
# most 10 s); false if it never did
wait_building()
{
	local i

	for i in $(seq 100); do
		[ "$("$IBTRACECTL" sim show "$1" 2>/dev/null)" = "fabric $1 building" ] &&
			return 0
		sleep 0.1
	done
	return 1
}

# secs_under LIMIT: is $secs under LIMIT seconds (integer)?
secs_under()
{
	[ "${secs%.*}" -lt "$1" ]
}

# 20,000 switches of 254 ports ----------------------------------------------------

awk 'BEGIN { for (i = 0; i < 20000; i++) printf "Switch 254 \"S%d\"\n", i }' \
	> "$TMP/huge"
mem0=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
# the tool's own CPU time in the kernel: the FABRIC_ADD request is handled
# in its sendmsg()
TIMEFORMAT=%S
sys=$( { time "$IBTRACECTL" sim add "$TMP/huge" --name huge \
	> "$TMP/huge.out" 2>&1; echo "rc $?" > "$TMP/huge.rc"; } 2>&1 )
out=$(cat "$TMP/huge.out")
mem1=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
echo "# 20,000 x Switch 254: $out ($sys s of kernel time)"
ibt_expect "20,000 x Switch 254: refused, exit 1" "rc 1" "$(cat "$TMP/huge.rc")"
ibt_match "  one sentence naming the cost and the budget" \
	"^Error: the fabric needs [0-9]+ MiB of memory, over ibtrace_sim's budget of [0-9]+ MiB \\([0-9]+ MiB in use; module parameter mem_budget_mb\\)\$" \
	"$out"
ibt_match "  the cost is gigabytes (over 10,000 MiB)" '[0-9]{5,} MiB of memory' "$out"
# 0.25-0.3 s of kernel time in an idle TCG VM (1.5 s with the host busy);
# allocating the fabric instead took minutes and the OOM killer.
ibt_expect "  refused at once: under 5 s of kernel time ($sys s)" 1 \
	"$(awk -v s="$sys" 'BEGIN { print (s < 5.0) ? 1 : 0 }')"
ibt_expect "  nothing left: no fabric" "[]" "$("$IBTRACECTL" -j sim show | jq -c .)"
ibt_expect "  nothing kept: MemAvailable within 64 MiB of before" 1 \
	"$(( mem0 - mem1 < 65536 ))"

# The budget is shared ------------------------------------------------------------

# 60 HCAs on a switch: about 40 MiB with ib_core's share, two do not fit
# in 64 MiB.
awk 'BEGIN {
	print "Switch 64 \"S\""
	for (i = 1; i <= 60; i++) printf "[%d] \"H%d\"[1]\n", i, i
	for (i = 1; i <= 60; i++) printf "Hca 1 \"H%d\"\n[1] \"S\"[%d]\n", i, i
}' > "$TMP/sixty"
ibt_expect "mem_budget_mb defaults to 0 (a quarter of RAM)" 0 "$(cat "$PARAM")"
echo 64 > "$PARAM"
m0=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
ibt_check "mem_budget_mb 64: a fabric of 60 HCAs fits" \
	"$IBTRACECTL" sim add "$TMP/sixty" --name b1
m1=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
echo 1 > "$PARAM"
echo "# 60 HCAs: MemAvailable fell by $(( (m0 - m1) / 1024 )) MiB;" \
	"$("$IBTRACECTL" sim add "$TMP/sixty" --name est 2>&1 | grep -o 'needs [0-9]* MiB')"
echo 64 > "$PARAM"
timed "$IBTRACECTL" sim add "$TMP/sixty" --name b2
ibt_expect "  a second one does not: exit 1" 1 "$rc"
ibt_match "  the refusal counts the first one's memory in use" \
	"^Error: the fabric needs [1-9][0-9] MiB of memory, over ibtrace_sim's budget of 64 MiB \\([1-9][0-9] MiB in use; " \
	"$out"
ibt_expect "  and leaves no fabric b2" b1 \
	"$("$IBTRACECTL" -j sim show | jq -r '[.[].fabric] | join(" ")')"
ibt_check "sim del b1" "$IBTRACECTL" sim del b1
ibt_check "  then the second one fits" "$IBTRACECTL" sim add "$TMP/sixty" --name b2
ibt_check "sim del b2" "$IBTRACECTL" sim del b2
echo 0 > "$PARAM"

# Generic netlink answers while a large fabric is built ---------------------------

"$IBT_DIR/gen_fattree.sh" $FATTREE > "$TMP/fattree" ||
	ibt_fail "gen_fattree.sh $FATTREE"
echo 1 > "$PARAM"
echo "# the fat tree's estimate:" \
	"$("$IBTRACECTL" sim add "$TMP/fattree" --name est 2>&1 | grep -o 'needs [0-9]* MiB')"
echo 0 > "$PARAM"
timed "$IBTRACECTL" dev
dev_idle=$secs
if [ -n "$GENL_MOD" ]; then
	timed modprobe "$GENL_MOD"
	mod_idle=$secs
	rmmod "$GENL_MOD"
fi

t0=$(date +%s%N)
"$IBTRACECTL" sim add "$TMP/fattree" --name fat > "$TMP/fat.out" 2>&1 &
add_pid=$!
wait_building fat
seen=$?
timed "$IBTRACECTL" dev
dev_busy=$secs dev_rc=$rc
still=$(kill -0 "$add_pid" 2>/dev/null && echo building || echo built)
show=$("$IBTRACECTL" sim show fat 2>&1)
del_out=$("$IBTRACECTL" sim del fat 2>&1)
del_rc=$?
if [ -n "$GENL_MOD" ]; then
	timed modprobe "$GENL_MOD"
	mod_busy=$secs mod_rc=$rc
	timed rmmod "$GENL_MOD"
	rmmod_busy=$secs rmmod_rc=$rc
fi
wait "$add_pid"
add_rc=$?
t1=$(date +%s%N)
m2=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
echo "# fat tree: MemAvailable fell by $(( (mem0 - m2) / 1024 )) MiB"
echo "# sim add of a fat tree ($(grep -c '^Hca' "$TMP/fattree") HCAs): $(( (t1 - t0) / 1000000 )) ms, exit $add_rc"
echo "# ibtracectl dev: $dev_idle s idle, $dev_busy s during the build ($still when it returned)"
ibt_expect "sim show saw fat being built" 0 "$seen"
ibt_expect "fat tree added: exit 0" 0 "$add_rc"
ibt_match "  its usual output" '^fabric fat: H[^ ]+ ibtsim[0-9]+, .*; sm lite lid 1$' \
	"$(cat "$TMP/fat.out")"
ibt_expect "ibtracectl dev during the build: exit 0" 0 "$dev_rc"
ibt_expect "  answered while the fabric was still being built" building "$still"
secs=$dev_busy
ibt_check "  answered within 5 s ($dev_busy s)" secs_under 5
ibt_expect "sim show during the build: fabric fat building" "fabric fat building" "$show"
ibt_expect "sim del during the build: refused, exit 14 (busy)" \
	"14 Error: the fabric is being built (attribute fabric_name)" "$del_rc $del_out"
if [ -n "$GENL_MOD" ]; then
	echo "# modprobe $GENL_MOD: $mod_idle s idle, $mod_busy s during the build; rmmod: $rmmod_busy s"
	# Held behind the build (genl_mutex), it would wait for the build's
	# end (minutes); the bound is 10 s more than the idle modprobe took
	# (8 s on the debug kernel).
	bound=$(( ${mod_idle%.*} + 10 ))
	ibt_expect "modprobe $GENL_MOD during the build: exit 0" 0 "$mod_rc"
	secs=$mod_busy
	ibt_check "  within $bound s ($mod_busy s)" secs_under "$bound"
	ibt_expect "rmmod $GENL_MOD during the build: exit 0" 0 "$rmmod_rc"
	secs=$rmmod_busy
	ibt_check "  within $bound s ($rmmod_busy s)" secs_under "$bound"
else
	ibt_skip_one "modprobe of a generic netlink module during the build" \
		"no wireguard, team or macsec module"
fi
ibt_check "sim del fat" "$IBTRACECTL" sim del fat

# rmmod during a build: the build stops, undoes itself, and the module goes.
"$IBTRACECTL" sim add "$TMP/fattree" --name fat2 > "$TMP/fat2.out" 2>&1 &
add_pid=$!
ibt_check "sim show: fat2 being built" wait_building fat2
timed rmmod ibtrace_sim
echo "# rmmod ibtrace_sim during a build: $secs s"
ibt_expect "rmmod ibtrace_sim during a build: exit 0" 0 "$rc"
ibt_check "  within 30 s ($secs s)" secs_under 30
wait "$add_pid"
ibt_expect "  sim add reports the failure: exit 1" 1 "$?"
ibt_match "  and why" "^Error: " "$(cat "$TMP/fat2.out")"
ibt_expect "  no ibtsim device left" "" \
	"$(ls /sys/class/infiniband 2>/dev/null | grep ibtsim)"

ibt_done
