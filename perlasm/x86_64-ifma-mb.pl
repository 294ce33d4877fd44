#!/usr/bin/env perl
# SPDX-License-Identifier: MIT
# AVX-512 IFMA kernels for eight independent Montgomery products at once,
# one number per 64-bit lane of a zmm register (radix 2^52), for
# mont_modexp_batch.
#
#   perl perlasm/x86_64-ifma-mb.pl FLAVOUR CAPS.json > build/mont-ifma-mb.s
#   perl perlasm/x86_64-ifma-mb.pl --header CAPS.json >> build/mont-kernels.h
#
# Emitted only when the caps say avx512ifma, avx512vl and avx512f are yes
# (the same decision as perlasm/x86_64-ifma.pl); otherwise the .s holds a
# lone `ret` and the header leaves MONT_HAVE_IFMA_MB undefined.
#
# Layout ("lanes"): a number of L limbs for each of eight lanes is L
# vectors of 64 bytes, vector j holding limb j of lane 0..7 (limb j of
# lane k at uint64_t index 8j + k). Every lane runs the same instructions
# on its own number: nothing moves between lanes, so no product is wasted
# and no carry crosses a lane.
#
#   montk_amm52mb(r, a, b, ctx, L)     r = a*b/R mod n per lane, r < 2n
#   montk_ams52mb(r, a, ctx, L)        r = a*a/R mod n per lane, r < 2n
#
# R = 2^(52L), L even, 4 <= L; n odd, 4n <= R, a, b < 2n per lane, every
# limb below 2^52, k0 = -n^-1 mod 2^52 per lane. ctx (64-byte aligned) is
# L + 2 entries of 256 bytes, entry -1 holding k0 (its first vector), entry
# j (0 <= j < L) the accumulator t_j (scratch), n_j, then the squaring's
# x_j and x'_j (scratch); the scratch is secret while a kernel runs: the
# caller wipes it. montk_amm52mb leaves x, x' and entry L alone. r may
# alias a or b: r is written after the last row.
#
# The row loop, i = 0..L-1, the accumulator t in ctx (L vectors do not
# fit the registers past 1024 bits), one row of it:
#   X = t_0 + lo(a_0 b_i);  m = lo(X k0);  c = (X + 2^52 - 1) >> 52
#       (X + lo(n_0 m) is 0 mod 2^52: its carry is X >> 52, plus one
#       unless X mod 2^52 = 0, known from X alone)
#   u_{j-1} = t_j + lo(a_j b_i) + hi(a_{j-1} b_i) + lo(n_j m) + hi(n_{j-1} m)
#       for j = 1..L-1 (+ c at j = 1), u_{L-1} = hi(a_{L-1} b_i) + hi(n_{L-1} m)
# with lo(x y) = x y mod 2^52 and hi(x y) = floor(x y / 2^52) per lane.
# So u 2^52 = t + a b_i + n m, and after L rows t = (a b + M n)/R. Rows
# run in pairs, i and i+1 (b' = b_{i+1}, m', c' its m and c), so each limb
# is loaded and stored once per two rows, beside its eight multiply-adds
# (one row a sweep took 1.2-1.5x as long: the loads and stores, not the
# products, held it): the head makes m, c, u_0, then X' = u_0 + lo(a_0 b'),
# m', c'; step k = 0..L-3 adds both rows' terms of limb k+2 at once,
#   t_k = t_{k+2} + lo(a_{k+2} b) + hi(a_{k+1} b) + lo(n_{k+2} m) + hi(n_{k+1} m)
#                 + lo(a_{k+1} b') + hi(a_k b') + lo(n_{k+1} m') + hi(n_k m')
# (u_{k+1}'s terms, then row i+1's), the tail t_{L-2} and t_{L-1} from
# u_{L-1}'s and row i+1's; c' is added into t_0 by the next pair's X (and
# the normalisation after the last): limb 0 is read there only. A limb
# gains at most eight values below 2^52 a pair and lives L/2 pairs: it
# stays below 4 L 2^52 + 2^12 < 2^64 for L < 2^10, the bound of single
# rows. Normalisation, once per product: r_j = (t_j + c) mod 2^52, c =
# (t_j + c) >> 52, limb by limb (a serial chain of L additions per product,
# small beside its 4L^2 multiply-adds).
#
# The squaring is the same loop with a_j b_i replaced by x_j a_i, where
# row i's x holds 0 below limb i, a_i at limb i and 2a's limbs above
# (x_{i+1} without the carry in from 2a_i): sum_i a_i x 2^(52i) = a^2, each
# cross product a_i a_j taken once and doubled. Row i+1's x' is x but for
# limbs i..i+2 (0, a_{i+1}, 2a_{i+2} mod 2^52), so each has its own ctx
# slot, and the pair writes both before its steps read them. Steps whose
# x_{k+2}, x_{k+1}, x'_{k+1} and x'_k are 0 (k < i - 2) skip the four
# products of b and b', steps i-2 and i-1 make only the one and two whose
# x are not 0, and the heads after the first the four of x_0, x_1, x'_0
# (0 there), so row i does about 2L + 2(L-i) multiply-adds: 3L^2 in all,
# against the product's 4L^2 (1231 at L = 20, where all four products in
# every step from i - 2 made 1312). 2a < R (a < 2n <= R/2), so 2a fits L
# limbs.
#
#   montk_gather52mb(out, table, entries, span, idx)
#
# out = entry idx[k] in lane k for every lane: a table of `entries`
# entries of span vectors (span a multiple of 8), each entry read in full:
# per entry a per-lane compare of the entry's number with idx gives a lane
# mask (VPCMPUQ into %k1, made a vector of all ones in the chosen lanes by
# a zero-masked VPTERNLOGQ), and VPTERNLOGQ ORs mask & entry into the
# result. No load's address or mask depends on idx.
#
# Registers: vector registers 0-5 and 16-31 only (xmm6-15 are callee-saved
# on Win64), no stack: the Win64 flavours' unwind data is Xlate's pushes
# of rdi and rsi alone. Constant time: the branches are loop counters;
# every address is an argument plus constants and the loops' steps.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use Asmcap;
use Xlate;

