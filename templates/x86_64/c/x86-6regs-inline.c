// feature: x86-6regs-inline
// summary: an asm taking 6 "r" operands, chained register-to-register adds (FFmpeg's HAVE_6REGS: six, where i386 has seven beside esp, one of ebx and ebp free)
// holds: 48/f8 01/fd c0/c0 48/f8 01/fd c0/c0 48/f8 01/fd c0/c0 48/f8 01/fd c0/c0 48/f8 01/fd c0/c0
// since: x86_64: every compiler; i386: under flags that leave ebx (and ebp for seven) to the allocator: -fomit-frame-pointer for ebp, a compiler that does not reserve ebx under -fPIC
unsigned long long asmcap_probe(unsigned long long a, unsigned long long b, unsigned long long c, unsigned long long d, unsigned long long e, unsigned long long f);
unsigned long long asmcap_probe(unsigned long long a, unsigned long long b, unsigned long long c, unsigned long long d, unsigned long long e, unsigned long long f)
{
	__asm__("{addq %1, %0|add %0, %1}\n\t{addq %2, %1|add %1, %2}\n\t{addq %3, %2|add %2, %3}\n\t{addq %4, %3|add %3, %4}\n\t{addq %5, %4|add %4, %5}" : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f) : : "cc");
	return a ^ b ^ c ^ d ^ e ^ f;
}
