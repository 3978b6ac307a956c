#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Who may send what, and what each command accepts, for both generic
# netlink families (ibtrace, ibtrace_sim), as the kernel enforces it.
#
# The commands, their flags, their multicast groups and their request
# policies come from the kernel (nlctrl's CTRL_CMD_GETFAMILY and
# CTRL_CMD_GETPOLICY), so a command added later is swept too. Every
# command is sent, as "do" and as "dump" where it has them, once with each
# attribute type from 0 to the uAPI header's highest + 8 (one attribute,
# no payload; ibtrace_nlsweep), as root and as an unprivileged user:
#
#  - a type outside the command's policy (past its maxattr, or a hole the
#    policy dump does not list) is rejected with EINVAL and an extended
#    ACK whose offending-attribute offset points at that attribute;
#  - "Unknown attribute type" (past maxattr) exactly for the types past
#    the highest one the policy dump lists: an op's maxattr is its
#    policy's last entry, never the family's (TEST_LIST had maxattr 0,
#    i.e. IBTRACE_A_MAX, over a 43-entry policy);
#  - a type the policy lists is never refused as unknown or unsupported;
#  - unprivileged: a GENL_ADMIN_PERM command gets EPERM whatever the
#    attribute, any other the same answers as root.
# As root, the types an admin command's policy lists are not sent (with
# some payload such a request might act); everything sent is refused
# before a handler runs.
#
# Cross-checks: commands and attributes exist in the uAPI headers; for
# ibtrace, each command's policy holds exactly the request attributes of
# Documentation/netlink/specs/ibtrace.yaml and admin-perm agrees; every
# command and multicast group of both families is in the "Who may use
# what" table of Documentation/ibtrace.rst with what the kernel enforces
# (a group: whether an unprivileged process can join it). Then as a user
# would see it: unprivileged "ibtracectl test show" (text and -j) and
# "sim show" are refused with one sentence and exit 5; dev, agent and
# test list still work.

source "$(dirname "$0")/lib.sh"

IBT_NLSWEEP=${IBT_NLSWEEP:-$IBT_DIR/ibtrace_nlsweep}
SPEC=$IBT_ROOT/Documentation/netlink/specs/ibtrace.yaml
MAN4=$IBT_ROOT/Documentation/ibtrace.rst
PERM_MSG="Error: this needs CAP_NET_ADMIN (run as root)"
ibt_tmpdir
chmod 755 "$TMP"	# read by the unprivileged runs below

ibt_require_root
ibt_require_file "$IBT_NLSWEEP" "$SIM_KO" "$IBTRACECTL"
ibt_require_cmd setpriv python3 jq
python3 -c 'import yaml' 2>/dev/null || ibt_skip_all "python3-yaml not installed"
modprobe rdma_rxe 2>/dev/null || ibt_skip_all "rdma_rxe not available"

