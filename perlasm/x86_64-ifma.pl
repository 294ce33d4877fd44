#!/usr/bin/env perl
# SPDX-License-Identifier: MIT
# AVX-512 IFMA Montgomery kernels, radix 2^52, for x86_64.
#
#   perl perlasm/x86_64-ifma.pl FLAVOUR CAPS.json > build/mont-ifma.s
#   perl perlasm/x86_64-ifma.pl --header CAPS.json >> build/mont-kernels.h
#
# Emitted only when the caps say avx512ifma and avx512vl (each with what it
# requires, avx512f) are yes: Asmcap's has() decides, as for the ADX
# kernels of x86_64-mont.pl. Otherwise the .s holds one plain `ret` under a
# local label (no EVEX byte at all) and the header says MONT_HAVE_IFMA is
# undefined, so the library has no ifma tier.
#
# Numbers here are L limbs of 52 bits, one per uint64_t, least significant
# first: x = sum x_j 2^(52j). R = 2^(52L). The kernels compute an "almost
# Montgomery" product (AMM):
#   montk_amm52_K(r, a, b, n, k0, L)    r = a*b/R mod n, r < 2n
#   montk_amm52x2p_K(r, a, b, n, k0, L) the same for two independent sets,
#                                       packed: limb t of the first
#                                       number at index 2t, of the second
#                                       at 2t + 1; k0[0], k0[1] (see
#                                       "Packed pairs" below)
#   montk_sqr52x2p_K(r, a, a, n, k0, L) the pair's a*a, each a_i a_j once
#                                       (amm_sqr; b must be a)
#   montk_ams52_K(r, a, a, n, k0, L)    montk_amm52_K's a*a, the products
#                                       of different 8-limb blocks once
#                                       (ams_fast; b must be a)
# with K vector registers of 8 limbs per number (4 of each of a pair), of
# which the first L are the number's (8K-7 <= L <= 8K, 4K-3 <= L <= 4K
# packed: the row loop runs L times, so 1024-bit numbers take 20 rows, not
# 24) and the rest 0, n odd,
# k0 = -n^-1 mod 2^52, 4n <= R, every limb of a, b and n below 2^52, a, b
# < 2n. Then r < (2n*2n + R*n)/R <= 2n: outputs feed the next product
# without a final subtraction (modexp subtracts once, at the very end).
# r may alias a or b (r is written only after the last read of a and b).
# The header also carries, per kernel, the VPMADD52 and instructions in
# the code before its row loop, in one trip and after it (tally), which
# montbench multiplies out into counts per product.
# Constant time: the only branch is the loop counter; every address is
# a pointer argument (or the stack, 64-byte aligned) plus a constant or
# the loop's step.
#
# The row loop (CIOS), i = 0..L-1, acc in K registers (limbs may exceed
# 2^52; they stay below 2^64: see the bound below):
#   X   = acc + lo(a*b_i)               lo(x*y) = (x*y) mod 2^52 per limb
#   m   = X_0 * k0 mod 2^52             (VMOVQ, IMUL, AND, VPBROADCASTQ)
#   X  += lo(n*m)                       X_0 = 0 mod 2^52 by the choice of m
#   acc = X >> 52 bits, as limbs: acc_j = X_{j+1}, acc_0 += X_0 >> 52
#         (VALIGNQ shifts the K registers down one lane; a masked add
#         puts X_0's carry into lane 0)
#   acc += hi(a*b_i) + hi(n*m)          hi(x*y) = floor(x*y / 2^52): the
#         high half of limb j's product weighs 2^(52(j+1)), which after
#         the shift is limb j's place, so it is added without shifting.
# So acc*2^52 = acc_old + a*b_i + n*m each row, and after L rows acc =
# (a*b + M*n)/R. Each row adds at most four values below 2^52 to a limb,
# and a limb moves down once per row, so a limb never exceeds
# 4*L*2^52 + 2^12 < 2^62 for L <= 256.
#
# Normalisation (once per product): r_j = acc_j mod 2^52 plus the carries
# from below. First c_j = acc_j >> 52 (< 2^10) moves up one limb in
# vectors (VPSRLQ, VPANDQ, VALIGNQ by LANES-1 lanes, VPADDQ); then every
# limb is < 2^52 + 2^10 and carries at most 1 into the next. Limb j
# generates a carry if it is >= 2^52 (g_j) and propagates one if it is
# 2^52-1 (p_j); the carry into limb j is bit j of C = ((G<<1) + P) ^ P
# with G = sum g_j 2^j, P = sum p_j 2^j (the addition runs a carry
# through each run of p limbs, as an adder's carry-lookahead would).
# G and P come from VPCMPUQ into opmasks, KMOVW into 64-bit words
# (L/64 words, added with ADC); the carries go back through KMOVW as the
# mask of a VPADDQ of 1, and a last VPANDQ clears bit 52. No branch, no
# data-dependent address: the carries are masks.
#
# Registers: the vector registers 0-5 and 16-31 (the EVEX-only upper
# sixteen), nothing callee-saved on Win64, for everything but a product's
# a: from 6-15, which Win64 callers keep (Xlate saves and restores their
# low halves, with unwind codes), so that the rows' VPMADD52 read a from
# registers, not memory (@AREGS, K <= 10; the packed pair squares' rows
# read no a but n: n there, 1370 cycles against 1505 at 2048 bits). VPMADD52 with a memory operand issues 1.27 a cycle on the
# Intel core, 1.84 with registers, and the products held by the number
# of their operations more than by a chain gain most: the pair alone
# (montk_amm52x2p_5/8/10, same run) 147/291/476 ns against 134/263/405,
# montbench's amm52 (three interleaved runs, cycles) 1536 bits 670-700
# against 644-654, 2048 1026-1096 against 878-911, 3072 2087-2213
# against 1765-1836, 1024 (K = 3, chain-bound) 384-403 against 368-371;
# n and n' in registers too where they fit (K <= 5, 3), measured the same,
# stay in memory.
# That bounds the register files: K+10 <= 22 for one product (K+6 past
# amm_fast).
#
# Width, measured on this CPU (AMD Zen 4, which runs a 512-bit operation
# as two 256-bit halves; 2 vCPUs of a shared KVM guest): ns per product,
# best of 5 x 2000 calls in a loop, pinned (taskset -c 1), the kernels of
# this file generated with each width (before the m and T changes below,
# which took about 15% off all of them):
#   one product     L=20   L=24   L=40   L=64         two at once  L=20  L=24
#   256-bit (ymm)    206    242    430    855         ymm           208   -
#   512-bit (zmm)     -     224    402    694         zmm            -    275
#   both numbers in the two halves of zmm registers (L=20): 172 against
#   162 for ymm (same kernel generation): the IFMA units are the limit.
# So the first kernels used zmm for one product (half the instructions
# for the same IFMA work) and ymm for two. Those kernels were latency-bound: a 256-bit and a 512-bit VPMADD52 both
# issue two per cycle here (a loop of 16 independent ones: 0.48-0.50
# cycles each), so the width costs nothing but VALIGNQ's latency (3
# cycles ymm, 5 zmm) on the row's chain. amm_fast below takes the shift
# off the chain; with it, and the row loop running over the number's own
# limbs (20 for 1024 bits) in registers of 24, a 1024-bit product takes
# 86 ns (the ymm kernel of L=20 it replaced: 135; OpenSSL's
# ossl_rsaz_amm52x20_x1_256: 124) and a pair 116 (ymm: 165; OpenSSL's
# ossl_rsaz_amm52x20_x2_256: 159), chained calls, best of 15 x 2000, all
# in one run on the loaded machine.
#
# Packed pairs (x2p), measured on an Intel CPU with full-width 512-bit
# IFMA (family 6 model 167, VPMADD52 zmm 1.85 per cycle): the two numbers
# interleaved lane by lane, each register holding 4 limbs of each, run as
# one product of amm_fast with 2L lanes: no lane wasted (1024 bits: 5
# registers, not 2 x 3 of 24 lanes for 20 limbs) and one instruction
# stream for both: per row at 1024 bits 21 VPMADD52 and 7 shuffles (4K+1
# and K+2, b_i's broadcast counted, at K=5) where the pair kernel it
# replaced (x2: two copies of amm_fast's row side by side) took 26 and 10
# (2(4K+1) and 2(K+2) at K=3). What the layout changes: b_i of both is
# one 128-bit broadcast (VBROADCASTI64X2, a load), X of both (lanes 0 and
# 1) goes to every 128-bit block with VSHUFI64X2, k0 is [k0_0, k0_1] in
# every block, the row's shift and n' move 2 lanes (one limb of each), c
# goes into lanes 0-1, and the normalisation carries each number through
# its own lanes (carry_pair). Every index and shift is the same for both
# numbers, so VALIGNQ serves, where halves of 256 bits would need
# two-source permutes. Per product, chained calls, best of 15 x 2000,
# pinned, against x2 (both before the two VPADDQ fewer of fast_row_nm,
# which took x2p at 1024 bits to 122): 1024 bits 125 ns (x2 of K=3: 158),
# 1536 (L=30) 269 against 280, 2048 (L=40) 436 against 437, and faster at
# every smaller size (L=4: 29 against 42 ns); past 2048 bits, where two
# single products ran, L=41: 460 against 2 x 291, L=48: 559 against
# 2 x 328.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use Asmcap;
use Xlate;

my $usage = "usage: $0 FLAVOUR CAPS.json > mont-ifma.s\n"
          . "       $0 --header CAPS.json >> mont-kernels.h\n";
die $usage unless @ARGV == 2;
my ($flavour, $capsfile) = @ARGV;
my $caps = Asmcap->load($capsfile);
# The instructions used: VPMADD52LUQ/HUQ (avx512ifma), 256-bit EVEX forms
# (avx512vl), VALIGNQ, VPCMPUQ, KMOVW, VPBROADCASTQ from a GPR (avx512f).
my $ifma = $caps->has('avx512ifma') && $caps->has('avx512vl') && $caps->has('avx512f');

