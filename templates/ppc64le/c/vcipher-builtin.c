// feature: vcipher-builtin
// summary: __builtin_crypto_vcipher compiled to VCIPHER (libgcrypt's and OpenSSL's POWER8 AES builtin)
// insn: vcipher
// target: crypto
// mflags: -mcrypto
// since: gcc 4.9, clang 3.6 (POWER8 crypto)
#include <altivec.h>

/* clang's builtin takes vector unsigned char (older ones: unsigned long
 * long, converted laxly); the casts keep both quiet */
ASMCAP_TARGET vector unsigned char asmcap_probe(vector unsigned char s, vector unsigned char k);
ASMCAP_TARGET vector unsigned char asmcap_probe(vector unsigned char s, vector unsigned char k)
{
	return (vector unsigned char)__builtin_crypto_vcipher(s, k);
}
