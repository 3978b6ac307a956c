#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gen_fattree.sh - print a deterministic fat-tree topology in the
# ibnetdiscover / ibsim text format (what `ibtracectl sim add`,
# `ibtrace_sim_ctl add` and `ibsim -s` read) on stdout.
#
# Usage: gen_fattree.sh [KEY=VALUE...]
#   shape=2       2: two levels - leaves with HCAs, each leaf linked to
#                    every spine (uplinks spread round-robin over the
#                    spines: leaf uplink u goes to spine u % spines);
#                 3: three levels - pods of `leaves` leaves and `spines`
#                    middle switches (a two-level tree each), middle
#                    switch m of every pod linked to the `tops` top
#                    switches of group m (tops per group = tops/spines);
#                 chain: `leaves` switches in a line, switch i port
#                    radix-1 to switch i+1 port radix, `hcas` HCAs on
#                    each (a path end to end crosses every switch).
#   leaves=28     leaf switches (per pod with shape=3)
#   hcas=18       HCAs per leaf switch
#   spines=18     spine switches (middle switches per pod with shape=3)
#   radix=36      ports of every switch
#   pods=2        shape=3: number of pods
#   tops=18       shape=3: top switches (a multiple of spines)
#   hca_ports=1   ports of every HCA (port 1 is linked)
#
# Defaults: 28 x 18 = 504 HCAs, 28 leaves, 18 spines (550 nodes), radix 36.
# Names: leaves "L<n>", spines "S<n>", tops "T<n>", HCAs "H<leaf>-<n>"
# (pods prefix "P<n>-", middle switches "P<n>-M<m>"); every name is unique,
# so that a node description identifies a node. Every link is written on
# both of its ends, as ibnetdiscover does; the same arguments always give
# the same text. Checks that ports suffice and fails (exit 2)
# with a message otherwise.

set -u
shape=2 leaves=28 hcas=18 spines=18 radix=36 pods=2 tops=18 hca_ports=1

die()
{
	echo "gen_fattree.sh: $*" >&2
	exit 2
}

for kv in "$@"; do
	case "$kv" in
	shape=2 | shape=3 | shape=chain) shape=${kv#*=} ;;
	leaves=* | hcas=* | spines=* | radix=* | pods=* | tops=* | hca_ports=*)
		[[ ${kv#*=} =~ ^[0-9]+$ ]] || die "$kv: not a number"
		declare "${kv%%=*}=$((10#${kv#*=}))" ;;
	-h | --help)
		sed -n '3,/^$/{s/^# \{0,1\}//;p}' "$0"
		exit 0 ;;
	*) die "unknown argument $kv (try --help)" ;;
	esac
done

((radix >= 2 && radix <= 254)) || die "radix must be 2..254"
((hca_ports >= 1 && hca_ports <= 254)) || die "hca_ports must be 1..254"
((leaves >= 1 && hcas >= 0)) || die "need at least one leaf"
case "$shape" in
2 | 3)
	((spines >= 1)) || die "need at least one spine"
	((hcas < radix)) || die "hcas ($hcas) leave no uplink port (radix $radix)"
	# Every leaf uplink goes to a spine port: the spines must have room.
	up=$((radix - hcas))
	per_spine=$((leaves * ((up + spines - 1) / spines)))
	if [ "$shape" = 3 ]; then
		((tops >= spines && tops % spines == 0)) ||
			die "tops ($tops) must be a multiple of spines ($spines)"
		((pods >= 1)) || die "need at least one pod"
		# A middle switch keeps the ports above its leaf links for
		# its top switches.
		((per_spine + tops / spines <= radix)) ||
			die "middle switches need $((per_spine + tops / spines)) ports, radix $radix"
		((pods <= radix)) || die "top switches need $pods ports, radix $radix"
	else
		((per_spine <= radix)) ||
			die "spines need $per_spine ports each, radix $radix"
	fi ;;
chain)
	((hcas + 2 <= radix)) || die "chain: hcas + 2 ports needed, radix $radix" ;;
esac

awk -v shape="$shape" -v L="$leaves" -v H="$hcas" -v S="$spines" \
    -v R="$radix" -v P="$pods" -v T="$tops" -v HP="$hca_ports" '
function node(type, name, ports) {
	order[++n] = name
	ntype[name] = type
	nports[name] = ports
}
function link(a, pa, b, pb) {
	peer[a, pa] = "\"" b "\"[" pb "]"
	peer[b, pb] = "\"" a "\"[" pa "]"
}
# One two-level tree: leaves pre"L<i>" with their HCAs, spines spre"<s>";
# used[spre s] counts the spine ports taken so far.
function pod(pre, spre,    l, h, u, s, lf, hc) {
	for (l = 1; l <= L; l++) {
		lf = pre "L" l
		node("Switch", lf, R)
		for (h = 1; h <= H; h++) {
			hc = pre "H" l "-" h
			node("Hca", hc, HP)
			link(hc, 1, lf, h)
		}
		for (u = 0; u < R - H; u++) {
			s = spre (u % S + 1)
			link(lf, H + 1 + u, s, ++used[s])
		}
	}
	for (s = 1; s <= S; s++)
		node("Switch", spre s, R)
}
BEGIN {
	printf "# gen_fattree.sh shape=%s leaves=%d hcas=%d spines=%d radix=%d", \
		shape, L, H, S, R
	if (shape == 3)
		printf " pods=%d tops=%d", P, T
	printf " hca_ports=%d\n\n", HP
	if (shape == "chain") {
		for (l = 1; l <= L; l++) {
			node("Switch", "L" l, R)
			for (h = 1; h <= H; h++) {
				node("Hca", "H" l "-" h, HP)
				link("H" l "-" h, 1, "L" l, h)
			}
			if (l > 1)
				link("L" (l - 1), R - 1, "L" l, R)
		}
	} else if (shape == 2) {
		pod("", "S")
	} else {
		g = T / S
		for (p = 1; p <= P; p++) {
			pod("P" p "-", "P" p "-M")
			for (m = 1; m <= S; m++)
				for (k = 1; k <= g; k++)
					link("P" p "-M" m, used["P" p "-M" m] + k,
					     "T" ((m - 1) * g + k), p)
		}
		for (t = 1; t <= T; t++)
			node("Switch", "T" t, R)
	}
	for (i = 1; i <= n; i++) {
		a = order[i]
		printf "%s\t%d \"%s\"\n", ntype[a], nports[a], a
		for (pn = 1; pn <= nports[a]; pn++)
			if ((a, pn) in peer)
				printf "[%d]\t%s\n", pn, peer[a, pn]
		printf "\n"
	}
}'
