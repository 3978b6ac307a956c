#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Drive a generic netlink family from its YAML spec alone.

The kernel's ynl (tools/net/ynl/cli.py) arrived in Linux 6.3 and is not in
Debian's linux-source-6.1, so this is a small stand-in of our own: it knows
nothing about ibtrace except what Documentation/netlink/specs/ibtrace.yaml
says - family name, operation values, attribute sets, types, enums and
nesting - and prints every reply message as a JSON object keyed by the
spec's attribute names. If the spec is wrong or incomplete the decoded
output disagrees with ibtracectl -j (selftests/ibtrace_ynl.sh compares).

  ibtrace_ynl.py --spec SPEC (--do OP | --dump OP) [--json '{"attr": value}']

Integer attributes are printed as numbers, enum-typed ones by entry name,
binary ones as hex strings, flags as true, nests as objects (multi-attr:
lists). Exit status: 0 ok, 1 netlink error (errno and extack printed),
2 usage or spec error.
"""

import argparse
import json
import os
import socket
import struct
import sys

import yaml

NETLINK_GENERIC = 16
NLM_F_REQUEST, NLM_F_ACK, NLM_F_DUMP = 0x1, 0x4, 0x300
NLMSG_ERROR, NLMSG_DONE = 2, 3
NLMSGERR_ATTR_MSG, NLMSGERR_ATTR_OFFS = 1, 2
GENL_ID_CTRL, CTRL_CMD_GETFAMILY = 0x10, 3
CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 1, 2
SOL_NETLINK, NETLINK_EXT_ACK = 270, 11
NLA_F_NESTED = 0x8000

INT_FMT = {'u8': 'B', 'u16': 'H', 'u32': 'I', 'u64': 'Q',
           's8': 'b', 's16': 'h', 's32': 'i', 's64': 'q'}


class NlError(Exception):
    def __init__(self, errno_, msg):
        super().__init__(f"{os.strerror(errno_)} (errno {errno_})" +
                         (f": {msg}" if msg else ""))


def nla(typ, payload):
    hdr = struct.pack('HH', 4 + len(payload), typ)
    return hdr + payload + b'\0' * ((4 - len(payload) % 4) % 4)


def parse_nlas(data):
    off = 0
    while off + 4 <= len(data):
        length, typ = struct.unpack_from('HH', data, off)
        if length < 4:
            break
        yield typ & ~NLA_F_NESTED, data[off + 4:off + length]
        off += (length + 3) & ~3


class Family:
    def __init__(self, spec_path):
        with open(spec_path) as f:
            self.spec = yaml.safe_load(f)
        self.name = self.spec['name']
        self.enums = {d['name']: d for d in self.spec.get('definitions', [])
                      if d.get('type') in ('enum', 'flags')}
        self.sets = {}
        for s in self.spec['attribute-sets']:
            attrs, nxt = {}, 1
            for a in s['attributes']:
                nxt = a.get('value', nxt)
                attrs[a['name']] = dict(a, value=nxt)
                nxt += 1
            self.sets[s['name']] = attrs
        self.ops, nxt = {}, 1
        for op in self.spec['operations']['list']:
            nxt = op.get('value', nxt)
            self.ops[op['name']] = dict(op, value=nxt)
            nxt += 1
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                                  NETLINK_GENERIC)
        self.sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.sock.bind((0, 0))
        self.seq = 0
        self.id = self._resolve()

    def _request(self, fam_id, cmd, version, payload, flags):
        self.seq += 1
        body = struct.pack('BBH', cmd, version, 0) + payload
        hdr = struct.pack('IHHII', 16 + len(body), fam_id,
                          NLM_F_REQUEST | NLM_F_ACK | flags, self.seq, 0)
        self.sock.send(hdr + body)
        msgs = []
        while True:
            buf = self.sock.recv(1 << 20)
            off = 0
            while off + 16 <= len(buf):
                length, typ, _, seq, _ = struct.unpack_from('IHHII', buf, off)
                msg = buf[off:off + length]
                off += (length + 3) & ~3
                if seq != self.seq:
                    continue
                if typ == NLMSG_DONE:
                    return msgs
                if typ == NLMSG_ERROR:
                    err = -struct.unpack_from('i', msg, 16)[0]
                    if err == 0:
                        return msgs
                    text = None
                    # extack TLVs follow the echoed request: its header
                    # only if capped (NLM_F_CAPPED), else all of it
                    nflags = struct.unpack_from('H', msg, 6)[0]
                    orig = struct.unpack_from('I', msg, 20)[0]
                    tlv = 20 + (16 if nflags & 0x100 else (orig + 3) & ~3)
                    if nflags & 0x200:
                        for t, v in parse_nlas(msg[tlv:]):
                            if t == NLMSGERR_ATTR_MSG:
                                text = v.rstrip(b'\0').decode()
                    raise NlError(err, text)
                msgs.append(msg[20:])

    def _resolve(self):
        payload = nla(CTRL_ATTR_FAMILY_NAME, self.name.encode() + b'\0')
        for m in self._request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1,
                               payload, 0):
            for t, v in parse_nlas(m):
                if t == CTRL_ATTR_FAMILY_ID:
                    return struct.unpack('H', v[:2])[0]
        raise NlError(2, f"no family {self.name}")

    def encode(self, set_name, values):
        out = b''
        attrs = self.sets[set_name]
        for name, val in values.items():
            a = attrs[name]
            t = a['type']
            if t in INT_FMT:
                if 'enum' in a and isinstance(val, str):
                    val = self._enum_value(a['enum'], val)
                out += nla(a['value'], struct.pack(INT_FMT[t], val))
            elif t == 'string':
                out += nla(a['value'], val.encode() + b'\0')
            elif t == 'binary':
                out += nla(a['value'], bytes.fromhex(val))
            elif t == 'flag':
                out += nla(a['value'], b'')
            elif t == 'nest':
                out += nla(a['value'] | NLA_F_NESTED,
                           self.encode(a['nested-attributes'], val))
            else:
                raise ValueError(f"cannot encode {name} of type {t}")
        return out

    def _enum_value(self, enum, name):
        e = self.enums[enum]
        start = e.get('value-start', 0)
        for i, ent in enumerate(e['entries']):
            ent = ent if isinstance(ent, dict) else {'name': ent}
            if ent['name'] == name:
                return ent.get('value', start + i)
        raise ValueError(f"{name} is not in enum {enum}")

    def _enum_name(self, enum, value):
        e = self.enums[enum]
        start = e.get('value-start', 0)
        for i, ent in enumerate(e['entries']):
            ent = ent if isinstance(ent, dict) else {'name': ent}
            if ent.get('value', start + i) == value:
                return ent['name']
        return value

    def decode(self, set_name, data):
        by_value = {a['value']: a for a in self.sets[set_name].values()}
        out = {}
        for typ, v in parse_nlas(data):
            a = by_value.get(typ)
            if a is None:
                raise ValueError(f"attribute {typ} of set {set_name} is not in the spec")
            t = a['type']
            if t == 'pad':
                continue
            if t in INT_FMT:
                size = struct.calcsize(INT_FMT[t])
                if len(v) != size:
                    raise ValueError(f"{a['name']}: {len(v)} bytes, spec says {t}")
                val = struct.unpack(INT_FMT[t], v)[0]
                if 'enum' in a:
                    val = self._enum_name(a['enum'], val)
            elif t == 'string':
                val = v.rstrip(b'\0').decode()
            elif t == 'binary':
                val = v.hex()
            elif t == 'flag':
                val = True
            elif t == 'nest':
                val = self.decode(a['nested-attributes'], v)
            else:
                raise ValueError(f"{a['name']}: unknown type {t}")
            if a.get('multi-attr'):
                out.setdefault(a['name'], []).append(val)
            else:
                out[a['name']] = val
        return out

    def run(self, op_name, dump, values):
        op = self.ops[op_name]
        mode = 'dump' if dump else 'do'
        if mode not in op:
            raise ValueError(f"{op_name} has no {mode}")
        allowed = op[mode].get('request', {}).get('attributes', [])
        for k in values:
            if k not in allowed:
                raise ValueError(f"{op_name} {mode} request takes no {k}")
        aset = op.get('attribute-set', self.spec['attribute-sets'][0]['name'])
        version = self.spec.get('version', 1)
        msgs = self._request(self.id, op['value'], version,
                             self.encode(aset, values),
                             NLM_F_DUMP if dump else 0)
        return [self.decode(aset, m) for m in msgs]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--spec', required=True)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument('--do')
    g.add_argument('--dump')
    ap.add_argument('--json', default='{}')
    args = ap.parse_args()
    try:
        fam = Family(args.spec)
        res = fam.run(args.dump or args.do, bool(args.dump),
                      json.loads(args.json))
    except NlError as e:
        print(f"Error: {e}", file=sys.stderr)
        return 1
    except (ValueError, KeyError, OSError, yaml.YAMLError) as e:
        print(f"Error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(res, indent=1))
    return 0


if __name__ == '__main__':
    sys.exit(main())
