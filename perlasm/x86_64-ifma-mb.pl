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
#
# R = 2^(52L), L even, 4 <= L; n odd, 4n <= R, a, b < 2n per lane, every
# limb below 2^52, k0 = -n^-1 mod 2^52 per lane. ctx (64-byte aligned)
# holds k0 (one vector), then per limb j 128 bytes: 64 of scratch (the
# accumulator t_j, secret while the kernel runs: the caller wipes it) and
# n_j. r may alias a or b: r is written after the last row.
#
# The row loop, i = 0..L-1, the accumulator t in ctx (L vectors do not
# fit the registers past 1024 bits; each limb is loaded and stored once
# per row, beside its four multiply-adds):
#   X = t_0 + lo(a_0 b_i);  m = lo(X k0);  c = (X + 2^52 - 1) >> 52
#       (X + lo(n_0 m) is 0 mod 2^52: its carry is X >> 52, plus one
#       unless X mod 2^52 = 0, known from X alone)
#   t_{j-1} = t_j + lo(a_j b_i) + hi(a_{j-1} b_i) + lo(n_j m) + hi(n_{j-1} m)
#       for j = 1..L-1 (+ c at j = 1), t_{L-1} = hi(a_{L-1} b_i) + hi(n_{L-1} m)
# with lo(x y) = x y mod 2^52 and hi(x y) = floor(x y / 2^52) per lane.
# So t 2^52 = t + a b_i + n m each row, and after L rows t = (a b + M n)/R.
# A limb gains at most four values below 2^52 a row and lives L rows: it
# stays below 4 L 2^52 + 2^12 < 2^64 for L < 2^10. Normalisation, once
# per product: r_j = (t_j + c) mod 2^52, c = (t_j + c) >> 52, limb by
# limb (a serial chain of L additions per product, small beside its 4L^2
# multiply-adds).
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

# Vector registers of montk_amm52mb.
my %V;
@V{qw(K0 MASK B M X C PA PN QA QN T U)} = (0 .. 5, 16 .. 21);
my @USED = (0 .. 5, 16 .. 21);

# One step j of a row: t_{j-1} = t_j + lo(a_j b) + hi(a_{j-1} b) + lo(n_j m)
# + hi(n_{j-1} m); a_j, n_j are loaded into ($A, $N) and a_{j-1}, n_{j-1}
# are in ($PA, $PN) from the step before. ctx entry j at $w(%r8), a_j at
# $p(%rax); $T the register the sum is built in; $c adds the carry.
sub step {
	my ($w, $p, $A, $N, $PA, $PN, $T, $c) = @_;
	my $s = "\tvmovdqu64\t$w(%r8)," . zmm($T) . "\n"
	      . "\tvmovdqu64\t" . ($w + 64) . "(%r8)," . zmm($N) . "\n"
	      . "\tvmovdqu64\t$p(%rax)," . zmm($A) . "\n";
	$s .= "\tvpaddq\t" . zmm($V{C}) . "," . zmm($T) . "," . zmm($T) . "\n" if $c;
	# the products of b first: they wait for nothing, those of m for m
	$s .= "\tvpmadd52luq\t" . zmm($A) . "," . zmm($V{B}) . "," . zmm($T) . "\n"
	    . "\tvpmadd52huq\t" . zmm($PA) . "," . zmm($V{B}) . "," . zmm($T) . "\n"
	    . "\tvpmadd52luq\t" . zmm($N) . "," . zmm($V{M}) . "," . zmm($T) . "\n"
	    . "\tvpmadd52huq\t" . zmm($PN) . "," . zmm($V{M}) . "," . zmm($T) . "\n"
	    . "\tvmovdqu64\t" . zmm($T) . "," . ($w - 128) . "(%r8)\n";
	return $s;
}

