# feature: zknh
# summary: NIST hash SHA256SIG0/SIG1/SUM0/SUM1 and SHA512SIG0/SIG1/SUM0/SUM1
# enable: .option arch, +zknh
# hwprobe: key=4 bit=13
# expect: 13 95 25 10
# since: ratified RISC-V extension; assembled here by GNU as 2.40, clang-19, clang-22
# audit: ff80707f 10001013
	sha256sig0	a0, a1