# Lanes per register: zmm (see "Width" above).
my %WIDTH = (x1 => 8);
# Kernels for K = 1..KMAX registers per number: amm_fast up to
# X1_FAST_KMAX (K + 10 <= 22), amm beyond (K + 6 <= 22).
my $X1_KMAX = 16;
my $X1_FAST_KMAX = 12;
# From this K one product takes every product in place ("direct" in
# fast_regs): its row has enough work to cover the longer
# chain. Measured (montbench amm52, ns per product, best of two interleaved
# runs): K=5 (2048 bits) 260 with register 0 and a*b through T against 308
# direct; K=7 (2560) 417 direct against 458; K=8 and K=10 (3072, 4096)
# 509 and 791 direct against 610 and 972 before. No multiple of 512 bits
# needs K=6.
my $X1_DIRECT_KMIN = 7;
# The packed pairs (x2p): amm_fast's single product with the two numbers
# interleaved lane by lane, 4 limbs of each per register, K = 1..X2P_KMAX
# (K + 10 <= 22).
my $X2P_KMAX = 12;
# The kernels for a modulus n = -1 mod 2^52 (montk_amm52f_K, see amm_fast;
# at PAIR_K -1 mod 2^104, two digits a trip: amm_pair):
# K = 1..X1F_KMAX, a register more than n's where the limb more needs it
# (2048 bits: K=6 at L=41 for K=5 at 40). Measured against montk_amm52_K at
# the L each takes, ns per product, chained, median of 9 x 20000, pinned,
# one run, on AMD Zen 5 (family 26, full-width 512-bit IFMA, VPMADD52 4
# cycles, VPADDQ 2, VALIGNQ 5): K=3 (L 21) 85.5 against 105.5 at 20, K=4
# (31) 127.5 against 152.1 at 30, K=5 (41) 173.4 and K=6 (41) 187.0
# against 207.2 at 40 (K=5); mont_modexp (montbench, interleaved) 1536
# bits 261 us against 292-299, 2048 461 against 516-528. On Intel
# Emerald Rapids (family 6 model 207, mont-harness `time2`, three
# alternating runs) n' wins in the same registers (1536 bits 370-398 us
# against 424-448, 1792 555 against 611-643) and loses in one more (2048:
# 823-825 against 784-826), so mont/dispatch.c times both once per
# register count and keeps the faster (mont_ifma_choose).
my $X1F_KMAX = 6;
# The friendly kernel in two-limb digits (amm_pair) for this K, the
# others one limb a row: measured at K = 3 (1024 bits, see amm_pair).
my $PAIR_K = 3;
# Single squares (ams_fast) for K = X1SQR_KMIN..X1SQR_KMAX: the direct
# rows, a in registers (see ams_fast).
my $X1SQR_KMIN = 7;
my $X1SQR_KMAX = 10;
# Packed pair squares in blocks (ams_fast) for K = X2PAMS_KMIN..X2PAMS_KMAX,
# below amm_sqr's. Measured against montk_amm52x2p_K on Emerald Rapids (ns
# per call, chained, best of 9 x 20000, three runs, L = 4K): K = 6 210-211
# against 219-220, K = 5 167-171 against 170-171 (mont_modexp2 at 1024
# bits, montbench, three alternating runs: 252-254 us against 258-260);
# K = 2..4 no faster (62-67 against 62-66 at K = 2).
my $X2PAMS_KMIN = 5;
my $X2PAMS_KMAX = 6;
# Packed pair squares (amm_sqr) for K = X2PSQR_KMIN..X2PSQR_KMAX, where
# they beat the packed product (measured: see amm_sqr).
my $X2PSQR_KMIN = 7;
my $X2PSQR_KMAX = 10;
# Table lookups of C = 1..GATHER_CMAX 512-bit registers (see gather below).
my $GATHER_CMAX = 8;


# Largest num (64-bit limbs) a kernel of L limbs takes: 4n <= R needs
# 64 num + 2 <= 52 L.
sub max_num { my ($L) = @_; return int((52 * $L - 2) / 64) }

my @POOL = (0 .. 5, 16 .. 31);	# see "Registers" above
# A product's a, one register a register of it, where it fits in the
# registers Win64 saves (xmm6-15: Xlate saves and restores them there).
my @AREGS = (6 .. 15);

sub reg32 {	# %rdx -> %edx, %r9 -> %r9d
	my ($r) = @_;
	return $r =~ /^%r(\d+)$/ ? "%r$1d" : $r =~ s/^%r/%e/r;
}

# Normalisation of the accumulator @$A (K registers), stored to r, register
# j at byte 64j (see the header). $ways numbers
# interleaved lane by lane in each register (1, or 2: the packed pairs)
# carry each within its own lanes. Uses rax, rcx, rdx, rsi, r8, r9, r10,
# r11, %k2 and the four vector registers @$tmp; zeroes the general
# registers it used.
sub normalise {
	my ($name, $K, $lanes, $A, $MASK, $ZERO, $tmp, $ways) = @_;
	my @a = @$A;
	my $v = $lanes == 8 ? 'zmm' : 'ymm';
	my $y = sub { "%$v$_[0]" };
	my ($C0, $C1, $U, $ONE) = @$tmp;
	my $words = int(($K * $lanes + 63) / 64);
	die "$name: $K registers need more than " . (4 - $ways) . " carry words\n" if $words > 4 - $ways;
	my @G = ('%rdx', '%r9', '%r11')[0 .. $words - 1];
	my @P = ('%rcx', '%rsi', '%r8')[0 .. $words - 1];
	my $s = "\tvpsrlq\t\$51," . $y->($MASK) . "," . $y->($ONE) . "\t# 1 in every lane\n";
	$s .= "\t# acc_j mod 2^52 + (acc_{j-1} >> 52)\n";
	my $prev = $ZERO;
	for my $j (0 .. $K - 1) {
		my $cj = $j % 2 ? $C1 : $C0;
		$s .= "\tvpsrlq\t\$52," . $y->($a[$j]) . "," . $y->($cj) . "\n"
		    . "\tvpandq\t" . $y->($MASK) . "," . $y->($a[$j]) . "," . $y->($a[$j]) . "\n"
		    . "\tvalignq\t\$" . ($lanes - $ways) . "," . $y->($prev) . "," . $y->($cj) . "," . $y->($U) . "\n"
		    . "\tvpaddq\t" . $y->($U) . "," . $y->($a[$j]) . "," . $y->($a[$j]) . "\n";
		$prev = $cj;
	}
	$s .= carry_in($K, $lanes, \@a, $MASK, $ONE, \@G, \@P, $ways);
	$s .= "\txor\t" . reg32($_) . "," . reg32($_) . "\n" for @G, @P;
	return $s;
}

# The carries of limbs @$A (K registers of $lanes) each below 2^52 + 2^10,
# so carrying at most 1 into the next: limb j generates one if it is >=
# 2^52 (g_j) and propagates one if it is 2^52 - 1 (p_j); the carry into
# limb j is bit j of C = ((G<<1) + P) ^ P, G and P in the words @$G, @$P
# (rax and %k2 too). ONE holds 1 in every lane; each register, carried,
# is stored to r (register j at byte 64j of %rdi).
sub carry_in {
	my ($K, $lanes, $A, $MASK, $ONE, $G, $P, $ways) = @_;
	my $y = sub { ($lanes == 8 ? "%zmm" : "%ymm") . $_[0] };
	my $s = "\t# G: limbs >= 2^52, P: limbs = 2^52 - 1, one bit per lane\n";
	$s .= "\txor\t" . reg32($_) . "," . reg32($_) . "\n" for @$G, @$P;
	for my $j (0 .. $K - 1) {
		my $w = int($lanes * $j / 64);
		my $pos = $lanes * $j % 64;
		for my $gp ([6, $G->[$w]], [0, $P->[$w]]) {
			$s .= "\tvpcmpuq\t\$$gp->[0]," . $y->($MASK) . "," . $y->($A->[$j]) . ",%k2\n"
			    . "\tkmovw\t%k2,%eax\n";
			$s .= "\tshl\t\$$pos,%rax\n" if $pos;
			$s .= "\tor\t%rax,$gp->[1]\n";
		}
	}
	$s .= $ways == 1 ? carry_words($G, $P) : carry_pair($G, $P);
	for my $j (0 .. $K - 1) {
		my $w = int($lanes * $j / 64);
		my $pos = $lanes * $j % 64;
		$s .= "\tmov\t$G->[$w],%rax\n";
		$s .= "\tshr\t\$$pos,%rax\n" if $pos;
		$s .= "\tkmovw\t%eax,%k2\n"
		    . "\tvpaddq\t" . $y->($ONE) . "," . $y->($A->[$j]) . "," . $y->($A->[$j]) . "{%k2}\n"
		    . "\tvpandq\t" . $y->($MASK) . "," . $y->($A->[$j]) . "," . $y->($A->[$j]) . "\n"
		    . "\tvmovdqu64\t" . $y->($A->[$j]) . "," . 64 * $j . "(%rdi)\n";
	}
	return $s;
}

# G = the carry into each limb: C = ((G << 1) + P) ^ P over the words
# @$G, @$P (least significant first), the addition running a carry
# through each run of p limbs.
sub carry_words {
	my ($G, $P) = @_;
	my $s = "\t# C = ((G << 1) + P) ^ P: the carry into each limb\n";
	$s .= "\tshld\t\$1,$G->[$_ - 1],$G->[$_]\n" for reverse 1 .. $#$G;
	$s .= "\tadd\t$G->[0],$G->[0]\n\tadd\t$P->[0],$G->[0]\n";
	$s .= "\tadc\t$P->[$_],$G->[$_]\n" for 1 .. $#$G;
	$s .= "\txor\t$P->[$_],$G->[$_]\n" for 0 .. $#$G;
	return $s;
}

