# feature: ls64
# summary: 64-byte single-copy atomic LD64B/ST64B/ST64BV/ST64BV0 (FEAT_LS64; no hwcap bit in the kernel's uapi headers)
# enable: .arch armv8.7-a+ls64
# expect: 20 d0 3f f8
# since: Armv8.7-A (optional); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: fffffc00 f83fd000 ; fffffc00 f83f9000 ; ffe0fc00 f820b000 ; ffe0fc00 f820a000
	ld64b	x0, [x1]
