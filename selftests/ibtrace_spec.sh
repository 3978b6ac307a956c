#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Host-side check (no VM, no root): the netlink YAML spec and the uAPI
# header describe the same interface, both ways.
#
#   - every command, attribute and enum value the spec defines exists in
#     the header under the C name the kernel's YNL code generator would
#     give it (genetlink / genetlink-c naming rules), in the enum the spec
#     names, with the same number;
#   - every member of every enum of the header, and every numeric #define,
#     is described by the spec; only the UNSPEC (0) and __*_MAX / *_MAX
#     markers of attribute and command enums are allowed without an entry,
#     and the markers must agree with the spec's highest value;
#   - IBTRACE_GENL_NAME / IBTRACE_GENL_VERSION match the family, and each
#     multicast group's name define (IBTRACE_MCGRP_*) its group;
#   - the spec is consistent in itself (nests, enums and operation
#     attribute lists refer to things that exist; no duplicate values).
#
# Header values come from the C compiler (a generated program includes the
# header and prints every name it found), so implicit numbering and
# expressions count exactly as C counts them. The YAML is read with PyYAML
# when it is installed, else with a built-in reader for the block-style
# subset the kernel's specs use; with PyYAML present, both are run and
# must agree.
#
# Environment: IBTRACE_UAPI_HEADER, IBTRACE_SPEC (files to compare),
# CC (compiler, default cc). Output: TAP; exit 0 (agree), 1 (disagree or
# unreadable input), 4 (skipped: no python3 or no C compiler).

set -u

dir=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$dir/.." && pwd)
hdr=${IBTRACE_UAPI_HEADER:-$root/uapi/linux/ibtrace.h}
spec=${IBTRACE_SPEC:-$root/Documentation/netlink/specs/ibtrace.yaml}
cc=${CC:-cc}

skip_all()
{
	echo "TAP version 13"
	echo "1..0 # SKIP $*"
	exit 4
}

command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"
# CC may carry options ("gcc -m32"): look up its first word
command -v "${cc%% *}" >/dev/null 2>&1 || skip_all "no C compiler ($cc)"

