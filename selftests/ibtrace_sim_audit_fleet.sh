#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The route audit at fleet scale, as operators run it: on a fat tree of 8
# HCAs (4 leaves L1..L4 of 2 HCAs, 2 spines S1 S2) routed by OpenSM:
# - an audit from H1-1: every route ok and proved, each HCA's the one
#   ibtracert walks;
# - the recipe of ibtracectl(8) for a host with an HCA per rail, taken
#   from Documentation/ibtracectl.rst and run as written (the host list
#   and the shared directory replaced): one sweep saved, then pdsh's exec
#   module runs "audit --load" from each of the 8 HCAs, then audit merge;
# - clean: every audit exit 0, the 7 other HCAs verified and the 6
#   switches no agent from each; merged: no suspect, exit 0;
# - the link L1 port 3 - S1 port 1 dropping everything both ways: each
#   audit exits 19 and a probe is unreachable exactly when its way there
#   or back crosses the link; merged, that link comes first (failing
#   probes, none verified);
# - the metrics: audit --prom and agent show --prom in node_exporter's
#   textfile directory; Debian's prometheus-node-exporter (unpacked by
#   make check into .build/prom) serves them on /metrics (curl), with no
#   textfile error, their device and port labels those of its own
#   node_infiniband_* metrics; promtool check metrics accepts both files.

source "$(dirname "$0")/lib.sh"

ibt_tmpdir
ibt_require_root
ibt_require_file "$SIM_KO" "$IBT_KO" "$IBTRACECTL"
ibt_require_cmd jq pdsh curl opensm ibtracert timeout
ibt_require_modules ib_core ib_umad
DOC=$IBT_ROOT/Documentation/ibtracectl.rst
ibt_require_file "$DOC"

ibt_sim_load_ibtrace "load ibtrace"
# The VM is ours: no OpenSM may outlive this test.
ibt_at_exit 'pkill -9 -x opensm 2>/dev/null'
"$IBT_DIR/gen_fattree.sh" leaves=4 hcas=2 spines=2 radix=4 > "$TMP/fattree"
ibt_check "fabric fleet (no SM): 4 leaves, 2 spines, 8 HCAs" \
	"$IBTRACECTL" sim add "$TMP/fattree" --name fleet --no-sm
J=$(ibt_sim_json fleet)
ibt_check "  OpenSM (opensm -o on H1-1) brings it up, its routes in the tables" \
	ibt_opensm_once "$TMP/osm" 300 "$(ibt_sim_node H1-1 '.ports[0].guid')" "$TMP/osm.log"
ibt_check "  every port Active" ibt_sim_wait_active fleet
J=$(ibt_sim_json fleet)
mapfile -t DEVS < <(jq -r '.nodes[] | select(.type == "ca") | .dev' <<< "$J")
HOSTS=$(IFS=,; echo "${DEVS[*]}")
PATH=$(dirname "$IBTRACECTL"):$PATH

# OpenSM's routes as the audit has them, and as ibtracert walks them: for
# every other HCA from H1-1, "NODE:OUT_PORT ..." of each hop to it
H1=$(ibt_sim_dev H1-1)
H1_LID=$(ibt_sim_lid H1-1)
out=$("$IBTRACECTL" -j -d "$H1" audit)
ibt_expect "audit from H1-1 (OpenSM's routes): exit 0, 13 routes ok, 7 HCAs verified" \
	"0 13 7" "$? $(jq -r '"\(.summary.ok) \(.proof.verified)"' <<< "$out")"
