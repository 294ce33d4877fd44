// feature: asm-direct-symbol-refs-inline
// summary: an asm naming a C global directly, RIP-relative (FFmpeg's HAVE_INLINE_ASM_DIRECT_SYMBOL_REFS, its x86_64 form); the relocation against the global is in the function's code
// holds: 89 05 00 00 00 00
// reloc: asmcap_symbol
// since: any GNU inline asm compiler for ELF targets (a name with a leading underscore on Mach-O and 32-bit COFF is another question)
extern int asmcap_symbol;
void asmcap_probe(int x);
void asmcap_probe(int x)
{
	__asm__ volatile("{movl %0, asmcap_symbol(%%rip)|mov DWORD PTR asmcap_symbol[rip], %0}" : : "a"(x) : "memory");
}