my $usage = "usage: $0 FLAVOUR CAPS.json > mont-ifma-mb.s\n"
          . "       $0 --header CAPS.json >> mont-kernels.h\n";
die $usage unless @ARGV == 2;
my ($flavour, $capsfile) = @ARGV;
my $caps = Asmcap->load($capsfile);
# VPMADD52LUQ/HUQ (avx512ifma) on zmm (avx512f); the caps decision of
# x86_64-ifma.pl, so both kernel sets exist or neither.
my $ifma = $caps->has('avx512ifma') && $caps->has('avx512vl') && $caps->has('avx512f');

sub zmm { "%zmm$_[0]" }
sub vclear { "\tvpxorq\t" . join(',', ("%xmm$_[0]") x 3) . "\n" }
sub head {
	my ($name, $nargs) = @_;
	return "\n.globl\t$name\n.hidden\t$name\n.type\t$name,\@function,$nargs\n.align\t32\n$name:\n";
}

# Vector registers of montk_amm52mb and montk_ams52mb: B, M row i's b_i
# and m, B2, M2 row i+1's; C, C2 their carries.
my %V;
@V{qw(K0 MASK B M X C PA PN QA QN T U B2 M2 C2)} = (0 .. 5, 16 .. 24);
my @USED = (0 .. 5, 16 .. 24);
# Bytes per ctx entry: t_j, n_j, then the squaring's x_j and x'_j (its
# pair count shifts by 8 and 9: 256 and 512).
my $E = 256;

