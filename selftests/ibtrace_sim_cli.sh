#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ibtracectl's sim object against ibtrace_sim: add a fabric of two HCAs and
# a switch from a file, see its RDMA devices and nodes (text and JSON) and
# SM-lite's LIDs and Active ports (sm none and Init with --no-sm), a
# malformed topology reported as "Error: line N:" with nothing left, a
# topology larger than one netlink attribute, del, and the exit codes for
# usage errors (2), the module not loaded (3) and no CAP_NET_ADMIN (5, for
# show too).

source "$(dirname "$0")/lib.sh"

ibt_tmpdir
chmod 755 "$TMP"	# read by the unprivileged run below

ibt_require_root
ibt_require_file "$SIM_KO" "$IBTRACECTL"
ibt_require_cmd jq setpriv

ibt_require_modules ib_core ib_umad
rmmod ibtrace_sim 2>/dev/null

# run CMD...: stdout and stderr of "ibtracectl CMD..." in $out, status in $rc
run()
{
	out=$("$IBTRACECTL" "$@" 2>&1)
	rc=$?
}

cat > "$TMP/topo" <<'TOPO'
# two HCAs behind one switch
Switch 4 "S"
[1] "HcaA"[1]
[2] "HcaB"[1]

Hca 1 "HcaA"
[1] "S"[1]

Hca 1 "HcaB"
[1] "S"[2]
TOPO
chmod 644 "$TMP/topo"

# Module absent ------------------------------------------------------------

# Resolving the family makes the kernel load ibtrace_sim by its alias if
# it is installed: point the kernel's modprobe elsewhere meanwhile.
KMODPROBE=$(cat /proc/sys/kernel/modprobe)
ibt_at_exit "echo $KMODPROBE > /proc/sys/kernel/modprobe"
echo /bin/true > /proc/sys/kernel/modprobe
run sim show
ibt_expect "module absent: exit 3" 3 "$rc"
ibt_expect "module absent: message" \
	"Error: ibtrace_sim kernel module is not loaded (modprobe ibtrace_sim)" "$out"
run sim add "$TMP/topo"
ibt_expect "module absent: add exits 3" 3 "$rc"
echo "$KMODPROBE" > /proc/sys/kernel/modprobe

ibt_check "insmod ibtrace_sim" insmod "$SIM_KO"

# Usage errors ---------------------------------------------------------------

run sim add
ibt_expect "add without a file: exit 2" 2 "$rc"
ibt_match "  names TOPOLOGY_FILE" '^Error: .*TOPOLOGY_FILE' "$out"
run sim frob
ibt_expect "unknown sim command: exit 2" 2 "$rc"
ibt_match "  names the word" '^Error: unknown sim command "frob"' "$out"
run sim add "$TMP/topo" --name 'bad name'
ibt_expect "bad --name: exit 2" 2 "$rc"
ibt_match "  names it" '^Error: bad fabric name "bad name"' "$out"
run sim add "$TMP/topo" --seed 4294967296
ibt_expect "--seed past 32 bits: exit 2" 2 "$rc"
ibt_match "  names it" '^Error: bad --seed "4294967296"' "$out"
run sim del
ibt_expect "del without a name: exit 2" 2 "$rc"
run sim show a b
ibt_expect "show with two names: exit 2" 2 "$rc"
ibt_match "  names the extra word" '^Error: unexpected argument "b"' "$out"
ibt_expect "no fabric made by usage errors" "" "$(ibt_sim_devs)"

# add ------------------------------------------------------------------------

run sim add "$TMP/topo" --name t0
ibt_expect "sim add: exit 0" 0 "$rc"
ibt_match "sim add prints the fabric, its HCA devices and SM-lite's LID" \
	'^fabric t0: HcaA ibtsim[0-9]+, HcaB ibtsim[0-9]+; sm lite lid 1$' "$out"
