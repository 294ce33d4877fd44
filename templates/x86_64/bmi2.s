# feature: bmi2
# summary: BMI2 flagless multiply, shifts and bit deposit (MULX, RORX, SHLX, PDEP, ...)
# cpuid: leaf=7 subleaf=0 reg=ebx bit=8
# expect: c4 e2 e3 f6 c1 c4 e3 fb f0 fe 07
# since: binutils 2.22, llvm 3.1, nasm 2.10
# cost: the ADX Montgomery path needs its MULX: without it constant-time modexp is 1.48x and mont_mul 1.49x slower at 2048 bits (montbench, adx vs mulq kernels: 1730 vs 2551 us, 849 vs 1268 ns; AMD EPYC Zen 4 KVM guest, 2026-11-30)
# audit: VEX.F2.0F38.WIG f6 /r ; VEX.F2.0F3A.WIG f0 /r ib ; VEX.F2.0F38.WIG f5 /r ; VEX.F3.0F38.WIG f5 /r ; VEX.NP.0F38.WIG f5 /r ; VEX.F3.0F38.WIG f7 /r ; VEX.66.0F38.WIG f7 /r ; VEX.F2.0F38.WIG f7 /r
	mulx	%rcx,%rbx,%rax
	rorx	$7,%rsi,%rdi
