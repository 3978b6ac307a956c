#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The Debian packages from "make deb" work as a user installs them: in the
# VM (whose /usr/src, /usr/sbin, /usr/share and /lib/modules/VER are
# writable overlays), dpkg -i of ibtrace-dkms has DKMS install both modules
# for the running kernel; modprobe finds them under updates/dkms; the
# packaged ibtracectl, its man pages and its bash completion are where
# users look; dpkg -r takes everything away again.
#
# When "make dkms-tarball" left DKMS's build for this kernel (done on the
# host) in the package directory, the postinst is handed that binaries-only
# tarball, as distributions ship them, and only installs; otherwise DKMS
# compiles here, which takes a quarter of an hour in an emulated VM.
#
# A slow variant (IBTRACE_SLOW=1): even with the host's build, dpkg, DKMS's
# depmod of the whole module tree and man-db's triggers take about 7 min
# under TCG with the peer VM running. make check builds both packages
# and has DKMS build the modules on the host ("make deb ... DKMS builds
# it") either way.

source "$(dirname "$0")/lib.sh"

DEB_DIR=${IBTRACE_DEB_DIR:-$IBT_ROOT/.build/deb}
kver=$(uname -r)

ibt_slow || ibt_skip_all "a slow variant (about 7 min in the VM): IBTRACE_SLOW=1 runs it"
ibt_require_root
ibt_require_cmd dpkg dkms make gcc
dkms_deb=$(ls "$DEB_DIR"/ibtrace-dkms_*_all.deb 2>/dev/null | tail -1)
tool_deb=$(ls "$DEB_DIR"/ibtracectl_*_amd64.deb 2>/dev/null | tail -1)
[ -n "$dkms_deb" ] && [ -n "$tool_deb" ] ||
	ibt_skip_all "no packages in $DEB_DIR (make deb)"
[ -e "/lib/modules/$kver/build/Makefile" ] ||
	ibt_skip_all "no kernel headers for $kver"
touch /usr/src/.ibtrace-w 2>/dev/null && rm -f /usr/src/.ibtrace-w ||
	ibt_skip_all "/usr/src is not writable (not in the test VM?)"

rmmod ibtrace_sim ibtrace 2>/dev/null
# What "make install" put here would shadow the packaged modules; DKMS's
# depmod, which modprobe below relies on, forgets them.
rm -rf "/lib/modules/$kver/updates/kmod"

ver=$(dpkg-deb -f "$dkms_deb" Version)
prebuilt=$DEB_DIR/ibtrace-$ver-$kver.dkms.tar.gz
if [ -r "$prebuilt" ]; then
	echo "# the postinst loads DKMS's build from the host: ${prebuilt##*/}"
	mkdir -p /usr/share/ibtrace-dkms &&
		cp "$prebuilt" "/usr/share/ibtrace-dkms/ibtrace-$ver.dkms.tar.gz"
else
	echo "# no host-built DKMS tarball for $kver: DKMS compiles in the VM"
fi

out=$(dpkg -i "$dkms_deb" "$tool_deb" 2>&1)
rc=$?
printf '%s\n' "$out" | grep -v '^[(]Reading database' | tail -25 | sed 's/^/# /'
ibt_expect "dpkg -i ibtrace-dkms ibtracectl" 0 "$rc"
ibt_match "dkms built and installed ibtrace/$ver for $kver" \
	"ibtrace/$ver, $kver, [^:]*: installed" "$(dkms status ibtrace 2>&1)"
for m in ibtrace ibtrace_sim; do
	ibt_match "modprobe finds $m under updates/dkms" \
		"/lib/modules/$kver/updates/dkms/$m.ko" "$(modinfo -n "$m" 2>&1)"
	ibt_match "  built for $kver" "^$kver " \
		"$(modinfo -F vermagic "$m" 2>&1)"
done
ibt_check "modprobe ibtrace" modprobe ibtrace
ibt_check "the packaged /usr/sbin/ibtracectl lists ports" /usr/sbin/ibtracectl dev
ibt_check "modprobe ibtrace_sim" modprobe ibtrace_sim
printf 'Switch 2 "S"\n[1] "A"[1]\n[2] "B"[1]\nHca 1 "A"\nHca 1 "B"\n' > /tmp/deb.topo
ibt_match "the packaged tool builds a sim fabric" "fabric debsim: A ibtsim[0-9]+, B ibtsim[0-9]+" \
	"$(/usr/sbin/ibtracectl sim add /tmp/deb.topo --name debsim 2>&1)"
ibt_check "  and removes it" /usr/sbin/ibtracectl sim del debsim
for page in 8/ibtracectl 4/ibtrace 4/ibtrace_sim; do
	ibt_match "man page ${page#*/}(${page%/*}) from the package" \
		"^/usr/share/man/man${page%/*}/${page#*/}\.${page%/*}\.gz$" \
		"$(man -w -M /usr/share/man "${page%/*}" "${page#*/}" 2>&1)"
done
ibt_check "bash completion from the package" \
	test -r /usr/share/bash-completion/completions/ibtracectl
ibt_check "rmmod" rmmod ibtrace_sim ibtrace

out=$(dpkg -r ibtrace-dkms ibtracectl 2>&1)
rc=$?
[ $rc -eq 0 ] || printf '%s\n' "$out" | tail -20 | sed 's/^/# /'
ibt_expect "dpkg -r ibtrace-dkms ibtracectl" 0 "$rc"
ibt_expect "the modules are gone after dpkg -r" "" \
	"$(ls "/lib/modules/$kver/updates/dkms/" 2>/dev/null | grep ibtrace)"
ibt_expect "the tool is gone after dpkg -r" 1 "$([ -e /usr/sbin/ibtracectl ]; echo $?)"
rm -rf /usr/share/ibtrace-dkms
ibt_done
