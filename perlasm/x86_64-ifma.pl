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
#   montk_amm52x2_K(r, a, b, n, k0, L)  the same for two independent sets:
#                                       r[0..8K), a[0..8K), ... is the
#                                       first, r[8K..16K), ... the second;
#                                       k0[0], k0[1]
# with K vector registers of 8 limbs per number, of which the first L are
# the number's (8K-7 <= L <= 8K: the row loop runs L times, so 1024-bit
# numbers take 20 rows, not 24) and the rest 0, n odd,
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
# Registers: only the vector registers 0-5 and 16-31 (the EVEX-only upper
# sixteen), so nothing here is callee-saved on Win64 (xmm6-15 are) and the
# Win64 flavours need no vector saves in their unwind data. That bounds
# the register files: K+10 <= 22 for one product (K+6 past amm_fast),
# 2(K+3)+6 <= 22 for two (whose k0 vectors live in the frame).
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

# Lanes per register: zmm for one product (x1) and two (x2, amm_fast; see
# "Width" above).
my %WIDTH = (x1 => 8, x2 => 8);
# Kernels for K = 1..KMAX registers per number: amm_fast up to
# X1_FAST_KMAX (K + 10 <= 22), amm beyond (K + 6 <= 22).
my $X1_KMAX = 16;
my $X1_FAST_KMAX = 12;
# From this K one product alone takes every product in place, as the pairs
# do ("direct" in fast_regs): its row has enough work to cover the longer
# chain. Measured (montbench amm52, ns per product, best of two interleaved
# runs): K=5 (2048 bits) 260 with register 0 and a*b through T against 308
# direct; K=7 (2560) 417 direct against 458; K=8 and K=10 (3072, 4096)
# 509 and 791 direct against 610 and 972 before. No multiple of 512 bits
# needs K=6.
my $X1_DIRECT_KMIN = 7;
# The kernels for a modulus n = -1 mod 2^52 (montk_amm52f_K, see amm_fast):
# K = 1..X1F_KMAX. Measured against montk_amm52_K at the L each takes
# (one limb more), ns per product, chained: K=2 (L 13, 16) 62, 74 against
# 72, 85; K=3 (21) 99 against 110 at 20; K=4 (31) 151-160 against 165-171
# at 30 alone, but in montbench (amm52 at 1536 bits, three interleaved
# runs) 169-191 against 162-180, and mont_modexp slower; K=5 and 6 slower.
my $X1F_KMAX = 3;
my $X2_KMAX = 5;		# up to L = 40: 2048-bit factors (2(K+3)+6 <= 22)
# Table lookups of C = 1..GATHER_CMAX 512-bit registers (see gather below).
my $GATHER_CMAX = 8;


# Largest num (64-bit limbs) a kernel of L limbs takes: 4n <= R needs
# 64 num + 2 <= 52 L.
sub max_num { my ($L) = @_; return int((52 * $L - 2) / 64) }

my @POOL = (0 .. 5, 16 .. 31);	# see "Registers" above

sub reg32 {	# %rdx -> %edx, %r9 -> %r9d
	my ($r) = @_;
	return $r =~ /^%r(\d+)$/ ? "%r$1d" : $r =~ s/^%r/%e/r;
}

