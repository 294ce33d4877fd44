# feature: v
# summary: Vector extension 1.0 (every OP-V instruction and the vector loads/stores)
# enable: .option arch, +v
# hwcap: AT_HWCAP bit=21
# expect: 57 00 11 02
# since: RVV 1.0 (ratified 2021); assembled here by GNU as 2.40, clang-19, clang-22
# audit: 0000007f 00000057 ; 0000707f 00000007 ; 0000707f 00005007 ; 0000707f 00006007 ; 0000707f 00007007 ; 0000707f 00000027 ; 0000707f 00005027 ; 0000707f 00006027 ; 0000707f 00007027
	vadd.vv	v0, v1, v2