nobody()
{
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# Another suite in the same VM may have left ibtrace_sim loaded: this one
# starts from a fresh insert.
ibt_sim_load_ibtrace "ibtrace loads"
ibt_check "rxe0 created" ibt_rxe_add rxe0

# The sweep ------------------------------------------------------------------

for fam in ibtrace ibtrace_sim; do
	"$IBT_NLSWEEP" "$fam" > "$TMP/root.$fam" 2> "$TMP/err"
	ibt_expect "$fam: swept as root" "0 " "$? $(cat "$TMP/err")"
	nobody "$IBT_NLSWEEP" "$fam" > "$TMP/user.$fam" 2> "$TMP/err"
	ibt_expect "$fam: swept as an unprivileged user" "0 " "$? $(cat "$TMP/err")"
	echo "# $fam: $(grep -c '^r ' "$TMP/root.$fam") requests as root" \
		"($(grep -c '^s ' "$TMP/root.$fam") in admin policies not sent)," \
		"$(grep -c '^r ' "$TMP/user.$fam") unprivileged"
done

# One line per check: "ok<TAB>DESC" or "not ok<TAB>DESC<TAB>DETAIL...".
python3 - "$TMP" "$IBT_ROOT" "$SPEC" "$MAN4" "$IBT_NLSWEEP" > "$TMP/checks" <<'PYEOF'
import re
import subprocess
import sys

import yaml

tmp, root, spec_path, man_path, sweep = sys.argv[1:6]
EPERM, EINVAL = 1, 22
OFFS = 20                       # the one attribute, after nlmsghdr + genlmsghdr
ADMIN = 0x1                     # GENL_ADMIN_PERM
UNKNOWN = "Unknown attribute type"
UNSUPPORTED = "Unsupported attribute"


def check(ok, desc, *detail):
    print("\t".join([("ok" if ok else "not ok"), desc] + [str(d) for d in detail]))


def read_sweep(path):
    fam = {"ops": {}, "policy": {}, "r": {}, "groups": {}, "skip": set()}
    for line in open(path):
        w = line.rstrip("\n").split(" ", 6)
        if w[0] == "family":
            kv = line.split()
            fam.update(dict(zip(kv[2::2], map(int, kv[3::2]))))
        elif w[0] == "group":
            fam["groups"][w[1]] = int(w[3])
        elif w[0] == "op":
            kv = line.split()
            d = dict(zip(kv[2::2], kv[3::2]))
            fam["ops"][int(kv[1])] = {
                "flags": int(d["flags"], 16), "do": d["do"] == "1",
                "dump": d["dump"] == "1", "do_policy": int(d["do_policy"]),
                "dump_policy": int(d["dump_policy"])}
        elif w[0] == "policy":
            kv = line.split()
            fam["policy"][int(kv[1])] = (set() if kv[3] == "-" else
                                         set(map(int, kv[3].split(","))))
        elif w[0] == "s":
            fam["skip"].add((int(w[1]), w[2], int(w[3])))
        elif w[0] == "r":
            w = line.rstrip("\n").split(" ", 6)
            fam["r"][(int(w[1]), w[2], int(w[3]))] = (
                int(w[4]), int(w[5]), w[6] if len(w) > 6 else "")
    return fam


def header_enum(path, enum):
    text = open(path).read()
    body = re.search(r"enum %s \{(.*?)\};" % enum, text, re.S).group(1)
    names, n = {}, 0
    for ident in re.findall(r"^\s*(\w+)\s*(?:=[^,]*)?,", body, re.M):
        if ident.startswith("__"):
            break
        names[ident] = n
        n += 1
    return names


def header_strings(path, prefix):
    return {m.group(1): m.group(2) for m in re.finditer(
        r'#define\s+(%s\w+)\s+"([^"]*)"' % prefix, open(path).read())}


hdr = {"ibtrace": root + "/uapi/linux/ibtrace.h",
       "ibtrace_sim": root + "/uapi/linux/ibtrace_sim.h"}
cmd_prefix = {"ibtrace": ("IBTRACE_CMD_", "ibtrace_cmd"),
              "ibtrace_sim": ("IBTRACE_SIM_CMD_", "ibtrace_sim_cmd")}

# The "Who may use what" table of ibtrace(4): C name -> who.
who = {}
lines = open(man_path).read().split("\n")
borders = 0
for line in lines[lines.index("Who may use what") + 2:]:
    if re.match(r"^=+ ", line):
        borders += 1
        if borders == 3:
            break
        continue
    m = re.match(r"^``(IBTRACE_\w+)``\s+(``CAP_NET_ADMIN``|anyone)\s", line)
    if m:
        who[m.group(1)] = "admin" if "CAP" in m.group(2) else "anyone"

for famname in ("ibtrace", "ibtrace_sim"):
    r = read_sweep("%s/root.%s" % (tmp, famname))
    u = read_sweep("%s/user.%s" % (tmp, famname))
    prefix, enum = cmd_prefix[famname]
    cmds = header_enum(hdr[famname], enum)
    cmd_name = {v: k for k, v in cmds.items()}
    hdr_max, hdr_cmd_max = r["hdr_maxattr"], r["hdr_cmd_max"]
    top = max(hdr_max, r["maxattr"]) + 8

    bad = [c for c in r["ops"] if c < 1 or c > hdr_cmd_max]
    check(not bad and r["ops"], "%s: the kernel lists %d commands, all in the uAPI header"
          % (famname, len(r["ops"])), "unknown: %s" % bad)
    if r["maxattr"]:
        check(r["maxattr"] == hdr_max, "%s: family maxattr %d = the header's %d"
              % (famname, r["maxattr"], hdr_max))

    for cmd, op in sorted(r["ops"].items()):
        name = cmd_name.get(cmd, str(cmd))
        short = name[len(prefix):].lower()
        modes = [m for m in ("do", "dump") if op[m]]
        problems = []
        for mode in modes:
            pol = r["policy"].get(op[mode + "_policy"], set())
            last = max(pol) if pol else 1  # genetlink's reject-all: maxattr 1
            past = [t for t in pol if t > hdr_max]
            if past:
                problems.append("%s: policy types %s past the header's %d"
                                % (mode, past, hdr_max))
            for t in range(top + 1):
                err, offs, msg = r["r"].get((cmd, mode, t), (None, None, ""))
                if (cmd, mode, t) in r["skip"] and t in pol:
                    continue
                if err is None:
                    problems.append("%s type %d: not sent" % (mode, t))
                    continue
                if t in pol:
                    if offs == OFFS and msg in (UNKNOWN, UNSUPPORTED):
                        problems.append("%s type %d (in the policy): %s"
                                        % (mode, t, msg))
                    continue
                if err != EINVAL or offs != OFFS:
                    problems.append("%s type %d: errno %d offset %d %r (want "
                                    "EINVAL naming the attribute at %d)"
                                    % (mode, t, err, offs, msg, OFFS))
                elif (msg == UNKNOWN) != (t == 0 or t > last):
                    problems.append("%s type %d: %r, but the policy's last "
                                    "type is %d" % (mode, t, msg, last))
        check(not problems, "%s %s (%s): types 0..%d outside its policy rejected "
              "naming the attribute, maxattr = its policy's last type"
              % (famname, short, "/".join(modes), top), *problems[:8])

        problems = []
        admin = bool(op["flags"] & ADMIN)
        for mode in modes:
            for t in range(top + 1):
                got = u["r"].get((cmd, mode, t))
                want = r["r"].get((cmd, mode, t))
                if admin and (got is None or got[0] != EPERM):
                    problems.append("%s type %d: %s, want EPERM" % (mode, t, got))
                elif not admin and got != want:
                    problems.append("%s type %d: %s, as root %s"
                                    % (mode, t, got, want))
        check(not problems, "%s %s unprivileged: %s" % (
              famname, short, "EPERM for every type" if admin else
              "the same answers as root"), *problems[:8])

        doc = who.get(name)
        check(doc == ("admin" if admin else "anyone"),
              "%s %s: ibtrace(4) says %s, the kernel %s" % (
                  famname, short, doc, "admin" if admin else "anyone"))

    documented = [n for n in who if n.startswith(prefix)]
    missing = [n for n in documented if cmds.get(n) not in r["ops"]]
    check(not missing, "%s: every command ibtrace(4) tables is a request "
          "the kernel takes" % famname, "not: %s" % missing)

    groups = header_strings(hdr[famname], "IBTRACE_MCGRP_" if famname == "ibtrace"
                            else "IBTRACE_SIM_MCGRP_")
    gname = {v: k for k, v in groups.items()}
    for g in sorted(r["groups"]):
        res = {}
        for user in ("root", "nobody"):
            argv = [sweep, "--join", famname, g]
            if user == "nobody":
                argv = ["setpriv", "--reuid=65534", "--regid=65534",
                        "--clear-groups"] + argv
            out = subprocess.run(argv, capture_output=True, text=True).stdout
            res[user] = out.strip()
        admin = res["nobody"] == "errno=%d" % EPERM
        check(res["root"] == "errno=0" and (admin or res["nobody"] == "errno=0"),
              "%s group %s: root joins, unprivileged %s" % (
                  famname, g, "refused (EPERM)" if admin else "joins"),
              "root: %s, unprivileged: %s" % (res["root"], res["nobody"]))
        doc = who.get(gname.get(g, "?"))
        check(doc == ("admin" if admin else "anyone"),
              "%s group %s: ibtrace(4) says %s, the kernel %s" % (
                  famname, g, doc, "admin" if admin else "anyone"))

    if famname != "ibtrace":
        continue
    # The YAML spec: request attributes and admin-perm of every command.
    spec = yaml.safe_load(open(spec_path))
    attr_val = {}
    for aset in spec["attribute-sets"]:
        if aset["name"] != "ibtrace":
            continue
        n = 0
        for a in aset["attributes"]:
            n = a.get("value", n + 1 if attr_val else 1)
            attr_val[a["name"]] = n
    ops = {o["value"]: o for o in spec["operations"]["list"]}
    for cmd, op in sorted(r["ops"].items()):
        o = ops.get(cmd)
        if not o:
            check(False, "ibtrace command %d is in the spec" % cmd)
            continue
        want = set()
        for mode in ("do", "dump"):
            req = (o.get(mode) or {}).get("request") or {}
            want |= {attr_val[a] for a in req.get("attributes", [])}
        got = set()
        for mode in ("do", "dump"):
            if op[mode]:
                got |= r["policy"].get(op[mode + "_policy"], set())
        check(got == want, "ibtrace %s: policy = the spec's request attributes"
              % o["name"], "kernel only: %s" % sorted(got - want),
              "spec only: %s" % sorted(want - got))
        check(("admin-perm" in o.get("flags", [])) == bool(op["flags"] & ADMIN),
              "ibtrace %s: admin-perm as in the spec" % o["name"])
    requests = [v for v, o in ops.items() if "do" in o or "dump" in o]
    check(sorted(requests) == sorted(r["ops"]),
          "ibtrace: the spec's requests are the kernel's commands",
          "spec: %s" % sorted(requests), "kernel: %s" % sorted(r["ops"]))
PYEOF
ibt_expect "the checks ran" 0 "$?"
while IFS=$'\t' read -r res desc detail; do
	if [ "$res" = ok ]; then
		ibt_ok "$desc"
	else
		IFS=$'\t' read -r -a lines <<< "$detail"
		ibt_fail "$desc" "${lines[@]}"
	fi
done < "$TMP/checks"

# As a user sees it ---------------------------------------------------------

# perm DESC ARGS...: unprivileged "ibtracectl ARGS" is refused, exit 5,
# with the one sentence and nothing on standard output
perm()
{
	local desc=$1 rc

	shift
	nobody "$IBTRACECTL" "$@" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	ibt_expect "$desc: exit 5" 5 "$rc"
	ibt_expect "  one sentence on stderr" "$PERM_MSG" "$(cat "$TMP/err")"
	ibt_expect "  nothing on stdout" "" "$(cat "$TMP/out")"
}

perm "unprivileged test show" test show
perm "unprivileged -j test show" -j test show
perm "unprivileged test show 1" test show 1
out=$("$IBTRACECTL" -j test show 2>&1)
ibt_expect "test show as root: exit 0, a JSON array" "0 array" "$? $(jq -r type <<< "$out" 2>&1)"
out=$(nobody "$IBT_NLSWEEP" --join ibtrace test 2>&1)
ibt_expect "an unprivileged process cannot join the \"test\" group" "errno=1" "$out"

out=$(nobody "$IBTRACECTL" dev 2>&1)
rc=$?
ibt_expect "unprivileged dev: exit 0" 0 "$rc"
ibt_match "  lists rxe0/1" "^rxe0/1 " "$out"
out=$(nobody "$IBTRACECTL" -j agent 2>&1)
ibt_expect "unprivileged -j agent: exit 0, rxe0 port 1" "0 1" \
	"$? $(jq -r '.[] | select(.dev == "rxe0") | .port' <<< "$out" 2>&1)"
out=$(nobody "$IBTRACECTL" test list 2>&1)
ibt_expect "unprivileged test list: exit 0, lists guidinfo" "0 yes" \
	"$? $(grep -q '^guidinfo ' <<< "$out" && echo yes)"

ibt_check "sim add (root)" "$IBTRACECTL" sim add "$IBT_TOPO/two_hcas.topo" --name pol
perm "unprivileged sim show" sim show
perm "unprivileged sim show pol" sim show pol
out=$("$IBTRACECTL" -j sim show pol 2>&1)
ibt_expect "sim show as root: the fabric's two nodes" 2 \
	"$(jq '.[0].nodes | length' <<< "$out" 2>&1)"
ibt_check "sim del (root)" "$IBTRACECTL" sim del pol

ibt_check "rxe0 deleted" ibt_rxe_del rxe0
ibt_check "ibtrace_sim unloads" rmmod ibtrace_sim
ibt_check "ibtrace unloads" ibt_unload_ibtrace
ibt_done
