// feature: i386-x86-7regs-inline
// summary: an asm taking 7 "r" operands, chained register-to-register adds (FFmpeg's HAVE_7REGS: seven, on i386 every register but esp, so ebx and ebp both free)
// holds: 01/fd c0/c0 01/fd c0/c0 01/fd c0/c0 01/fd c0/c0 01/fd c0/c0 01/fd c0/c0
// since: x86_64: every compiler; i386: under flags that leave ebx (and ebp for seven) to the allocator: -fomit-frame-pointer for ebp, a compiler that does not reserve ebx under -fPIC
unsigned asmcap_probe(unsigned a, unsigned b, unsigned c, unsigned d, unsigned e, unsigned f, unsigned g);
unsigned asmcap_probe(unsigned a, unsigned b, unsigned c, unsigned d, unsigned e, unsigned f, unsigned g)
{
	__asm__("{addl %1, %0|add %0, %1}\n\t{addl %2, %1|add %1, %2}\n\t{addl %3, %2|add %2, %3}\n\t{addl %4, %3|add %3, %4}\n\t{addl %5, %4|add %4, %5}\n\t{addl %6, %5|add %5, %6}" : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f), "+r"(g) : : "cc");
	return a ^ b ^ c ^ d ^ e ^ f ^ g;
}
