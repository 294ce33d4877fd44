# feature: vxe2
# summary: vector-enhancements facility 2 (z15, arch13): VSLD/VSRD, VSTRS, byte- and element-reversed loads and stores (VLBR, VSTBR, VLER, VSTER, VLEBR*, VSTEBR*, VLBRREP, VLLEBRZ). Audit: those opcodes
# requires: vx
# enable: .machine z15
# enable: .machine arch13
# hwcap: AT_HWCAP bit=15
# expect: e7 12 30 04 00 86 e6 10 20 00 30 06
# since: z15 (2019); GNU as 2.40, clang-19, clang-22 (`.machine z15' or -march=z15)
# audit: ff00000000ff e70000000086 ; ff00000000ff e70000000087 ; ff00000000ff e7000000008b
# audit: ff00000000ff e60000000006 ; ff00000000ff e6000000000e ; ff00000000ff e60000000007 ; ff00000000ff e6000000000f ; ff00000000ff e60000000005 ; ff00000000ff e60000000004
# audit: ff00000000ff e60000000001 ; ff00000000ff e60000000003 ; ff00000000ff e60000000002 ; ff00000000ff e60000000009 ; ff00000000ff e6000000000b ; ff00000000ff e6000000000a
	vsld	%v1,%v2,%v3,4
	vlbr	%v1,0(%r2),3
