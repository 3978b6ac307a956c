#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Host check: the man pages and the bash completion cover what the tool
# accepts. Everything expected is read from ibtracectl's own help texts
# ("ibtracectl --help" and "ibtracectl OBJECT help"), so a new object,
# command, option or exit code that the documentation misses fails here:
#
#  - every page built by "make man" renders with man -l, without warnings
#    from rst2man;
#  - ibtracectl(8) names every object, command, long option and exit code
#    of the help texts;
#  - the bash completion offers every object, every sim command and, after
#    "-d", the RDMA devices of the running system.
#
# Usage: selftests/ibtrace_docs.sh [REPO]    (exit 0 pass, 1 fail, 4 skip)

set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
tool=$root/tool/ibtracectl
mandir=$root/Documentation/man
fails=0
checks=0

ok() { checks=$((checks + 1)); echo "ok $checks - $*"; }
bad() { checks=$((checks + 1)); fails=$((fails + 1)); echo "not ok $checks - $*"; }
# check NAME COMMAND...: ok or not ok by the command's exit status
check() { local name=$1; shift; if "$@"; then ok "$name"; else bad "$name"; fi; }
# has TEXT GREP-ARGS...: TEXT has a line grep -q GREP-ARGS matches
has() { printf '%s\n' "$1" | grep -q "${@:2}"; }

for c in man rst2man; do
	command -v "$c" >/dev/null || { echo "SKIP: no $c"; exit 4; }
done
[ -x "$tool" ] || { echo "SKIP: $tool not built"; exit 4; }

make -s -C "$root" man >/dev/null 2>"$root/.docs.err" || {
	cat "$root/.docs.err"; rm -f "$root/.docs.err"
	echo "not ok - make man"; exit 1; }
rm -f "$root/.docs.err"

pages=$(ls "$mandir"/*.[0-9] 2>/dev/null)
[ -n "$pages" ] || { echo "not ok - no man pages in $mandir"; exit 1; }
for want in ibtracectl.8 ibtrace.4 ibtrace_sim.4; do
	check "man page $want built" test -e "$mandir/$want"
done

for p in $pages; do
	text=$(LC_ALL=C MANWIDTH=200 man -l "$p" 2>/dev/null | col -bx)
	name=$(basename "$p")
	if [ "$(printf '%s\n' "$text" | grep -c .)" -gt 20 ] &&
	   printf '%s\n' "$text" | grep -q '^NAME' &&
	   printf '%s\n' "$text" | grep -q '^SEE ALSO'; then
		ok "$name renders (NAME ... SEE ALSO)"
	else
		bad "$name renders (NAME ... SEE ALSO)"
	fi
	if printf '%s\n' "$text" | grep -q 'System Message\|(ERROR/\|(WARNING/'; then
		bad "$name has no docutils messages"
	else
		ok "$name has no docutils messages"
	fi
done

page=$(LC_ALL=C MANWIDTH=200 man -l "$mandir/ibtracectl.8" 2>/dev/null | col -bx)
help=$("$tool" --help)
objects=$(printf '%s\n' "$help" |
	sed -n '/^Objects/,/^Exit/p' | sed -n 's/^  \([a-z]\+\).*/\1/p' | sort -u)
[ -n "$objects" ] && ok "objects in --help: $(echo $objects)" ||
	bad "objects found in --help"

# Every object, and its commands: the words of "OBJECT help"'s Usage lines
# that follow the object name.
for o in $objects; do
	check "ibtracectl(8) names object $o" has "$page" -w -- "$o"
	[ "$o" = help ] && continue
	ohelp=$("$tool" "$o" help 2>&1)
	cmds=$(printf '%s\n' "$ohelp" | grep 'ibtracectl' |
		grep -o "[] ]$o [a-z][a-z-]*" |
		awk '{print $2}' | sort -u)
	for c in $cmds; do
		check "ibtracectl(8) documents \"$o $c\"" has "$page" -- "$o $c"
	done
	for opt in $(printf '%s\n' "$ohelp" | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		check "ibtracectl(8) documents $o option $opt" has "$page" -- "$opt"
	done
done

for opt in $(printf '%s\n' "$help" | grep -o -- '--[a-z][a-z-]*' | sort -u); do
	check "ibtracectl(8) documents global option $opt" has "$page" -- "$opt"
done

codes=$(printf '%s\n' "$help" | sed -n '/^Exit status/,$p' |
	sed -n 's/^ *\([0-9]\+\)  .*/\1/p')
exit_sec=$(printf '%s\n' "$page" | sed -n '/^EXIT STATUS/,/^EXAMPLES/p')
for c in $codes; do
	check "EXIT STATUS explains code $c" has "$exit_sec" -E "^ *[|]? *$c +[|]? *[^ |]"
done

# Bash completion, driven as bash would drive it.
compl=$root/tool/ibtracectl.bash-completion
bc=/usr/share/bash-completion/bash_completion
if [ ! -r "$bc" ]; then
	echo "# no $bc: completion checks skipped"
else
	complete_words() {	# WORDS... (the last one is being completed)
		bash -c '
			source "$1" 2>/dev/null; source "$2"; shift 2
			COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
			COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
			_ibtracectl ibtracectl "${COMP_WORDS[COMP_CWORD]}" \
				"${COMP_WORDS[COMP_CWORD - 1]}"
			printf "%s\n" "${COMPREPLY[@]}"' _ "$bc" "$compl" "$@"
	}
	got=$(complete_words ibtracectl "")
	for o in $objects; do
		check "completion offers object $o" has "$got" -x "$o"
	done
	simcmds=$("$tool" sim help | grep 'ibtracectl' | grep -o 'sim [a-z]\+' |
		awk '{print $2}' | sort -u)
	got=$(complete_words ibtracectl sim "")
	for c in $simcmds; do
		check "completion offers sim $c" has "$got" -x "$c"
	done
	got=$(complete_words ibtracectl ping --d)
	check "completion offers ping --dlid" has "$got" -x -- --dlid
	devs=$(ls /sys/class/infiniband 2>/dev/null | sort)
	got=$(complete_words ibtracectl -d "" | sort)
	[ "$got" = "$devs" ] &&
		ok "completion after -d lists the RDMA devices (${devs:-none})" ||
		bad "completion after -d lists the RDMA devices: got '$got', want '$devs'"
fi

echo "# $checks checks, $fails failed"
[ "$fails" -eq 0 ]
