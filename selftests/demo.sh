#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `make demo`, VM 1: what ibtrace does so far. Part 1: two hosts joined
# by RoCE (rxe); the peer VM runs selftests/peer.sh (rxe0 + ibtrace, its
# server started):
# pings, SourceRoute probes and the RNR NAK timer test against it.
# Part 2: an InfiniBand fabric in ibtrace_sim, brought up by OpenSM: a
# trace across it, the GUIDInfo conformance test, the exerciser's MADs and
# a capture of the fabric's packets, a packet injected with a forged
# source, route audits, traffic under credit-based flow control, and two
# flows sharing a paced link by the VL arbitration tables OpenSM wrote.

source "$(dirname "$0")/lib.sh" >/dev/null

say()
{
	printf '\n\033[1m== %s\033[0m\n' "$*"
}

run()
{
	printf '$ %s\n' "$*"
	"$@"
}

say "Loading ibtrace and creating rxe0 on $IBT_NETDEV"
ibt_modprobe_ibtrace && ibt_rxe_add rxe0 || exit 1
ibt_wait_peer || { echo "the peer VM did not become ready" >&2; exit 1; }
peer=$(ibt_ll_gid_of_mac "$VMRUN_PEER_MAC")

say "The RDMA ports ibtrace sees, and their class 0x30 agents"
run "$IBTRACECTL" dev show

say "Ping the peer's in-kernel agent: VendorGet(ClassPortInfo)"
run "$IBTRACECTL" -d rxe0 ping --dgid "$peer" -c 5 -i 200

say "SourceRoute probe, expecting port 1 (right)"
run "$IBTRACECTL" -d rxe0 ping --dgid "$peer" --source-route 1

say "SourceRoute probe, expecting port 2 (wrong): the agent reports where it really arrived"
run "$IBTRACECTL" -d rxe0 ping --dgid "$peer" --source-route 2

say "The same as JSON"
run "$IBTRACECTL" -j --pretty -d rxe0 ping --dgid "$peer" -c 2 -i 100

say "Local agent counters"
run "$IBTRACECTL" agent show

say "This host's RDMA CM server, which peer hosts' RNR tests connect to: off until an admin starts it, bounded"
run "$IBTRACECTL" server show
run "$IBTRACECTL" server start --max-conns 4 --max-hold 30000
run "$IBTRACECTL" server stop

say "IBTA RNR NAK timer test (C09_130_01) against the peer's responder (its server started by peer.sh): code 31 (491.52 ms), rnr_retry 2, each wait also timed on the wire"
run "$IBTRACECTL" -d rxe0 test run rnr --peer "$peer" --timer 31 --retry 2 --iterations 2

say "dapltest's limit test, run by the kernel with kernel verbs: how many objects rxe0 really makes against what it advertises (AHs to its end: all 32767)"
run "$IBTRACECTL" -d rxe0 test run limit -m 2000 pd cq qp mr srq
run "$IBTRACECTL" -d rxe0 test run limit ah

say "dapltest's performance test, run by the kernel: RDMA WRITEs and READs against a buffer the peer's server opens for them, each timed from post to completion"
run "$IBTRACECTL" -d rxe0 test run perf --peer "$peer" --iterations 2000 RW 4096
run "$IBTRACECTL" -d rxe0 test run perf --peer "$peer" --iterations 500 --pipeline 1 RR 64

say "dapltest's transaction test, run by the kernel: SENDs, RDMA READs and WRITEs posted by both sides over 2 threads x 2 connections, every byte checked; then its negative control, a byte the peer's server flips on purpose"
run "$IBTRACECTL" -d rxe0 test run txn --peer "$peer" --iterations 200 --threads 2 \
	--endpoints 2 --validate client SR 256 server RW 4096 2 client RR 1024 server SR 64
run "$IBTRACECTL" -d rxe0 test run txn --peer "$peer" --iterations 20 --validate \
	--corrupt 17 client SR 256 server RW 4096

say "dapltest's quit: the peer's server waits for the tests it runs, then stops; this host reports when"
run "$IBTRACECTL" -d rxe0 server quit --peer "$peer"

# Part 2: InfiniBand, on a software fabric -----------------------------------