bad=
for name in $(jq -r '.nodes[] | select(.type == "ca" and .name != "H1-1") | .name' <<< "$J"); do
	lid=$(ibt_sim_lid "$name")
	ours=$(jq -r --argjson l "$lid" '.destinations[] | select(.dlid == $l) |
		[.path[] | "\(.node_desc):\(.out_port)"] | join(" ")' <<< "$out")
	theirs=$(ibtracert -C "$H1" -P 1 -t 500 "$H1_LID" "$lid" 2>&1 | awk '
		/^From / { n = split($0, q, "\""); cur = q[2] }
		/^\[[0-9]+\] -> / {
			o = $1; gsub(/[][]/, "", o)
			printf "%s%s:%s", sep, cur, o; sep = " "
			n = split($0, q, "\""); cur = q[2]
		}')
	[ "$ours" = "$theirs" ] || bad+=" $name: ours '$ours', ibtracert '$theirs';"
done
ibt_expect "  every HCA's route the one ibtracert walks" "" "$bad"

# The literal block after "pdsh's ``exec`` module" in the man page's
# source: one command a line, "\" continuations joined.
recipe()
{
	awk '/pdsh.s ``exec`` module/ { on = 1; next }
	     on && /^    / {
		l = $0; sub(/^ +/, "", l)
		cmd = cont ? cmd " " l : l
		if (cmd ~ /\\$/) { sub(/ *\\$/, "", cmd); cont = 1; next }
		print cmd; cont = 0; seen = 1; next
	     }
	     on && seen && /^[^ ]/ { exit }' "$DOC"
}
mapfile -t RECIPE < <(recipe)
ibt_expect "the recipe: sweep and save, pdsh -R exec, merge" \
	"ibtracectl audit --no-prove|pdsh -R exec|ibtracectl audit merge" \
	"$(printf '%s\n' "${RECIPE[@]}" | awk '{ print $1, $2, $3 }' | paste -sd '|')"

# run_recipe N: the recipe's command N, the host list ours, the shared
# directory $TMP/shared; its output in $TMP/recipe.N, its status returned
run_recipe()
{
	local cmd=${RECIPE[$1]}

	cmd=${cmd//\'mlx5_\[0-7\]\'/\'$HOSTS\'}
	cmd=${cmd//\/shared\//$TMP/shared/}
	(cd "$TMP" && eval "$cmd") > "$TMP/recipe.$1" 2>&1
}

# audits: "dev:exit" of each audit file's source and the count of its
# destinations by proof verdict, one line per HCA
audits()
{
	local d

	for d in "${DEVS[@]}"; do
		jq -r '"\(.source.dev) \([.destinations[] | .proof.verdict // "none"] |
			group_by(.) | map("\(.[0])=\(length)") | join(","))"' \
			"$TMP/shared/audits/$d.json" 2>/dev/null || echo "$d unreadable"
	done
}

mkdir -p "$TMP/shared/audits"
run_recipe 0
ibt_expect "clean: the sweep saved (exit 0)" "0 true" \
	"$? $([ -s "$TMP/shared/fabric.json" ] && echo true)"
run_recipe 1
ibt_expect "  pdsh -R exec: exit 0, no audit failing" "0 0" \
	"$? $(grep -c 'exit code' "$TMP/recipe.1")"
want=$(for d in "${DEVS[@]}"; do echo "$d no_agent=6,verified=7"; done)
ibt_expect "  each HCA's audit from its own port: 7 HCAs verified, 6 switches no agent" \
	"$want" "$(audits)"
run_recipe 2
ibt_expect "  merged: exit 0, no suspect" "0 no suspect: no probe failed" \
	"$? $(grep -o 'no suspect.*' "$TMP/recipe.2")"
ibt_expect "  merged: 8 audits, 56 probes verified" "8 56 0" \
	"$("$IBTRACECTL" -j audit merge "$TMP"/shared/audits/*.json |
	   jq -r '"\(.audits) \(.verified) \(.suspects | length)"')"

# --- One link drops everything ---------------------------------------------------

ibt_check "the link L1 port 3 - S1 port 1 drops everything, both ways" eval \
	"'$IBTRACECTL' sim set fleet L1 port 3 drop 100 &&
	 '$IBTRACECTL' sim set fleet S1 port 1 drop 100"
rm -f "$TMP"/shared/audits/*
run_recipe 1
ibt_expect "  pdsh -R exec: each audit exit 19" "$(printf '19\n%.0s' "${DEVS[@]}")" \
	"$(grep -o 'exit code [0-9]*' "$TMP/recipe.1" | awk '{ print $3 }')"
# crosses: 1 when the destination's way there or back crosses the link
bad=0 good=0 wrong=
for d in "${DEVS[@]}"; do
	while read -r lid verdict crosses; do
		if [ "$crosses" = true ] && [ "$verdict" = unreachable ]; then
			bad=$((bad + 1))
		elif [ "$crosses" = false ] && [ "$verdict" != unreachable ]; then
			good=$((good + 1))
		else
			wrong+=" $d:$lid:$verdict"
		fi
	done < <(jq -r '.destinations[] | select(.proof) |
		"\(.dlid) \(.proof.verdict) \([(.path + (.return_path // []))[] |
			select((.node_desc == "L1" and .out_port == 3) or
			       (.node_desc == "S1" and .out_port == 1))] | length > 0)"' \
		"$TMP/shared/audits/$d.json")
done
ibt_expect "  unreachable exactly the probes whose way there or back crosses it" \
	"" "$wrong"
ibt_match "  some probes lost, most not ($bad unreachable, $good not)" \
	"^[1-9][0-9]* [1-9][0-9]*$" "$bad $good"
run_recipe 2
ibt_expect "  merged: exit 19" 19 \
	"$("$IBTRACECTL" audit merge "$TMP"/shared/audits/*.json >/dev/null; echo $?)"
mjs=$("$IBTRACECTL" -j audit merge "$TMP"/shared/audits/*.json)
ibt_expect "  the first two suspects: the link's two channels, no probe across them verified" \
	"L1:3:0 S1:1:0" \
	"$(jq -r '[.suspects[0,1] | "\(.node_desc):\(.port):\(.verified)"] | sort | join(" ")' <<< "$mjs")"
ibt_expect "  every other channel a failing probe crosses, a verified one crosses too" 0 \
	"$(jq -r '[.suspects[2:][] | select(.verified == 0)] | length' <<< "$mjs")"
ibt_match "  text: rank 1 names it" \
	'^  1\. 0x[0-9a-f]{16} "(L1" port 3|S1" port 1): [0-9]+ failing, 0 verified$' \
	"$(cat "$TMP/recipe.2")"
ibt_check "the link repaired" eval \
	"'$IBTRACECTL' sim set fleet L1 port 3 drop 0 &&
	 '$IBTRACECTL' sim set fleet S1 port 1 drop 0"

# --- The metrics, served by node_exporter --------------------------------------------

PROM_BIN=$IBT_ROOT/.build/prom/usr/bin
NODE_EXPORTER=$(command -v prometheus-node-exporter || echo "$PROM_BIN/prometheus-node-exporter")
PROMTOOL=$(command -v promtool || echo "$PROM_BIN/promtool")
if [ ! -x "$NODE_EXPORTER" ] || [ ! -x "$PROMTOOL" ]; then
	ibt_skip_one "node_exporter serves the metrics" \
		"neither installed nor unpacked in .build/prom (make prom-tools)"
else
	dev=${DEVS[0]}
	mkdir -p "$TMP/textfile"
	ibt_check "audit --load --prom into the textfile directory" \
		"$IBTRACECTL" -d "$dev" audit --load "$TMP/shared/fabric.json" \
		--prom "$TMP/textfile/ibtrace_audit.prom"
	ibt_check "agent show --prom into it" \
		"$IBTRACECTL" -d "$dev" -p 1 agent show --prom "$TMP/textfile/ibtrace_agent.prom"
	ibt_check "  promtool check metrics accepts both" sh -c \
		"'$PROMTOOL' check metrics < '$TMP/textfile/ibtrace_audit.prom' &&
		 '$PROMTOOL' check metrics < '$TMP/textfile/ibtrace_agent.prom'"
	# node_exporter 1.5 (Debian 12) reads a device's board_id and
	# hca_type, which vendors' drivers have and new drivers may not add
	# (sysfs is closed to them): it reads a copy of the sim's sysfs
	# (every device, port state, rate and counter) with those two added.
	sys=$TMP/sys/class/infiniband
	for d in "${DEVS[@]}"; do
		src=/sys/class/infiniband/$d
		mkdir -p "$sys/$d/ports/1/counters"
		cp "$src/fw_ver" "$sys/$d/"
		echo ibtrace_sim > "$sys/$d/hca_type"
		echo IBTSIM > "$sys/$d/board_id"
		cp "$src"/ports/1/{state,phys_state,rate} "$sys/$d/ports/1/"
		cp "$src"/ports/1/counters/* "$sys/$d/ports/1/counters/"
	done
	"$NODE_EXPORTER" --web.listen-address=127.0.0.1:9100 \
		--collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$TMP/textfile" \
		--collector.infiniband --path.sysfs="$TMP/sys" \
		> "$TMP/node_exporter.log" 2>&1 &
	ne_pid=$!
	IBT_BG_PIDS+=("$ne_pid")
	scrape() { curl -sf http://127.0.0.1:9100/metrics > "$TMP/metrics"; }
	ibt_check "node_exporter answers on /metrics" ibt_wait_for 30 scrape
	has() { grep -qxF "$1" "$TMP/metrics"; }
	ibt_check "  our audit's success, labelled device and port" \
		has "ibtrace_audit_success{device=\"$dev\",port=\"1\"} 1"
	ibt_check "  the agent's counters" \
		grep -q "^ibtrace_agent_[a-z_]*{device=\"$dev\",port=\"1\"" "$TMP/metrics"
	ibt_check "  no textfile error" has "node_textfile_scrape_error 0"
	ibt_check "  node_exporter's node_infiniband_* has the same device and port" \
		grep -q "^node_infiniband_[a-z_]*{device=\"$dev\",port=\"1\"}" "$TMP/metrics"
	ibt_check "  promtool check metrics accepts our families as served" sh -c \
		"grep -E '^(# (HELP|TYPE) )?ibtrace_' '$TMP/metrics' | '$PROMTOOL' check metrics"
	kill "$ne_pid"
	wait "$ne_pid" 2>/dev/null
fi

ibt_check "fabric fleet deleted" "$IBTRACECTL" sim del fleet
ibt_check "unload ibtrace" ibt_unload_ibtrace
ibt_done
