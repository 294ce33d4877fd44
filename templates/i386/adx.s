# feature: adx
# summary: ADCX/ADOX carry-chain additions
# requires: bmi2
# cpuid: leaf=7 subleaf=0 reg=ebx bit=19
# expect: 66 0f 38 f6 d8 f3 0f 38 f6 d1
# since: binutils 2.23, llvm 3.3, nasm 2.10.02
# audit: 66 0f 38 f6 /r ; f3 0f 38 f6 /r
	adcx	%eax,%ebx
	adox	%ecx,%edx