# The same for two numbers in alternate bits (the packed pairs' lanes),
# each on its own: for the number in the even bits, the odd ones are made
# "propagate" in P and nothing in G, so that a carry runs through them to
# the number's next limb, and the carries landing in them are dropped;
# then the other way round. At most two words: X and Y (r8, r11 and r10,
# rax) hold the even number's.
sub carry_pair {
	my ($G, $P) = @_;
	my @X = ('%r8', '%r11')[0 .. $#$G];
	my @Y = ('%r10', '%rax')[0 .. $#$G];
	my ($even, $odd) = ('$0x5555555555555555', '$0xaaaaaaaaaaaaaaaa');
	my $s = "\t# the even lanes' number: X = G & even, Y = P | odd\n";
	$s .= "\tmovabsq\t$even,$X[$_]\n\tand\t$G->[$_],$X[$_]\n"
	    . "\tmovabsq\t$odd,$Y[$_]\n\tor\t$P->[$_],$Y[$_]\n" for 0 .. $#$G;
	$s .= carry_words(\@X, \@Y);
	$s .= "\tmovabsq\t$even,$Y[$_]\n\tand\t$Y[$_],$X[$_]\n" for 0 .. $#$G;
	$s .= "\t# the odd lanes' number in G and P\n";
	$s .= "\tmovabsq\t$odd,$Y[$_]\n\tand\t$Y[$_],$G->[$_]\n"
	    . "\tmovabsq\t$even,$Y[$_]\n\tor\t$Y[$_],$P->[$_]\n" for 0 .. $#$G;
	$s .= carry_words($G, $P);
	$s .= "\tmovabsq\t$odd,$Y[$_]\n\tand\t$Y[$_],$G->[$_]\n\tor\t$X[$_],$G->[$_]\n"
	    . "\txor\t" . reg32($X[$_]) . "," . reg32($X[$_]) . "\n" for 0 .. $#$G;
	return $s;
}

# One product of K registers, the row loop as described above (the
# kernels past amm_fast's registers, K > X1_FAST_KMAX).
sub amm {
	my ($K) = @_;
	my $L = 8 * $K;
	my @free = @POOL;
	my $take = sub { my $n = shift @free; die "out of vector registers\n" unless defined $n; $n };
	my @a = map { $take->() } 1 .. $K;
	my ($B, $M, $K0, $MASK, $ZERO, $T) = map { $take->() } 1 .. 6;
	my $y = sub { "%zmm$_[0]" };
	my $x = sub { "%xmm$_[0]" };
	my $name = "montk_amm52_$K";
	my $l = ".L$name";
	my $s = "\n.globl\t$name\n.hidden\t$name\n.type\t$name,\@function,6\n.align\t32\n$name:\n";
	$s .= "\tmovabsq\t\$0xfffffffffffff,%r10\t# 2^52 - 1\n"
	    . "\tvpbroadcastq\t%r10," . $y->($MASK) . "\n"
	    . "\tvpxorq\t" . join(',', ($x->($ZERO)) x 3) . "\n"
	    . "\tvpbroadcastq\t%r8," . $y->($K0) . "\n";
	$s .= "\tvpxorq\t" . join(',', ($x->($_)) x 3) . "\n" for @a;
	$s .= "\tmov\t\$1,%eax\n\tkmovw\t%eax,%k1\t\t# lane 0; %r9: the rows, L\n$l:\n";
	my $pre = $s;
	$s = '';
	my $off = sub { my ($c, $j) = @_; 64 * $j };
	# The loop-carried chain runs through acc_0: its lo(a_0*b_i), then m,
	# lo(n_0*m), the shift, hi(a_0*b_i), hi(n_0*m). A product whose
	# factors are known early (b_i) or that runs beside lo(n*m) (hi(n*m))
	# goes into a fresh zero register T and joins acc with one VPADDQ
	# (latency 1 instead of the 4 of an accumulating VPMADD52), so on the
	# chain remain the broadcast of X_0, the product with k0, lo(n_0*m),
	# the shift and three additions. The other registers accumulate
	# directly but for hi(n*m), which waits for m like lo(n*m) does.
	my $via = sub {		# acc += PRODUCT(mem, v) through T
		my ($mn, $mem, $v, $acc) = @_;
		return "\tvpxorq\t" . join(',', ($x->($T)) x 3) . "\n\t$mn\t$mem,$v," . $y->($T) . "\n"
		     . "\tvpaddq\t" . $y->($T) . ",$acc,$acc\n";
	};
	my $direct = sub { my ($mn, $mem, $v, $acc) = @_; "\t$mn\t$mem,$v,$acc\n" };
	$s .= "\t# acc += lo(a*b_i)\n\tvpbroadcastq\t(%rdx)," . $y->($B) . "\n";
	$s .= ($_ ? $direct : $via)->('vpmadd52luq', $off->(0, $_) . "(%rsi)", $y->($B), $y->($a[$_]))
		for 0 .. $K - 1;
	# m in every lane, in vectors: lo(X_0 * k0) needs only X_0 mod 2^52,
	# the 52 bits VPMADD52LUQ reads (a round trip through a general
	# register, VMOVQ+IMUL+VPBROADCASTQ, was 1.2x slower)
	$s .= "\t# m = X_0*k0 mod 2^52; acc += lo(n*m)\n"
	    . "\tvpbroadcastq\t" . $x->($a[0]) . "," . $y->($T) . "\n"
	    . "\tvpxorq\t" . join(',', ($x->($M)) x 3) . "\n"
	    . "\tvpmadd52luq\t" . $y->($K0) . "," . $y->($T) . "," . $y->($M) . "\n";
	$s .= "\tvpmadd52luq\t" . $off->(0, $_) . "(%rcx)," . $y->($M) . "," . $y->($a[$_]) . "\n"
		for 0 .. $K - 1;
	$s .= "\t# acc = acc >> 52 bits: limbs down one lane, X_0 >> 52 into lane 0\n"
	    . "\tvpsrlq\t\$52," . $y->($a[0]) . "," . $y->($T) . "\n";
	$s .= "\tvalignq\t\$1," . $y->($a[$_]) . "," . $y->($a[$_ + 1]) . "," . $y->($a[$_]) . "\n"
		for 0 .. $K - 2;
	$s .= "\tvalignq\t\$1," . $y->($a[-1]) . "," . $y->($ZERO) . "," . $y->($a[-1]) . "\n"
	    . "\tvpaddq\t" . $y->($T) . "," . $y->($a[0]) . "," . $y->($a[0]) . "{%k1}\n"
	    . "\t# acc += hi(a*b_i) + hi(n*m)\n";
	for my $j (0 .. $K - 1) {
		$s .= $via->('vpmadd52huq', $off->(0, $j) . "(%rcx)", $y->($M), $y->($a[$j]))
		    . ($j ? $direct : $via)->('vpmadd52huq', $off->(0, $j) . "(%rsi)", $y->($B), $y->($a[$j]));
	}
	$s .= "\tlea\t8(%rdx),%rdx\n\tdec\t%r9d\n\tjnz\t$l\n";
	my $row = $s;
	# Normalisation (see the header). Free now: rax, rcx, rdx, rsi, r8,
	# r9, r10, r11; B, M, K0 and T.
	$s = normalise($name, $K, 8, \@a, $MASK, $ZERO, [$B, $M, $K0, $T], 1);
	# No secret stays in a register: the vectors, the opmasks, the words.
	$s .= "\tvpxorq\t" . join(',', ($x->($_)) x 3) . "\n" for @POOL[0 .. $#POOL - @free];
	$s .= "\txor\t%eax,%eax\n\tkmovw\t%eax,%k1\n\tkmovw\t%eax,%k2\n";
	$s .= "\tvzeroupper\n\tret\n.size\t$name,.-$name\n";
	return tally($name, $pre, $row, $s, 0);
}

# One product with the m chain shortened (512-bit registers), or a packed
# pair as one product of 2L lanes (see "Packed pairs" above).
# The row update of "The row loop" above, rewritten so that the chain from
# one row's m to the next runs through as few operations as possible and
# the shuffles, which share the IFMA units here, are few (measured on this
# CPU: VPMADD52 4.2 cycles, VPADDQ and VPBROADCASTQ 2, VALIGNQ 3 on ymm and
# 5 on zmm; VPMADD52 of either width two per cycle, VALIGNQ and
# VPBROADCASTQ (also from memory) taking the same two units). In the frame
# of row i (lane j of acc weighs 2^(52(i+j))), acc already holding
# lo(a*b_i):
#   acc' = shift(acc) + lo(n'*m) + hi(n*m) + hi(a*b_i) + lo(a*b_{i+1}) + c e_0
# with n' = n one limb down (n'_j = n_{j+1}, the top limb 0; copied to the
# stack once per call), so every product lands in place and the only
# shift is of acc itself, off the chain. X = acc_0 gives m = lo(k0*X)
# and the carry that X + lo(n_0*m) (0 mod 2^52) moves into the next lane
# 0: c = ceil(X/2^52) = (X + 2^52 - 1) >> 52, known from X alone. The
# next X is lane 0 of acc', whose only terms waiting for m are hi(n_0*m)
# and lo(n_1*m): from m to the next m a VPMADD52, two VPADDQ, VPBROADCASTQ
# and the VPMADD52 with k0, about 14.4 cycles (the direct form, see
# fast_regs, takes a longer chain for fewer operations; 4K+1 products and
# K+2 shuffles per row). b_{i+1}, broadcast for lo(a*b_{i+1}), stays in a
# register for the next row's hi(a*b_{i+1}).
#
# montk_amm52f_K, for a modulus n = -1 mod 2^52 (k0 = 1, the argument not
# read; mont_ifma_modexp works modulo such a multiple of the number's
# modulus): m = X mod 2^52 is X itself, broadcast (VPMADD52 reads the low
# 52 bits), and registers 1..K-1 gather their a*b and n*m products in a
# temporary U_j each, joined with one VPADDQ, instead of accumulating n*m
# in place. Measured on Intel (Emerald Rapids, where VPADDQ feeding a
# VPMADD52 costs about 3 cycles more than the two latencies; see
# docs/performance.md), ns per product, chained, 1024 bits: 94 (21 rows)
# against 110 for montk_amm52_3 (20 rows); either change alone gains
# nothing (the accumulators' own chains, VALIGNQ, VPADDQ and two
# accumulating VPMADD52, are as long as the m chain). Register 0 takes
# the row of the other kernels (its a*b products in H, c starting T):
# montbench amm52 at 1024 bits, medians of five rounds, six interleaved
# runs, 95-99 ns against 102-103 with register 0's a*b and c joined
# through T first, and 114-115 for montk_amm52_3; mont_modexp 131-136 us
# against 140-143 and 149-150.
sub amm_fast {
	my ($K, $ways, $friendly) = @_;
	my $g = fast_regs($K, $ways, $friendly);
	my $l = ".L$g->{name}";
	return tally($g->{name}, fast_entry($g) . fast_first_row($g)
	             . "\tdec\t%r9d\t\t\t# rows: L - 1 in the loop, the last peeled\n$l:\n",
	             fast_row($g, 0) . "\tlea\t" . 8 * $ways . "(%rdx),%rdx\n\tdec\t%r9d\n\tjnz\t$l\n",
	             "\t# the last row\n" . fast_row($g, 1) . fast_exit($g), 1);
}

# The counts of a product kernel, kept for the header: VPMADD52LUQ/HUQ
# and every instruction in the code before its row loop, in one trip of
# the loop and after it, counted in the text emitted (one instruction a
# line; labels, directives and comments are none), and how many rows run
# outside the loop (amm_fast peels the last, amm_sqr unrolls its first
# 4K-4 before it), and how many rows a trip of the loop takes (step: 2 in
# amm_pair's, 1 elsewhere). A product of L limbs executes
# pre + (L - peeled) / step * trip + post of each.
my %COUNT;
sub tally {
	my ($name, $pre, $loop, $post, $peeled, $step) = @_;
	my @parts = ($pre, $loop, $post);
	my @insns = map { [ grep { /^\t[^.#]/ } split /\n/ ] } @parts;
	$COUNT{$name} = { madd => [ map { scalar grep { /^\tvpmadd52[lh]uq\t/ } @$_ } @insns ],
	                  insns => [ map { scalar @$_ } @insns ], peeled => $peeled, step => $step // 1 };
	return join '', @parts;
}

# The header's tables of %COUNT, kernel K at index K - 1.
sub count_table {
	my $row = sub {
		my $c = $COUNT{ $_[0] };
		return sprintf "{{%s}, {%s}, %d, %d}", join(', ', @{ $c->{madd} }),
		       join(', ', @{ $c->{insns} }), $c->{peeled}, $c->{step};
	};
	return <<"EOT"
/* Per product of L limbs each kernel executes pre + (L - peeled) / step * trip
 * + post VPMADD52LUQ/HUQ (madd) and instructions (insns): counted by the
 * generator in the code it emitted, [0] before the row loop, [1] one trip of
 * it (step rows), [2] after. */
struct montk_ifma_count { unsigned madd[3], insns[3], peeled, step; };
EOT
	     . "#define MONTK_IFMA_X1_COUNTS {" . join(', ', map { $row->("montk_amm52_$_") } 1 .. $X1_KMAX) . "}\n"
	     . "#define MONTK_IFMA_X1F_COUNTS {" . join(', ', map { $row->("montk_amm52f_$_") } 1 .. $X1F_KMAX) . "}\n"
	     . "#define MONTK_IFMA_X2P_COUNTS {" . join(', ', map { $row->("montk_amm52x2p_$_") } 1 .. $X2P_KMAX) . "}\n"
	     . "#define MONTK_IFMA_X1SQR_COUNTS {"
	     . join(', ', map { $row->("montk_ams52_$_") } $X1SQR_KMIN .. $X1SQR_KMAX) . "}\n"
	     . "#define MONTK_IFMA_X2PAMS_COUNTS {"
	     . join(', ', map { $row->("montk_ams52x2p_$_") } $X2PAMS_KMIN .. $X2PAMS_KMAX) . "}\n"
	     . "#define MONTK_IFMA_X2PSQR_COUNTS {"
	     . join(', ', map { $row->("montk_sqr52x2p_$_") } $X2PSQR_KMIN .. $X2PSQR_KMAX) . "}\n";
}

sub zmm { "%zmm$_[0]" }
sub xmm { "%xmm$_[0]" }
sub vclear { "\tvpxorq\t" . join(',', (xmm($_[0])) x 3) . "\n" }	# the whole zmm = 0

# amm_fast's registers (numbers from @POOL) for a product of K registers
# whose $ways numbers are interleaved lane by lane: the accumulator A (K
# registers), m, c and b_i in every lane, k0 in every lane (K0), MASK
# (2^52 - 1 in every lane), ZERO, BN (b_{i+1}), the product temporaries T
# and H, XB (X broadcast); used: how many of @POOL. The frame holds n', K
# registers, 64-byte aligned.
sub fast_regs {
	my ($K, $ways, $friendly) = @_;
	my @free = @POOL;
	my $take = sub { my $n = shift @free; die "out of vector registers\n" unless defined $n; $n };
	# direct, the wide single products: every register takes every product
	# in place, no T or H and no VPADDQ, so a register-row is 4 VPMADD52
	# and a VALIGNQ, 5 operations on the two ports both take, not 6 (9 for
	# register 0). The register's chain through a row grows to the VALIGNQ
	# and four dependent VPMADD52 (about 19 cycles; the m chain, register
	# 0's, 20), which the rest of the row covers when it is long enough:
	# K >= X1_DIRECT_KMIN registers. Otherwise register 0 and the a*b
	# products of every register go through T and H (the m chain then
	# about 13 cycles).
	die "montk_amm52f_$K: only single products through T\n"
		if $friendly && ($ways == 2 || $K >= $X1_DIRECT_KMIN);
	my $g = { K => $K, ways => $ways, friendly => $friendly, direct => $K >= $X1_DIRECT_KMIN,
	          frame => 64 * $K + 64,
	          name => $ways == 2 ? "montk_amm52x2p_$K" : $friendly ? "montk_amm52f_$K" : "montk_amm52_$K" };
	$g->{A} = [ map { $take->() } 1 .. $K ];
	@$g{qw(M C B MASK ZERO BN T H XB)} = map { $take->() } 1 .. 9;
	$g->{K0} = $take->() unless $friendly;	# k0 = 1: m = X
	$g->{U} = [ undef, map { $take->() } 1 .. $K - 1 ] if $friendly;
	$g->{AR} = [ @AREGS[0 .. $K - 1] ] if $K <= @AREGS;
	$g->{used} = @POOL - @free;
	return $g;
}

# b_i of every number in each of its lanes, from byte $at of b: one limb
# in every lane, or the packed pair's two limbs (b_i of each, side by
# side) in every 128-bit block (from byte $at of a, the squares' a_i,
# when $base is %rsi).
sub fast_b {
	my ($g, $at, $to, $base) = @_;
	return ($g->{ways} == 2 ? "\tvbroadcasti64x2\t" : "\tvpbroadcastq\t") . "$at(" . ($base // '%rdx') . "),"
	     . zmm($to) . "\n";
}

# The entry: the frame (%r10 = its 64-byte aligned start), k0 (of each
# number) in every lane, MASK, ZERO, and the opmasks %k2 (all lanes but
# the top limb's) and %k1 (limb 0's lanes).
sub fast_entry {
	my ($g) = @_;
	my $name = $g->{name};
	return "\n.globl\t$name\n.hidden\t$name\n.type\t$name,\@function,6\n.align\t32\n$name:\n"
	     . "\tsub\t\$$g->{frame},%rsp\n\tlea\t63(%rsp),%r10\n\tand\t\$-64,%r10\n" . fast_consts($g);
}

# k0 (none for n = -1 mod 2^52), MASK, ZERO, %k2 and %k1 (see fast_entry).
sub fast_consts {
	my ($g) = @_;
	my $ways = $g->{ways};
	return (!defined $g->{K0} ? ''
	        : ($ways == 2 ? "\tvbroadcasti64x2\t(%r8)," : "\tvpbroadcastq\t%r8,") . zmm($g->{K0}) . "\n")
	     . "\tmovabsq\t\$0xfffffffffffff,%rax\t# 2^52 - 1\n"
	     . "\tvpbroadcastq\t%rax," . zmm($g->{MASK}) . "\n" . vclear($g->{ZERO})
	     . sprintf("\tmov\t\$0x%x,%%eax\n\tkmovw\t%%eax,%%k2\t\t# lanes 0-%d\n", 0xff >> $ways, 7 - $ways)
	     . sprintf("\tmov\t\$%d,%%eax\n\tkmovw\t%%eax,%%k1\t\t# limb 0: lanes 0-%d\n", (1 << $ways) - 1,
	               $ways - 1);
}

# Row 0: n' to the stack (n'_j = n_{j+1}: each register loaded one limb
# up; the last load keeps the lanes below the top limb (%k2) and zeroes
# the top limb's, past n, so the top limb of n' is 0 and nothing past n
# is read), a into its registers where it has them (AR), then acc =
# lo(a*b_0), the first m and c.
sub fast_first_row {
	my ($g) = @_;
	my ($K, $B, $A) = @$g{qw(K B A)};
	my $s = fast_np_copy($g);
	$s .= "\tvmovdqu64\t" . 64 * $_ . "(%rsi)," . zmm($g->{AR}[$_]) . "\n" for $g->{AR} ? 0 .. $K - 1 : ();
	$s .= $g->{x_init} // '';	# the square's multiplicands (ams_fast)
	$s .= "\t# acc = lo(a*b_0); the first m and c\n" . fast_b($g, 0, $B);
	$s .= vclear($A->[$_]) . "\tvpmadd52luq\t" . fast_a($g, $_) . "," . zmm($B)
	    . "," . zmm($A->[$_]) . "\n" for 0 .. $K - 1;
	return $s . fast_mc($g);
}

# n' to the stack through T (see fast_first_row).
sub fast_np_copy {
	my ($g) = @_;
	my $T = zmm($g->{T});
	my $s = "\t# n' (one limb down, the top limb 0) to the stack\n";
	$s .= "\tvmovdqu64\t" . (64 * $_ + 8 * $g->{ways}) . "(%rcx),$T" . ($_ == $g->{K} - 1 ? "{%k2}{z}" : "")
	    . "\n\tvmovdqu64\t$T," . 64 * $_ . "(%r10)\n" for 0 .. $g->{K} - 1;
	return $s;
}

# m and c from X = acc_0: m = lo(k0*X) (VPMADD52LUQ reads X mod 2^52, all
# m needs), c = (X + 2^52 - 1) >> 52, the carry X + lo(n_0*m) moves into
# the next lane 0 (C holds X + 2^52 - 1; the shift by 52 is fast_row_nm's
# unless direct).
sub fast_mc {
	my ($g) = @_;
	my ($a0, $XB, $C, $M) = ($g->{A}[0], @$g{qw(XB C M)});
	my $c = "\tvpaddq\t" . zmm($g->{MASK}) . "," . zmm($a0) . "," . zmm($C) . "\n";
	return "\tvpbroadcastq\t" . xmm($a0) . "," . zmm($M) . "\t# m = X (k0 = 1)\n" . $c
		if $g->{friendly};
	return ($g->{ways} == 2 ? "\tvshufi64x2\t\$0," . zmm($a0) . "," . zmm($a0)
	                         : "\tvpbroadcastq\t" . xmm($a0)) . "," . zmm($XB) . "\n" . $c
	     . ($g->{direct} ? "\tvpsrlq\t\$52," . zmm($C) . "," . zmm($C) . "\n" : '')
	     . vclear($M)
	     . "\tvpmadd52luq\t" . zmm($g->{K0}) . "," . zmm($XB) . "," . zmm($M) . "\n";
}

# a's register j as VPMADD52's first operand: in a register (AR), else
# from memory.
sub fast_a { my ($g, $j) = @_; $g->{AR} ? zmm($g->{AR}[$j]) : 64 * $j . "(%rsi)" }

# One row; the last has no b_{i+1} and no next m.
sub fast_row { my ($g, $last) = @_; fast_row_ab($g, $last) . fast_row_nm($g, $last) }

# acc = shift(acc) + hi(a*b_i) + lo(a*b_{i+1}) + c e_0: the shift moves
# every limb down one lane (ZERO into the top); the a_j*b products of
# register j are summed in T, which joins acc_j with one VPADDQ (direct:
# into acc_j itself), those of register 0 in H, which takes hi(n_0*m) too
# before it joins acc_0 (fast_row_nm).
sub fast_row_ab {
	my ($g, $last) = @_;
	my ($K, $T, $BN, $B) = @$g{qw(K T BN B)};
	my @a = @{ $g->{A} };
	my $r = "\t# acc = shift(acc) + hi(a*b_i) + lo(a*b_{i+1}) + c e_0\n";
	$r .= fast_b($g, 8 * $g->{ways}, $BN) unless $last;
	$r .= fast_shift($g);
	for my $j (0 .. $K - 1) {
		# the multiplicands of hi(.*b_i) and lo(.*b_{i+1}): a's register j,
		# or what the square's rows take there (undef: 0, no product)
		my ($hi, $lo) = $g->{ops} ? $g->{ops}->($j) : (fast_a($g, $j)) x 2;
		$lo = undef if $last;
		unless (defined $hi || defined $lo) {
			# none: c still joins register 0 (direct), and H (register 0's)
			# or U_j starts at 0, as fast_row_nm adds n*m products to them
			if ($g->{direct}) {
				$r .= "\tvpaddq\t" . zmm($g->{C}) . "," . zmm($a[0]) . "," . zmm($a[0]) . "{%k1}\n" unless $j;
			} else {
				$r .= vclear($j ? $g->{U}[$j] : $g->{H}) if !$j || $g->{friendly};
			}
			next;
		}
		my $to = $g->{direct} ? $a[$j] : !$j ? $g->{H} : $g->{friendly} ? $g->{U}[$j] : $T;
		$r .= vclear($to) unless $to == $a[$j];
		$r .= "\tvpmadd52huq\t$hi," . zmm($B) . "," . zmm($to) . "\n" if defined $hi;
		$r .= "\tvpmadd52luq\t$lo," . zmm($BN) . "," . zmm($to) . "\n" if defined $lo;
		$r .= "\tvpaddq\t" . zmm($g->{C}) . "," . zmm($to) . "," . zmm($to) . "{%k1}\n"
			if $to == $a[0];
		$r .= "\tvpaddq\t" . zmm($T) . "," . zmm($a[$j]) . "," . zmm($a[$j]) . "\n" if $to == $T;
	}
	return $r;
}

# acc one limb down: every register `ways` lanes down, the next one's
# lowest lanes (ZERO's past the top) into its top.
sub fast_shift {
	my ($g) = @_;
	my @a = map { zmm($_) } @{ $g->{A} }, $g->{ZERO};
	return join '', map { "\tvalignq\t\$$g->{ways},$a[$_],$a[$_ + 1],$a[$_]\n" } 0 .. $g->{K} - 1;
}

# acc += lo(n'*m) + hi(n*m), register 0 first: its lane 0, the next X, waits
# for hi(n_0*m) (into H, which holds register 0's a*b products) and
# lo(n'_0*m) = lo(n_1*m) (into T, which starts as c in lane 0: the carry
# joins without a VPADDQ of its own), two VPADDQ on the m chain; the
# other registers take both directly (direct: register 0 too). Then the
# next row's m, c and b_i (b_{i+1} from BN).
sub fast_row_nm {
	my ($g, $last) = @_;
	my ($H, $T, $M) = @$g{qw(H T M)};
	my @a = @{ $g->{A} };
	my $n = sub { ($g->{NR} ? zmm($g->{NR}[$_[0]]) : 64 * $_[0] . "(%rcx)") . "," . zmm($M) };	# n_j, m
	my $np = sub { 64 * $_[0] . "(%r10)," . zmm($M) };	# n'_j, m
	my $r = "\t# acc += lo(n'*m) + hi(n*m), lane 0 first: the next X\n";
	for my $j (0 .. $g->{K} - 1) {
		if ($j && $g->{friendly}) {	# U_j holds register j's a*b products
			my $u = $g->{U}[$j];
			$r .= "\tvpmadd52huq\t" . $n->($j) . "," . zmm($u) . "\n"
			    . "\tvpmadd52luq\t" . $np->($j) . "," . zmm($u) . "\n"
			    . "\tvpaddq\t" . zmm($u) . "," . zmm($a[$j]) . "," . zmm($a[$j]) . "\n";
			next;
		}
		if ($j || $g->{direct}) {
			$r .= "\tvpmadd52huq\t" . $n->($j) . "," . zmm($a[$j]) . "\n"
			    . "\tvpmadd52luq\t" . $np->($j) . "," . zmm($a[$j]) . "\n";
			next;
		}
		$r .= "\tvpsrlq\t\$52," . zmm($g->{C}) . "," . zmm($T) . "{%k1}{z}\t# c\n"
		    . "\tvpmadd52huq\t" . $n->(0) . "," . zmm($H) . "\n"
		    . "\tvpmadd52luq\t" . $np->(0) . "," . zmm($T) . "\n"
		    . "\tvpaddq\t" . zmm($H) . "," . zmm($a[0]) . "," . zmm($a[0]) . "\n"
		    . "\tvpaddq\t" . zmm($T) . "," . zmm($a[0]) . "," . zmm($a[0]) . "\n";
	}
	$r .= "\t# the next row's m, c and b_i\n" . fast_mc($g)
	    . "\tvmovdqu64\t" . zmm($g->{BN}) . "," . zmm($g->{B}) . "\n" unless $last;
	return $r;
}

# The exit: r = the normalised accumulator; no secret stays behind: the
# vectors, the opmasks (n' on the stack is public).
sub fast_exit {
	my ($g) = @_;
	my ($name, $frame) = @$g{qw(name frame)};
	my $s = normalise($name, $g->{K}, 8, $g->{A}, $g->{MASK}, $g->{ZERO}, [ @$g{qw(BN T H XB)} ],
	                  $g->{ways});
	$s .= vclear($_) for @POOL[0 .. $g->{used} - 1], @{ $g->{AR} // [] };
	return $s . "\txor\t%eax,%eax\n\tkmovw\t%eax,%k1\n\tkmovw\t%eax,%k2\n\txor\t%r10d,%r10d\n"
	     . "\tvzeroupper\n\tadd\t\$$frame,%rsp\n\tret\n.size\t$name,.-$name\n";
}

# montk_amm52f_K in two-limb digits (K = PAIR_K): the contract of
# amm_fast's friendly kernels for n' = -1 mod 2^104 (its limbs 0 and 1 are
# 2^52 - 1) and an even L, given n'' = (n' + 1)/2^104 (L - 2 limbs) where
# the others take n'. A trip takes b_i and b_{i+1}: with Y = acc +
# a*(b_i + 2^52 b_{i+1}) and m = Y mod 2^104,
#   acc = (Y - m)/2^104 + n''*m
# since n'*m = -m mod 2^104: after L/2 trips acc = (a*b + M*n')/R. In
# lanes, with a^1 (a one lane up) and n''^1, n''^2 (one and two up), so
# that every product lands in place and acc moves down two lanes once a
# trip:
#   X   = acc + lo(a*b_i) + hi(a^1*b_i) + lo(a^1*b_{i+1})   (X_0, X_1 = Y's)
#   m_0 = X_0, m_1 = X_1 + (X_0 >> 52), c = m_1 >> 52  (VPMADD52 reads the
#         low 52 bits of m_0 and m_1: Y mod 2^104 = m_0 mod 2^52 + 2^52 (m_1
#         mod 2^52), and (Y - m)/2^104 = X >> 2 lanes + c)
#   acc = (X >> 2 lanes) + c e_0 + hi(a*b_{i+1}) + lo(n''*m_0)
#         + hi(n''^1*m_0) + lo(n''^1*m_1) + hi(n''^2*m_1)
# The next trip's a*b products join the temporaries N, off the m chain
# (pair_trip). A limb takes at most 8 values below 2^52 a trip and moves
# down two lanes a trip, so the bound of the one-limb rows holds. n'' is
# the caller's, made once per modulus: made from n' in the entry (n' two
# lanes down, plus 1, its carries run as in the normalisation) it cost
# about 11 of a 1024-bit product's 240 cycles on AMD Zen 5.
# Registers: a, a^1 and n'' in 6-15 (3K <= 10), n''^1, n''^2, X, N and
# the rest from the others and @POOL. Measured on Intel Emerald Rapids
# (family 6 model 207, montbench amm52 and ifma, three alternating runs;
# before pair_trip's accumulators and n'' from the caller): at 1024 bits
# (K = 3, L = 22) 104-106 ns a product against 121-136 for the one-limb
# rows at 21, mont_modexp 147.5-149.9 us against 169.7-195.2.
sub amm_pair {
	my ($K) = @_;
	my $g = pair_regs($K);
	my $name = $g->{name};
	my $exit = normalise($name, $K, 8, $g->{X}, $g->{MASK}, $g->{ZERO},
	                     [ @{ $g->{N} }[0 .. 1], @{ $g->{NQ1} }[0 .. 1] ], 1);
	$exit .= vclear($_) for map { @{ $g->{$_} } } qw(TAKEN AR AU NQ);
	$exit .= "\txor\t%eax,%eax\n\tkmovw\t%eax,%k1\n\tkmovw\t%eax,%k2\n\txor\t%r10d,%r10d\n"
	       . "\tvzeroupper\n\tadd\t\$8,%rsp\n\tret\n.size\t$name,.-$name\n";
	return tally($name, pair_entry($g), pair_trip($g, 0) . "\tlea\t16(%rdx),%rdx\n\tdec\t%r9d\n\tjnz\t.L$name\n",
	             "\t# the last trip\n" . pair_trip($g, 1) . $exit, 2, 2);
}

# amm_pair's registers: a (AR), a^1 (AU) and n'' (NQ) from @AREGS, n''^1
# (NQ1), n''^2 (NQ2), the accumulator X and the temporaries N (K each),
# the m_1 products D of registers 1..K-2, C, C2, S, m_0, m_1, ZERO, the
# digits B1 and B2 and MASK from the rest of @AREGS and @POOL (the
# list TAKEN, which the exit clears). Registers whose values are dead
# once the a*b products are made serve again: B3 and then the top
# register's m_1 products (DT) take B1's, register 0's hi(n''^1*m_0) (Z)
# B2's.
sub pair_regs {
	my ($K) = @_;
	my $g = { K => $K, name => "montk_amm52f_$K" };
	die "$g->{name}: a, a^1 and n'' need 3K <= " . @AREGS . " registers\n" if 3 * $K > @AREGS;
	my @free = (@AREGS[3 * $K .. $#AREGS], @POOL);
	my $take = sub { map { my $n = shift @free; die "$g->{name}: out of vector registers\n" unless defined $n;
	                       push @{ $g->{TAKEN} }, $n; $n } 1 .. $_[0] };
	@$g{qw(AR AU NQ)} = map { [ @AREGS[$_ * $K .. ($_ + 1) * $K - 1] ] } 0 .. 2;
	$g->{$_} = [ $take->($K) ] for qw(NQ1 NQ2 X N);
	$g->{D} = [ $take->($K - 2) ];
	@$g{qw(C C2 S M0 M1 ZERO B1 B2 MASK)} = $take->(9);
	@$g{qw(B3 DT Z)} = @$g{qw(B1 B1 B2)};
	return $g;
}

sub zlist { join ',', map { /^\d+$/ ? zmm($_) : $_ } @_ }
sub madd52 { my ($hl, $x, $y, $to) = @_; "\tvpmadd52${hl}uq\t" . zlist($x, $y, $to) . "\n" }

# amm_pair's entry: constants, a and a^1, n'' and its shifted copies, the
# first trip's X, the trip count.
sub pair_entry {
	my ($g) = @_;
	my ($K, $name) = @$g{qw(K name)};
	my ($AR, $AU, $NQ, $X) = @$g{qw(AR AU NQ X)};
	my ($ZERO, $MASK, $B2, $B3) = @$g{qw(ZERO MASK B2 B3)};
	my $pre = "\n.globl\t$name\n.hidden\t$name\n.type\t$name,\@function,6\n.align\t32\n$name:\n"
	    . "\tsub\t\$8,%rsp\n"
	    . "\tmovabsq\t\$0xfffffffffffff,%rax\t# 2^52 - 1\n"
	    . "\tvpbroadcastq\t%rax," . zmm($MASK) . "\n" . vclear($ZERO)
	    . "\tmov\t\$1,%eax\n\tkmovw\t%eax,%k1\t\t# lane 0\n"
	    . "\t# a, a^1\n";
	for my $j (0 .. $K - 1) {
		$pre .= "\tvmovdqu64\t" . 64 * $j . "(%rsi)," . zmm($AR->[$j]) . "\n"
		      . "\tvalignq\t\$7," . zlist($j ? $AR->[$j - 1] : $ZERO, $AR->[$j], $AU->[$j]) . "\n";
	}
	$pre .= "\t# n'' and its copies one and two lanes up\n";
	$pre .= "\tvmovdqu64\t" . 64 * $_ . "(%rcx)," . zmm($NQ->[$_]) . "\n" for 0 .. $K - 1;
	for my $j (0 .. $K - 1) {
		my $below = $j ? $NQ->[$j - 1] : $ZERO;
		$pre .= "\tvalignq\t\$7," . zlist($below, $NQ->[$j], $g->{NQ1}[$j]) . "\n"
		      . "\tvalignq\t\$6," . zlist($below, $NQ->[$j], $g->{NQ2}[$j]) . "\n";
	}
	$pre .= "\t# X = lo(a*b_0) + hi(a^1*b_0) + lo(a^1*b_1)\n"
	      . "\tvpbroadcastq\t0(%rdx)," . zmm($B2) . "\n\tvpbroadcastq\t8(%rdx)," . zmm($B3) . "\n";
	$pre .= vclear($X->[$_]) . madd52('l', $AR->[$_], $B2, $X->[$_]) . madd52('h', $AU->[$_], $B2, $X->[$_])
	      . madd52('l', $AU->[$_], $B3, $X->[$_]) for 0 .. $K - 1;
	$pre .= "\tvmovdqu64\t" . zlist($X->[0], $g->{C}) . "\t# a trip takes m from C\n";
	return $pre . "\tshr\t\$1,%r9d\t\t\t# trips: L/2 - 1 in the loop, the last peeled\n\tdec\t%r9d\n.L$name:\n";
}

# One trip of amm_pair; the last has no next trip's a*b products. The m
# chain bounds a trip (on AMD Zen 5 a VPMADD52 takes 5 cycles, VPERMQ and
# VALIGNQ 5, VPADDQ, VPSRLQ, VPUNPCKHQDQ and VPBROADCASTQ 2; the trip's
# 49 vector instructions issue in 12.5 cycles when trips do not wait for
# each other), so: m_1 comes from X_1 moved to lane 0 and broadcast (4
# cycles, not VPERMQ's 5); each product by m_0 or m_1 that reaches X_0
# goes to an accumulator of its own (N, Z, C, C2), a VPMADD52 after m;
# register 0's terms are summed as a tree into C, whose lanes 0 and 1
# the next trip takes m from, before hi(n''^2*m_1) (C2, 0 in those lanes)
# makes X_0 = C + C2; the registers above take their m_1 products (D, DT)
# apart from N, a trip ahead of their use in X_0. Measured on Zen 5
# (montk_amm52f_3 alone, chained, L = 4..22, the slope): about 15 cycles
# a trip, where N took every register's products in a row 20.5.
sub pair_trip {
	my ($g, $last) = @_;
	my $K = $g->{K};
	my ($AR, $AU, $NQ, $NQ1, $NQ2, $X, $N, $D) = @$g{qw(AR AU NQ NQ1 NQ2 X N D)};
	my ($C, $C2, $S, $Z, $M0, $M1, $B1, $B2, $B3) = @$g{qw(C C2 S Z M0 M1 B1 B2 B3)};
	my @D = (@$D, $g->{DT});	# the m_1 products of registers 1..K-1
	my $t = "\t# m_0, m_1 and c from X_0, X_1 (C's lanes 0 and 1)\n"
	      . "\tvpunpckhqdq\t" . join(',', map { xmm($_) } $C, $C, $M1) . "\n"
	      . "\tvpbroadcastq\t" . xmm($C) . "," . zmm($M0) . "\n"
	      . "\tvpbroadcastq\t" . xmm($M1) . "," . zmm($M1) . "\n"
	      . "\tvpsrlq\t\$52," . zlist($M0, $S) . "\n"
	      . "\tvpaddq\t" . zlist($S, $M1, $M1) . "\n"
	      . "\tvpsrlq\t\$52," . zlist($M1, $S) . "{%k1}{z}\t# c in lane 0\n"
	      . "\tvpbroadcastq\t8(%rdx)," . zmm($B1) . "\n";
	$t .= "\tvpbroadcastq\t16(%rdx)," . zmm($B2) . "\n" unless $last;
	$t .= "\t# N = hi(a*b_{i+1}) + the next X's a*b products + n''*m_0\n";
	$t .= vclear($N->[$_]) . madd52('h', $AR->[$_], $B1, $N->[$_]) for 0 .. $K - 1;
	unless ($last) {
		$t .= "\tvpbroadcastq\t24(%rdx)," . zmm($B3) . "\n";
		$t .= madd52('l', $AR->[$_], $B2, $N->[$_]) . madd52('h', $AU->[$_], $B2, $N->[$_])
		    . madd52('l', $AU->[$_], $B3, $N->[$_]) for 0 .. $K - 1;
	}
	$t .= madd52('l', $NQ->[$_], $M0, $N->[$_]) for 0 .. $K - 1;
	$t .= vclear($Z) . madd52('h', $NQ1->[0], $M0, $Z);
	$t .= madd52('h', $NQ1->[$_], $M0, $N->[$_]) for 1 .. $K - 1;
	$t .= "\t# n''*m_1: register 0's in C (lo) and C2 (hi), the others' in D\n"
	    . vclear($C) . madd52('l', $NQ1->[0], $M1, $C) . vclear($C2) . madd52('h', $NQ2->[0], $M1, $C2);
	$t .= vclear($D[$_ - 1]) . madd52('l', $NQ1->[$_], $M1, $D[$_ - 1])
	    . madd52('h', $NQ2->[$_], $M1, $D[$_ - 1]) for 1 .. $K - 1;
	$t .= "\t# acc = (X >> 2 lanes) + N + D; register 0: C += (X >> 2 lanes) + c + (N + Z), X_0 = C + C2\n";
	$t .= "\tvalignq\t\$2," . zlist($X->[$_], $_ < $K - 1 ? $X->[$_ + 1] : $g->{ZERO}, $X->[$_]) . "\n" for 0 .. $K - 1;
	$t .= "\tvpaddq\t" . zlist($N->[$_], $X->[$_], $X->[$_]) . "\n"
	    . "\tvpaddq\t" . zlist($D[$_ - 1], $X->[$_], $X->[$_]) . "\n" for 1 .. $K - 1;
	return $t . join '', map { "\tvpaddq\t" . zlist(@$_) . "\n" }
		[$Z, $N->[0], $N->[0]], [$S, $X->[0], $X->[0]], [$N->[0], $X->[0], $X->[0]], [$X->[0], $C, $C], [$C2, $C, $X->[0]];
}

# Single squares: montk_ams52_K(r, a, a, n, k0, L), the contract of
# montk_amm52_K with b = a, for the direct rows (K >= X1_DIRECT_KMIN: see
# fast_regs); and packed pair squares, montk_ams52x2p_K, for pairs of K
# registers below amm_sqr's (their rows through T and H: a register
# without products clears H, where fast_row_nm adds register 0's n*m),
# 4 limbs of each number a register: blocks of 4 rows, each number's
# carries in its own lanes. a^2 = sum_B A_B (A_B + 2 A_>B), with A_B register B of a
# (its limbs 8B..8B+7) and A_>B the registers above: the rows of block B
# (i = 8B..8B+7, b_i = a_i) multiply b_i by 0 in the registers below B
# (their products dropped: every a_i a_j with i, j in different blocks
# is taken once, doubled), by A_B in register B, and by 2 A_>B in the
# registers above, written in radix 2^52: x_j = (2 a_j mod 2^52) +
# (a_{j-1} >> 51), but for its lowest limb 8B+8, which takes no carry in
# from below (x'_B+1 = x_B+1 without it). The multiplicands change only
# between blocks, so they live in a's registers (AR): at block B, AR_B =
# A_B, AR_B+1 = x'_B+1, the rest x; x' on the stack. A block's last row
# (hi(.*b_i), lo(.*b_{i+1}) with i+1 in the next block) takes hi with
# this block's and lo with the next one's, A_B+1 and x'_B+2 as memory
# operands, then AR moves on. So each row of block B makes 2B products of
# a fewer: 8K(K+1) in all at L = 8K instead of 16K^2, beside the 16K^2 of
# n*m (4096 bits, K = 10 at L = 79: 2537 VPMADD52 against 3239, 22%
# fewer). 2a < R (a < 2n <= R/2): x fits L limbs. A limb takes at most
# as many products as in the product, so the bound of the product kernels
# holds. Measured on Intel Emerald Rapids (family 6 model 207), ns per
# call, chained, best of 9 x 5000, pinned, three runs: K = 7 (L 56)
# 507-532 against 575-607 for montk_amm52_7, K = 8 595-638 against
# 670-740, K = 9 755-774 against 852-876, K = 10 863-906 against
# 995-1023; mont_modexp (montbench, three alternating runs) 3072 bits
# 2406-2474 us against 2624-3349, 4096 4611-4683 against 5148-5409.
# Below K = 7 the rows are not direct (the products through T and H):
# the blocks there would save at most 2-5% (measured with the products
# of the registers below B dropped, results wrong, at K = 3 and 5).
sub ams_fast {
	my ($K, $ways) = @_;
	my $g = fast_regs($K, $ways, 0);
	my $AR = $g->{AR};
	my $P = 8 / $ways;	# limbs of a number per register: rows per block
	$g->{name} = $ways == 2 ? "montk_ams52x2p_$K" : "montk_ams52_$K";
	die "$g->{name}: needs a in registers\n" unless $AR;
	my $xp = sub { 64 * ($K + $_[0] - 1) . "(%r10)" };	# x'_r, past n'
	my $l = ".L$g->{name}";
	# x and x' from a's registers: S = a >> 51 (the carry 2a_j gives), one
	# limb up (the register below's top limb into limb 0 for x, 0 for x')
	my ($S0, $S1, $D, $Y) = @$g{qw(T H XB BN)};
	my $x = "\t# x_j = (2a_j mod 2^52) + (a_{j-1} >> 51) in AR 2.., x' (no carry into limb 8r) on the stack; AR_1 = x'_1\n"
	      . "\tvpsrlq\t\$51," . zmm($AR->[0]) . "," . zmm($S0) . "\n";
	for my $r (1 .. $K - 1) {
		my ($Sp, $Sc) = $r % 2 ? ($S0, $S1) : ($S1, $S0);
		$x .= "\tvpsrlq\t\$51," . zmm($AR->[$r]) . "," . zmm($Sc) . "\n"
		    . "\tvpaddq\t" . zmm($AR->[$r]) . "," . zmm($AR->[$r]) . "," . zmm($D) . "\n"
		    . "\tvpandq\t" . zmm($g->{MASK}) . "," . zmm($D) . "," . zmm($D) . "\n"
		    . "\tvalignq\t\$" . (8 - $ways) . "," . zmm($g->{ZERO}) . "," . zmm($Sc) . "," . zmm($Y) . "\n"
		    . "\tvpaddq\t" . zmm($Y) . "," . zmm($D) . "," . zmm($r == 1 ? $AR->[1] : $Y) . "\n"
		    . "\tvmovdqu64\t" . zmm($r == 1 ? $AR->[1] : $Y) . "," . $xp->($r) . "\n";
		$x .= "\tvalignq\t\$" . (8 - $ways) . "," . zmm($Sp) . "," . zmm($Sc) . "," . zmm($Y) . "\n"
		    . "\tvpaddq\t" . zmm($Y) . "," . zmm($D) . "," . zmm($AR->[$r]) . "\n" if $r > 1;
	}
	$g->{x_init} = $x;
	$g->{frame} += 64 * ($K - 1);
	# the multiplicands of register j's hi and lo products in block B's rows
	$g->{ops} = sub {
		my ($j) = @_;
		my ($B, $edge) = @$g{qw(block edge)};
		return if $j < $B;
		my $r = zmm($AR->[$j]);
		return ($r, $r) unless $edge;
		return ($r, undef) if $j == $B;
		return ($r, 64 * $j . "(%rsi)") if $j == $B + 1;
		return ($r, $xp->($j)) if $j == $B + 2;
		return ($r, $r);
	};
	my $next = "\tlea\t" . 8 * $ways . "(%rdx),%rdx\n";
	my $pre = fast_entry($g) . fast_first_row($g);
	my ($code, $count) = ($pre, $pre);
	for my $B (0 .. $K - 2) {
		@$g{qw(block edge)} = ($B, 0);
		my $body = fast_row($g, 0) . $next;
		$g->{edge} = 1;
		my $edge = "\t# the last row of block $B, then block " . ($B + 1) . "'s multiplicands\n" . fast_row($g, 0) . $next
		         . "\tvmovdqu64\t" . 64 * ($B + 1) . "(%rsi)," . zmm($AR->[$B + 1]) . "\n";
		$edge .= "\tvmovdqu64\t" . $xp->($B + 2) . "," . zmm($AR->[$B + 2]) . "\n" if $B + 2 < $K;
		$code .= "\tmov\t\$" . ($P - 1) . ",%r11d\t\t\t# block $B: all rows but its last\n${l}_$B:\n" . $body
		       . "\tdec\t%r11d\n\tjnz\t${l}_$B\n" . $edge;
		$count .= "\tmov\t\$" . ($P - 1) . ",%r11d\n" . ($body . "\tdec\t%r11d\n\tjnz\tx\n") x ($P - 1) . $edge;
	}
	@$g{qw(block edge)} = ($K - 1, 0);
	my $skip = "\tsub\t\$" . ($P * $K - $P + 1) . ",%r9d\t\t# the last block: its rows before the last\n"
	         . "\tjz\t${l}_end\n";
	my $row = fast_row($g, 0) . $next . "\tdec\t%r9d\n\tjnz\t${l}_last\n";
	my $post = "\t# the last row\n" . fast_row($g, 1) . fast_exit($g);
	tally($g->{name}, $count . $skip, $row, $post, $P * $K - $P + 1);
	return $code . $skip . "${l}_last:\n" . $row . "${l}_end:\n" . $post;
}

# Packed pair squares: montk_sqr52x2p_K(r, a, a, n, k0, L), the contract
# of montk_amm52x2p_K with b = a (only a is read). The square t = a^2 of
# both numbers (2K registers, 8K limbs of each): each a_i a_j with i < j
# once, then doubled, then the diagonal a_i^2; and L rows of amm_fast's
# reduction alone over acc = t's limbs 0..4K-1,
#   acc = shift(acc) + c e_0 + lo(n'*m) + hi(n*m),
# after which t's limbs from 4K on join acc (no m needs them). So the
# low half of t (registers 0..K-1) is built in acc's registers before the
# rows, and the high half inside them: the rows' m chain leaves the
# IFMA units idle most of a row, and the high half's products (in the
# registers the rows leave free, a group at a time, stored to the frame)
# fill them. The first 4K-4 rows are unrolled to hold them; the loop runs
# the other L - (4K-4), 1 to 4. For the product's 4K+1 VPMADD52 a row,
# 2K+1, plus about 4K^2+10K for the square (each serves both numbers). A
# limb takes at most 2L products from the square and 2L from the
# reduction, each below 2^52: the bound of the product kernels holds.
# The square, P = 4 limbs of each number per register: lo(a_i*a_j)
# belongs to limb i+j, that is limb position l of t register R for j =
# PR+l-i, so it takes a_i of both (fast_b) times W, the limbs PR-i..PR-i+3
# of a, in the positions where j > i: l >= d = 2i+1-PR (%k<d+2>, d = 1..3,
# holds the lanes of positions d..3); hi(a_i*a_j) belongs to limb i+j+1,
# W one limb lower, d one more. Every W is a run of 4 limbs from 4m-s,
# s = 0..3: for s > 0 each W_m is built once (VALIGNQ of two registers of
# a; zeros below and above a) into the frame, so every operand is an
# aligned load.
# The diagonal: t register R holds lo(a_k^2) in its even limb positions
# (%k6) and hi in its odd ones (%k7) for k = 2R, 2R+1 of each number: D_R
# = a's register R/2 with each of those limbs twice (VPERMQ; the high
# half's D_R are built into t's place in the frame first).
# Measured against montk_amm52x2p_K, ns per call, chained, best of 15 x
# 20000, pinned (taskset -c 1), in one run:
#   K (L)        7 (28)  8 (32)  9 (36)  10 (40)
#   amm52x2p      224     261     334     397
#   sqr52x2p      198     247     305     338
# and with all of the square before the rows: 241, 298, 368, 426 (against
# 233, 291, 376, 453 in that run). Below K = 7 the rows are not direct.

# Byte offsets from %r10: W_m of shift s (past n'), t's register R >= K
# (past W); an operand W_m of shift s (s = 0: a's own register m).
sub sqr_w { my ($g, $sh, $m) = @_; 64 * ($g->{K} + ($sh - 1) * ($g->{K} + 1) + $m) }
sub sqr_th { my ($g, $R) = @_; sqr_w($g, 4, 0) + 64 * ($R - $g->{K}) }
sub sqr_wop { my ($g, $sh, $m) = @_; $sh ? sqr_w($g, $sh, $m) . "(%r10)" : 64 * $m . "(%rsi)" }

sub amm_sqr {
	my ($K) = @_;
	my $g = fast_regs($K, 2);
	# its rows read no a (a*a is done before them) but n: n there instead
	$g->{NR} = delete $g->{AR};
	$g->{name} = "montk_sqr52x2p_$K";
	die "$g->{name}: the square's rows are amm_fast's direct ones\n" unless $g->{direct};
	$g->{frame} = sqr_th($g, 2 * $K) + 64;
	my @spare = (@POOL[$g->{used} .. $#POOL], @$g{qw(BN T H)});	# free in the rows
	$g->{used} = @POOL;
	my ($B, $T) = @$g{qw(B T)};
	my %acc = map { $_ => $g->{A}[$_] } 0 .. $K - 1;
	my $s = fast_entry($g) . fast_np_copy($g) . sqr_setup($g)
	      . join('', map { "\tvmovdqu64\t" . 64 * $_ . "(%rcx)," . zmm($g->{NR}[$_]) . "\n" } 0 .. $K - 1)
	      . "\t# t's low half in acc\n";
	$s .= vclear($_) for @{ $g->{A} };
	$s .= join '', sqr_terms($g, 0, $K - 1, \%acc, $B);
	$s .= sqr_diagonal($g, zmm($acc{$_}), sqr_perm($g, $_), zmm($T)) for 0 .. $K - 1;
	my @hi;	# t's high half, a group of @spare registers at a time
	for (my $lo = $K; $lo < 2 * $K; $lo += @spare) {
		my @R = grep { $_ < 2 * $K } $lo .. $lo + $#spare;
		my %ac = map { $_ => $spare[$_ - $lo] } @R;
		push @hi, map { vclear($ac{$_}) } @R;
		push @hi, sqr_terms($g, $lo, $R[-1], \%ac, $B);
		push @hi, map { my $at = sqr_th($g, $_) . "(%r10)";
		                sqr_diagonal($g, zmm($ac{$_}), "\tvmovdqu64\t$at," . zmm($B) . "\n", zmm($B))
		                . "\tvmovdqu64\t" . zmm($ac{$_}) . ",$at\n" } @R;
	}
	my $A0 = zmm($g->{A}[0]);
	my $row = "\t# acc = shift(acc) + c e_0 + lo(n'*m) + hi(n*m); the next m and c\n"
	        . fast_shift($g) . "\tvpaddq\t" . zmm($g->{C}) . ",$A0,$A0\{%k1}\n"
	        . fast_row_nm($g, 1) . fast_mc($g);
	my $U = 4 * $K - 4;	# rows unrolled
	my $per = int((@hi + $U - 1) / $U);
	$s .= fast_mc($g) . "\tmov\t%r9,%r11\t\t# L\n";
	$s .= $row . join '', splice @hi, 0, $per for 1 .. $U;
	my $l = ".L$g->{name}";
	return tally($g->{name}, "$s\tsub\t\$$U,%r9d\t\t# the rows left\n$l:\n",
	             "$row\tdec\t%r9d\n\tjnz\t$l\n", sqr_exit($g), $U);
}

# The masks (%k3-%k5: positions d..3 for d = 1..3; %k6, %k7: the even and
# odd positions), every W_m of shift 1..3 (through T and H), VPERMQ's
# indices of D_R for even R in XB, for odd R in BN (lane q, limb position
# q/2 of number q%2, takes limb 2 (R%2) + q/4), and D_R of t's high half
# (through T).
sub sqr_setup {
	my ($g) = @_;
	my ($K, $T, $H) = @$g{qw(K T H)};
	my $s = "\t# masks, W, the diagonal's D_R\n";
	$s .= "\tmov\t\$" . (0xff << 2 * $_ & 0xff) . ",%eax\n\tkmovw\t%eax,%k" . ($_ + 2) . "\n" for 1 .. 3;
	$s .= "\tmov\t\$0x33,%eax\n\tkmovw\t%eax,%k6\n\tmov\t\$0xcc,%eax\n\tkmovw\t%eax,%k7\n";
	for my $sh (1 .. 3) {
		$s .= vclear($H);
		for my $m (0 .. $K) {
			$s .= "\tvmovdqu64\t" . 64 * $m . "(%rsi)," . zmm($T) . "\n" if $m < $K;
			$s .= "\tvalignq\t\$" . (8 - 2 * $sh) . "," . ($m ? 64 * ($m - 1) . "(%rsi)" : zmm($H)) . ","
			    . zmm($m < $K ? $T : $H) . "," . zmm($T) . "\n"
			    . "\tvmovdqu64\t" . zmm($T) . "," . sqr_w($g, $sh, $m) . "(%r10)\n";
		}
	}
	for my $odd (0, 1) {
		my $v = $odd ? $g->{BN} : $g->{XB};
		my $idx = 0;
		$idx |= ((2 * $odd + int($_ / 4)) * 2 + $_ % 2) << (8 * $_) for 0 .. 7;
		$s .= sprintf("\tmovabsq\t\$0x%016x,%%rax\n", $idx) . "\tvmovq\t%rax," . xmm($v) . "\n"
		    . "\tvpmovzxbq\t" . xmm($v) . "," . zmm($v) . "\n";
	}
	$s .= sqr_perm($g, $_) . "\tvmovdqu64\t" . zmm($T) . "," . sqr_th($g, $_) . "(%r10)\n" for $K .. 2 * $K - 1;
	return $s;
}

# T = D_R.
sub sqr_perm {
	my ($g, $R) = @_;
	return "\tvpermq\t" . 64 * ($R >> 1) . "(%rsi)," . zmm($R % 2 ? $g->{BN} : $g->{XB}) . "," . zmm($g->{T}) . "\n";
}

# x = 2x + the diagonal: $get puts D_R in $d.
sub sqr_diagonal {
	my ($g, $x, $get, $d) = @_;
	return "\tvpaddq\t$x,$x,$x\n$get\tvpmadd52luq\t$d,$d,$x\{%k6}\n\tvpmadd52huq\t$d,$d,$x\{%k7}\n";
}

# The products a_i a_j, i < j, of t's registers lo..hi, into the
# registers %$acc (by R), a_i broadcast in $bc: one string per a_i.
sub sqr_terms {
	my ($g, $lo, $hi, $acc, $bc) = @_;
	my $K = $g->{K};
	my @out;
	for my $sh (0 .. 3) {
		for my $half ([0, 'l'], [1, 'h']) {	# hi: W one limb lower, so row i-1
			my ($o, $h) = @$half;
			for (my $i = ($sh - $o) % 4; $i <= 4 * $K - 2; $i += 4) {
				my $q = int(($i + $o) / 4);
				my $row = '';
				for my $m (0 .. ($sh ? $K : $K - 1)) {
					my ($R, $d) = ($m + $q, 2 * $i + 1 + $o - 4 * ($m + $q));
					next if $R < $lo || $R > $hi || $d > 3;
					$row .= "\tvpmadd52${h}uq\t" . sqr_wop($g, $sh, $m) . "," . zmm($bc) . "," . zmm($acc->{$R})
					      . ($d > 0 ? "{%k" . ($d + 2) . "}" : "") . "\n";
				}
				push @out, fast_b($g, 16 * $i, $bc, '%rsi') . $row if $row;
			}
		}
	}
	return @out;
}

# After the rows: t's limbs from 4K on join acc (acc limb v takes t's
# limb L+v where L+v >= 4K: from the lanes of position 4K-L of register
# 0, %k3; every lane of the others), W and t are overwritten (n' and k0
# are public), then amm_fast's exit.
sub sqr_exit {
	my ($g) = @_;
	my $K = $g->{K};
	my $s = "\t# acc += t's limbs from 4K on\n\tmov\t\$" . 8 * $K . ",%ecx\n\tsub\t%r11d,%ecx\n\tsub\t%r11d,%ecx\n"
	      . "\tmov\t\$0xff,%eax\n\tshl\t%cl,%eax\n\tkmovw\t%eax,%k3\n"
	      . "\tlea\t" . (sqr_th($g, $K) - 64 * $K) . "(%r10),%rax\n" . "\tlea\t(%rax,%r11,8),%rax\n" x 2;
	$s .= "\tvpaddq\t" . 64 * $_ . "(%rax)," . zmm($g->{A}[$_]) . "," . zmm($g->{A}[$_])
	    . ($_ ? "" : "{%k3}") . "\n" for 0 .. $K - 1;
	$s .= "\t# W and t off the stack\n";
	$s .= "\tvmovdqu64\t" . zmm($g->{ZERO}) . "," . (sqr_w($g, 1, 0) + 64 * $_) . "(%r10)\n" for 0 .. 4 * $K + 2;
	$s .= "\txor\t%r11d,%r11d\n\txor\t%eax,%eax\n";
	$s .= "\tkmovw\t%eax,%k$_\n" for 3 .. 7;
	return $s . fast_exit($g);
}

# The table lookup of the exponentiation: montk_gather52_C(out, table,
# entries, stride, idx0, idx1) copies entry idx0 (C*8 limbs at table +
# i*stride bytes, i < entries) to out, the odd limbs from entry idx1 (the
# second number of a packed pair; idx1 = idx0 otherwise), reading every
# entry in full: per entry a compare of the loop's count with the index
# of each lane gives an all-ones or all-zero lane, and VPTERNLOGQ ORs
# that mask ANDed with the entry into the result (out |= mask & entry:
# one instruction per register, no blend or masked load whose memory
# access could depend on the mask). The C side
# runs it over column chunks of up to $GATHER_CMAX registers.
sub gather {
	my ($C) = @_;
	my $name = "montk_gather52_$C";
	my ($IDX, $CNT, $ONE, $SEL, @OUT) = @POOL[0 .. 3 + $C];
	my $z = sub { "%zmm$_[0]" };
	my $s = "\n.globl\t$name\n.hidden\t$name\n.type\t$name,\@function,6\n.align\t32\n$name:\n"
	      . "\tvpbroadcastq\t%r8," . $z->($IDX) . "\n"
	      . "\tvpbroadcastq\t%r9," . $z->($SEL) . "\n"
	      . "\tvpunpcklqdq\t" . $z->($SEL) . "," . $z->($IDX) . "," . $z->($IDX) . "\t# idx0, idx1, idx0, ...\n"
	      . "\tmov\t\$1,%eax\n\tvpbroadcastq\t%rax," . $z->($ONE) . "\n"
	      . "\tvpxorq\t" . join(',', ("%xmm$CNT") x 3) . "\n";
	$s .= "\tvpxorq\t" . join(',', ("%xmm$_") x 3) . "\n" for @OUT;
	$s .= ".L$name:\n"
	    . "\tvpcmpuq\t\$0," . $z->($IDX) . "," . $z->($CNT) . ",%k1\t# count == the lane's idx\n"
	    . "\tvpternlogq\t\$0xff," . join(',', ($z->($SEL)) x 3) . "{%k1}{z}\t# all ones there\n"
	    . "\tvpaddq\t" . $z->($ONE) . "," . $z->($CNT) . "," . $z->($CNT) . "\n";
	$s .= "\tvpternlogq\t\$0xf8," . 64 * $_ . "(%rsi)," . $z->($SEL) . "," . $z->($OUT[$_]) . "\t# |= sel & entry\n"
		for 0 .. $C - 1;
	$s .= "\tadd\t%rcx,%rsi\n\tdec\t%rdx\n\tjnz\t.L$name\n";
	$s .= "\tvmovdqu64\t" . $z->($OUT[$_]) . "," . 64 * $_ . "(%rdi)\n" for 0 .. $C - 1;
	$s .= "\tvpxorq\t" . join(',', ("%xmm$_") x 3) . "\n" for $SEL, @OUT;
	$s .= "\txor\t%eax,%eax\n\tkmovw\t%eax,%k1\n\tvzeroupper\n\tret\n.size\t$name,.-$name\n";
	return $s;
}

# The header's lines for the squares MONTK_IFMA_$tab (kernels $name_K of
# type $type, K = $kmin..$kmax): $what, $once taken once, doubled.
sub squares {
	my ($tab, $name, $type, $kmin, $kmax, $what, $once) = @_;
	my @k = map { "${name}_$_" } $kmin .. $kmax;
	return "/* ${name}_K(r, a, a, n, k0, L): $what (b must be a; only a is read),\n"
	     . " * K = MONTK_IFMA_${tab}_KMIN..MONTK_IFMA_${tab}_KMAX:\n * $once once, doubled. */\n"
	     . "#define MONTK_IFMA_${tab}_KMIN $kmin\n#define MONTK_IFMA_${tab}_KMAX $kmax\n"
	     . "$type " . join(', ', @k) . ";\n#define MONTK_IFMA_$tab {" . join(', ', @k) . "}\n";
}

# The header: what the C side needs to call the kernels, and their counts.
sub header {
	print "/* Generated by perlasm/x86_64-ifma.pl from the caps: the IFMA kernels. */\n";
	unless ($ifma) {
		print "/* #undef MONT_HAVE_IFMA (the toolchain lacks avx512ifma or avx512vl) */\n";
		return;
	}
	my $l1 = $WIDTH{x1};
	my $maxnum = max_num($X1_KMAX * $l1);
	print <<"EOT";
#define MONT_HAVE_IFMA 1
/* montk_amm52_K: numbers of L limbs of 52 bits, 8K-7 <= L <= 8K, each
 * held in K*MONTK_IFMA_LANES limbs (the limbs from L on 0; r's are
 * written 0), K = 1..MONTK_IFMA_KMAX;
 * montk_amm52f_K: the same for n = -1 mod 2^52 only (k0 = 1, not read),
 * K = 1..MONTK_IFMA_X1F_KMAX; for K = MONTK_IFMA_X1F_PAIR_K it takes two
 * digits a trip: n = -1 mod 2^104, L even and at most 8K - 2, and in n's
 * place it reads n'' = (n + 1)/2^104 (L - 2 limbs);
 * r = a*b/2^(52L) mod n, r < 2n, for n odd, 4n <= 2^(52L), a, b < 2n, every
 * limb below 2^52, k0 = -n^-1 mod 2^52, L >= 2; r may alias a or b. A
 * number of num 64-bit limbs fits L limbs when 64 num + 2 <= 52 L: from
 * MONTK_IFMA_MIN_NUM up to MONTK_IFMA_MAX_NUM limbs. */
#define MONTK_IFMA_LANES $l1
#define MONTK_IFMA_KMAX $X1_KMAX
#define MONTK_IFMA_X1F_KMAX $X1F_KMAX
#define MONTK_IFMA_X1F_PAIR_K $PAIR_K
#define MONTK_IFMA_MIN_NUM 1
#define MONTK_IFMA_MAX_NUM $maxnum
typedef void montk_amm_fn(uint64_t *r, const uint64_t *a, const uint64_t *b,
                          const uint64_t *n, uint64_t k0, size_t L);
typedef void montk_amm2_fn(uint64_t *r, const uint64_t *a, const uint64_t *b,
                           const uint64_t *n, const uint64_t *k0, size_t L);
EOT
	print "montk_amm_fn " . join(', ', map { "montk_amm52_$_" } 1 .. $X1_KMAX) . ";\n";
	print "montk_amm_fn " . join(', ', map { "montk_amm52f_$_" } 1 .. $X1F_KMAX) . ";\n";
	print "#define MONTK_IFMA_X1 {" . join(', ', map { "montk_amm52_$_" } 1 .. $X1_KMAX) . "}\n";
	print "#define MONTK_IFMA_X1F {" . join(', ', map { "montk_amm52f_$_" } 1 .. $X1F_KMAX) . "}\n";
	print <<"EOT";
/* montk_amm52x2p_K: the same for two sets in K registers, K = 1..MONTK_IFMA_X2P_KMAX,
 * the numbers interleaved: limb t of the first at index 2t, of the second at
 * 2t + 1, MONTK_IFMA_X2P_LANES*K limbs each (4K-3 <= L <= 4K; the limbs from L
 * on 0); k0 points at both k0. */
#define MONTK_IFMA_X2P_LANES 4
#define MONTK_IFMA_X2P_KMAX $X2P_KMAX
EOT
	print "montk_amm2_fn " . join(', ', map { "montk_amm52x2p_$_" } 1 .. $X2P_KMAX) . ";\n";
	print "#define MONTK_IFMA_X2P {" . join(', ', map { "montk_amm52x2p_$_" } 1 .. $X2P_KMAX) . "}\n";
	print squares("X1SQR", "montk_ams52", "montk_amm_fn", $X1SQR_KMIN, $X1SQR_KMAX,
	              "montk_amm52_K's a*a", "each a_i a_j of different 8-limb blocks");
	print squares("X2PSQR", "montk_sqr52x2p", "montk_amm2_fn", $X2PSQR_KMIN, $X2PSQR_KMAX,
	              "montk_amm52x2p_K's a*a for both sets", "each a_i a_j");
	print squares("X2PAMS", "montk_ams52x2p", "montk_amm2_fn", $X2PAMS_KMIN, $X2PAMS_KMAX,
	              "montk_amm52x2p_K's a*a for both sets", "each a_i a_j of different 4-limb blocks");
	print <<"EOT";
/* montk_gather52_C: out = the entry idx0 of a table of `entries` entries
 * stride bytes apart, C*8 limbs of each (C = 1..MONTK_IFMA_GATHER_CMAX), the
 * odd limbs from entry idx1 (a packed pair's second number), every entry
 * read; out and table 64-byte aligned. */
#define MONTK_IFMA_GATHER_CMAX $GATHER_CMAX
typedef void montk_gather_fn(uint64_t *out, const uint64_t *table, size_t entries,
                             size_t stride, uint64_t idx0, uint64_t idx1);
EOT
	print "montk_gather_fn " . join(', ', map { "montk_gather52_$_" } 1 .. $GATHER_CMAX) . ";\n";
	print "#define MONTK_IFMA_GATHER {" . join(', ', map { "montk_gather52_$_" } 1 .. $GATHER_CMAX) . "}\n";
		print count_table();
}

my $code = "# Generated by perlasm/x86_64-ifma.pl; do not edit.\n.text\n";
if ($ifma) {
	$code .= $_ <= $X1_FAST_KMAX ? amm_fast($_, 1) : amm($_) for 1 .. $X1_KMAX;
	$code .= $_ == $PAIR_K ? amm_pair($_) : amm_fast($_, 1, 1) for 1 .. $X1F_KMAX;
	$code .= amm_fast($_, 2) for 1 .. $X2P_KMAX;
	$code .= ams_fast($_, 1) for $X1SQR_KMIN .. $X1SQR_KMAX;
	$code .= ams_fast($_, 2) for $X2PAMS_KMIN .. $X2PAMS_KMAX;
	$code .= amm_sqr($_) for $X2PSQR_KMIN .. $X2PSQR_KMAX;
	$code .= gather($_) for 1 .. $GATHER_CMAX;
}
if ($flavour eq '--header') {
	header();
} else {
	print Xlate::translate($code, $flavour, $caps);
}