topo=/usr/share/doc/ibsim-utils/net-examples/net.2sw2path4hca
osm=$(mktemp -d /tmp/demo-osm.XXXXXX)
say "ibtrace_sim: an InfiniBand fabric in the kernel, from ibsim's $topo"
insmod "$IBT_ROOT/kmod/sim/ibtrace_sim.ko" 2>/dev/null
run "$IBTRACECTL" sim add "$topo" --name demo --no-sm || exit 1
hca1=$("$IBTRACECTL" -j sim show demo |
	jq -r '.[0].nodes[] | select(.name == "Hca1") | .dev')
hca4=$("$IBTRACECTL" -j sim show demo |
	jq -r '.[0].nodes[] | select(.name == "Hca4") | .dev')
pguid=$("$IBTRACECTL" -j sim show demo |
	jq -r '.[0].nodes[] | select(.name == "Hca1") | .ports[0].guid')

say "Unmodified OpenSM sweeps it, assigns LIDs and programs the switches"
run env OSM_CACHE_DIR="$osm" OSM_TMP_DIR="$osm" \
	timeout 120 opensm -o -g "$pguid" -f "$osm/opensm.log" >/dev/null
grep -m1 'SUBNET UP' "$osm/opensm.log"
lid1=$(($(cat "/sys/class/infiniband/$hca1/ports/1/lid")))
lid4=$(($(cat "/sys/class/infiniband/$hca4/ports/1/lid")))

say "infiniband-diags see a real subnet"
run ibnetdiscover -C "$hca1" -P 1 -t 300 | grep -E '^(Switch|Ca|\[)' | head -20
run ibtracert -C "$hca1" -P 1 -t 300 "$lid1" "$lid4"

say "ibtrace's agent on Hca4 answers across two switches (LID $lid4)"
run "$IBTRACECTL" -d "$hca1" ping --dlid "$lid4" -c 5 -i 100
say "SourceRoute: expecting Hca4's port 1"
run "$IBTRACECTL" -d "$hca1" ping --dlid "$lid4" --source-route 1

say "ibtracectl trace: the path to Hca4 hop by hop, each HCA proven by its agent"
run "$IBTRACECTL" -d "$hca1" trace --dlid "$lid4" -v

say "IBTA GUIDInfo conformance test (C14_024_05) on Hca4, two switches away"
run "$IBTRACECTL" -d "$hca1" test run guidinfo --lid "$lid4" --blocks 4

say "The exerciser: any MAD from the kernel, decoded - NodeInfo of the switch behind Hca1 by directed route, PortInfo of Hca4 by LID"
run "$IBTRACECTL" -d "$hca1" mad send --dr 1 --attr NodeInfo
run "$IBTRACECTL" -d "$hca1" mad send --class lid --dlid "$lid4" --attr PortInfo --attr-mod 1
say "A Set can change the fabric: refused without --allow-set"
run "$IBTRACECTL" -d "$hca1" mad send --class lid --dlid "$lid4" --attr PortInfo --method set

say "The fabric's packets at Hca4, captured while Hca1 pings it: a line each (-w FILE writes pcap for Wireshark)"
"$IBTRACECTL" sim capture demo Hca4 -c 4 &
cap=$!
sleep 1
"$IBTRACECTL" -d "$hca1" ping --dlid "$lid4" -c 2 -i 100 >/dev/null
wait "$cap"

say "Posing as any node: a class 0x30 Get injected at Hca1's port from LID 0x77, which no port has; Hca4's agent answers 0x77, and the answer comes back to the injector"
run "$IBTRACECTL" sim inject demo Hca1 1 --slid 0x77 --class ibtrace --attr ClassPortInfo --dlid "$lid4"

say "Route audit: the kernel sweeps the subnet from Hca1 by directed route (16 SMPs out at once); every destination's route from the tables, checked; the credit loops of all routes; then each sound route proved by a SourceRoute probe its destination's agent answers"
run "$IBTRACECTL" -d "$hca1" audit -v

say "One sweep serves many ports (the recipe of ibtracectl(8) for a host with an HCA per rail): the fabric saved once, then pdsh's exec module runs an audit from each HCA's own port off the file, proved"
fleet=$(mktemp -d /tmp/demo-fleet.XXXXXX)
mkdir "$fleet/audits"
hcas=$("$IBTRACECTL" -j sim show demo |
	jq -r '[.[0].nodes[] | select(.type == "ca") | .dev] | join(",")')
