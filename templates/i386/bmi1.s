# feature: bmi1
# summary: BMI1 bit manipulation (ANDN, BEXTR, BLSI/BLSMSK/BLSR)
# cpuid: leaf=7 subleaf=0 reg=ebx bit=3
# expect: c4 e2 60 f2 c2 c4 e2 68 f3 c9
# since: binutils 2.22, llvm 3.1, nasm 2.10
# audit: VEX.NP.0F38.WIG f2 /r ; VEX.NP.0F38.WIG f7 /r ; VEX.NP.0F38.WIG f3 /1 ; VEX.NP.0F38.WIG f3 /2 ; VEX.NP.0F38.WIG f3 /3
	andn	%edx,%ebx,%eax
	blsr	%ecx,%edx
