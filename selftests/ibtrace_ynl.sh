#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The YAML spec (Documentation/netlink/specs/ibtrace.yaml) is enough to
# drive the "ibtrace" family: ibtrace_ynl.py, a client that knows only the
# spec, dumps and gets ports and agents, and what it decodes equals what
# ibtracectl -j prints, field by field, on an RoCE (rxe) port and on
# InfiniBand (ibtrace_sim) ports. A bad request decoded through the spec
# gets the kernel's errno and extack. (The kernel's own ynl cli.py came in
# Linux 6.3; Debian's linux-source-6.1 has neither it nor the schemas.)

source "$(dirname "$0")/lib.sh"

YNL=${IBTRACE_YNL:-$IBT_DIR/ibtrace_ynl.py}
SPEC=${IBTRACE_SPEC:-$IBT_ROOT/Documentation/netlink/specs/ibtrace.yaml}
ibt_tmpdir

ibt_require_root
ibt_require_file "$SPEC" "$IBTRACECTL"
ibt_require_cmd python3
python3 -c 'import yaml' 2>/dev/null || ibt_skip_all "python3-yaml not installed"
modprobe rdma_rxe 2>/dev/null || ibt_skip_all "rdma_rxe not available"

ynl() { python3 "$YNL" --spec "$SPEC" "$@"; }

ibt_check "ibtrace loads" ibt_modprobe_ibtrace
ibt_check "rxe0 created" ibt_rxe_add rxe0
if [ -e "$SIM_KO" ] && { lsmod | grep -q '^ibtrace_sim ' || insmod "$SIM_KO"; }; then
	printf 'Switch 2 "S"\n[1] "A"[1]\n[2] "B"[1]\nHca 1 "A"\nHca 1 "B"\n' > "$TMP/topo"
	"$IBTRACECTL" sim add "$TMP/topo" --name ynl --no-sm >/dev/null ||
		ibt_fail "sim fabric for IB ports"
fi

# compare.py WHAT YNL_JSON TOOL_JSON: every port of one in the other, and
# every field the tool prints equal to the spec-decoded attribute.
cat > "$TMP/compare.py" <<'PY'
import ipaddress, json, sys
what, ynl, tool = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
ll = {'ib': 'infiniband', 'eth': 'ethernet', 'unspec': 'unknown'}
y = {(m['dev-name'], m['port']): m for m in ynl}
t = {(m['dev'], m['port']): m for m in tool}
bad = []
if set(y) != set(t):
    bad.append(f"ports differ: spec {sorted(y)} tool {sorted(t)}")
for k in set(y) & set(t):
    a, b = y[k], t[k]
    pairs = [('dev-index', 'index', lambda v: v)]
    if what == 'dev':
        pairs += [('link-layer', 'link_layer', lambda v: ll.get(v, v)),
                  ('port-state', 'state', lambda v: str(v).upper().replace('-', '_')),
                  ('lid', 'lid', lambda v: v), ('lmc', 'lmc', lambda v: v),
                  ('sm-lid', 'sm_lid', lambda v: v),
                  ('gid', 'gid', lambda v: str(ipaddress.IPv6Address(bytes.fromhex(v)))),
                  ('port-guid', 'port_guid', lambda v: '0x%016x' % v),
                  ('agent', 'agent', lambda v: bool(v))]
    else:
        pairs += [('agent', 'registered', lambda v: bool(v))]
        st = a.get('agent-stats', {})
        for f in b:
            if f in ('dev', 'port', 'index', 'registered'):
                continue
            sf = f.replace('_', '-')
            if st.get(sf) != b[f]:
                bad.append(f"{k} {f}: spec {st.get(sf)} tool {b[f]}")
    for sa, tk, conv in pairs:
        if tk not in b:
            continue
        if sa not in a or conv(a[sa]) != b[tk]:
            bad.append(f"{k} {sa}/{tk}: spec {a.get(sa)} tool {b.get(tk)}")
for line in bad:
    print("#", line)
print(f"# {what}: {len(y)} ports compared")
sys.exit(1 if bad else 0)
PY

for obj in dev agent; do
	ynl --dump "$obj-get" > "$TMP/$obj.ynl" 2> "$TMP/err"
	ibt_expect "spec-driven $obj-get dump succeeds" "" "$(cat "$TMP/err")"
	"$IBTRACECTL" -j "$obj" > "$TMP/$obj.tool"
	ibt_check "$obj-get decoded from the spec equals ibtracectl -j $obj" \
		python3 "$TMP/compare.py" "$obj" "$TMP/$obj.ynl" "$TMP/$obj.tool"
done
n=$(python3 -c 'import json,sys; print(len({m["link-layer"] for m in json.load(open(sys.argv[1]))}))' "$TMP/dev.ynl")
ibt_expect "both link layers were compared (rxe and sim)" 2 "$n"

out=$(ynl --do dev-get --json '{"dev-name": "rxe0", "port": 1}' 2>&1)
ibt_match "a do request by name and port decodes one port" '"dev-name": "rxe0"' "$out"
out=$(ynl --do dev-get --json '{"dev-name": "nosuchdev", "port": 1}' 2>&1)
ibt_expect "a bad device: the spec client exits 1" 1 "$?"
ibt_match "  with the kernel's errno" "No such device" "$out"
out=$(ynl --do dev-get --json '{"dev-name": "rxe0"}' 2>&1)
ibt_match "a do request without port: EINVAL, extack asks for the port" \
	"Invalid argument.*: a port number is required" "$out"

"$IBTRACECTL" server start --max-conns 3 --max-hold 5000 >/dev/null
out=$(ynl --do server-get 2>&1)
ibt_match "server-get decoded from the spec: running, its bounds, its counters" \
	'"server-running": 1,.*"server-max-conns": 3,.*"server-max-hold-ms": 5000,.*"rej-hold": 0' \
	"$(tr '\n' ' ' <<< "$out")"
"$IBTRACECTL" server stop >/dev/null
out=$(ynl --do server-start --json '{"server-max-conns": 300}' 2>&1)
ibt_expect "server-start over the spec's max-conns: the spec client exits 1" 1 "$?"
ibt_match "  with the kernel's errno" "out of range" "$out"
out=$(ynl --do server-stop 2>&1)
ibt_match "server-stop when stopped: ENOENT, the kernel says why" \
	"No such file or directory.*: the server does not run" "$out"

"$IBTRACECTL" sim del ynl >/dev/null 2>&1
rmmod ibtrace_sim 2>/dev/null
ibt_rxe_del rxe0
ibt_unload_ibtrace
ibt_done
