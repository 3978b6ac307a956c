#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Unmodified OpenSM and infiniband-diags accept ibtrace_sim as a real
# subnet, at scale. For every ibsim example topology
# (/usr/share/doc/ibsim-utils/net-examples/net*) and a generated
# two-level fat tree of 504 HCAs (gen_fattree.sh), with SM-lite off:
# `opensm -o` on one sim HCA reports SUBNET UP and every linked port
# (and every switch's port 0) is Active; ibnetdiscover finds exactly the
# nodes (names, types, port counts, GUIDs) and links of the topology
# file; ibtracert between HCA pairs (all pairs of the examples, 16
# deterministic samples of the fat tree) ends at the right node; with
# OpenSM running, saquery returns path records; smpquery nodeinfo,
# portinfo and guids are answered.
# Then teardown under load: with OpenSM sweeping, an umad user (ibping
# server and a looping smpquery) and `ibtracectl ping` all active, the
# fabric is deleted, and in a second round the module is unloaded with
# the fabric still there: both return within a bound, the users see
# errors and exit, nothing stays behind, and the kernel log stays clean.
#
# Needs ~1 GiB in the VM for the fat tree (vm-run's default 2048 MB).
# IBTRACE_FATTREE="KEY=VALUE..." changes the fat tree (gen_fattree.sh).

source "$(dirname "$0")/lib.sh"

GEN=$IBT_DIR/gen_fattree.sh
EXAMPLES=${IBTRACE_NET_EXAMPLES:-/usr/share/doc/ibsim-utils/net-examples}
FATTREE=${IBTRACE_FATTREE:-}
ibt_tmpdir
# The VM is ours: no OpenSM may outlive this test.
ibt_at_exit 'pkill -9 -x opensm 2>/dev/null'

ibt_require_root
ibt_require_file "$SIM_KO" "$SIM_CTL"
ibt_require_cmd opensm ibnetdiscover ibtracert saquery smpquery ibping timeout
ibt_require_modules ib_core ib_umad
ibt_sim_load

# Helpers ---------------------------------------------------------------------

