# feature: zbb
# summary: ANDN (Zbb)
# hwprobe: key=4 bit=4
# enable: .option arch, +zbb
# expect: 33 f5 c5 40
# audit: fe00707f 40007033
	andn	a0, a1, a2
