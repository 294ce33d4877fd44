// feature: x86-7regs-inline
// summary: an asm taking 7 "r" operands, chained register-to-register adds (FFmpeg's HAVE_7REGS: seven, on i386 every register but esp, so ebx and ebp both free)
// holds: 48/f8 01/fd c0/c0 48/f8 01/fd c0/c0 48/f8 01/fd c0/c0 48/f8 01/fd c0/c0 48/f8 01/fd c0/c0 48/f8 01/fd c0/c0
// since: x86_64: every compiler; i386: under flags that leave ebx (and ebp for seven) to the allocator: -fomit-frame-pointer for ebp, a compiler that does not reserve ebx under -fPIC
unsigned long long asmcap_probe(unsigned long long a, unsigned long long b, unsigned long long c, unsigned long long d, unsigned long long e, unsigned long long f, unsigned long long g);
unsigned long long asmcap_probe(unsigned long long a, unsigned long long b, unsigned long long c, unsigned long long d, unsigned long long e, unsigned long long f, unsigned long long g)
{
	__asm__("{addq %1, %0|add %0, %1}\n\t{addq %2, %1|add %1, %2}\n\t{addq %3, %2|add %2, %3}\n\t{addq %4, %3|add %3, %4}\n\t{addq %5, %4|add %4, %5}\n\t{addq %6, %5|add %5, %6}" : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f), "+r"(g) : : "cc");
	return a ^ b ^ c ^ d ^ e ^ f ^ g;
}
