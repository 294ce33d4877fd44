# feature: vfp-fpinst
# summary: VMRS/VMSR of the VFP exception registers FPINST/FPINST2 (the kernel's AS_VFP_VMRS_FPINST check `vmrs r0, fpinst` under `.fpu vfpv2`). No hwcap bit: the registers are IMPLEMENTATION DEFINED
# requires: vfp
# enable: .fpu vfpv2
# isa: arm
# expect: 10 0a f9 ee
# since: VFPv2; assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: 0fff0fff 0ef90a10 ; 0fff0fff 0efa0a10 ; 0fff0fff 0ee90a10 ; 0fff0fff 0eea0a10
# audit-thumb: ffff0fff eef90a10 ; ffff0fff eefa0a10 ; ffff0fff eee90a10 ; ffff0fff eeea0a10
	.syntax unified
	.arm
	vmrs	r0, fpinst
