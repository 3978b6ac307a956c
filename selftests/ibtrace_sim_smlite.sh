#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# SM-lite, ibtrace_sim's built-in subnet manager, with no OpenSM: on
# ibsim's net.2sw2path4hca (two switches joined by two parallel links; its
# first node, a switch, runs the SM), on every other ibsim example, on a
# generated two-level fat tree of 504 HCAs (pairs sampled) and on a chain
# of three switches whose first node is an HCA. Every linked port Active,
# LIDs unique, the first
# node LID 1, the same LIDs after del + add, MasterSMLID = the SM's LID,
# ibnetdiscover's nodes and links equal the file's, ibtracert between
# every pair of HCAs (of five on the fat tree), the parallel links share the routes, ibtrace pings
# by LID reach every HCA and by GID go through SM-lite's SA (PathRecord
# via ib_sa), a GID of no port fails with exit 1, saquery gets the SA's
# ClassPortInfo and "unsupported method" for a GetTable. --no-sm leaves
# the ports in Init without LIDs.

source "$(dirname "$0")/lib.sh"

EXAMPLES=${IBTRACE_NET_EXAMPLES:-/usr/share/doc/ibsim-utils/net-examples}
NET_2SW=${IBTRACE_NET_2SW:-$EXAMPLES/net.2sw2path4hca}
# The fat tree (gen_fattree.sh KEY=VALUE...; default 504 HCAs).
FATTREE=${IBTRACE_FATTREE:-}
ibt_tmpdir

ibt_require_root
ibt_require_file "$SIM_KO" "$IBTRACECTL"
ibt_require_cmd jq smpquery ibnetdiscover ibtracert ibroute

ibt_require_modules ib_core ib_umad
ibt_sim_load
ibt_check "ibtrace loads" ibt_modprobe_ibtrace

cat > "$TMP/chain" <<'TOPO'
Hca 1 "H1"
[1] "SwA"[1]

Switch 4 "SwA"
[1] "H1"[1]
[2] "SwB"[1]
[3] "H2"[1]

Switch 4 "SwB"
[1] "SwA"[2]
[2] "SwC"[1]
[3] "H3"[1]

Switch 4 "SwC"
[1] "SwB"[2]
[2] "H4"[1]

Hca 1 "H2"
[1] "SwA"[3]

Hca 1 "H3"
[1] "SwB"[3]

Hca 1 "H4"
[1] "SwC"[2]
TOPO

# The links of a topology file: "nameA/p nameB/q" per link, ends sorted.
file_links()
{
	awk '
		/^(Switch|Hca|Ca)[ \t]/ {
			match($0, /"[^"]*"/)
			node = substr($0, RSTART + 1, RLENGTH - 2)
		}
		/^\[[0-9]+\]/ {
			p = $0; sub(/^\[/, "", p); sub(/\].*/, "", p)
			match($0, /"[^"]*"/)
			peer = substr($0, RSTART + 1, RLENGTH - 2)
			q = substr($0, RSTART + RLENGTH); sub(/^\[/, "", q)
			sub(/\].*/, "", q)
			a = node "/" p; b = peer "/" q
			print (a < b ? a " " b : b " " a)
		}' "$1" | sort -u
}

# The same from "ibnetdiscover -p" on device $1 port $2 (default 1).
disc_links()
{
	ibnetdiscover -C "$1" -P "${2:-1}" -t 300 -p 2>/dev/null | sed -nE \
		"s/^(CA|SW) +[0-9]+ +([0-9]+) .* - +(CA|SW) +[0-9]+ +([0-9]+) .*\( *'([^']*)' +- +'([^']*)' *\).*/\5\/\2 \6\/\4/p" |
		awk '{ print ($1 < $2 ? $1 " " $2 : $2 " " $1) }' | sort -u
}

# "name lid" of every HCA port and switch port 0 of fabric $1, by node.
lids()
{
	"$IBTRACECTL" -j sim show "$1" | jq -r '.[0].nodes[] | .name as $n |
		.type as $t | .ports[] |
		select(.port == 0 or ($t == "ca" and .peer != null)) |
		"\($n)/\(.port) \(.lid)"'
}

