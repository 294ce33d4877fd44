# feature: bmi2
# summary: BMI2 flagless multiply, shifts and bit deposit (MULX, RORX, SHLX, PDEP, ...)
# cpuid: leaf=7 subleaf=0 reg=ebx bit=8
# expect: c4 e2 63 f6 c1 c4 e3 7b f0 fe 07
# since: binutils 2.22, llvm 3.1, nasm 2.10
# audit: VEX.F2.0F38.WIG f6 /r ; VEX.F2.0F3A.WIG f0 /r ib ; VEX.F2.0F38.WIG f5 /r ; VEX.F3.0F38.WIG f5 /r ; VEX.NP.0F38.WIG f5 /r ; VEX.F3.0F38.WIG f7 /r ; VEX.66.0F38.WIG f7 /r ; VEX.F2.0F38.WIG f7 /r
	mulx	%ecx,%ebx,%eax
	rorx	$7,%esi,%edi
