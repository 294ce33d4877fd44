# feature: wfxt
# summary: WFET/WFIT wait with timeout (FEAT_WFxT)
# enable: .arch armv8.7-a
# enable: .arch armv8.7-a+crc
# hwcap2: AT_HWCAP2 bit=31
# expect: 00 10 03 d5
# since: Armv8.7-A; assembled here by GNU as 2.40, clang-19, clang-22
# audit: ffffffc0 d5031000
	wfet	x0
