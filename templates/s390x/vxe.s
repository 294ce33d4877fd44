# feature: vxe
# summary: vector-enhancements facility 1 (z14, arch12): VBPERM, VMSL, VNX/VNN/VOC, VFMIN/VFMAX, VFNMA/VFNMS, VLRL(R)/VSTRL(R). Audit: those opcodes
# requires: vx
# enable: .machine z14
# enable: .machine arch12
# hwcap: AT_HWCAP bit=13
# expect: e7 12 30 00 00 85 e7 12 30 00 30 ee
# since: z14 (2017); GNU as 2.40, clang-19, clang-22 (`.machine z14' or -march=z14)
# audit: ff00000000ff e70000000085 ; ff00000000ff e700000000b8 ; ff00000000ff e7000000006c ; ff00000000ff e7000000006e ; ff00000000ff e7000000006f
# audit: ff00000000ff e700000000ee ; ff00000000ff e700000000ef ; ff00000000ff e7000000009e ; ff00000000ff e7000000009f
# audit: ff00000000ff e60000000035 ; ff00000000ff e60000000037 ; ff00000000ff e6000000003d ; ff00000000ff e6000000003f
	vbperm	%v1,%v2,%v3
	vfmin	%v1,%v2,%v3,3,0,0
