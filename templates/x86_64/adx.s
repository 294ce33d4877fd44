# feature: adx
# summary: ADCX/ADOX carry-chain additions
# requires: bmi2
# cpuid: leaf=7 subleaf=0 reg=ebx bit=19
# expect: 66 48 0f 38 f6 d8 f3 4d 0f 38 f6 c1
# since: binutils 2.23, llvm 3.3, nasm 2.10.02
# cost: Montgomery code is much slower without it: constant-time modexp 1.48x and mont_mul 1.49x at 2048 bits (montbench, adx vs mulq kernels: 1730 vs 2551 us, 849 vs 1268 ns; AMD EPYC Zen 4 KVM guest, 2026-11-30)
# audit: 66 REX? 0f 38 f6 /r ; f3 REX? 0f 38 f6 /r
	adcx	%rax,%rbx
	adox	%r9,%r8
