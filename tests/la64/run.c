/* SPDX-License-Identifier: MIT */
/* `run hwcap': AT_HWCAP in hex.  `run WORD': execute the one instruction
 * WORD (hex, the word as the manual writes it) and exit 0, or die of the
 * signal the CPU raises (SIGILL where it lacks the extension). */
#include "rt.h"

#define AT_HWCAP 16

int la64_main(int argc, char **argv, char **envp, const uint64_t *auxv)
{
	(void)envp;
	if (argc != 2)
		return 2;
	if (argv[1][0] == 'h') {
		for (; auxv[0]; auxv += 2)
			if (auxv[0] == AT_HWCAP)
				la64_put_hex(auxv[1]);
		return 0;
	}
	uint32_t *code = la64_mmap_rwx(4096);
	if (!code)
		return 3;
	code[0] = (uint32_t)la64_hex(argv[1]);
	code[1] = 0x4c000020;                   /* jr $ra */
	__asm__ volatile("ibar 0" ::: "memory");
	((void (*)(void))(void *)code)();
	return 0;
}
