# SPDX-License-Identifier: GPL-2.0-only
#
# What the benchmarks share to time a thing several times (sourced):
#   ns                 the time, ns
#   median N...        the median of the numbers ("-", a run that failed,
#                      is not one; "-" if no number)
#   range N...         "MIN-MAX" of the numbers ("-" if none)
#   reps FN            "lo hi": the medians of $nreps wall times of "FN
#                      $count_lo" and of "FN $count", the two in turn (the
#                      machine's load drifts); the difference between them
#                      is what each further operation costs, without the
#                      process's start and end

ns()
{
	date +%s%N
}

median()
{
	printf '%s\n' "$@" | grep -v '^-$' | sort -n |
		awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : "-" }'
}

range()
{
	printf '%s\n' "$@" | grep -v '^-$' | sort -n |
		awk 'NR == 1 { lo = $1 } { hi = $1 } END { print NR ? lo "-" hi : "-" }'
}

reps()
{
	local lo=() hi=() i

	for ((i = 0; i < nreps; i++)); do
		lo+=("$("$1" "$count_lo")")
		hi+=("$("$1" "$count")")
	done
	echo "$(median "${lo[@]}") $(median "${hi[@]}")"
}