# One line per port of fabric $1:
#   NAME TYPE DEV PORT GUID LID STATE PEER(or -)
ports_of()
{
	"$SIM_CTL" nodes "$1" | awk '
	function flush() {
		if (port != "")
			print name, type, dev, port, pguid, lid, state, peer
		port = ""
	}
	{
		name = type = port = ""; dev = "-"
		for (i = 1; i <= NF; i++) {
			if (port == "" && $i == "type") type = $(i + 1)
			else if (port == "" && $i == "name") {
				name = $(i + 1); gsub(/"/, "", name)
			} else if ($i == "dev") dev = $(i + 1)
			else if ($i == "port") {
				flush(); port = $(i + 1)
				pguid = "-"; lid = 0; state = "-"; peer = "-"
			} else if (port != "" && $i == "guid") pguid = $(i + 1)
			else if ($i == "lid") lid = $(i + 1)
			else if ($i == "state") state = $(i + 1)
			else if ($i == "peer") peer = $(i + 1)
		}
		flush()
	}'
}

# Normalized nodes and links of an ibnetdiscover/ibsim text (stdin):
#   node TYPE NPORTS NAME      (TYPE ca or switch)
#   link NAME:PORT NAME:PORT   (the two ends in sorted order)
# A node is named by its description (ibnetdiscover's comment) or, in a
# topology file, by its name; links refer to nodes by either.
topo_norm()
{
	awk '
	function quoted(s) {
		return match(s, /"[^"]*"/) ? substr(s, RSTART + 1, RLENGTH - 2) : ""
	}
	/^(Switch|Hca|Ca)[ \t]/ {
		id = quoted($0)
		rest = $0; sub(/^[^#]*#/, "", rest)
		desc = index($0, "#") ? quoted(rest) : ""
		cur = id
		name[id] = desc != "" ? desc : id
		t = $1 == "Switch" ? "switch" : "ca"
		nodes[id] = t " " $2
		next
	}
	/^\[[0-9]+\]/ && cur != "" {
		line = $0; sub(/#.*/, "", line)
		p = substr(line, 2, index(line, "]") - 2) + 0
		peer = quoted(line)
		q = line; sub(/^[^"]*"[^"]*"\[/, "", q); q = q + 0
		links[++n] = cur SUBSEP p SUBSEP peer SUBSEP q
	}
	END {
		for (id in nodes)
			print "node", nodes[id], name[id]
		for (i = 1; i <= n; i++) {
			split(links[i], f, SUBSEP)
			a = name[f[1]] ":" f[2]
			b = (f[3] in name ? name[f[3]] : f[3]) ":" f[4]
			print "link", (a < b ? a " " b : b " " a)
		}
	}' | LC_ALL=C sort -u
}

# NAME GUID of every node of an ibnetdiscover output (stdin).
disc_guids()
{
	awk '/^(switchguid|caguid)=/ {
		g = $0; sub(/^[a-z]*=/, "", g); sub(/\(.*/, "", g); next
	}
	/^(Switch|Ca)[ \t]/ {
		d = $0; sub(/^[^#]*# "/, "", d); sub(/".*/, "", d)
		g = tolower(g); sub(/^0x/, "", g)
		while (length(g) < 16)
			g = "0" g
		print d, "0x" g
	}' | LC_ALL=C sort
}

# Wait up to $2 s for pid $1 to end; true if it did. By the clock, not
# by a count of sleeps: under TCG each "sleep 0.1" costs twice its time.
wait_gone()
{
	local end=$((SECONDS + $2))

	while [ "$SECONDS" -lt "$end" ]; do
		kill -0 "$1" 2>/dev/null && sleep 0.1 || return 0
	done
	! kill -0 "$1" 2>/dev/null
}

# Wait up to $2 s for "SUBNET UP" in OpenSM log $1.
wait_subnet_up()
{
	local i

	for ((i = 0; i < $2 * 5; i++)); do
		grep -q 'SUBNET UP' "$1" 2>/dev/null && return 0
		sleep 0.2
	done
	return 1
}

# OpenSM with a private cache/dump directory (a cache left by another
# run on another fabric would be reported as errors): one sweep by
# ibt_opensm_once; for background runs a simple command, so that $! is
# OpenSM itself (env execs it). A shell function run with & would be a
# subshell, and killing that would leave OpenSM running, writing its log
# into a deleted file until tmpfs is full.
mkdir -p "$TMP/osm"
OSM_ENV=(env OSM_CACHE_DIR="$TMP/osm" OSM_TMP_DIR="$TMP/osm")

# Time since the last call, as a KTAP diagnostic line.
T_LAST=$(date +%s%N)
phase()
{
	local now

	now=$(date +%s%N)
	echo "# $1: $(( (now - T_LAST) / 1000000 )) ms"
	T_LAST=$now
}

# The checks of one topology ---------------------------------------------------

# run_topo LABEL FILE NSAMPLES (0: every HCA port pair)
run_topo()
{
	local label=$1 file=$2 samples=$3 fab=f$RANDOM
	local ports sm smdev smport smguid t0 t1 rc out want got bad
	local lids pairs npairs i s d n slid dlid dname lidv pg ng osm tmo

	if ! out=$("$SIM_CTL" add "$fab" "$file" no-sm 2>&1); then
		ibt_fail "$label: fabric added without SM-lite" "$out"
		return
	fi
	ibt_ok "$label: fabric added without SM-lite ($out)"
	phase "$label: fabric add"
	ports=$(ports_of "$fab")
	# The SM runs on the first linked HCA port of the file.
	sm=$(awk '$2 == "ca" && $8 != "-" { print; exit }' <<< "$ports")
	read -r _ _ smdev smport smguid _ <<< "$sm"

	rm -f "$TMP/osm.log"
	t0=$(date +%s%N)
	ibt_opensm_once "$TMP/osm" 600 "$smguid" "$TMP/osm.log" >"$TMP/osm.out" 2>&1
	rc=$?
	t1=$(date +%s%N)
	ibt_match "$label: opensm -o on $smdev port $smport: SUBNET UP ($(( (t1 - t0) / 1000000 )) ms, exit $rc)" \
		'SUBNET UP' "$(cat "$TMP/osm.log" 2>/dev/null)"

	ports=$(ports_of "$fab")
	bad=$(awk '($8 != "-" || ($2 == "switch" && $4 == 0)) && $7 != "Active" {
		print $1 " port " $4 ": " $7 }' <<< "$ports")
	ibt_expect "$label: every linked port and switch port 0 Active" "" "$bad"

	phase "$label: opensm -o and port states"
	# saquery (below) needs a running SM: a second OpenSM takes over the
	# subnet while the diags run (-d2: it flushes its log at every line).
	# It finds the LIDs of the first in the cache and changes nothing.
	rm -f "$TMP/osm2.log"
	"${OSM_ENV[@]}" opensm -d2 -g "$smguid" -f "$TMP/osm2.log" >/dev/null 2>&1 &
	osm=$!
	IBT_BG_PIDS+=("$osm")
	ibnetdiscover -C "$smdev" -P "$smport" -t 500 > "$TMP/disc" 2>"$TMP/disc.err"
	phase "$label: ibnetdiscover"
	want=$(topo_norm < "$file")
	got=$(topo_norm < "$TMP/disc")
	ibt_expect "$label: ibnetdiscover nodes = the file's ($(grep -c '^node' <<< "$want"))" \
		"$(grep '^node' <<< "$want")" "$(grep '^node' <<< "$got")"
	ibt_expect "$label: ibnetdiscover links = the file's ($(grep -c '^link' <<< "$want"))" \
		"$(grep '^link' <<< "$want")" "$(grep '^link' <<< "$got")"
	ibt_expect "$label: ibnetdiscover node GUIDs = the sim's" \
		"$("$SIM_CTL" nodes "$fab" | sed -n 's/.* name "\([^"]*\)" guid \(0x[0-9a-f]*\).*/\1 \2/p' | LC_ALL=C sort)" \
		"$(disc_guids < "$TMP/disc")"

	# Linked HCA ports with their LIDs: NAME LID.
	lids=$(awk '$2 == "ca" && $8 != "-" { print $1, $6 }' <<< "$ports")
	npairs=0
	pairs=()
	mapfile -t lidv <<< "$lids"
	if [ "$samples" -eq 0 ]; then
		for s in "${lidv[@]}"; do
			for d in "${lidv[@]}"; do
				[ "$s" != "$d" ] && pairs+=("$s $d")
			done
		done
	else
		# Deterministic spread: source i*7, destination i*13 + n/2.
		n=${#lidv[@]}
		for ((i = 0; i < samples; i++)); do
			s=${lidv[$(( (i * 7) % n ))]}
			d=${lidv[$(( (i * 13 + n / 2) % n ))]}
			[ "$s" != "$d" ] && pairs+=("$s $d")
		done
	fi
	# Each SMP's timeout: the debug kernel's umad path (KASAN, lockdep)
	# has been seen to miss 500 ms under load (5 of 16 pairs).
	tmo=500
	ibt_debug_kernel && tmo=4000
	bad=()
	for i in "${pairs[@]}"; do
		read -r _ slid dname dlid <<< "$i"
		npairs=$((npairs + 1))
		out=$(ibtracert -C "$smdev" -P "$smport" -t "$tmo" "$slid" "$dlid" 2>&1)
		grep -Eq "^To ca \{0x[0-9a-f]+\} portnum [0-9]+ lid $dlid-$dlid \"$dname\"" \
			<<< "$out" || bad+=("ibtracert $slid $dlid (to $dname): $(tail -3 <<< "$out" | tr '\n' '|')")
	done
	if [ ${#bad[@]} -eq 0 ] && [ "$npairs" -gt 0 ]; then
		ibt_ok "$label: ibtracert ends at the right HCA for $npairs pairs"
	else
		ibt_fail "$label: ibtracert ends at the right HCA for $npairs pairs" \
			"${bad[@]:0:5}"
	fi

	phase "$label: ibtracert"
	# smpquery by LID: a remote HCA port and a switch.
	read -r dname _ _ _ _ dlid _ <<< "$(awk -v d="$smdev" \
		'$2 == "ca" && $8 != "-" && $3 != d { print; exit }' <<< "$ports")"
	[ -n "$dlid" ] || read -r dname _ _ _ _ dlid _ <<< "$sm"
	out=$(smpquery -C "$smdev" -P "$smport" -t 500 nodeinfo "$dlid" 2>&1)
	ibt_match "$label: smpquery nodeinfo $dlid ($dname) answers" \
		'NodeType:\.+Channel Adapter' "$out"
	out=$(smpquery -C "$smdev" -P "$smport" -t 500 portinfo "$dlid" 2>&1)
	ibt_match "$label: smpquery portinfo $dlid: LID $dlid, Active" \
		"Lid:\.+$dlid .*LinkState:\.+Active" "$(tr '\n' ' ' <<< "$out")"
	# GUIDInfo: entry 0 is the port GUID.
	pg=$(awk -v l="$dlid" '$2 == "ca" && $6 == l { print $5; exit }' <<< "$ports")
	out=$(smpquery -C "$smdev" -P "$smport" -t 500 guidinfo "$dlid" 2>&1)
	ibt_match "$label: smpquery guidinfo $dlid: entry 0 is the port GUID $pg" \
		"^ +0: $pg( |\$)" "$out"
	# A DR SMP to the SM port's neighbor, LID-routed from there (DrDLID)
	# to the HCA: NodeInfo bytes 12..19 are its NodeGUID.
	ng=$("$SIM_CTL" nodes "$fab" | sed -n "s/.* name \"$dname\" guid 0x\([0-9a-f]*\).*/\1/p")
	if [ -x "$SIM_SMP" ]; then
		ibt_match "$label: DR 0,$smport then LID-routed to $dlid ($dname): answered" \
			"^data=.{24}$ng" \
			"$("$SIM_SMP" -C "$smdev" -P "$smport" -t 500 -D "0,$smport" -d "$dlid" get 0x11 0 2>&1)"
	fi
	read -r dname _ _ _ _ dlid _ <<< "$(awk '$2 == "switch" && $4 == 0 { print; exit }' <<< "$ports")"
	if [ -n "$dlid" ]; then
		ibt_match "$label: smpquery nodeinfo $dlid (switch $dname) answers" \
			'NodeType:\.+Switch' \
			"$(smpquery -C "$smdev" -P "$smport" -t 500 nodeinfo "$dlid" 2>&1)"
		ibt_match "$label: smpquery portinfo $dlid 1 (switch $dname)" \
			'LinkState:\.+Active' \
			"$(smpquery -C "$smdev" -P "$smport" -t 500 portinfo "$dlid" 1 2>&1)"
	fi

	phase "$label: smpquery"
	if ! wait_subnet_up "$TMP/osm2.log" 300; then
		ibt_fail "$label: OpenSM (sweeping) back to SUBNET UP for saquery" \
			"$(tail -5 "$TMP/osm2.log" 2>/dev/null)"
	fi
	phase "$label: OpenSM (sweeping since opensm -o) SUBNET UP"
	if [ "$samples" -eq 0 ] && kill -0 "$osm" 2>/dev/null; then
		# Every pair of end ports (CA ports, switch ports 0).
		n=$(awk '($8 != "-" && $2 == "ca") || ($2 == "switch" && $4 == 0) { n++ }
			END { print n }' <<< "$ports")
		out=$(saquery -C "$smdev" -P "$smport" -t 1000 -p 2>&1)
		ibt_expect "$label: saquery -p: a path record for each of the $n x $n end port pairs" \
			$((n * n)) "$(grep -c '^PathRecord dump' <<< "$out")"
	fi
	for i in "${pairs[@]:0:5}"; do
		[ -n "$osm" ] && kill -0 "$osm" 2>/dev/null || break
		read -r _ slid _ dlid <<< "$i"
		ibt_match "$label: saquery --src-to-dst $slid:$dlid: the path record" \
			"PathRecord dump.*dlid\.+$dlid slid\.+$slid " \
			"$(saquery -C "$smdev" -P "$smport" -t 1000 --src-to-dst "$slid:$dlid" 2>&1 | tr -s '\n\t' '  ')"
	done
	kill "$osm" 2>/dev/null
	wait_gone "$osm" 30 || kill -9 "$osm" 2>/dev/null
	wait "$osm" 2>/dev/null
	ibt_expect "$label: no OpenSM left running" "" "$(pgrep -x opensm)"

	ibt_check "$label: fabric deleted" "$SIM_CTL" del "$fab"
	phase "$label: saquery, OpenSM stop, fabric delete"
}

# Topologies ------------------------------------------------------------------

nex=0
for f in "$EXAMPLES"/net*; do
	[ -f "$f" ] || continue
	nex=$((nex + 1))
	run_topo "$(basename "$f")" "$f" 0
done
[ "$nex" -gt 0 ] || ibt_skip_one "ibsim example topologies" "none in $EXAMPLES"

# shellcheck disable=SC2086 # KEY=VALUE words
"$GEN" $FATTREE > "$TMP/fattree" || ibt_fail "gen_fattree.sh $FATTREE"
nhca=$(grep -c '^Hca' "$TMP/fattree")
ibt_expect "fat tree has >= 500 HCAs" 1 $(( nhca >= 500 ))
run_topo "fattree($nhca HCAs)" "$TMP/fattree" 16

# Teardown under load -------------------------------------------------------------

# load_start FABRIC: OpenSM sweeping, an ibping server and a looping
# smpquery on umad, ibtracectl ping through ibtrace.ko; sets LOAD_PIDS.
load_start()
{
	local ports sm smdev smguid other odev olid

	ports=$(ports_of "$1")
	sm=$(awk '$2 == "ca" && $8 != "-" { print; exit }' <<< "$ports")
	read -r _ _ smdev _ smguid _ <<< "$sm"
	other=$(awk -v d="$smdev" '$2 == "ca" && $8 != "-" && $3 != d { print; exit }' <<< "$ports")
	read -r _ _ odev _ _ _ <<< "$other"
	LOAD_PIDS=()
	rm -f "$TMP/load.log"
	"${OSM_ENV[@]}" opensm -d2 -g "$smguid" -s 1 -f "$TMP/load.log" >/dev/null 2>&1 &
	LOAD_PIDS+=($!)
	if ! wait_subnet_up "$TMP/load.log" 120; then
		ibt_fail "$1: OpenSM (sweeping) SUBNET UP" "$(tail -5 "$TMP/load.log")"
		return 1
	fi
	olid=$(cat "/sys/class/infiniband/$odev/ports/1/lid")
	ibping -S -C "$odev" -P 1 >/dev/null 2>&1 &
	LOAD_PIDS+=($!)
	(while smpquery -C "$smdev" -P 1 -t 200 nodeinfo "$olid" >/dev/null 2>&1; do
		:
	done) &
	LOAD_PIDS+=($!)
	"$IBTRACECTL" -d "$smdev" ping --dlid "$olid" -c 1000 -i 10 -t 200 -r 0 \
		>"$TMP/ping.out" 2>&1 &
	LOAD_PIDS+=($!)
	IBT_BG_PIDS+=("${LOAD_PIDS[@]}")
	sleep 3
	local p alive=0

	for p in "${LOAD_PIDS[@]}"; do
		kill -0 "$p" 2>/dev/null && alive=$((alive + 1))
	done
	ibt_expect "$1: OpenSM, ibping -S, smpquery loop, ibtracectl ping running" \
		"${#LOAD_PIDS[@]}" "$alive"
}

# load_end WHAT: the load processes end by themselves within 30 s; OpenSM,
# which keeps waiting for its port to come back, on SIGTERM or SIGKILL.
load_end()
{
	local p left=() names=(opensm "ibping -S" "smpquery loop" "ibtracectl ping") i=0

	for p in "${LOAD_PIDS[@]}"; do
		if [ "$i" -eq 0 ]; then
			# OpenSM whose port vanished may not act on SIGTERM
			# (its own business); what the sim owes is that
			# nothing is stuck in the kernel: SIGKILL must work.
			kill "$p" 2>/dev/null
			if ! wait_gone "$p" 10; then
				echo "# $1: OpenSM did not end on SIGTERM within 10 s" \
					"(state $(awk '{print $3}' "/proc/$p/stat" 2>/dev/null)," \
					"wchan $(cat "/proc/$p/wchan" 2>/dev/null)); SIGKILL"
				kill -9 "$p" 2>/dev/null
				wait_gone "$p" 10 ||
					left+=("opensm (pid $p) survives SIGKILL")
			fi
		else
			wait_gone "$p" 30 ||
				left+=("${names[$i]} (pid $p) still running")
		fi
		i=$((i + 1))
	done
	ibt_expect "$1: OpenSM (SIGTERM, else SIGKILL), ibping -S, smpquery, ping ended" "" \
		"${left[*]}"
	ibt_expect "$1: no OpenSM left running" "" "$(pgrep -x opensm)"
	for p in "${LOAD_PIDS[@]}"; do
		kill -9 "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
}

if ibt_modprobe_ibtrace; then
	STRESS=$TMP/stress
	"$GEN" leaves=2 hcas=2 spines=2 radix=4 > "$STRESS"
	n0=$(find /sys/class/infiniband -mindepth 1 -maxdepth 1 | wc -l)

	ibt_check "stress: fabric added" "$SIM_CTL" add stress "$STRESS" no-sm
	if load_start stress; then
		t0=$(date +%s%N)
		timeout 120 "$SIM_CTL" del stress >/dev/null 2>&1
		rc=$?
		t1=$(date +%s%N)
		ibt_expect "stress: fabric deleted under load ($(( (t1 - t0) / 1000000 )) ms)" 0 "$rc"
		load_end "stress: after the delete"
		ibt_match "stress: ibtracectl ping saw the device go" \
			'[Ee]rror|[Nn]o such|ping statistics|received' "$(cat "$TMP/ping.out")"
	fi
	ibt_expect "stress: no RDMA device of the fabric left" "$n0" \
		"$(find /sys/class/infiniband -mindepth 1 -maxdepth 1 | wc -l)"

	ibt_check "unload: fabric added" "$SIM_CTL" add unload "$STRESS" no-sm
	if load_start unload; then
		t0=$(date +%s%N)
		timeout 120 rmmod ibtrace_sim
		rc=$?
		t1=$(date +%s%N)
		ibt_expect "unload: rmmod ibtrace_sim with a live fabric under load ($(( (t1 - t0) / 1000000 )) ms)" 0 "$rc"
		load_end "unload: after rmmod"
	fi
	ibt_expect "unload: module gone" gone \
		"$([ -d /sys/module/ibtrace_sim ] && echo present || echo gone)"
	ibt_expect "unload: no RDMA device of the fabric left" "$n0" \
		"$(find /sys/class/infiniband -mindepth 1 -maxdepth 1 | wc -l)"
	ibt_check "reload: insmod again" insmod "$SIM_KO"
	ibt_check "reload: the same fabric builds again" "$SIM_CTL" add again "$STRESS" no-sm
	ibt_check "reload: rmmod ibtrace_sim" rmmod ibtrace_sim
	rmmod ibtrace 2>/dev/null
else
	ibt_skip_one "teardown under load" "ibtrace.ko does not load"
	ibt_check "rmmod ibtrace_sim" rmmod ibtrace_sim
fi

ibt_done