# The GID (fe80::...) of port GUID $1.
gid_of_guid()
{
	local g=${1#0x}

	echo "fe80::${g:0:4}:${g:4:4}:${g:8:4}:${g:12:4}"
}

# check_fabric NAME FILE FIRST: the SM-lite checks on a fabric of FILE
# whose first node is FIRST ("name/port" of its LID-holding port).
check_fabric()
{
	local name=$1 file=$2 first=$3
	local js show out sm_lid n bad devs lids1 hcas i j src sport port pick

	js=$("$IBTRACECTL" -j sim add "$file" --name "$name")
	ibt_expect "$name: sim add: exit 0" 0 "$?"
	ibt_expect "$name: sim add -j: sm lite" lite "$(jq -r .sm <<< "$js")"
	sm_lid=$(jq -r .sm_lid <<< "$js")
	ibt_expect "$name: SM LID 1 (the first node of the file)" 1 "$sm_lid"
	ibt_match "$name: sim show: fabric line ends in sm lite lid 1" \
		"^fabric $name .* sm lite lid 1\$" \
		"$("$IBTRACECTL" sim show "$name" | head -1)"

	show=$("$IBTRACECTL" -j sim show "$name")
	ibt_expect "$name: sim show -j: sm lite, sm_lid 1" "lite 1" \
		"$(jq -r '.[0] | "\(.sm) \(.sm_lid)"' <<< "$show")"
	n=$(jq '[.[0].nodes[].ports[] | select(.peer != null)] | length' <<< "$show")
	bad=$(jq -r '.[0].nodes[] | .name as $n | .ports[] |
		select((.peer != null or .port == 0) and .state != "ACTIVE") |
		"\($n)/\(.port) \(.state)"' <<< "$show")
	ibt_expect "$name: all $n linked ports and switch ports 0 Active" "" "$bad"
	lids1=$(lids "$name")
	ibt_expect "$name: every HCA port and switch has a LID" "" \
		"$(awk '$2 == 0' <<< "$lids1")"
	ibt_expect "$name: LIDs unique" "" \
		"$(awk '{ print $2 }' <<< "$lids1" | sort | uniq -d)"
	ibt_expect "$name: $first holds LID 1" "$first 1" \
		"$(grep "^$first " <<< "$lids1")"

	# "name dev lid guid port" of each HCA's first linked port.
	devs=$(jq -r '.[0].nodes[] | select(.dev != null) |
		first(.ports[] | select(.peer != null)) as $p |
		"\(.name) \(.dev) \($p.lid) \($p.guid) \($p.port)"' <<< "$show")
	hcas=$(wc -l <<< "$devs")
	read -r _ src _ _ sport <<< "$(head -1 <<< "$devs")"
	ibt_match "$name: smpquery portinfo: SMLid 1, LinkUp, Active" \
		'SMLid:\.+1 .*LinkState:\.+Active.*PhysLinkState:\.+LinkUp' \
		"$(smpquery -C "$src" -P "$sport" -t 300 portinfo "$(sed -n 1p <<< "$devs" | cut -d' ' -f3)" 2>&1 | tr '\n' ' ')"
	ibt_expect "$name: sysfs sm_lid of $src" 0x1 \
		"$(cat /sys/class/infiniband/"$src"/ports/"$sport"/sm_lid)"

	ibt_expect "$name: ibnetdiscover's links = the file's" \
		"$(file_links "$file")" "$(disc_links "$src" "$sport")"

	# Every HCA of a small fabric; of a large one, a sample spread
	# over it (first, second, middle, last but one, last).
	if [ "$hcas" -le 6 ]; then
		pick=$(seq "$hcas")
	else
		pick=$(printf '%s\n' 1 2 $((hcas / 2)) $((hcas - 1)) "$hcas")
	fi
	# ibtracert from $src: a kernel has umad devices for the first 256
	# ports only, and ibtracert traces between any two LIDs anyway.
	bad=
	for i in $pick; do
		for j in $pick; do
			local a b la lb nb dev out

			[ "$i" = "$j" ] && continue
			read -r a dev la _ <<< "$(sed -n "${i}p" <<< "$devs")"
			read -r b _ lb _ <<< "$(sed -n "${j}p" <<< "$devs")"
			out=$(ibtracert -C "$src" -P "$sport" -t 300 "$la" "$lb" 2>&1 |
				tr '\n' ' ' | tr -s ' ')
			grep -qE "^From ca .*\"$a\" .*To ca .*lid $lb-$lb \"$b\"" <<< "$out" ||
				bad="$bad $a->$b"
		done
	done
	ibt_expect "$name: ibtracert between every pair of $(wc -w <<< $pick) of $hcas HCAs" "" "$bad"

	# SM-lite's routes: ibtracectl's hops equal ibtracert's, from $src
	bad=
	for j in $pick; do
		local b lb want got

		[ "$j" = 1 ] && continue
		read -r b _ lb _ <<< "$(sed -n "${j}p" <<< "$devs")"
		want=$(ibt_rert_path "$src" "$sport" "$(sed -n 1p <<< "$devs" |
			cut -d' ' -f3)" "$lb")
		got=$("$IBTRACECTL" -j -d "$src" -p "$sport" trace --dlid "$lb" \
			-t 500 2>/dev/null | ibt_trace_path)
		[ -n "$want" ] && [ "$want" = "$got" ] || bad="$bad $b"
	done
	ibt_expect "$name: ibtracectl trace from the first HCA = ibtracert (SM-lite routes)" "" "$bad"

	bad=
	for j in $pick; do
		[ "$j" = 1 ] && continue
		read -r b _ lb _ <<< "$(sed -n "${j}p" <<< "$devs")"
		js=$("$IBTRACECTL" -j -d "$src" -p "$sport" ping --dlid "$lb" -c 3 -i 0 -t 500)
		[ "$?" = 0 ] && [ "$(jq -r .summary.received <<< "$js")" = 3 ] ||
			bad="$bad $b"
	done
	ibt_expect "$name: ping --dlid -c 3 from $src answered by the other $(($(wc -w <<< $pick) - 1)) HCAs" "" "$bad"

	# The other HCAs ping $src's agent all at once: each gets every
	# answer, from $src's LID. The agent keeps its answers' address
	# handles per source (ibtrace(4), Counters): one per HCA at least.
	local la m0 m1 pids=() srcs=0
	la=$(head -1 <<< "$devs" | cut -d' ' -f3)
	m0=$("$IBTRACECTL" -j -d "$src" -p "$sport" agent show | jq -r '.[0].ah_made')
	for j in $pick; do
		[ "$j" = 1 ] && continue
		read -r _ dev _ _ port <<< "$(sed -n "${j}p" <<< "$devs")"
		"$IBTRACECTL" -j -d "$dev" -p "$port" ping --dlid "$la" -c 30 -i 0 -t 500 \
			>"$TMP/many.$j" 2>/dev/null &
		pids+=($!)
		srcs=$((srcs + 1))
	done
	wait "${pids[@]}"
	bad=
	for j in $pick; do
		[ "$j" = 1 ] && continue
		read -r b _ <<< "$(sed -n "${j}p" <<< "$devs")"
		[ "$(jq -r '"\(.summary.received) \([.probes[].slid] | unique)"' "$TMP/many.$j" 2>/dev/null)" = "30 [$la]" ] ||
			bad="$bad $b"
	done
	ibt_expect "$name: the other picked HCAs ($srcs) ping $src at once: each gets its 30 answers from LID $la" "" "$bad"
	m1=$("$IBTRACECTL" -j -d "$src" -p "$sport" agent show | jq -r '.[0].ah_made')
	ibt_check "  $src's agent made a handle per source at least ($((m1 - m0)) for $srcs)" \
		test "$((m1 - m0))" -ge "$srcs"

	read -r b _ lb guid _ <<< "$(tail -1 <<< "$devs")"
	js=$("$IBTRACECTL" -j -d "$src" -p "$sport" ping --dgid "$(gid_of_guid "$guid")" -c 2 -i 0 -t 500)
	ibt_expect "$name: ping --dgid <$b's GID> from $src (SA PathRecord): exit 0" 0 "$?"
	ibt_expect "$name:   2 answered from $b's LID $lb" "2 $lb" \
		"$(jq -r '"\(.summary.received) \(.probes[0].slid)"' <<< "$js")"
	read -r b dev _ _ port <<< "$(tail -1 <<< "$devs")"
	read -r _ _ lb guid _ <<< "$(sed -n 2p <<< "$devs")"
	js=$("$IBTRACECTL" -j -d "$dev" -p "$port" ping --dgid "$(gid_of_guid "$guid")" -c 1 -t 500)
	ibt_expect "$name: ping --dgid the other way, from $b: answered by LID $lb" \
		"0 $lb" "$? $(jq -r '.probes[0].slid' <<< "$js")"
	out=$(timeout 60 "$IBTRACECTL" -d "$src" -p "$sport" ping --dgid fe80::dead:beef:0:1 -c 1 -t 500 2>&1)
	ibt_expect "$name: ping --dgid of no port: exit 1" 1 "$?"
	ibt_match "$name:   the SA lookup failed" "SA PathRecord" "$out"

	ibt_check "$name: delete" "$IBTRACECTL" sim del "$name"
	out=$("$IBTRACECTL" sim add "$file" --name "$name")
	ibt_match "$name: sim add text ends in sm lite lid 1" \
		"^fabric $name: .*; sm lite lid 1\$" "$out"
	ibt_expect "$name: same LIDs after del + add" "$lids1" "$(lids "$name")"
}

# net.2sw2path4hca: the SM on a switch ------------------------------------------

if [ -r "$NET_2SW" ]; then
	check_fabric two "$NET_2SW" Switch1/0
	show=$("$IBTRACECTL" -j sim show two)
	src=$(jq -r '[.[0].nodes[] | select(.dev != null)][0].dev' <<< "$show")
	# Switch1's routes to Switch2's HCAs (Hca2, Hca4) over ports 3 and 5.
	out=$(ibroute -C "$src" -P 1 -t 300 1 2>&1)
	ports=$(for h in Hca2 Hca4; do
		grep "'$h'" <<< "$out" | awk '{ print $2 }'
	done | sort | tr '\n' ' ')
	ibt_expect "two: Switch1 spreads Hca2, Hca4 over both parallel links" \
		"003 005 " "$ports"
	ibt_match "two: ibroute 1: LinearFDBTop-bounded dump of 6 LIDs" \
		'^6 (valid )?lids dumped' "$out"
	if command -v saquery >/dev/null 2>&1; then
		out=$(saquery -C "$src" -P 1 -t 500 -c 2>&1)
		ibt_expect "two: saquery -c (SA ClassPortInfo): exit 0" 0 "$?"
		ibt_match "two:   SA class version 2" 'Class version\.+2 ' \
			"$(tr '\n' ' ' <<< "$out")"
		out=$(saquery -C "$src" -P 1 -t 500 2>&1)
		ibt_expect "two: saquery NodeRecords (GetTable): fails" 1 \
			$(( $? != 0 ))
		ibt_match "two:   with status 0x0008 (unsupported method)" \
			'(0x0*8\b|[Uu]nsupported method)' "$out"
	else
		ibt_skip_one "saquery ClassPortInfo" "no saquery"
		ibt_skip_one "saquery GetTable unsupported" "no saquery"
	fi
	ibt_check "two: delete" "$IBTRACECTL" sim del two
else
	ibt_skip_one "SM-lite on net.2sw2path4hca" "no $NET_2SW"
fi

# Every other ibsim example, and a generated fat tree (sampled pairs) -------------

# first_port FILE: "name/port" of the first node of FILE that holds its
# LID: port 0 of a switch, the first linked port of an HCA.
first_port()
{
	awk '
		!node && /^(Switch|Hca|Ca)[ \t]/ {
			match($0, /"[^"]*"/)
			node = substr($0, RSTART + 1, RLENGTH - 2)
			if ($1 == "Switch") { print node "/0"; exit }
			next
		}
		node && /^\[[0-9]+\]/ {
			p = $0; sub(/^\[/, "", p); sub(/\].*/, "", p)
			print node "/" p; exit
		}' "$1"
}

for f in "$EXAMPLES"/net*; do
	[ -r "$f" ] || continue
	[ "$f" = "$NET_2SW" ] && continue
	b=$(basename "$f")
	check_fabric "${b//./_}" "$f" "$(first_port "$f")"
	ibt_check "${b//./_}: delete" "$IBTRACECTL" sim del "${b//./_}"
done

"$IBT_DIR/gen_fattree.sh" $FATTREE > "$TMP/fattree" ||
	ibt_fail "gen_fattree.sh $FATTREE"
check_fabric fat "$TMP/fattree" "$(first_port "$TMP/fattree")"
ibt_check "fat: delete" "$IBTRACECTL" sim del fat

# A chain of three switches: the SM on an HCA -------------------------------------

check_fabric chain "$TMP/chain" H1/1
ibt_expect "chain: LIDs in breadth-first order from H1" \
	"H1/1 1 SwA/0 2 SwB/0 3 SwC/0 5 H2/1 4 H3/1 6 H4/1 7" \
	"$(lids chain | tr '\n' ' ' | sed 's/ $//')"

# A link taken down and brought back up: SM-lite sweeps again and the
# path through it works again, with the same LIDs.
state_of() {	# NODE PORT
	"$IBTRACECTL" -j sim show chain | jq -r --arg n "$1" --argjson p "$2" \
		'.[0].nodes[] | select(.name == $n) | .ports[] |
		select(.port == $p) | .state'
}
h1=$("$IBTRACECTL" -j sim show chain | jq -r '.[0].nodes[] | select(.name == "H1") | .dev')
ibt_check "chain: link SwB-SwC down" "$IBTRACECTL" sim set chain SwB port 2 link down
ibt_expect "chain:   both ends Down" "DOWN DOWN" "$(state_of SwB 2) $(state_of SwC 1)"
"$IBTRACECTL" -d "$h1" ping --dlid 7 -c 1 -t 300 -r 0 >/dev/null 2>&1
ibt_expect "chain:   H1 cannot reach H4 (LID 7) across it: exit 6" 6 "$?"
ibt_check "chain: link up" "$IBTRACECTL" sim set chain SwB port 2 link up
for i in $(seq 50); do
	[ "$(state_of SwB 2) $(state_of SwC 1)" = "ACTIVE ACTIVE" ] && break
	sleep 0.2
done
ibt_expect "chain:   SM-lite brings both ends back to Active" "ACTIVE ACTIVE" \
	"$(state_of SwB 2) $(state_of SwC 1)"
"$IBTRACECTL" -d "$h1" ping --dlid 7 -c 2 -i 0 -t 500 >/dev/null 2>&1
ibt_expect "chain:   H1 reaches H4 again" 0 "$?"
ibt_expect "chain:   same LIDs after the re-sweep" \
	"H1/1 1 SwA/0 2 SwB/0 3 SwC/0 5 H2/1 4 H3/1 6 H4/1 7" \
	"$(lids chain | tr '\n' ' ' | sed 's/ $//')"
ibt_check "chain: delete" "$IBTRACECTL" sim del chain

# --no-sm --------------------------------------------------------------------------

js=$("$IBTRACECTL" -j sim add "$TMP/chain" --name nosm --no-sm)
ibt_expect "--no-sm: sm none, no sm_lid" "none null" \
	"$(jq -r '"\(.sm) \(.sm_lid)"' <<< "$js")"
ibt_match "--no-sm: sim show says sm none" '^fabric nosm .* sm none$' \
	"$("$IBTRACECTL" sim show nosm | head -1)"
ibt_expect "--no-sm: every port with a link in Init, LID 0" "" \
	"$("$IBTRACECTL" -j sim show nosm | jq -r '.[0].nodes[] | .name as $n |
		.ports[] | select(.peer != null or .port == 0) |
		select(.state != "INIT" or .lid != 0) | "\($n)/\(.port)"')"
ibt_check "--no-sm: delete" "$IBTRACECTL" sim del nosm

ibt_check "rmmod ibtrace" ibt_unload_ibtrace
ibt_check "rmmod ibtrace_sim" rmmod ibtrace_sim
ibt_done
