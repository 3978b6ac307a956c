#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Sourced by both sides of bench/dapl.sh: uDAPL's provider for rxe. The
# cma provider (libdaplofa) addresses a port by its netdev's IPv4
# address, so on rxe over eth0 it is "eth0 0"; DAT_OVERRIDE points
# dapltest at a dat.conf holding that one line instead of /etc/dat.conf.

DAPL_IA=ofa-v2-cma-roe-${IBT_NETDEV:-eth0}

# dapl_conf DIR: write DIR/dat.conf and export DAT_OVERRIDE.
dapl_conf()
{
	printf '%s u2.0 nonthreadsafe default libdaplofa.so.2 dapl.2.0 "%s 0" ""\n' \
		"$DAPL_IA" "${IBT_NETDEV:-eth0}" > "$1/dat.conf"
	export DAT_OVERRIDE=$1/dat.conf
}
