/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtrace_iba.h - InfiniBand Architecture wire facts that the kernel's
 * <rdma/ib_smi.h>, <rdma/ib_mad.h> and <rdma/ib_verbs.h> lack, for the
 * subnet management attributes that ibtrace.ko reads and ibtrace_sim.ko
 * answers. Section numbers are those of the IBA Specification, Volume 1.
 *
 * What the kernel has is used from there and not repeated here: the SMP
 * layout (&struct ib_smp), NodeInfo (&struct ib_node_info), PortInfo
 * (&struct ib_port_info), the attribute IDs (IB_SMP_ATTR_*), the MAD
 * methods and status codes (IB_MGMT_*), the port states (&enum
 * ib_port_state), the permissive LID (IB_LID_PERMISSIVE) and the first
 * multicast LID (IB_MULTICAST_LID_BASE).
 *
 * Kernel-private: no uAPI. Out of tree both modules' Kbuild add its
 * directory to the include path; in a kernel tree (kmod/in-tree) it is
 * drivers/infiniband/include/.
 */
#ifndef _IBTRACE_IBA_H
#define _IBTRACE_IBA_H

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/types.h>
#include <rdma/ib_smi.h>

/*
 * LIDs (IBA 4.1.3, Local Identifiers): 0 is reserved, 0x0001..0xbfff
 * unicast, 0xc000 (IB_MULTICAST_LID_BASE) .. 0xfffe multicast, 0xffff
 * permissive (IB_LID_PERMISSIVE).
 */

/**
 * define IBTRACE_IBA_LID_UCAST_MAX - the highest unicast LID (IBA 4.1.3)
 */
#define IBTRACE_IBA_LID_UCAST_MAX	0xbfff

/**
 * define IBTRACE_IBA_LID_MCAST_MAX - the highest multicast LID; the next
 *	one is the permissive LID (IBA 4.1.3)
 */
#define IBTRACE_IBA_LID_MCAST_MAX	0xfffe

/**
 * ibtrace_iba_mcast_lid_base() - the first multicast LID, in host order
 *
 * Return: 0xc000, %IB_MULTICAST_LID_BASE in host order.
 */
static inline u16 ibtrace_iba_mcast_lid_base(void)
{
	return be16_to_cpu(IB_MULTICAST_LID_BASE);
}

/**
 * define IBTRACE_IBA_PI_STATE_MASK - PortInfo.PortState, the low nibble of
 *	&ib_port_info.linkspeed_portstate (IBA 14.2.5.6); an &enum
 *	ib_port_state value
 */
#define IBTRACE_IBA_PI_STATE_MASK	0x0f

/**
 * define IBTRACE_IBA_PI_LMC_MASK - PortInfo.LMC, the low 3 bits of
 *	&ib_port_info.mkeyprot_resv_lmc (IBA 14.2.5.6)
 */
#define IBTRACE_IBA_PI_LMC_MASK		0x07

/**
 * ibtrace_iba_pi_state() - PortInfo.PortState
 * @pi: a PortInfo attribute
 *
 * Return: the port state (IB_PORT_DOWN .. IB_PORT_ACTIVE_DEFER), 0 for
 * "no state change".
 */
static inline u8 ibtrace_iba_pi_state(const struct ib_port_info *pi)
{
	return pi->linkspeed_portstate & IBTRACE_IBA_PI_STATE_MASK;
}

/**
 * define IBTRACE_IBA_PI_PHYS_SHIFT - PortInfo.PortPhysicalState, the high
 *	nibble of &ib_port_info.portphysstate_linkdown (IBA 14.2.5.6)
 */
#define IBTRACE_IBA_PI_PHYS_SHIFT	4

/**
 * ibtrace_iba_pi_phys_state() - PortInfo.PortPhysicalState
 * @pi: a PortInfo attribute
 *
 * Return: the physical state (&enum ib_port_phys_state: 5 is LinkUp).
 */
static inline u8 ibtrace_iba_pi_phys_state(const struct ib_port_info *pi)
{
	return pi->portphysstate_linkdown >> IBTRACE_IBA_PI_PHYS_SHIFT;
}

/**
 * ibtrace_iba_pi_lmc() - PortInfo.LMC
 * @pi: a PortInfo attribute
 *
 * Return: the LID mask control: the port answers 2^LMC LIDs from its base
 * LID on.
 */
static inline u8 ibtrace_iba_pi_lmc(const struct ib_port_info *pi)
{
	return pi->mkeyprot_resv_lmc & IBTRACE_IBA_PI_LMC_MASK;
}

/**
 * struct ibtrace_iba_switch_info - the SwitchInfo attribute (IBA 14.2.5.4)
 * @lft_cap: LinearFDBCap, LinearForwardingTable entries the switch has
 * @rft_cap: RandomFDBCap, RandomForwardingTable entries
 * @mft_cap: MulticastFDBCap, MulticastForwardingTable entries: an MLID at
 *	or past IB_MULTICAST_LID_BASE + @mft_cap is not forwarded
 * @lft_top: LinearFDBTop, the highest LID the LFT routes
 * @default_port: DefaultPort
 * @def_mc_primary: DefaultMulticastPrimaryPort
 * @def_mc_not_primary: DefaultMulticastNotPrimaryPort
 * @life_psc_osl: LifeTimeValue (bits 7-3, %IBTRACE_IBA_SI_LIFE_SHIFT),
 *	PortStateChange (%IBTRACE_IBA_SI_PSC), OptimizedSLtoVLMapping-
 *	Programming (bits 1-0)
 * @lids_per_port: LIDsPerPort
 * @pkey_enf_cap: PartitionEnforcementCap
 * @enf_caps: InboundEnforcementCap, OutboundEnforcementCap,
 *	FilterRawInboundCap, FilterRawOutboundCap, EnhancedPort0 (bits 7-3)
 * @reserved: reserved
 * @mft_top: MulticastFDBTop
 *
 * The first 20 bytes of the SMP data; the rest is reserved.
 */