work=$(mktemp -d "${TMPDIR:-/tmp}/ibtrace_spec.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

python3 - "$hdr" "$spec" "$cc" "$work" <<'PYEOF'
import os
import re
import shlex
import subprocess
import sys

hdr_path, spec_path, cc, work = sys.argv[1:5]

# --------------------------------------------------------------- TAP

ntests = 0
nfailed = 0


def tap(ok, desc, diag=()):
    global ntests, nfailed
    ntests += 1
    if not ok:
        nfailed += 1
    print(f"{'ok' if ok else 'not ok'} {ntests} - {desc}")
    for line in diag:
        print(f"# {line}")


def tap_skip(desc, why):
    global ntests
    ntests += 1
    print(f"ok {ntests} - {desc} # SKIP {why}")


def finish():
    print(f"1..{ntests}")
    sys.exit(1 if nfailed else 0)


print("TAP version 13")

# ------------------------------------------------- built-in YAML reader
#
# Block mappings and sequences ("- key: value" included), plain, quoted
# and block (| and >) scalars, flow sequences, anchors and aliases,
# comments. Scalars are typed as PyYAML's safe_load types them (YAML 1.1
# ints, bools, null), which is all the netlink specs use.


class YamlError(Exception):
    pass


def _strip_comment(s):
    """Drop a trailing comment from a plain or flow scalar line."""
    quote = None
    for i, ch in enumerate(s):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'" and (i == 0 or s[i - 1] in " [,{:"):
            quote = ch
        elif ch == '#' and (i == 0 or s[i - 1] in ' \t'):
            return s[:i].rstrip()
    return s.rstrip()


_INT_RE = re.compile(r'^[-+]?(0|[1-9][0-9_]*)$')
_HEX_RE = re.compile(r'^[-+]?0x[0-9a-fA-F_]+$')
_OCT_RE = re.compile(r'^[-+]?0[0-7_]+$')
_BIN_RE = re.compile(r'^[-+]?0b[01_]+$')
_FLOAT_RE = re.compile(r'^[-+]?([0-9][0-9_]*)?\.[0-9_]*([eE][-+][0-9]+)?$')
_BOOL = {'yes': True, 'Yes': True, 'YES': True, 'true': True,
         'True': True, 'TRUE': True, 'on': True, 'On': True, 'ON': True,
         'no': False, 'No': False, 'NO': False, 'false': False,
         'False': False, 'FALSE': False, 'off': False, 'Off': False,
         'OFF': False}


def _plain(s):
    if s in ('', '~', 'null', 'Null', 'NULL'):
        return None
    if s in _BOOL:
        return _BOOL[s]
    t = s.replace('_', '')
    sign = -1 if t.startswith('-') else 1
    u = t.lstrip('+-')
    if _HEX_RE.match(s):
        return sign * int(u, 16)
    if _BIN_RE.match(s):
        return sign * int(u[2:], 2)
    if _OCT_RE.match(s):
        return sign * int(u, 8)
    if _INT_RE.match(s):
        return sign * int(u, 10)
    if _FLOAT_RE.match(s) and s not in ('.', '-.', '+.'):
        return float(t)
    return s


def _unquote(s):
    if s[0] == "'":
        if not s.endswith("'") or len(s) < 2:
            raise YamlError(f"unterminated quoted scalar: {s}")
        return s[1:-1].replace("''", "'")
    if not s.endswith('"') or len(s) < 2:
        raise YamlError(f"unterminated quoted scalar: {s}")
    body, out, i = s[1:-1], [], 0
    esc = {'n': '\n', 't': '\t', '"': '"', '\\': '\\', '/': '/', '0': '\0',
           'r': '\r', ' ': ' '}
    while i < len(body):
        ch = body[i]
        if ch == '\\' and i + 1 < len(body):
            nxt = body[i + 1]
            if nxt == 'x':
                out.append(chr(int(body[i + 2:i + 4], 16)))
                i += 4
                continue
            if nxt == 'u':
                out.append(chr(int(body[i + 2:i + 6], 16)))
                i += 6
                continue
            out.append(esc.get(nxt, '\\' + nxt))
            i += 2
            continue
        out.append(ch)
        i += 1
    return ''.join(out)


def _split_flow(s):
    """Split the inside of a flow collection at top-level commas."""
    items, depth, quote, cur = [], 0, None, ''
    for ch in s:
        if quote:
            cur += ch
            if ch == quote:
                quote = None
            continue
        if ch in "\"'":
            quote = ch
        elif ch in '[{':
            depth += 1
        elif ch in ']}':
            depth -= 1
        elif ch == ',' and depth == 0:
            items.append(cur.strip())
            cur = ''
            continue
        cur += ch
    if cur.strip():
        items.append(cur.strip())
    return items


def _scalar(s):
    s = s.strip()
    if not s:
        return None
    if s[0] in "\"'":
        return _unquote(s)
    if s[0] == '[':
        if not s.endswith(']'):
            raise YamlError(f"unterminated flow sequence: {s}")
        return [_scalar(x) for x in _split_flow(s[1:-1])]
    if s[0] == '{':
        if not s.endswith('}'):
            raise YamlError(f"unterminated flow mapping: {s}")
        out = {}
        for item in _split_flow(s[1:-1]):
            k, _, v = item.partition(':')
            out[_scalar(k)] = _scalar(v)
        return out
    if s[0] in '&*!|>@`%':
        raise YamlError(f"unsupported YAML construct: {s}")
    return _plain(s)


_KEY_RE = re.compile(r'''^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"\[\]{},&*!|>-][^#]*?|-[^\s#][^#]*?)\s*:(\s+(.*))?$''')


class MiniYaml:
    def __init__(self, text):
        self.lines = []         # [indent, text, lineno]; text without EOL
        self.raw = text.split('\n')
        self.anchors = {}
        for n, line in enumerate(self.raw, 1):
            self.lines.append([len(line) - len(line.lstrip(' ')),
                               line.strip(' ').rstrip('\r'), n])
        self.i = 0

    # Lines that carry content (not blank, not comment, not directive).
    def _skip(self):
        while self.i < len(self.lines):
            ind, text, _ = self.lines[self.i]
            if (text == '' or text.startswith('#') or
                    (ind == 0 and (text.startswith('%') or
                                   text in ('---', '...')))):
                self.i += 1
                continue
            if '\t' in self.raw[self.lines[self.i][2] - 1][:ind + 1]:
                raise YamlError(f"line {self.lines[self.i][2]}: tab indent")
            return True
        return False

    def parse(self):
        if not self._skip():
            return None
        node = self._node(self.lines[self.i][0])
        if self._skip():
            raise YamlError(f"line {self.lines[self.i][2]}: "
                            "unexpected content after the document")
        return node

    def _node(self, indent):
        ind, text, _ = self.lines[self.i]
        if text == '-' or text.startswith('- '):
            return self._seq(ind)
        if _KEY_RE.match(text):
            return self._map(ind)
        return self._plain_multi(ind)

    def _plain_multi(self, indent):
        """A scalar on its own line(s), as a sequence item or document."""
        parts = [_strip_comment(self.lines[self.i][1])]
        self.i += 1
        while self._skip() and self.lines[self.i][0] >= indent and \
                not parts[0][:1] in "\"'[{":
            parts.append(_strip_comment(self.lines[self.i][1]))
            self.i += 1
        return _scalar(' '.join(parts))

    def _block_scalar(self, head, parent_indent):
        style, chomp = head[0], 'clip'
        for ch in head[1:]:
            if ch == '-':
                chomp = 'strip'
            elif ch == '+':
                chomp = 'keep'
            elif not ch.isdigit():
                raise YamlError(f"bad block scalar header {head}")
        body, block_indent = [], None
        while self.i < len(self.lines):
            ind, text, n = self.lines[self.i]
            raw = self.raw[n - 1].rstrip('\r')
            if text == '':
                body.append('')
                self.i += 1
                continue
            if ind <= parent_indent:
                break
            if block_indent is None:
                block_indent = ind
            if ind < block_indent:
                break
            body.append(raw[block_indent:])
            self.i += 1
        # trailing blank lines belong to chomping, not content
        trail = 0
        while body and body[-1] == '':
            body.pop()
            trail += 1
        if style == '|':
            text = '\n'.join(body)
        else:
            text, prev_blank = '', True
            for line in body:
                if line == '':
                    text += '\n'
                    prev_blank = True
                elif line.startswith(' '):
                    text += ('' if prev_blank else '\n') + line
                    prev_blank = True
                else:
                    text += ('' if prev_blank else ' ') + line
                    prev_blank = False
        if not body:
            return '' if chomp != 'keep' else '\n' * trail
        if chomp == 'strip':
            return text
        if chomp == 'keep':
            return text + '\n' * (trail + 1)
        return text + '\n'

    def _value(self, rest, indent, lineno):
        """The value after "key:" or "- " at @indent: inline or a block."""
        anchor = None
        if rest.startswith('&'):
            anchor, _, rest = rest.partition(' ')
            anchor = anchor[1:]
            rest = rest.strip()
        rest = _strip_comment(rest) if not rest[:1] in '|>' else rest
        if rest.startswith('*'):
            name = rest[1:]
            if name not in self.anchors:
                raise YamlError(f"line {lineno}: unknown alias *{name}")
            val = self.anchors[name]
        elif rest[:1] in ('|', '>'):
            val = self._block_scalar(_strip_comment(rest), indent)
        elif rest == '':
            if self._skip() and (self.lines[self.i][0] > indent or
                                 (self.lines[self.i][0] == indent and
                                  (self.lines[self.i][1] == '-' or
                                   self.lines[self.i][1].startswith('- ')))):
                val = self._node(self.lines[self.i][0])
            else:
                val = None
        else:
            parts = [rest]
            # a plain scalar may continue on more-indented lines
            while rest[:1] not in "\"'[{" and self._skip() and \
                    self.lines[self.i][0] > indent and \
                    not _KEY_RE.match(self.lines[self.i][1]) and \
                    not self.lines[self.i][1].startswith('- '):
                parts.append(_strip_comment(self.lines[self.i][1]))
                self.i += 1
            val = _scalar(' '.join(parts))
        if anchor:
            self.anchors[anchor] = val
        return val

    def _map(self, indent):
        out = {}
        while self._skip():
            ind, text, n = self.lines[self.i]
            if ind < indent:
                break
            if ind > indent:
                raise YamlError(f"line {n}: bad indentation")
            m = _KEY_RE.match(text)
            if not m:
                raise YamlError(f"line {n}: expected 'key: value'")
            key = _scalar(m.group(1))
            if key in out:
                raise YamlError(f"line {n}: duplicate key {key}")
            self.i += 1
            out[key] = self._value((m.group(3) or '').strip(), indent, n)
        return out

    def _seq(self, indent):
        out = []
        while self._skip():
            ind, text, n = self.lines[self.i]
            if ind < indent or not (text == '-' or text.startswith('- ')):
                if ind > indent:
                    raise YamlError(f"line {n}: bad indentation")
                break
            if ind > indent:
                raise YamlError(f"line {n}: bad indentation")
            rest = text[1:].lstrip(' ')
            if rest == '' or rest.startswith('#'):
                self.i += 1
                out.append(self._value('', indent, n))
            elif _KEY_RE.match(rest) or rest == '-' or rest.startswith('- '):
                # "- key: value": the item is a block node that starts
                # here, at the column of "key"
                col = ind + (len(text) - len(rest))
                self.lines[self.i] = [col, rest, n]
                out.append(self._node(col))
            else:
                self.i += 1
                out.append(self._value(rest, indent, n))
        return out


def load_spec(path):
    with open(path, encoding='utf-8') as f:
        text = f.read()
    mini, mini_err = None, None
    try:
        mini = MiniYaml(text).parse()
    except (YamlError, ValueError, IndexError) as e:
        mini_err = str(e)
    try:
        import yaml
    except ImportError:
        yaml = None
    if yaml is None:
        if mini_err:
            tap(False, f"spec {path} read (built-in YAML reader)",
                [mini_err])
            finish()
        tap(True, "spec read (built-in YAML reader)")
        tap_skip("built-in YAML reader agrees with PyYAML",
                 "PyYAML not installed")
        return mini
    try:
        full = yaml.safe_load(text)
    except yaml.YAMLError as e:
        tap(False, f"spec {path} read (PyYAML)", str(e).split('\n'))
        finish()
    tap(True, "spec read (PyYAML)")
    if mini_err:
        tap(False, "built-in YAML reader agrees with PyYAML",
            [f"built-in reader: {mini_err}"])
    else:
        tap(mini == full, "built-in YAML reader agrees with PyYAML",
            [] if mini == full else _first_diff(full, mini))
    return full


def _first_diff(a, b, where='spec'):
    if type(a) is not type(b):
        return [f"{where}: PyYAML {a!r} vs built-in {b!r}"]
    if isinstance(a, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in a or k not in b:
                return [f"{where}.{k}: only in "
                        f"{'PyYAML' if k in a else 'built-in'}"]
            if a[k] != b[k]:
                return _first_diff(a[k], b[k], f"{where}.{k}")
    if isinstance(a, list):
        if len(a) != len(b):
            return [f"{where}: {len(a)} vs {len(b)} items"]
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_diff(x, y, f"{where}[{i}]")
    return [f"{where}: PyYAML {a!r} vs built-in {b!r}"]

# ------------------------------------------------------------ header


def strip_c_comments(text):
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            if j < 0:
                break
            out.append(' ' + '\n' * text.count('\n', i, j))
            i = j + 2
        elif text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
        elif text[i] in '"\'':
            q, j = text[i], i + 1
            while j < n and text[j] != q:
                j += 2 if text[j] == '\\' else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return ''.join(out)


def parse_header(path):
    """Enums (tag -> [names]) and object-like #defines (name -> text)."""
    with open(path, encoding='utf-8') as f:
        text = strip_c_comments(f.read().replace('\\\n', ' '))
    enums = {}
    for m in re.finditer(r'\benum\s*(\w+)?\s*\{(.*?)\}\s*;', text, re.S):
        tag = m.group(1) or f"(anonymous enum #{len(enums) + 1})"
        names = []
        for part in m.group(2).split(','):
            part = part.strip()
            if not part:
                continue
            mm = re.match(r'([A-Za-z_]\w*)\s*(=.*)?$', part, re.S)
            if not mm:
                raise ValueError(f"enum {tag}: cannot read member '{part}'")
            names.append(mm.group(1))
        enums[tag] = names
    defines = {}
    for m in re.finditer(r'^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\(?)(.*)$',
                         text, re.M):
        if m.group(2):
            continue                    # function-like macro
        defines[m.group(1)] = m.group(3).strip()
    return enums, defines


def header_values(path, enums, defines):
    """Ask the compiler for the value of every name."""
    prog = os.path.join(work, 'values.c')
    exe = os.path.join(work, 'values')
    lines = ['#include <stdio.h>', f'#include "{os.path.abspath(path)}"',
             'int main(void)', '{']
    for names in enums.values():
        for name in names:
            lines.append(f'\tprintf("%s %lld\\n", "{name}", '
                         f'(long long)({name}));')
    for name, val in defines.items():
        if not val:
            continue                    # include guard and the like
        if val.startswith('"'):
            lines.append(f'\tprintf("%s \\"%s\\n", "{name}", {name});')
        else:
            lines.append(f'\tprintf("%s %lld\\n", "{name}", '
                         f'(long long)({name}));')
    lines += ['\treturn 0;', '}', '']
    with open(prog, 'w') as f:
        f.write('\n'.join(lines))
    res = subprocess.run(shlex.split(cc) + ['-std=gnu11', '-Wall', '-Werror',
                                            '-o', exe, prog],
                         capture_output=True, text=True)
    if res.returncode:
        return None, (res.stderr or res.stdout).strip().split('\n')[-20:]
    res = subprocess.run([exe], capture_output=True, text=True)
    if res.returncode:
        return None, [f"value printer exited {res.returncode}"]
    vals = {}
    for line in res.stdout.splitlines():
        name, _, val = line.partition(' ')
        vals[name] = val[1:] if val.startswith('"') else int(val)
    return vals, []

# --------------------------------------- the spec, as C names and values


def c_upper(s):
    return s.upper().replace('-', '_')


def c_lower(s):
    return s.lower().replace('-', '_')


class Group:
    """One spec enum: definitions enum, attribute set or command list."""

    def __init__(self, kind, name, enum_name):
        self.kind, self.name, self.enum_name = kind, name, enum_name
        self.entries = []       # (C name, value, spec name)
        self.markers = {}       # C name -> expected value (header only)


def spec_model(spec):
    problems = []
    fam = spec.get('name')
    if not isinstance(fam, str):
        raise ValueError("the spec has no family name")
    groups, consts = [], {}

    enum_defs = {}
    for d in spec.get('definitions') or []:
        dtype, dname = d.get('type'), d.get('name')
        if dtype == 'const':
            cname = c_upper(d.get('name-prefix', fam + '-') + dname)
            val = d.get('value')
            if isinstance(val, str):
                try:
                    val = int(val, 0)
                except ValueError:
                    pass
            consts[cname] = (val, dname)
        elif dtype in ('enum', 'flags'):
            enum_defs[dname] = d
            g = Group(f"definition {dtype}", dname,
                      d.get('enum-name', c_lower(f"{fam}-{dname}")))
            pfx = d.get('name-prefix', f"{fam}-{dname}-")
            val = d.get('value-start', 0)
            for e in d.get('entries') or []:
                if isinstance(e, str):
                    e = {'name': e}
                if 'value' in e:
                    val = e['value']
                user = 1 << val if dtype == 'flags' else val
                g.entries.append((c_upper(pfx + e['name']), user, e['name']))
                val += 1
            if d.get('render-max'):
                last = max((v for _, v, _ in g.entries), default=0)
                if dtype == 'flags':
                    g.markers[c_upper(d.get('enum-cnt-name',
                                            f"{pfx}mask"))] = None
                else:
                    cnt = c_upper(d.get('enum-cnt-name', f"__{pfx}max"))
                    g.markers[cnt] = last + 1
                    g.markers[c_upper(pfx + 'max')] = last
            groups.append(g)
        elif dtype != 'struct':
            problems.append(f"definition {dname}: unknown type {dtype}")

    sets = {}
    for s in spec.get('attribute-sets') or []:
        sname = s.get('name')
        sets[sname] = s
        if 'subset-of' in s:
            continue
        if 'name-prefix' in s:
            pfx = s['name-prefix']
        elif sname == fam:
            pfx = f"{fam}-a-"
        else:
            pfx = f"{fam}-a-{sname}-"
        g = Group("attribute set", sname, s.get('enum-name'))
        val = 1
        for a in s.get('attributes') or []:
            if 'value' in a:
                val = a['value']
            g.entries.append((c_upper(pfx + a['name']), val, a['name']))
            val += 1
        last = max((v for _, v, _ in g.entries), default=0)
        g.markers[c_upper(pfx + 'unspec')] = 0
        g.markers[c_upper(s.get('attr-max-name', pfx + 'max'))] = last
        g.markers[c_upper(s.get('attr-cnt-name', f"__{pfx}max"))] = last + 1
        groups.append(g)

    ops = spec.get('operations') or {}
    if ops.get('enum-model', 'unified') != 'unified':
        problems.append("operations: only the unified enum model is checked")
    pfx = ops.get('name-prefix', f"{fam}-cmd-")
    apfx = ops.get('async-prefix')
    g = Group("operations", "list", ops.get('enum-name'))
    ga = Group("operations", "async list", ops.get('async-enum')) \
        if apfx else None
    val = 1
    for op in ops.get('list') or []:
        if 'value' in op:
            val = op['value']
        is_async = 'event' in op or 'notify' in op
        if ga and is_async:
            ga.entries.append((c_upper(apfx + op['name']), val, op['name']))
        else:
            g.entries.append((c_upper(pfx + op['name']), val, op['name']))
        val += 1
    # cmd-max-name / cmd-cnt-name are top-level genetlink-c keys
    for grp, p, top in ((g, pfx, True), (ga, apfx, False)):
        if grp is None:
            continue
        last = max((v for _, v, _ in grp.entries), default=0)
        max_name = spec.get('cmd-max-name') if top else None
        cnt_name = spec.get('cmd-cnt-name') if top else None
        grp.markers[c_upper(p + 'unspec')] = 0
        grp.markers[c_upper(max_name or p + 'max')] = last
        grp.markers[c_upper(cnt_name or f"__{p}max")] = last + 1
        groups.append(grp)

    family = {
        'name': fam,
        'name_key': c_upper(spec.get('c-family-name',
                                     f"{fam}-family-name")),
        'version_key': c_upper(spec.get('c-version-name',
                                        f"{fam}-family-version")),
        'version': spec.get('version', 1),
    }
    return family, groups, consts, enum_defs, sets, problems


def self_consistency(spec, groups, enum_defs, sets):
    """References inside the spec, and duplicate names or values."""
    diag = []
    for g in groups:
        seen_n, seen_v = {}, {}
        for cname, val, sname in g.entries:
            if sname in seen_n:
                diag.append(f"{g.kind} {g.name}: '{sname}' twice")
            if val in seen_v:
                diag.append(f"{g.kind} {g.name}: '{sname}' and "
                            f"'{seen_v[val]}' both have value {val}")
            seen_n[sname], seen_v[val] = True, sname
    for sname, s in sets.items():
        if 'subset-of' in s and s['subset-of'] not in sets:
            diag.append(f"attribute set {sname}: subset of unknown set "
                        f"'{s['subset-of']}'")
        for a in s.get('attributes') or []:
            an = a.get('name')
            nest = a.get('nested-attributes')
            if nest is not None and nest not in sets:
                diag.append(f"{sname}.{an}: nested-attributes '{nest}' is "
                            "not an attribute set")
            if a.get('type') in ('nest', 'indexed-array',
                                 'array-nest') and nest is None:
                diag.append(f"{sname}.{an}: nest without nested-attributes")
            en = a.get('enum')
            if en is not None and en not in enum_defs:
                diag.append(f"{sname}.{an}: enum '{en}' is not defined")
    for op in (spec.get('operations') or {}).get('list') or []:
        on = op.get('name')
        aset = op.get('attribute-set')
        if aset is None and 'notify' not in op and \
                ('do' in op or 'dump' in op or 'event' in op):
            diag.append(f"operation {on}: no attribute-set")
            continue
        if aset is not None and aset not in sets:
            diag.append(f"operation {on}: unknown attribute set '{aset}'")
            continue
        names = {a.get('name') for a in
                 (sets[aset].get('attributes') or [])} if aset else set()
        lists = []
        for mode in ('do', 'dump'):
            for part in ('request', 'reply'):
                sub = (op.get(mode) or {}).get(part) or {}
                lists.append((f"{mode} {part}", sub.get('attributes') or []))
        lists.append(('event', (op.get('event') or {}).get('attributes')
                      or []))
        for where, attrs in lists:
            for an in attrs:
                if an not in names:
                    diag.append(f"operation {on} {where}: attribute '{an}' "
                                f"is not in set '{aset}'")
    return diag

# -------------------------------------------------------------- checks


try:
    h_enums, h_defines = parse_header(hdr_path)
except (OSError, ValueError) as e:
    tap(False, f"header {hdr_path} read", [str(e)])
    finish()
h_vals, errs = header_values(hdr_path, h_enums, h_defines)
if h_vals is None:
    tap(False, "header compiles; its values printed", errs)
    finish()
tap(True, f"header compiles: {len(h_enums)} enums, "
    f"{sum(1 for v in h_defines.values() if v)} defines")

try:
    spec = load_spec(spec_path)
except OSError as e:
    tap(False, f"spec {spec_path} read", [str(e)])
    finish()
if not isinstance(spec, dict):
    tap(False, "spec is a YAML mapping")
    finish()
try:
    family, groups, consts, enum_defs, sets, problems = spec_model(spec)
except (ValueError, KeyError, TypeError, AttributeError) as e:
    tap(False, "spec has the netlink spec layout", [repr(e)])
    finish()
tap(not problems, "spec has the netlink spec layout", problems)

diag = self_consistency(spec, groups, enum_defs, sets)
tap(not diag, "spec references resolve; no duplicate names or values", diag)

# The family name and version defines.
diag = []
nk, vk = family['name_key'], family['version_key']
if h_vals.get(nk) != family['name']:
    diag.append(f"{nk}: header {h_vals.get(nk)!r}, spec name "
                f"{family['name']!r}")
if h_vals.get(vk) != family['version']:
    diag.append(f"{vk}: header {h_vals.get(vk)!r}, spec version "
                f"{family['version']!r}")
tap(not diag, f"family {family['name']}, version {family['version']}: "
    f"{nk} and {vk} agree", diag)

# Each spec enum against the header enum it names (or, unnamed, the one
# that holds its members), both ways.
member_of = {n: tag for tag, names in h_enums.items() for n in names}
claimed = set()
for g in groups:
    diag = []
    tag = g.enum_name
    if tag is not None and tag not in h_enums:
        diag.append(f"the header has no 'enum {tag}'")
        tag = None
    if tag is None:
        tags = {member_of[c] for c, _, _ in g.entries if c in member_of}
        if len(tags) == 1:
            tag = tags.pop()
        elif tags:
            diag.append(f"members spread over enums {sorted(tags)}")
    if tag is not None:
        claimed.add(tag)
    h_names = h_enums.get(tag, [])
    s_names = {c for c, _, _ in g.entries}
    for cname, val, sname in g.entries:
        if cname not in h_names:
            where = f" (it is in enum {member_of[cname]})" \
                if cname in member_of else ""
            diag.append(f"spec {sname} -> {cname} = {val}: not in the "
                        f"header's enum {tag}{where}")
        elif h_vals[cname] != val:
            diag.append(f"{cname}: header {h_vals[cname]}, spec {val}")
    for cname in h_names:
        if cname in s_names:
            continue
        if cname in g.markers:
            want = g.markers[cname]
            if want is not None and h_vals[cname] != want:
                diag.append(f"{cname}: header {h_vals[cname]}, expected "
                            f"{want} from the spec")
            continue
        diag.append(f"header {cname} = {h_vals[cname]}: not in the spec's "
                    f"{g.kind} {g.name}")
    tap(not diag, f"{g.kind} {g.name} <-> enum {tag}: "
        f"{len(g.entries)} entries agree", diag)

# Header enums no spec enum describes.
diag = [f"enum {tag}: {', '.join(names)}"
        for tag, names in h_enums.items() if tag not in claimed]
tap(not diag, "every header enum is described by the spec", diag)

# Constants, both ways.
mcgrps = {}
for g in ((spec.get('mcast-groups') or {}).get('list') or []):
    cn = g.get('c-define-name') or f"{family['name']}-mcgrp-{g['name']}"
    mcgrps[cn.upper().replace('-', '_')] = g['name']
diag = []
special = {nk, vk}
for cname, (val, sname) in consts.items():
    if cname not in h_vals:
        diag.append(f"spec const {sname} -> {cname}: not in the header")
    elif h_vals[cname] != val:
        diag.append(f"{cname}: header {h_vals[cname]}, spec {val}")
for name, text in h_defines.items():
    if not text or name in special or name in consts or name in mcgrps:
        continue
    diag.append(f"header #define {name} {text}: not a const of the spec")
tap(not diag, f"{len(consts)} constants agree both ways", diag)

# Multicast group names, both ways ({FAMILY}_MCGRP_{NAME} by default).
diag = []
for cname, gname in mcgrps.items():
    if h_vals.get(cname) != gname:
        diag.append(f"spec mcast group {gname} -> {cname}: header "
                    f"{h_vals.get(cname)!r}")
for name in h_defines:
    if '_MCGRP_' in name and name not in mcgrps:
        diag.append(f"header #define {name}: not a mcast group of the spec")
tap(not diag, f"{len(mcgrps)} multicast groups agree both ways", diag)

finish()
PYEOF