run "$IBTRACECTL" -d "$hca1" audit --no-prove --save "$fleet/fabric.json"
run pdsh -R exec -w "$hcas" sh -c \
	"$IBTRACECTL -j -d %h audit --load $fleet/fabric.json -t 200 -r 1 > $fleet/audits/%h.json"
run "$IBTRACECTL" audit merge "$fleet"/audits/*.json
# the switch link Hca1's route to Hca4 leaves Switch1 by
link=$("$IBTRACECTL" -j -d "$hca1" audit --load "$fleet/fabric.json" --no-prove |
	jq -r --argjson l "$lid4" '.destinations[] | select(.dlid == $l) | .path[1] | "\(.node_desc) \(.out_port)"')
say "The link out of ${link% *} port ${link#* } drops everything: each audit loses what crosses it, and audit merge ranks it first (failing probes, none verified)"
"$IBTRACECTL" sim set demo "${link% *}" port "${link#* }" drop 100
rm -f "$fleet"/audits/*
pdsh -R exec -w "$hcas" sh -c \
	"$IBTRACECTL -j -d %h audit --load $fleet/fabric.json -t 200 -r 1 > $fleet/audits/%h.json" 2>/dev/null
run "$IBTRACECTL" audit merge --top 3 "$fleet"/audits/*.json
"$IBTRACECTL" sim set demo "${link% *}" port "${link#* }" drop 0
rm -rf "$fleet"

say "Traffic: Hca1 sends 2000 packets of 1 KiB to Hca4, UD-shaped, through the switches' forwarding, the VL its SL maps to and each link's credit-based flow control; the kernel counts what is delivered and dropped and times each packet"
run "$IBTRACECTL" sim traffic demo --from Hca1 --to "$lid4" --count 2000 --size 1024
say "Hca4 becomes a data sink of 200 packets/s: the flow slows to its pace, and its packets wait for credits link by link back to Hca1 (64 in flight: their latency is the queue's)"
"$IBTRACECTL" sim set demo Hca4 port 1 sink 200
run "$IBTRACECTL" sim traffic demo --from Hca1 --to "$lid4" --count 400 --size 1024
"$IBTRACECTL" sim set demo Hca4 port 1 sink 0

say "Quality of service: fabric qos, S1 (A, C) - S2 (B, D), paced (time scale 10000), its switches' link at 1x SDR; OpenSM with QoS puts SL n on VL n and writes VL arbitration tables, VL 1 weight 8 and VL 2 weight 24; A -> B on SL 1 and C -> D on SL 2 share the link about 1:3"
"$IBTRACECTL" sim add "$IBT_TOPO/s1s2_cd.topo" --name qos --time-scale 10000 \
	--no-sm >/dev/null
J=$(ibt_sim_json qos)
ibt_osm_qos_conf "$osm/qos.conf" $IBT_SL2VL_IDENT $IBT_SL2VL_IDENT 0:0 0:4,1:8,2:24 0
for sweep in 1 2; do	# two: ibt_osm_qos_conf says why
	ibt_opensm_once "$osm/qos" 120 \
		"$(ibt_sim_node A '.ports[] | select(.port == 1) | .guid')" \
		"$osm/qos$sweep.log" -F "$osm/qos.conf" >/dev/null
done
J=$(ibt_sim_json qos)	# the LIDs OpenSM gave
"$IBTRACECTL" sim set qos S2 port 1 width 1x speed sdr
run "$IBTRACECTL" sim traffic qos --from A --to "$(ibt_sim_lid B)" --sl 1 \
	--count 100 --size 64 --from C --to "$(ibt_sim_lid D)" --sl 2 --count 300 \
	--size 64
"$IBTRACECTL" sim del qos

say "Pings, traces and tests ran as kernel jobs; the module keeps the recent ones"
run "$IBTRACECTL" job show

say "The fabric's ports and packet counters"
run "$IBTRACECTL" sim show demo
"$IBTRACECTL" sim del demo
rm -rf "$osm"
exit 0