A=$(sed -n 's/.*HcaA \(ibtsim[0-9]*\).*/\1/p' <<< "$out")
B=$(sed -n 's/.*HcaB \(ibtsim[0-9]*\).*/\1/p' <<< "$out")
ibt_check "device $A of HcaA exists" test -e "/sys/class/infiniband/$A"
ibt_check "device $B of HcaB exists" test -e "/sys/class/infiniband/$B"
ibt_expect "exactly the two devices" "$(printf '%s\n' "$A" "$B" | sort | tr '\n' ' ')" \
	"$(ibt_sim_devs | tr ' ' '\n' | sed '/^$/d' | sort | tr '\n' ' ')"

run sim add "$TMP/topo" --name t0
ibt_expect "a second fabric t0 is refused: exit 1" 1 "$rc"
ibt_match "  with one Error: line" '^Error: ' "$out"

# show -----------------------------------------------------------------------

run -j sim show
ibt_expect "sim show -j: exit 0" 0 "$rc"
ibt_expect "  one fabric, t0" "t0" "$(jq -r '.[].fabric' <<< "$out" 2>&1)"
ibt_expect "  nodes S, HcaA, HcaB with their types" "S switch HcaA ca HcaB ca" \
	"$(jq -r '[.[0].nodes[] | .name, .type] | join(" ")' <<< "$out" 2>&1)"
ibt_expect "  HCA devices" "$A $B" \
	"$(jq -r '[.[0].nodes[] | select(.type == "ca") | .dev] | join(" ")' <<< "$out" 2>&1)"
ibt_expect "  counts" "2 1 2" \
	"$(jq -r '.[0] | "\(.cas) \(.switches) \(.links)"' <<< "$out" 2>&1)"
ibt_expect "  SM-lite runs, its LID 1 (S, the first node)" "lite 1" \
	"$(jq -r '.[0] | "\(.sm) \(.sm_lid)"' <<< "$out" 2>&1)"
ibt_expect "  SM-lite's LIDs (S 1, HcaA 2, HcaB 3), ports Active" \
	"1 ACTIVE 2 ACTIVE 3 ACTIVE" \
	"$(jq -r '[.[0].nodes[].ports[] | select(.peer != null or .port == 0) |
		select(.lid != 0) | "\(.lid) \(.state)"] | join(" ")' <<< "$out" 2>&1)"
ibt_expect "  switch ports 0..4, port 1 linked to HcaA/1" "0 1 2 3 4 HcaA/1" \
	"$(jq -r '.[0].nodes[0] | ([.ports[].port | tostring] | join(" ")) + " " +
		(.ports[1].peer | "\(.name)/\(.port)")' <<< "$out" 2>&1)"
ibt_match "  GUIDs and counters" '^0x[0-9a-f]{16} [0-9]+ [0-9]+ [0-9]+$' \
	"$(jq -r '.[0].nodes[1] | "\(.guid) \(.ports[0].rx) \(.ports[0].tx) \(.ports[0].drops)"' <<< "$out" 2>&1)"

run sim show t0
ibt_expect "sim show t0: exit 0" 0 "$rc"
ibt_match "  fabric line" '^fabric t0 cas 2 switches 1 links 2 seed [0-9]+ sm lite lid 1$' "$out"
ibt_match "  HCA line" "^  ca HcaA guid 0x[0-9a-f]{16} dev $A\$" "$out"
ibt_match "  port line" \
	'^    port 1 lid 0x2 state ACTIVE peer S/1 rx [0-9]+ tx [0-9]+ drops [0-9]+$' "$out"
run sim show nope
ibt_expect "show of an unknown fabric: exit 1" 1 "$rc"
ibt_match "  says so" '^Error: no such fabric' "$out"

# Malformed topology ---------------------------------------------------------

printf 'Hca 1 "A"\n[1] "B"[1]\n\nHca 1 B\n' > "$TMP/bad"
run sim add "$TMP/bad" --name bad
ibt_expect "malformed topology: exit 1" 1 "$rc"
ibt_match "  Error: line 4: reason" '^Error: line 4: .+' "$out"
ibt_expect "  one line" 1 "$(wc -l <<< "$out")"
run sim show bad
ibt_expect "  no fabric left" 1 "$rc"
ibt_expect "  no device left" "$A $B " "$(ibt_sim_devs)"

