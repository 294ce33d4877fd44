# feature: zbblate
# summary: ANDN with no directive: passes only where the flags enable Zbb, or after another snippet's .option arch
# hwprobe: key=4 bit=4
# expect: 33 f5 c5 40
# audit: fe00707f 40007033
	andn	a0, a1, a2
