# feature: zimop
# summary: May-be-operations MOP.R.n/MOP.RR.n
# enable: .option arch, +zimop
# hwprobe: key=4 bit=42
# expect: 73 c5 c5 81
# since: ratified RISC-V extension; assembled here by clang-19, clang-22
# audit: b3c0707f 81c04073 ; b200707f 82004073
	mop.r.0	a0, a1
