// feature: zbb-inline
// summary: Zbb's ORC.B through GNU inline asm, the extension named in the asm (the kernel's form: .option arch inside push/pop)
// insn: zbb
// since: any compiler with GNU inline asm whose assembler knows .option arch and Zbb (binutils 2.39, llvm 17)
unsigned long asmcap_probe(unsigned long x);
unsigned long asmcap_probe(unsigned long x)
{
	__asm__(".option push\n\t.option arch, +zbb\n\torc.b %0, %0\n\t.option pop" : "+r"(x));
	return x;
}
