# feature: pauth
# summary: Pointer authentication PAC*/AUT*/XPAC*/PACGA, RETAA/BRAA../LDRAA (FEAT_PAuth; not the NOP-space PACIASP hints)
# enable: .arch_extension pauth
# hwcap: AT_HWCAP bit=30
# expect: 20 00 c1 da
# since: Armv8.3-A; assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: ffffc000 dac10000 ; fffffbe0 dac143e0 ; ffe0fc00 9ac03000 ; fe9ff800 d61f0800 ; ff200400 f8200400
	pacia	x0, x1