# montk_amm52mb: rdi r, rsi a, rdx b, rcx ctx, r8 L. Inside: r8 the ctx
# walker, rax the a walker, r9 L, r10 the rows, r11 the steps, rcx ctx.
sub amm {
	my $name = 'montk_amm52mb';
	my $l = ".L$name";
	my $s = head($name, 5)
	      . "\tmov\t%r8,%r9\t\t\t# L\n"
	      . "\tvmovdqu64\t(%rcx)," . zmm($V{K0}) . "\n"
	      . "\tmovabsq\t\$0xfffffffffffff,%rax\t# 2^52 - 1\n"
	      . "\tvpbroadcastq\t%rax," . zmm($V{MASK}) . "\n"
	      . "\t# t = 0\n" . vclear($V{T})
	      . "\tlea\t64(%rcx),%r8\n\tmov\t%r9,%r11\n${l}_zero:\n"
	      . "\tvmovdqu64\t" . zmm($V{T}) . ",(%r8)\n\tlea\t128(%r8),%r8\n\tdec\t%r11\n\tjnz\t${l}_zero\n"
	      . "\tmov\t%r9,%r10\t\t\t# rows\n${l}_row:\n"
	      . "\tlea\t64(%rcx),%r8\n\tmov\t%rsi,%rax\n"
	      . "\tvmovdqu64\t(%rdx)," . zmm($V{B}) . "\t\t# b_i\n"
	      . "\t# X = t_0 + lo(a_0 b_i), m = lo(X k0), c = (X + 2^52 - 1) >> 52\n"
	      . "\tvmovdqu64\t(%r8)," . zmm($V{X}) . "\n"
	      . "\tvmovdqu64\t64(%r8)," . zmm($V{PN}) . "\n"
	      . "\tvmovdqu64\t(%rax)," . zmm($V{PA}) . "\n"
	      . "\tvpmadd52luq\t" . zmm($V{PA}) . "," . zmm($V{B}) . "," . zmm($V{X}) . "\n"
	      . vclear($V{M})
	      . "\tvpmadd52luq\t" . zmm($V{K0}) . "," . zmm($V{X}) . "," . zmm($V{M}) . "\n"
	      . "\tvpaddq\t" . zmm($V{MASK}) . "," . zmm($V{X}) . "," . zmm($V{C}) . "\n"
	      . "\tvpsrlq\t\$52," . zmm($V{C}) . "," . zmm($V{C}) . "\n"
	      . "\t# step 1 with the carry, then steps 2..L-1 two at a time\n"
	      . step(128, 64, @V{qw(QA QN PA PN T)}, 1)
	      . "\tlea\t256(%r8),%r8\n\tlea\t128(%rax),%rax\n"
	      . "\tmov\t%r9,%r11\n\tshr\t\$1,%r11\n\tdec\t%r11\t\t\t# (L - 2) / 2 pairs\n"
	      . "${l}_step:\n"
	      . step(0, 0, @V{qw(PA PN QA QN T)}, 0)
	      . step(128, 64, @V{qw(QA QN PA PN U)}, 0)
	      . "\tlea\t256(%r8),%r8\n\tlea\t128(%rax),%rax\n\tdec\t%r11\n\tjnz\t${l}_step\n"
	      . "\t# t_{L-1} = hi(a_{L-1} b_i) + hi(n_{L-1} m)\n" . vclear($V{T})
	      . "\tvpmadd52huq\t" . zmm($V{QA}) . "," . zmm($V{B}) . "," . zmm($V{T}) . "\n"
	      . "\tvpmadd52huq\t" . zmm($V{QN}) . "," . zmm($V{M}) . "," . zmm($V{T}) . "\n"
	      . "\tvmovdqu64\t" . zmm($V{T}) . ",-128(%r8)\n"
	      . "\tlea\t64(%rdx),%rdx\n\tdec\t%r10\n\tjnz\t${l}_row\n";
	return $s . normalise($name);
}

# r_j = (t_j + c) mod 2^52, c = (t_j + c) >> 52, lane by lane; then no
# secret stays in a register.
sub normalise {
	my ($name) = @_;
	my $l = ".L$name";
	my $s = "\t# normalise: the carries up, limb by limb, in every lane\n"
	      . vclear($V{C}) . "\tlea\t64(%rcx),%r8\n\tmov\t%r9,%r11\n${l}_norm:\n"
	      . "\tvpaddq\t(%r8)," . zmm($V{C}) . "," . zmm($V{T}) . "\n"
	      . "\tvpsrlq\t\$52," . zmm($V{T}) . "," . zmm($V{C}) . "\n"
	      . "\tvpandq\t" . zmm($V{MASK}) . "," . zmm($V{T}) . "," . zmm($V{T}) . "\n"
	      . "\tvmovdqu64\t" . zmm($V{T}) . ",(%rdi)\n"
	      . "\tlea\t128(%r8),%r8\n\tlea\t64(%rdi),%rdi\n\tdec\t%r11\n\tjnz\t${l}_norm\n";
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
 * r < 2n, L even and >= MONTK_MB_MIN_L; ctx (64-byte aligned): k0 per lane
 * (8 limbs), then per limb j 16 limbs: 8 of scratch, then n_j; r may alias
 * a or b. montk_gather52mb: out = entry idx[k] in lane k, of `entries`
 * entries of span vectors (span a multiple of 8), every entry read. */
#define MONTK_MB_LANES 8
#define MONTK_MB_MIN_L 4
void montk_amm52mb(uint64_t *r, const uint64_t *a, const uint64_t *b,
                   uint64_t *ctx, size_t L);
void montk_gather52mb(uint64_t *out, const uint64_t *table, size_t entries,
                      size_t span, const uint64_t *idx);
EOT
}

my $code = "# Generated by perlasm/x86_64-ifma-mb.pl; do not edit.\n.text\n";
$code .= amm() . gather() if $ifma;
if ($flavour eq '--header') {
	header();
} else {
	print Xlate::translate($code, $flavour, $caps);
}
