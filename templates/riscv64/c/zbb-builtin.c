// feature: zbb-builtin
// summary: __builtin_ctzll compiled to Zbb's CTZ (what C code gets from -march=..._zbb)
// insn: zbb
// target: arch=+zbb
// mflags: -march=rv64gc_zbb
// since: gcc 12, clang 14 (the attribute: gcc 14, clang 19)
ASMCAP_TARGET int asmcap_probe(unsigned long long x);
ASMCAP_TARGET int asmcap_probe(unsigned long long x)
{
	return __builtin_ctzll(x | 1ull << 63);
}