# $op (an instruction) with a source $src (a register number or an
# address), a register $y and the register $acc.
sub vop {
	my ($op, $src, $y, $acc) = @_;
	$src = zmm($src) if $src =~ /^\d+$/;
	return "\t$op\t$src," . zmm($y) . "," . zmm($acc) . "\n";
}
sub madd { my $hl = shift; return vop("vpmadd52${hl}uq", @_) }

# One step k of a pair of rows: t_k = t_{k+2} + lo(x_{k+2} b) + hi(x_{k+1} b)
# + lo(x'_{k+1} b') + hi(x'_k b') + lo(n_{k+2} m) + hi(n_{k+1} m)
# + lo(n_{k+1} m') + hi(n_k m'). ctx entry k+2 at $w(%r8); x_{k+2} and
# n_{k+2} are loaded into ($A, $N), x_{k+1} and n_{k+1} are in ($PA, $PN)
# from the step before, n_k is a memory operand; $x is x_{k+2}'s address
# and $x1, $x0 the operands x'_{k+1} and x'_k ($x undef where all four x
# are 0: the products of b and b' dropped); of those four products (in
# the order of the formula) only the first $nb are made (default 4: the
# others' x are 0); $T the register the sum is built in.
sub step {
	my ($w, $x, $x1, $x0, $A, $N, $PA, $PN, $T, $nb) = @_;
	my @b = ([$A, $V{B}], [$PA, $V{B}], [$x1, $V{B2}], [$x0, $V{B2}]);
	my $s = "\tvmovdqu64\t$w(%r8)," . zmm($T) . "\n"
	      . "\tvmovdqu64\t" . ($w + 64) . "(%r8)," . zmm($N) . "\n";
	# the products of b and b' first: they wait for nothing, those of m
	# and m' for the row heads
	$s .= "\tvmovdqu64\t$x," . zmm($A) . "\n"
	    . join('', map { madd($_ % 2 ? 'h' : 'l', @{$b[$_]}, $T) } 0 .. ($nb // 4) - 1) if defined $x;
	return $s . madd('l', $N, $V{M}, $T) . madd('h', $PN, $V{M}, $T)
	     . madd('l', $PN, $V{M2}, $T) . madd('h', ($w + 64 - 2 * $E) . '(%r8)', $V{M2}, $T)
	     . "\tvmovdqu64\t" . zmm($T) . "," . ($w - 2 * $E) . "(%r8)\n";
}

# Steps two at a time (the registers of x and n alternate), r11 of them;
# $x->($w, $PA) gives step $w's ($x, $x1, $x0) (undef: no products of b),
# $more advances other walkers.
sub pairs {
	my ($l, $x, $more) = @_;
	return "$l:\n" . step(0, $x->(0, $V{QA}), @V{qw(PA PN QA QN T)})
	     . step($E, $x->($E, $V{PA}), @V{qw(QA QN PA PN U)})
	     . "\tlea\t" . 2 * $E . "(%r8),%r8\n" . $more . "\tdec\t%r11\n\tjnz\t$l\n";
}

# k0 and the 52-bit mask, from ctx in rcx; t_0's carry in C2 is 0.
sub prologue {
	return "\tvmovdqu64\t(%rcx)," . zmm($V{K0}) . "\n"
	     . "\tmovabsq\t\$0xfffffffffffff,%rax\t# 2^52 - 1\n"
	     . "\tvpbroadcastq\t%rax," . zmm($V{MASK}) . "\n" . vclear($V{C2});
}

# m = lo($X k0) into $M, c = ($X + 2^52 - 1) >> 52 into $C.
sub row_m {
	my ($X, $M, $C) = @_;
	return vclear($M) . madd('l', $V{K0}, $X, $M)
	     . "\tvpaddq\t" . zmm($V{MASK}) . "," . zmm($X) . "," . zmm($C) . "\n"
	     . "\tvpsrlq\t\$52," . zmm($C) . "," . zmm($C) . "\n";
}

# The head of rows i and i+1, b_i and b_{i+1} at (%rdx): row i's X, m, c
# and its limb 0, u_0 = t_1 + c + lo(x_1 b) + hi(x_0 b) + lo(n_1 m)
# + hi(n_0 m), then row i+1's X' = u_0 + lo(x'_0 b'), m', c'; x_0, x_1
# at $x0, $x1, x'_0 the operand $xp0 (it may name PA, x_0; $x0 undef:
# x_0 = x_1 = x'_0 = 0, their products dropped). t_0 takes the last
# pair's c' (in C2) here. r8 walks ctx from entry 0 and ends at entry 2;
# QA, QN end holding x_1 (if $x0) and n_1.
sub row_head {
	my ($x0, $x1, $xp0) = @_;
	my ($X, $T) = @V{qw(X T)};
	my $s = "\tlea\t$E(%rcx),%r8\n"
	      . "\tvmovdqu64\t(%rdx)," . zmm($V{B}) . "\t\t# b_i\n"
	      . "\tvmovdqu64\t64(%rdx)," . zmm($V{B2}) . "\t\t# b_{i+1}\n"
	      . "\tvpaddq\t(%r8)," . zmm($V{C2}) . "," . zmm($X) . "\t# X = t_0 + c' + lo(x_0 b_i)\n"
	      . "\tvmovdqu64\t64(%r8)," . zmm($V{PN}) . "\n";
	$s .= "\tvmovdqu64\t$x0," . zmm($V{PA}) . "\n" . madd('l', $V{PA}, $V{B}, $X) if defined $x0;
	$s .= row_m($X, @V{qw(M C)})
	    . "\tvmovdqu64\t$E(%r8)," . zmm($T) . "\n"
	    . "\tvmovdqu64\t" . ($E + 64) . "(%r8)," . zmm($V{QN}) . "\n";
	$s .= "\tvmovdqu64\t$x1," . zmm($V{QA}) . "\n" if defined $x0;
	$s .= "\tvpaddq\t" . zmm($V{C}) . "," . zmm($T) . "," . zmm($T) . "\n";
	$s .= madd('l', $V{QA}, $V{B}, $T) . madd('h', $V{PA}, $V{B}, $T) if defined $x0;
	$s .= madd('l', $V{QN}, $V{M}, $T) . madd('h', $V{PN}, $V{M}, $T)
	    . "\t# X' = u_0 + lo(x'_0 b_{i+1}), m' = lo(X' k0), c'\n";
	$s .= madd('l', $xp0, $V{B2}, $T) if defined $x0;
	return $s . row_m($T, @V{qw(M2 C2)}) . "\tlea\t" . 2 * $E . "(%r8),%r8\n";
}

# The pair's end, r8 at entry L: t_{L-2} = hi(x_{L-1} b) + lo(x'_{L-1} b')
# + hi(x'_{L-2} b') + hi(n_{L-1} m) + lo(n_{L-1} m') + hi(n_{L-2} m') and
# t_{L-1} = hi(x'_{L-1} b') + hi(n_{L-1} m'); x_{L-1}, n_{L-1} in QA, QN,
# n_{L-2} in PN, x'_{L-1} and x'_{L-2} the operands $x1 and $x0.
sub row_tail {
	my ($x1, $x0) = @_;
	my ($T, $U) = @V{qw(T U)};
	return "\t# t_{L-2}, t_{L-1}\n" . vclear($T) . vclear($U)
	     . madd('h', $V{QA}, $V{B}, $T) . madd('l', $x1, $V{B2}, $T) . madd('h', $x0, $V{B2}, $T)
	     . madd('h', $x1, $V{B2}, $U) . madd('h', $V{QN}, $V{M}, $T)
	     . madd('l', $V{QN}, $V{M2}, $T) . madd('h', $V{PN}, $V{M2}, $T) . madd('h', $V{QN}, $V{M2}, $U)
	     . "\tvmovdqu64\t" . zmm($T) . ",-" . 2 * $E . "(%r8)\n"
	     . "\tvmovdqu64\t" . zmm($U) . ",-$E(%r8)\n\tlea\t128(%rdx),%rdx\n";
}

# montk_amm52mb: rdi r, rsi a, rdx b, rcx ctx, r8 L. Inside: r8 the ctx
# walker, rax the a walker, r9 L, r10 the row pairs, r11 the steps, rcx
# ctx. x = x' = a: x'_{k+1} is x_{k+1}'s register, x'_k a_k in memory.
sub amm {
	my $name = 'montk_amm52mb';
	my $l = ".L$name";
	my $x = sub { my $o = $_[0] / 4; ("$o(%rax)", $_[1], ($o - 128) . '(%rax)') };
	return head($name, 5) . "\tmov\t%r8,%r9\t\t\t# L\n" . prologue()
	     . "\t# t = 0\n" . vclear($V{T})
	     . "\tlea\t$E(%rcx),%r8\n\tmov\t%r9,%r11\n${l}_zero:\n"
	     . "\tvmovdqu64\t" . zmm($V{T}) . ",(%r8)\n\tlea\t$E(%r8),%r8\n\tdec\t%r11\n\tjnz\t${l}_zero\n"
	     . "\tmov\t%r9,%r10\n\tshr\t\$1,%r10\t\t\t# row pairs\n${l}_row:\n\tmov\t%rsi,%rax\n"
	     . row_head('(%rax)', '64(%rax)', $V{PA}) . "\tlea\t128(%rax),%rax\n"
	     . "\tmov\t%r9,%r11\n\tshr\t\$1,%r11\n\tdec\t%r11\t\t\t# (L - 2) / 2 pairs\n"
	     . pairs("${l}_step", $x, "\tlea\t128(%rax),%rax\n")
	     . row_tail($V{QA}, $V{PA}) . "\tdec\t%r10\n\tjnz\t${l}_row\n" . normalise($name);
}

# montk_ams52mb's start: t = 0, and 2a in radix 2^52 with its carries
# into every x_j and x'_j: x_j = (2 a_j mod 2^52) + (a_{j-1} >> 51)
# (below 2^52: 2 a_j mod 2^52 is even); x_L = x'_L = 0. rsi a; r8 ends at
# entry L.
sub ams_init {
	my ($l) = @_;
	my ($Z, $P, $A, $D, $H) = @V{qw(T PA QA X U)};
	return vclear($Z) . vclear($P)
	     . "\tlea\t$E(%rcx),%r8\n\tmov\t%rsi,%rax\n\tmov\t%r9,%r11\n${l}_init:\n"
	     . "\tvmovdqu64\t" . zmm($Z) . ",(%r8)\n"
	     . "\tvmovdqu64\t(%rax)," . zmm($A) . "\n"
	     . "\tvpaddq\t" . zmm($A) . "," . zmm($A) . "," . zmm($D) . "\n"
	     . "\tvpandq\t" . zmm($V{MASK}) . "," . zmm($D) . "," . zmm($D) . "\n"
	     . "\tvpsrlq\t\$51," . zmm($P) . "," . zmm($H) . "\n"
	     . "\tvpaddq\t" . zmm($H) . "," . zmm($D) . "," . zmm($D) . "\n"
	     . "\tvmovdqu64\t" . zmm($D) . "," . ($E / 2) . "(%r8)\n"
	     . "\tvmovdqu64\t" . zmm($D) . "," . ($E / 2 + 64) . "(%r8)\n"
	     . "\tvmovdqu64\t" . zmm($A) . "," . zmm($P) . "\n"
	     . "\tlea\t$E(%r8),%r8\n\tlea\t64(%rax),%rax\n\tdec\t%r11\n\tjnz\t${l}_init\n"
	     . "\tvmovdqu64\t" . zmm($Z) . "," . ($E / 2) . "(%r8)\n"
	     . "\tvmovdqu64\t" . zmm($Z) . "," . ($E / 2 + 64) . "(%r8)\n";
}

# Rows i and i+1's x and x', rax at ctx entry i, rdx at a_i: x_i = a_i,
# x_{i+1} = 2 a_{i+1} mod 2^52, x'_i = 0, x'_{i+1} = a_{i+1}, x'_{i+2} =
# 2 a_{i+2} mod 2^52, which is x_{i+2} (2a's limb still) without its bit
# 0, the carry in from a_{i+1} (it is read there, not from a: at i + 2 =
# L, entry L's x is 0). Below i, x and x' are 0 already (the pair before
# cleared them, sub ams_done).
sub ams_x {
	my ($Z, $A, $D) = @V{qw(T U X)};
	return "\t# x_i = a_i, x_{i+1} = d_{i+1}, x'_i = 0, x'_{i+1} = a_{i+1}, x'_{i+2} = d_{i+2}\n"
	     . vclear($Z) . "\tvmovdqu64\t" . zmm($Z) . "," . ($E / 2 + 64) . "(%rax)\n"
	     . "\tvmovdqu64\t(%rdx)," . zmm($A) . "\n\tvmovdqu64\t" . zmm($A) . "," . ($E / 2) . "(%rax)\n"
	     . "\tvmovdqu64\t64(%rdx)," . zmm($A) . "\n"
	     . "\tvmovdqu64\t" . zmm($A) . "," . ($E + $E / 2 + 64) . "(%rax)\n"
	     . "\tvpaddq\t" . zmm($A) . "," . zmm($A) . "," . zmm($D) . "\n"
	     . "\tvpandq\t" . zmm($V{MASK}) . "," . zmm($D) . "," . zmm($D) . "\n"
	     . "\tvmovdqu64\t" . zmm($D) . "," . ($E + $E / 2) . "(%rax)\n"
	     . "\tvmovdqu64\t" . (2 * $E + $E / 2) . "(%rax)," . zmm($D) . "\n"
	     . "\tvpsrlq\t\$1," . zmm($D) . "," . zmm($D) . "\n"
	     . "\tvpaddq\t" . zmm($D) . "," . zmm($D) . "," . zmm($D) . "\n"
	     . "\tvmovdqu64\t" . zmm($D) . "," . (2 * $E + $E / 2 + 64) . "(%rax)\n";
}

# After rows i and i+1: x_i = x_{i+1} = x'_{i+1} = 0 (x'_{i+2} is cleared
# by the next pair's x'_i).
sub ams_done {
	my $Z = $V{T};
	return vclear($Z) . join('', map { "\tvmovdqu64\t" . zmm($Z) . ",$_(%rax)\n" }
	                         $E / 2, $E + $E / 2, $E + $E / 2 + 64);
}

# montk_ams52mb: rdi r, rsi a, rdx ctx, rcx L. Inside: rdx the b walker
# (b_i = a_i), rax ctx entry i, r8 the ctx walker, r9 L, r10 L - i (i
# even), r11 the steps, rcx ctx.
sub ams {
	my $name = 'montk_ams52mb';
	my $l = ".L$name";
	my $e = sub { ($_[0] + $_[1] * $E) . '(%r8)' };
	my $x = sub { ($e->($_[0] + $E / 2, 0), $e->($_[0] + $E / 2 + 64, -1), $e->($_[0] + $E / 2 + 64, -2)) };
	return head($name, 4) . "\tmov\t%rcx,%r9\t\t\t# L\n\tmov\t%rdx,%rcx\t\t\t# ctx\n"
	     . "\tmov\t%rsi,%rdx\t\t\t# b_i = a_i\n" . prologue() . ams_init($l)
	     . "\tlea\t$E(%rcx),%rax\n\tmov\t%r9,%r10\n${l}_row:\n" . ams_x()
	     . "\tcmp\t%r9,%r10\n\tjne\t${l}_head\n"
	     . "\t# i = 0: x_0 = a_0, x_1 = 2a_1 mod 2^52; every step full\n"
	     . row_head($e->($E / 2, 0), $e->($E / 2, 1), $e->($E / 2 + 64, 0)) . "\tjmp\t${l}_full0\n"
	     . "${l}_head:\n" . row_head()
	     . "\t# steps 0..i-3 have x_{k+2} = x'_{k+1} = 0: m's and m''s products only\n"
	     . "\tmov\t%r9,%r11\n\tsub\t%r10,%r11\n\tsub\t\$2,%r11\n\tjz\t${l}_diag\n"
	     . "\tshr\t\$1,%r11\n" . pairs("${l}_red", sub { (undef) x 3 }, '')
	     . "${l}_diag:\n\t# steps i-2, i-1: lo(x_i b); lo(x_{i+1} b) + hi(x_i b) (x_{i-1}, x'_i and below are 0)\n"
	     . step(0, $e->($E / 2, 0), undef, undef, @V{qw(PA PN QA QN T)}, 1)
	     . step($E, $e->($E + $E / 2, 0), undef, undef, @V{qw(QA QN PA PN U)}, 2)
	     . "\tlea\t" . 2 * $E . "(%r8),%r8\n"
	     . "${l}_full0:\n\t# steps max(0, i)..L-3, x_{k+1} in QA: (ctx + $E (L + 1) - r8) / " . 2 * $E . " pairs\n"
	     . "\tmov\t%r9,%r11\n\tshl\t\$8,%r11\n\tlea\t$E(%rcx,%r11),%r11\n\tsub\t%r8,%r11\n\tshr\t\$9,%r11\n"
	     . "\tjz\t${l}_tail\n" . pairs("${l}_full", $x, '') . "${l}_tail:\n"
	     . row_tail($e->($E / 2 + 64, -1), $e->($E / 2 + 64, -2)) . ams_done()
	     . "\tlea\t" . 2 * $E . "(%rax),%rax\n\tsub\t\$2,%r10\n\tjnz\t${l}_row\n" . normalise($name);
}

# r_j = (t_j + c) mod 2^52, c = (t_j + c) >> 52, lane by lane, c from
# the last pair's c' (C2); then no secret stays in a register.
sub normalise {
	my ($name) = @_;
	my $l = ".L$name";
	my $s = "\t# normalise: the carries up, limb by limb, in every lane\n"
	      . "\tlea\t$E(%rcx),%r8\n\tmov\t%r9,%r11\n${l}_norm:\n"
	      . "\tvpaddq\t(%r8)," . zmm($V{C2}) . "," . zmm($V{T}) . "\n"
	      . "\tvpsrlq\t\$52," . zmm($V{T}) . "," . zmm($V{C2}) . "\n"
	      . "\tvpandq\t" . zmm($V{MASK}) . "," . zmm($V{T}) . "," . zmm($V{T}) . "\n"
	      . "\tvmovdqu64\t" . zmm($V{T}) . ",(%rdi)\n"
	      . "\tlea\t$E(%r8),%r8\n\tlea\t64(%rdi),%rdi\n\tdec\t%r11\n\tjnz\t${l}_norm\n";
	$s .= vclear($_) for @USED;
	return $s . "\tvzeroupper\n\tret\n.size\t$name,.-$name\n";
}

# montk_gather52mb: rdi out, rsi table, rdx entries, rcx span, r8 idx.
# Per chunk of 8 vectors (r11 chunks), every entry (r10) ORed in under its
# lane mask; r9 walks the chunk's column, rax is the entry size in bytes.
sub gather {
	my $name = 'montk_gather52mb';
	my $l = ".L$name";
	my ($IDX, $CNT, $ONE, $SEL, @OUT) = (0 .. 3, 4, 5, 16 .. 21);
	my $s = head($name, 5)
	      . "\tvmovdqu64\t(%r8)," . zmm($IDX) . "\t\t# idx per lane\n"
	      . "\tmov\t\$1,%eax\n\tvpbroadcastq\t%rax," . zmm($ONE) . "\n"
	      . "\tmov\t%rcx,%rax\n\tshl\t\$6,%rax\t\t\t# entry bytes\n"
	      . "\tmov\t%rcx,%r11\n\tshr\t\$3,%r11\t\t\t# chunks\n${l}_chunk:\n"
	      . vclear($CNT) . join('', map { vclear($_) } @OUT)
	      . "\tmov\t%rsi,%r9\n\tmov\t%rdx,%r10\n${l}_entry:\n"
	      . "\tvpcmpuq\t\$0," . zmm($IDX) . "," . zmm($CNT) . ",%k1\t# lanes whose idx is this entry\n"
	      . "\tvpternlogq\t\$0xff," . join(',', (zmm($SEL)) x 3) . "{%k1}{z}\n"
	      . "\tvpaddq\t" . zmm($ONE) . "," . zmm($CNT) . "," . zmm($CNT) . "\n";
	$s .= "\tvpternlogq\t\$0xf8," . 64 * $_ . "(%r9)," . zmm($SEL) . "," . zmm($OUT[$_]) . "\t# |= sel & entry\n"
		for 0 .. 7;
	$s .= "\tadd\t%rax,%r9\n\tdec\t%r10\n\tjnz\t${l}_entry\n";
	$s .= "\tvmovdqu64\t" . zmm($OUT[$_]) . "," . 64 * $_ . "(%rdi)\n" for 0 .. 7;
	$s .= "\tlea\t512(%rdi),%rdi\n\tlea\t512(%rsi),%rsi\n\tdec\t%r11\n\tjnz\t${l}_chunk\n";
	$s .= vclear($_) for $SEL, @OUT;
	return $s . "\txor\t%eax,%eax\n\tkmovw\t%eax,%k1\n\tvzeroupper\n\tret\n.size\t$name,.-$name\n";
}

sub header {
	print "/* Generated by perlasm/x86_64-ifma-mb.pl from the caps: the 8-lane IFMA kernels. */\n";
	unless ($ifma) {
		print "/* #undef MONT_HAVE_IFMA_MB (the toolchain lacks avx512ifma or avx512vl) */\n";
		return;
	}
	print <<'EOT';
#define MONT_HAVE_IFMA_MB 1
/* Eight numbers at once, one per 64-bit lane: L vectors of 8 limbs, limb j
 * of lane k at index 8j + k. montk_amm52mb: r = a*b/2^(52L) mod n per lane,
 * r < 2n, L even and >= MONTK_MB_MIN_L; montk_ams52mb: r = a*a/2^(52L) mod
 * n the same way; ctx (64-byte aligned): L + 2 entries of 32 limbs, entry 0
 * k0 per lane (its first 8), entry j + 1 scratch, n_j (limbs 8..15), then
 * scratch; r may alias a or b. montk_gather52mb: out = entry idx[k] in lane k, of `entries`
 * entries of span vectors (span a multiple of 8), every entry read. */
#define MONTK_MB_LANES 8
#define MONTK_MB_MIN_L 4
void montk_amm52mb(uint64_t *r, const uint64_t *a, const uint64_t *b,
                   uint64_t *ctx, size_t L);
void montk_ams52mb(uint64_t *r, const uint64_t *a, uint64_t *ctx, size_t L);
void montk_gather52mb(uint64_t *out, const uint64_t *table, size_t entries,
                      size_t span, const uint64_t *idx);
EOT
}

my $code = "# Generated by perlasm/x86_64-ifma-mb.pl; do not edit.\n.text\n";
$code .= amm() . ams() . gather() if $ifma;
if ($flavour eq '--header') {
	header();
} else {
	print Xlate::translate($code, $flavour, $caps);
}
