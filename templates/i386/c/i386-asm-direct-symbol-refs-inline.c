// feature: i386-asm-direct-symbol-refs-inline
// summary: an asm naming a C global directly (FFmpeg's HAVE_INLINE_ASM_DIRECT_SYMBOL_REFS); the relocation against the global is in the function's code
// holds: a3 00 00 00 00 | 89 05 00 00 00 00
// reloc: asmcap_symbol
// since: any GNU inline asm compiler for ELF targets (a name with a leading underscore on Mach-O and 32-bit COFF is another question)
extern int asmcap_symbol;
void asmcap_probe(int x);
void asmcap_probe(int x)
{
	__asm__ volatile("{movl %0, asmcap_symbol|mov DWORD PTR asmcap_symbol, %0}" : : "a"(x) : "memory");
}