struct ibtrace_iba_switch_info {
	__be16 lft_cap;
	__be16 rft_cap;
	__be16 mft_cap;
	__be16 lft_top;
	u8 default_port;
	u8 def_mc_primary;
	u8 def_mc_not_primary;
	u8 life_psc_osl;
	__be16 lids_per_port;
	__be16 pkey_enf_cap;
	u8 enf_caps;
	u8 reserved;
	__be16 mft_top;
} __packed;

static_assert(sizeof(struct ibtrace_iba_switch_info) == 20);

/**
 * define IBTRACE_IBA_SI_LIFE_SHIFT - SwitchInfo.LifeTimeValue's place in
 *	&ibtrace_iba_switch_info.life_psc_osl
 */
#define IBTRACE_IBA_SI_LIFE_SHIFT	3

/**
 * define IBTRACE_IBA_SI_PSC - SwitchInfo.PortStateChange in
 *	&ibtrace_iba_switch_info.life_psc_osl
 */
#define IBTRACE_IBA_SI_PSC		BIT(2)

/**
 * define IBTRACE_IBA_LFT_BLOCK - LinearForwardingTable entries per block;
 *	an SMP's attribute modifier is the block, LID / 64, and its data the
 *	exit port of each of the block's 64 LIDs (IBA 14.2.5.10)
 */
#define IBTRACE_IBA_LFT_BLOCK		64

/**
 * define IBTRACE_IBA_LFT_NO_PORT - the LinearForwardingTable entry of a
 *	LID the switch has no route for (IBA 14.2.5.10: 255, no valid port)
 */
#define IBTRACE_IBA_LFT_NO_PORT		0xff

/**
 * define IBTRACE_IBA_MFT_BLOCK - MulticastForwardingTable entries per
 *	block, 32 port masks of 16 bits, big endian, for 32 consecutive MLIDs
 *	from IB_MULTICAST_LID_BASE on (IBA 14.2.5.12)
 */
#define IBTRACE_IBA_MFT_BLOCK		32

/**
 * define IBTRACE_IBA_MFT_MASK_PORTS - ports per MulticastForwardingTable
 *	port mask; bit b of the mask at position p stands for port 16p + b
 *	(IBA 14.2.5.12)
 */
#define IBTRACE_IBA_MFT_MASK_PORTS	16

/**
 * define IBTRACE_IBA_MFT_POSITION_SHIFT - the port mask position's place in
 *	a MulticastForwardingTable attribute modifier, bits 31-28; the block
 *	is in bits 8-0 (IBA 14.2.5.12)
 */
#define IBTRACE_IBA_MFT_POSITION_SHIFT	28

/**
 * define IBTRACE_IBA_MFT_BLOCK_MASK - the block's bits of a
 *	MulticastForwardingTable attribute modifier (IBA 14.2.5.12)
 */
#define IBTRACE_IBA_MFT_BLOCK_MASK	0x1ff

/**
 * ibtrace_iba_mft_attr_mod() - a MulticastForwardingTable attribute modifier
 * @position: port mask position, 0..15
 * @block: block, MLID entry / %IBTRACE_IBA_MFT_BLOCK
 *
 * Return: the attribute modifier (IBA 14.2.5.12).
 */
static inline u32 ibtrace_iba_mft_attr_mod(u32 position, u32 block)
{
	return position << IBTRACE_IBA_MFT_POSITION_SHIFT |
	       (block & IBTRACE_IBA_MFT_BLOCK_MASK);
}

/**
 * define IBTRACE_IBA_GUID_BLOCK - GUIDInfo entries per block; the
 *	attribute modifier is the block, the data 8 big-endian GUIDs
 *	(IBA 14.2.5.5)
 */
#define IBTRACE_IBA_GUID_BLOCK		8

/**
 * define IBTRACE_IBA_PKEY_BLOCK - P_KeyTable entries per block; the
 *	attribute modifier's bits 15-0 are the block, the data 32 big-endian
 *	P_Keys (IBA 14.2.5.7)
 */
#define IBTRACE_IBA_PKEY_BLOCK		32

/**
 * define IBTRACE_IBA_SL2VL_SIZE - bytes of an SLtoVLMappingTable, 16 VLs of
 *	4 bits, SL 0 in the high nibble of byte 0 (IBA 14.2.5.8)
 */
#define IBTRACE_IBA_SL2VL_SIZE		8

/**
 * define IBTRACE_IBA_VLARB_BLOCK - VLArbitrationTable entries per block,
 *	each a &struct ib_vl_weight_elem (IBA 14.2.5.9)
 */
#define IBTRACE_IBA_VLARB_BLOCK		32

#endif /* _IBTRACE_IBA_H */