# Normalisation of the accumulators @$A (one list of K registers per copy),
# stored to r at $off->(copy, register) (see the header). Uses rax, rcx,
# rdx, rsi, r8, r9, r11, %k2 and the four vector registers @$tmp; zeroes
# the general registers it used.
sub normalise {
	my ($name, $K, $lanes, $A, $MASK, $ZERO, $tmp, $off) = @_;
	my @A = @$A;
	my $copies = @A;
	my $L = $K * $lanes;
	my $v = $lanes == 8 ? 'zmm' : 'ymm';
	my $y = sub { "%$v$_[0]" };
	my ($C0, $C1, $U, $ONE) = @$tmp;
	my $s = '';
	my $words = int(($L + 63) / 64);
	my @G = ('%rdx', '%r9', '%r11')[0 .. $words - 1];
	my @P = ('%rcx', '%rsi', '%r8')[0 .. $words - 1];
	die "$name: $L limbs need more than 3 carry words\n" if $words > 3;
	$s .= "\tvpsrlq\t\$51," . $y->($MASK) . "," . $y->($ONE) . "\t# 1 in every lane\n";
	for my $c (0 .. $copies - 1) {
		my @a = @{ $A[$c] };
		$s .= "\t# copy $c: acc_j mod 2^52 + (acc_{j-1} >> 52)\n";
		my $prev = $ZERO;
		for my $j (0 .. $K - 1) {
			my $cj = $j % 2 ? $C1 : $C0;
			$s .= "\tvpsrlq\t\$52," . $y->($a[$j]) . "," . $y->($cj) . "\n"
			    . "\tvpandq\t" . $y->($MASK) . "," . $y->($a[$j]) . "," . $y->($a[$j]) . "\n"
			    . "\tvalignq\t\$" . ($lanes - 1) . "," . $y->($prev) . "," . $y->($cj) . "," . $y->($U) . "\n"
			    . "\tvpaddq\t" . $y->($U) . "," . $y->($a[$j]) . "," . $y->($a[$j]) . "\n";
			$prev = $cj;
		}
		$s .= "\t# G: limbs >= 2^52, P: limbs = 2^52 - 1, one bit per limb\n";
		$s .= "\txor\t" . reg32($_) . "," . reg32($_) . "\n" for @G, @P;
		for my $j (0 .. $K - 1) {
			my $w = int($lanes * $j / 64);
			my $pos = $lanes * $j % 64;
			for my $gp ([6, $G[$w]], [0, $P[$w]]) {
				$s .= "\tvpcmpuq\t\$$gp->[0]," . $y->($MASK) . "," . $y->($a[$j]) . ",%k2\n"
				    . "\tkmovw\t%k2,%eax\n";
				$s .= "\tshl\t\$$pos,%rax\n" if $pos;
				$s .= "\tor\t%rax,$gp->[1]\n";
			}
		}
		$s .= "\t# C = ((G << 1) + P) ^ P: the carry into each limb\n";
		$s .= "\tshld\t\$1,$G[$_ - 1],$G[$_]\n" for reverse 1 .. $words - 1;
		$s .= "\tadd\t$G[0],$G[0]\n\tadd\t$P[0],$G[0]\n";
		$s .= "\tadc\t$P[$_],$G[$_]\n" for 1 .. $words - 1;
		$s .= "\txor\t$P[$_],$G[$_]\n" for 0 .. $words - 1;
		for my $j (0 .. $K - 1) {
			my $w = int($lanes * $j / 64);
			my $pos = $lanes * $j % 64;
			$s .= "\tmov\t$G[$w],%rax\n";
			$s .= "\tshr\t\$$pos,%rax\n" if $pos;
			$s .= "\tkmovw\t%eax,%k2\n"
			    . "\tvpaddq\t" . $y->($ONE) . "," . $y->($a[$j]) . "," . $y->($a[$j]) . "{%k2}\n"
			    . "\tvpandq\t" . $y->($MASK) . "," . $y->($a[$j]) . "," . $y->($a[$j]) . "\n"
			    . "\tvmovdqu64\t" . $y->($a[$j]) . "," . $off->($c, $j) . "(%rdi)\n";
		}
	}
	$s .= "\txor\t" . reg32($_) . "," . reg32($_) . "\n" for @G, @P;
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
	$s = normalise($name, $K, 8, [ \@a ], $MASK, $ZERO, [$B, $M, $K0, $T], $off);
	# No secret stays in a register: the vectors, the opmasks, the words.
	$s .= "\tvpxorq\t" . join(',', ($x->($_)) x 3) . "\n" for @POOL[0 .. $#POOL - @free];
	$s .= "\txor\t%eax,%eax\n\tkmovw\t%eax,%k1\n\tkmovw\t%eax,%k2\n";
	$s .= "\tvzeroupper\n\tret\n.size\t$name,.-$name\n";
	return tally($name, $pre, $row, $s, 0);
}

# One or two products with the m chain shortened (512-bit registers).
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
# fast_regs, takes a longer chain for fewer operations); two products fill
# the IFMA units (4K+1 products and K+2 shuffles per row each). b_{i+1},
# broadcast for lo(a*b_{i+1}), stays in a register for the next row's
# hi(a*b_{i+1}).
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
# accumulating VPMADD52, are as long as the m chain).
sub amm_fast {
	my ($copies, $K, $friendly) = @_;
	my $g = fast_regs($copies, $K, $friendly);
	my $l = ".L$g->{name}";
	my $s = fast_entry($g);
	$s .= fast_first_row($g, $_) for 0 .. $copies - 1;
	return tally($g->{name}, $s . "\tdec\t%r9d\t\t\t# rows: L - 1 in the loop, the last peeled\n$l:\n",
	             fast_row($g, 0) . "\tlea\t8(%rdx),%rdx\n\tdec\t%r9d\n\tjnz\t$l\n",
	             "\t# the last row\n" . fast_row($g, 1) . fast_exit($g), 1);
}

# The counts of a product kernel, kept for the header: VPMADD52LUQ/HUQ
# and every instruction in the code before its row loop, in one trip of
# the loop and after it, counted in the text emitted (one instruction a
# line; labels, directives and comments are none), and how many rows run
# outside the loop (amm_fast peels the last). A product of L limbs
# executes pre + (L - peeled) * row + post of each.
my %COUNT;
sub tally {
	my ($name, @parts) = @_;
	my $peeled = pop @parts;
	my @insns = map { [ grep { /^\t[^.#]/ } split /\n/ ] } @parts;
	$COUNT{$name} = { madd => [ map { scalar grep { /^\tvpmadd52[lh]uq\t/ } @$_ } @insns ],
	                  insns => [ map { scalar @$_ } @insns ], peeled => $peeled };
	return join '', @parts;
}

# The header's tables of %COUNT, kernel K at index K - 1.
sub count_table {
	my $row = sub {
		my $c = $COUNT{ $_[0] };
		return sprintf "{{%s}, {%s}, %d}", join(', ', @{ $c->{madd} }),
		       join(', ', @{ $c->{insns} }), $c->{peeled};
	};
	return <<"EOT"
/* Per product of L limbs each kernel executes pre + (L - peeled) * row + post
 * VPMADD52LUQ/HUQ (madd) and instructions (insns): counted by the generator in
 * the code it emitted, [0] before the row loop, [1] one trip of it, [2] after. */
struct montk_ifma_count { unsigned madd[3], insns[3], peeled; };
EOT
	     . "#define MONTK_IFMA_X1_COUNTS {" . join(', ', map { $row->("montk_amm52_$_") } 1 .. $X1_KMAX) . "}\n"
	     . "#define MONTK_IFMA_X1F_COUNTS {" . join(', ', map { $row->("montk_amm52f_$_") } 1 .. $X1F_KMAX) . "}\n"
	     . "#define MONTK_IFMA_X2_COUNTS {" . join(', ', map { $row->("montk_amm52x2_$_") } 1 .. $X2_KMAX) . "}\n";
}

sub zmm { "%zmm$_[0]" }
sub xmm { "%xmm$_[0]" }
sub vclear { "\tvpxorq\t" . join(',', (xmm($_[0])) x 3) . "\n" }	# the whole zmm = 0

# amm_fast's registers (numbers from @POOL) for $copies products of K
# registers: per copy the accumulator A (K registers), m, c and b_i in
# every lane, and k0 in every lane (K0: the operand, a register for one
# product; for two, which need the registers for K up to 5, a vector in
# the frame, read once per row like n'); shared: MASK (2^52 - 1 in every
# lane), ZERO, BN (b_{i+1}), the product temporaries T and H, XB (X
# broadcast); used: how many of @POOL. The frame holds n' of each copy, K
# registers, then the pairs' k0 vectors, 64-byte aligned.
sub fast_regs {
	my ($copies, $K, $friendly) = @_;
	my @free = @POOL;
	my $take = sub { my $n = shift @free; die "out of vector registers\n" unless defined $n; $n };
	my $inframe = $copies == 2;
	# direct, the pairs and the wide single products: every register takes
	# every product in place, no T or H and no VPADDQ, so a register-row
	# is 4 VPMADD52 and a VALIGNQ, 5 operations on the two ports both
	# take, not 6 (9 for register 0). The register's chain through a row
	# grows to the VALIGNQ and four dependent VPMADD52 (about 19 cycles;
	# the m chain, register 0's, 20), which the rest of the row covers
	# when it is long enough: the other copy's half (2(5K+5) operations,
	# 20 cycles at K=3), or K >= X1_DIRECT_KMIN registers. Otherwise
	# register 0 and the a*b products of every register go through T and
	# H (the m chain then about 13 cycles).
	die "montk_amm52f_$K: only single products through T\n"
		if $friendly && ($copies == 2 || $K >= $X1_DIRECT_KMIN);
	my $g = { copies => $copies, K => $K, L => 8 * $K, friendly => $friendly,
	          direct => $copies == 2 || $K >= $X1_DIRECT_KMIN,
	          frame => 64 * ($K + $inframe) * $copies + 64,
	          name => $copies == 2 ? "montk_amm52x2_$K" : $friendly ? "montk_amm52f_$K" : "montk_amm52_$K" };
	for my $c (0 .. $copies - 1) {
		$g->{A}[$c] = [ map { $take->() } 1 .. $K ];
		($g->{M}[$c], $g->{C}[$c], $g->{B}[$c]) = map { $take->() } 1 .. 3;
		$g->{K0}[$c] = $inframe ? 64 * ($copies * $K + $c) . "(%r10)" : $friendly ? undef : zmm($take->());
	}
	@$g{qw(MASK ZERO BN T H XB)} = map { $take->() } 1 .. 6;
	$g->{U} = [ undef, map { $take->() } 1 .. $K - 1 ] if $friendly;
	$g->{used} = @POOL - @free;
	return $g;
}

# Byte offsets of register j of copy c: in a, b, n and r (the copies are
# 8K limbs apart), and of n' on the stack (from %r10).
sub fast_off { my ($g, $c, $j) = @_; 8 * $g->{L} * $c + 64 * $j }
sub fast_np { my ($g, $c, $j) = @_; 64 * ($c * $g->{K} + $j) }

# The entry: the frame (%r10 = its 64-byte aligned start), k0 of each copy
# in every lane, MASK, ZERO, and the opmasks %k2 (lanes 0-6) and %k1
# (lane 0).
sub fast_entry {
	my ($g) = @_;
	my ($name, $copies) = @$g{qw(name copies)};
	my @k0 = $copies == 2 ? ('%r8', '%r11') : ('%r8');
	my $s = "\n.globl\t$name\n.hidden\t$name\n.type\t$name,\@function,6\n.align\t32\n$name:\n"
	      . "\tsub\t\$$g->{frame},%rsp\n\tlea\t63(%rsp),%r10\n\tand\t\$-64,%r10\n";
	$s .= "\tmov\t8(%r8),%r11\n\tmov\t(%r8),%r8\t\t# k0 of each product\n" if $copies == 2;
	for my $c (grep { defined $g->{K0}[$_] } 0 .. $copies - 1) {	# a K0 in the frame goes there through T
		my $k0 = $g->{K0}[$c];
		$s .= "\tvpbroadcastq\t$k0[$c]," . ($k0 =~ /^%/ ? $k0 : zmm($g->{T})) . "\n";
		$s .= "\tvmovdqu64\t" . zmm($g->{T}) . ",$k0\n" unless $k0 =~ /^%/;
	}
	return $s . "\tmovabsq\t\$0xfffffffffffff,%rax\t# 2^52 - 1\n"
	     . "\tvpbroadcastq\t%rax," . zmm($g->{MASK}) . "\n" . vclear($g->{ZERO})
	     . "\tmov\t\$0x7f,%eax\n\tkmovw\t%eax,%k2\t\t# lanes 0-6\n"
	     . "\tmov\t\$1,%eax\n\tkmovw\t%eax,%k1\t\t# lane 0\n";
}

# Row 0 of copy c: n' to the stack (n'_j = n_{j+1}: each register loaded
# one limb up; the last load keeps lanes 0-6 (%k2) and zeroes lane 7, past
# n, so the top limb of n' is 0 and nothing past n is read), then
# acc = lo(a*b_0), the first m and c.
sub fast_first_row {
	my ($g, $c) = @_;
	my ($K, $T, $B, $A) = ($g->{K}, $g->{T}, $g->{B}[$c], $g->{A}[$c]);
	my $s = "\t# copy $c: n' (one limb down, the top limb 0) to the stack\n";
	for my $j (0 .. $K - 1) {
		$s .= "\tvmovdqu64\t" . (fast_off($g, $c, $j) + 8) . "(%rcx)," . zmm($T)
		    . ($j == $K - 1 ? "{%k2}{z}" : "") . "\n"
		    . "\tvmovdqu64\t" . zmm($T) . "," . fast_np($g, $c, $j) . "(%r10)\n";
	}
	$s .= "\t# acc = lo(a*b_0); the first m and c\n"
	    . "\tvpbroadcastq\t" . fast_off($g, $c, 0) . "(%rdx)," . zmm($B) . "\n";
	$s .= vclear($A->[$_]) . "\tvpmadd52luq\t" . fast_off($g, $c, $_) . "(%rsi)," . zmm($B)
	    . "," . zmm($A->[$_]) . "\n" for 0 .. $K - 1;
	return $s . fast_mc($g, $c);
}

# m and c of copy c from X = acc_0: m = lo(k0*X) (VPMADD52LUQ reads X mod
# 2^52, all m needs), c = (X + 2^52 - 1) >> 52, the carry X + lo(n_0*m)
# moves into the next lane 0.
sub fast_mc {
	my ($g, $c) = @_;
	my ($a0, $XB, $C, $M) = ($g->{A}[$c][0], $g->{XB}, $g->{C}[$c], $g->{M}[$c]);
	my $cs = "\tvpaddq\t" . zmm($g->{MASK}) . "," . zmm($a0) . "," . zmm($C) . "\n"
	       . "\tvpsrlq\t\$52," . zmm($C) . "," . zmm($C) . "\n";
	return "\tvpbroadcastq\t" . xmm($a0) . "," . zmm($M) . "\t# m = X (k0 = 1)\n" . $cs
		if $g->{friendly};
	return "\tvpbroadcastq\t" . xmm($a0) . "," . zmm($XB) . "\n" . $cs
	     . vclear($M)
	     . "\tvpmadd52luq\t" . $g->{K0}[$c] . "," . zmm($XB) . "," . zmm($M) . "\n";
}

# One row of every copy; the last has no b_{i+1} and no next m.
sub fast_row {
	my ($g, $last) = @_;
	return join '', map { fast_row_ab($g, $_, $last) . fast_row_nm($g, $_, $last) }
		0 .. $g->{copies} - 1;
}

# acc = shift(acc) + hi(a*b_i) + lo(a*b_{i+1}) + c e_0: the shift moves
# every limb down one lane (ZERO into the top); the a_j*b products of
# register j are summed in T, which joins acc_j with one VPADDQ (direct:
# into acc_j itself).
sub fast_row_ab {
	my ($g, $c, $last) = @_;
	my ($K, $T, $BN, $B) = ($g->{K}, $g->{T}, $g->{BN}, $g->{B}[$c]);
	my @a = @{ $g->{A}[$c] };
	my $r = "\t# copy $c: acc = shift(acc) + hi(a*b_i) + lo(a*b_{i+1}) + c e_0\n";
	$r .= "\tvpbroadcastq\t" . (fast_off($g, $c, 0) + 8) . "(%rdx)," . zmm($BN) . "\n" unless $last;
	$r .= "\tvalignq\t\$1," . zmm($a[$_]) . "," . zmm($_ < $K - 1 ? $a[$_ + 1] : $g->{ZERO})
	    . "," . zmm($a[$_]) . "\n" for 0 .. $K - 1;
	for my $j (0 .. $K - 1) {
		my $aj = fast_off($g, $c, $j) . "(%rsi)";
		my $to = $g->{direct} ? $a[$j] : $j && $g->{friendly} ? $g->{U}[$j] : $T;
		$r .= vclear($to) unless $to == $a[$j];
		$r .= "\tvpmadd52huq\t$aj," . zmm($B) . "," . zmm($to) . "\n";
		$r .= "\tvpmadd52luq\t$aj," . zmm($BN) . "," . zmm($to) . "\n" unless $last;
		$r .= "\tvpaddq\t" . zmm($g->{C}[$c]) . "," . zmm($to) . "," . zmm($to) . "{%k1}\n" unless $j;
		$r .= "\tvpaddq\t" . zmm($T) . "," . zmm($a[$j]) . "," . zmm($a[$j]) . "\n" if $to == $T;
	}
	return $r;
}

# acc += lo(n'*m) + hi(n*m), register 0 first: its lane 0, the next X, waits
# for hi(n_0*m) (in H) and lo(n'_0*m) = lo(n_1*m) (in T), two VPADDQ on the
# m chain; the other registers take both directly (direct: register 0
# too). Then the next row's m, c and b_i (b_{i+1} from BN).
sub fast_row_nm {
	my ($g, $c, $last) = @_;
	my ($H, $T, $M) = ($g->{H}, $g->{T}, $g->{M}[$c]);
	my @a = @{ $g->{A}[$c] };
	my $n = sub { fast_off($g, $c, $_[0]) . "(%rcx)," . zmm($M) };	# n_j, m
	my $np = sub { fast_np($g, $c, $_[0]) . "(%r10)," . zmm($M) };	# n'_j, m
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
		$r .= vclear($H) . "\tvpmadd52huq\t" . $n->(0) . "," . zmm($H) . "\n"
		    . vclear($T) . "\tvpmadd52luq\t" . $np->(0) . "," . zmm($T) . "\n"
		    . "\tvpaddq\t" . zmm($H) . "," . zmm($a[0]) . "," . zmm($a[0]) . "\n"
		    . "\tvpaddq\t" . zmm($T) . "," . zmm($a[0]) . "," . zmm($a[0]) . "\n";
	}
	$r .= "\t# the next row's m, c and b_i\n" . fast_mc($g, $c)
	    . "\tvmovdqu64\t" . zmm($g->{BN}) . "," . zmm($g->{B}[$c]) . "\n" unless $last;
	return $r;
}

# The exit: r = the normalised accumulators; no secret stays behind: the
# vectors, the opmasks (n' on the stack is public).
sub fast_exit {
	my ($g) = @_;
	my ($name, $frame) = @$g{qw(name frame)};
	my $s = normalise($name, $g->{K}, 8, $g->{A}, $g->{MASK}, $g->{ZERO}, [ @$g{qw(BN T H XB)} ],
	                  sub { fast_off($g, @_) });
	$s .= vclear($_) for @POOL[0 .. $g->{used} - 1];
	return $s . "\txor\t%eax,%eax\n\tkmovw\t%eax,%k1\n\tkmovw\t%eax,%k2\n\txor\t%r10d,%r10d\n"
	     . "\tvzeroupper\n\tadd\t\$$frame,%rsp\n\tret\n.size\t$name,.-$name\n";
}

# The table lookup of the exponentiation: montk_gather52_C(out, table,
# entries, stride, idx) copies entry idx (C*8 limbs at table + i*stride
# bytes, i < entries) to out, reading every entry in full: per entry a
# compare of the loop's count with idx gives an all-ones or all-zero
# vector, and VPTERNLOGQ ORs that mask ANDed with the entry into the
# result (out |= mask & entry: one instruction per register, no blend or
# masked load whose memory access could depend on the mask). The C side
# runs it over column chunks of up to $GATHER_CMAX registers.
sub gather {
	my ($C) = @_;
	my $name = "montk_gather52_$C";
	my ($IDX, $CNT, $ONE, $SEL, @OUT) = @POOL[0 .. 3 + $C];
	my $z = sub { "%zmm$_[0]" };
	my $s = "\n.globl\t$name\n.hidden\t$name\n.type\t$name,\@function,5\n.align\t32\n$name:\n"
	      . "\tvpbroadcastq\t%r8," . $z->($IDX) . "\n"
	      . "\tmov\t\$1,%eax\n\tvpbroadcastq\t%rax," . $z->($ONE) . "\n"
	      . "\tvpxorq\t" . join(',', ("%xmm$CNT") x 3) . "\n";
	$s .= "\tvpxorq\t" . join(',', ("%xmm$_") x 3) . "\n" for @OUT;
	$s .= ".L$name:\n"
	    . "\tvpcmpuq\t\$0," . $z->($IDX) . "," . $z->($CNT) . ",%k1\t# count == idx\n"
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

# The header: what the C side needs to call the kernels, and their counts.
sub header {
	print "/* Generated by perlasm/x86_64-ifma.pl from the caps: the IFMA kernels. */\n";
	unless ($ifma) {
		print "/* #undef MONT_HAVE_IFMA (the toolchain lacks avx512ifma or avx512vl) */\n";
		return;
	}
	my $l1 = $WIDTH{x1};
	my $l2 = $WIDTH{x2};
	my $maxnum = max_num($X1_KMAX * $l1);
	print <<"EOT";
#define MONT_HAVE_IFMA 1
/* montk_amm52_K: numbers of L limbs of 52 bits, 8K-7 <= L <= 8K, each
 * held in K*MONTK_IFMA_LANES limbs (the limbs from L on 0; r's are
 * written 0), K = 1..MONTK_IFMA_KMAX;
 * montk_amm52f_K: the same for n = -1 mod 2^52 only (k0 = 1, not read),
 * K = 1..MONTK_IFMA_X1F_KMAX;
 * montk_amm52x2_K: the same with K*MONTK_IFMA_X2_LANES, K = 1..MONTK_IFMA_X2_KMAX,
 * two sets, the second's numbers K*MONTK_IFMA_X2_LANES limbs past the first's.
 * r = a*b/2^(52L) mod n, r < 2n, for n odd, 4n <= 2^(52L), a, b < 2n, every
 * limb below 2^52, k0 = -n^-1 mod 2^52, L >= 2; r may alias a or b. A
 * number of num 64-bit limbs fits L limbs when 64 num + 2 <= 52 L: from
 * MONTK_IFMA_MIN_NUM up to MONTK_IFMA_MAX_NUM limbs. */
#define MONTK_IFMA_LANES $l1
#define MONTK_IFMA_KMAX $X1_KMAX
#define MONTK_IFMA_X1F_KMAX $X1F_KMAX
#define MONTK_IFMA_X2_LANES $l2
#define MONTK_IFMA_X2_KMAX $X2_KMAX
#define MONTK_IFMA_MIN_NUM 1
#define MONTK_IFMA_MAX_NUM $maxnum
typedef void montk_amm_fn(uint64_t *r, const uint64_t *a, const uint64_t *b,
                          const uint64_t *n, uint64_t k0, size_t L);
typedef void montk_amm2_fn(uint64_t *r, const uint64_t *a, const uint64_t *b,
                           const uint64_t *n, const uint64_t *k0, size_t L);
EOT
	print "montk_amm_fn " . join(', ', map { "montk_amm52_$_" } 1 .. $X1_KMAX) . ";\n";
	print "montk_amm_fn " . join(', ', map { "montk_amm52f_$_" } 1 .. $X1F_KMAX) . ";\n";
	print "montk_amm2_fn " . join(', ', map { "montk_amm52x2_$_" } 1 .. $X2_KMAX) . ";\n";
	print "#define MONTK_IFMA_X1 {" . join(', ', map { "montk_amm52_$_" } 1 .. $X1_KMAX) . "}\n";
	print "#define MONTK_IFMA_X1F {" . join(', ', map { "montk_amm52f_$_" } 1 .. $X1F_KMAX) . "}\n";
	print "#define MONTK_IFMA_X2 {" . join(', ', map { "montk_amm52x2_$_" } 1 .. $X2_KMAX) . "}\n";
	print <<"EOT";
/* montk_gather52_C: out = the entry idx of a table of `entries` entries
 * stride bytes apart, C*8 limbs of each (C = 1..MONTK_IFMA_GATHER_CMAX),
 * every entry read; out and table 64-byte aligned. */
#define MONTK_IFMA_GATHER_CMAX $GATHER_CMAX
typedef void montk_gather_fn(uint64_t *out, const uint64_t *table, size_t entries,
                             size_t stride, uint64_t idx);
EOT
	print "montk_gather_fn " . join(', ', map { "montk_gather52_$_" } 1 .. $GATHER_CMAX) . ";\n";
	print "#define MONTK_IFMA_GATHER {" . join(', ', map { "montk_gather52_$_" } 1 .. $GATHER_CMAX) . "}\n";
		print count_table();
}

my $code = "# Generated by perlasm/x86_64-ifma.pl; do not edit.\n.text\n";
if ($ifma) {
	$code .= $_ <= $X1_FAST_KMAX ? amm_fast(1, $_) : amm($_) for 1 .. $X1_KMAX;
	$code .= amm_fast(1, $_, 1) for 1 .. $X1F_KMAX;
	$code .= amm_fast(2, $_) for 1 .. $X2_KMAX;
	$code .= gather($_) for 1 .. $GATHER_CMAX;
}
if ($flavour eq '--header') {
	header();
} else {
	print Xlate::translate($code, $flavour, $caps);
}