# Topology of several TOPOLOGY attributes (> 64 KiB), error line counted across
{
	for i in $(seq 2000); do
		printf '# padding line %04d .........................................\n' "$i"
	done
	cat "$TMP/topo"
} > "$TMP/big"
ibt_match "big topology file > 64 KiB" '^[0-9]{6}' "$(stat -c %s "$TMP/big")"
run sim add "$TMP/big" --name big
ibt_match "big topology accepted" '^fabric big: HcaA ibtsim[0-9]+, HcaB ibtsim[0-9]+; sm lite lid 1$' "$out"
run sim del big
ibt_expect "big fabric deleted" 0 "$rc"
{ cat "$TMP/big"; printf 'Hca 1 B\n'; } > "$TMP/bigbad"
run sim add "$TMP/bigbad"
ibt_match "big malformed: error line counted across pieces" \
	"^Error: line $(( $(wc -l < "$TMP/big") + 1 )): " "$out"
ibt_expect "  exit 1" 1 "$rc"

# Permissions ----------------------------------------------------------------

out=$(ibt_unpriv sim add "$TMP/topo" --name nobody 2>&1)
rc=$?
ibt_expect "unprivileged add: exit 5" 5 "$rc"
ibt_match "  one Error: line" '^Error: ' "$out"
out=$(ibt_unpriv sim del t0 2>&1)
ibt_expect "unprivileged del: exit 5" 5 "$?"
out=$(ibt_unpriv sim show t0 2>&1)
ibt_expect "unprivileged show (nodes: the fabric's layout): exit 5" 5 "$?"

# del ------------------------------------------------------------------------

run sim del t0
ibt_expect "sim del t0: exit 0" 0 "$rc"
ibt_expect "  prints nothing" "" "$out"
ibt_check "  device $A gone" test ! -e "/sys/class/infiniband/$A"
ibt_check "  device $B gone" test ! -e "/sys/class/infiniband/$B"
ibt_expect "  no ibtsim device left" "" "$(ibt_sim_devs)"
run sim del t0
ibt_expect "del of an unknown fabric: exit 1" 1 "$rc"
run -j sim show
ibt_expect "show -j of no fabric: []" "[]" "$out"

run -j sim add "$TMP/topo" --name j0
ibt_expect "sim add -j: fabric and nodes" "j0 S:switch HcaA:ca HcaB:ca" \
	"$(jq -r '[.fabric, (.nodes[] | "\(.name):\(.type)")] | join(" ")' <<< "$out" 2>&1)"
ibt_match "  HCA dev and GUID" '^ibtsim[0-9]+ 0x[0-9a-f]{16}$' \
	"$(jq -r '.nodes[1] | "\(.dev) \(.guid)"' <<< "$out" 2>&1)"
ibt_expect "  sm lite, sm_lid 1" "lite 1" \
	"$(jq -r '"\(.sm) \(.sm_lid)"' <<< "$out" 2>&1)"
ibt_check "  and del of it" "$IBTRACECTL" sim del j0

run sim add "$TMP/topo" --name n0 --no-sm
ibt_match "sim add --no-sm: sm none" '^fabric n0: HcaA ibtsim[0-9]+, HcaB ibtsim[0-9]+; sm none$' "$out"
run -j sim show n0
ibt_expect "  show -j: sm none, no sm_lid" "none null" \
	"$(jq -r '.[0] | "\(.sm) \(.sm_lid)"' <<< "$out" 2>&1)"
ibt_expect "  ports in INIT without LIDs" "0 INIT 0 INIT 0 INIT 0 INIT 0 INIT" \
	"$(jq -r '[.[0].nodes[].ports[] | select(.peer != null or .port == 0) |
		"\(.lid) \(.state)"] | join(" ")' <<< "$out" 2>&1)"
ibt_check "  and del of it" "$IBTRACECTL" sim del n0

# default name
run sim add "$TMP/topo"
ibt_match "add without --name: a simN name" '^fabric sim[0-9]+: ' "$out"
name=$(sed -n 's/^fabric \([^:]*\):.*/\1/p' <<< "$out")
ibt_check "  and del of it" "$IBTRACECTL" sim del "$name"

ibt_check "rmmod ibtrace_sim" rmmod ibtrace_sim
ibt_done
