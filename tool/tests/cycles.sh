#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# No circle among the tool's files: a file uses another when it calls or
# reads a symbol the other defines (nm of the objects given) or includes
# it (#include "..."); no two files may use each other, directly or
# through others. Prints each file pair in a circle; exit 1 if any.
#
# Usage: tests/cycles.sh OBJECT...    (run by "make test", from tool/)

uses=$(mktemp) || exit 1
trap 'rm -f "$uses"' EXIT

for o in "$@"; do
	nm "$o" | sed "s|^|${o%.o}.c |"
done | awk '
	$2 == "U" { use[$1, $3] = 1; next }
	NF == 4 && $3 ~ /^[TDBR]$/ { def[$4] = $1 }
	END {
		for (k in use) {
			split(k, p, SUBSEP)
			if ((p[2] in def) && def[p[2]] != p[1])
				print p[1], def[p[2]]
		}
	}' > "$uses"
for f in *.c *.h; do
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
	while read -r h; do
		[ -e "$h" ] && echo "$f $h"
	done
done >> "$uses"
awk '
	{ edge[$1, $2] = 1; node[$1] = 1; node[$2] = 1 }
	END {
		n = 0
		for (v in node)
			name[n++] = v
		for (k = 0; k < n; k++)
			for (i = 0; i < n; i++)
				if (edge[name[i], name[k]])
					for (j = 0; j < n; j++)
						if (edge[name[k], name[j]])
							edge[name[i], name[j]] = 1
		bad = 0
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++)
				if (edge[name[i], name[j]] && edge[name[j], name[i]]) {
					print "circle: " name[i] " <-> " name[j]
					bad = 1
				}
		if (!bad)
			print "no circle among " n " files"
		exit bad
	}' "$uses"
