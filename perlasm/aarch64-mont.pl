#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# AArch64 Montgomery kernels for libmont: montk_mul_a64 and montk_sqr_a64.
#
#   perl perlasm/aarch64-mont.pl FLAVOUR [bti=N] [pac=N] [gcs=N] > mont-aarch64.s   (elf, macosx, coff)
#   perl perlasm/aarch64-mont.pl --header > mont-kernels.h
#
# Branch protection follows the build, as the x86 kernels' CET does: bti=,
# pac= and gcs= are what the build's preprocessor says of
# __ARM_FEATURE_BTI_DEFAULT, __ARM_FEATURE_PAC_DEFAULT (ACLE: PAC bit 0
# the A key, bit 1 the B key) and __ARM_FEATURE_GCS_DEFAULT.  With bti=1
# every function starts with a `bti c` landing pad; with pac the return
# address is signed (paciasp or pacibsp) before the frame record stores it
# and authenticated after it is loaded back; on ELF a .note.gnu.property
# marks the object BTI, PAC, GCS (one object without a mark turns that
# protection off for the whole link; the kernels return to where they
# were called from, so they are GCS-compatible as they are).  All are hint-space
# encodings, NOPs where the CPU lacks the feature, written as `hint #N`
# so no assembler needs to know them.
#
# The contract (the same as the x86_64 kernels', mont/internal.h):
#   montk_mul_a64(r, a, b, n, n0, num): r = a*b*2^(-64 num) mod n
#   montk_sqr_a64(r, a, n, n0, num):    r = a*a*2^(-64 num) mod n
# 64-bit little-endian limbs, $MINNUM <= num <= $MAXNUM (below; the header
# states both for mont/dispatch.c), n odd, a, b < n, n0 = -n^-1 mod 2^64;
# r fully reduced; r may alias a or b (it is written only after they are
# read for the last time), never n.
#
# Constant time: no branch and no address depends on a limb value; loops
# count limbs only; the final subtraction is masked.  The scratch t lives
# on the stack (2 num + 2 limbs) and is wiped before returning.
#
# Only ARMv8.0 base instructions (MUL, UMULH, ADDS/ADCS/SBCS, EXTR, CSETM):
# nothing here depends on what the assembler knows, so the generator reads
# no caps.  Register use follows AAPCS64: x0-x17 only (x18 is the platform
# register on Apple and Windows), a frame record in x29/x30.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use Montk;

my %FLAVOUR = (
	# symbol prefix; how a global function is declared; its end
	elf    => { prefix => '',  head => sub { (".globl\t$_[0]", ".hidden\t$_[0]", ".type\t$_[0],%function") },
	            tail => sub { (".size\t$_[0],.-$_[0]") }, notes => ".section\t.note.GNU-stack,\"\",%progbits" },
	macosx => { prefix => '_', head => sub { (".globl\t$_[0]", ".private_extern\t$_[0]") },
	            tail => sub { () }, notes => '' },
	coff   => { prefix => '',  head => sub { (".globl\t$_[0]", ".def\t$_[0]", ".scl\t2", ".type\t32", ".endef") },
	            tail => sub { () }, notes => '' },
);

# Any num from 1; t (2 num + 2 limbs on the stack) stays below a page up to
# $MAXNUM, so Windows needs no stack probes.
my ($MINNUM, $MAXNUM) = (1, 128);

my $arg = shift // '';
if ($arg eq '--header') {
	print Montk::header('perlasm/aarch64-mont.pl: the AArch64 kernels.', "#define MONT_HAVE_A64 1\n",
	                    $MINNUM, $MAXNUM, "montk_mul_fn montk_mul_a64;\nmontk_sqr_fn montk_sqr_a64;\n");
	exit 0;
}
my $usage = "usage: $0 {elf|macosx|coff} [bti=N] [pac=N] [gcs=N] > mont-aarch64.s\n       $0 --header > mont-kernels.h\n";
my $fl = $FLAVOUR{$arg} or die $usage;
my %build = (bti => 0, pac => 0, gcs => 0);
for (@ARGV) {
	/^(bti|pac|gcs)=(\d+)$/ or die $usage;
	$build{$1} = $2;
}
# hint numbers (Arm ARM C6.2 HINT): BTI c 34; PACIASP 25, AUTIASP 29; PACIBSP 27, AUTIBSP 31
my @pac = $build{pac} & 2 ? ("hint\t#27\t// pacibsp", "hint\t#31\t// autibsp")
        : $build{pac} & 1 ? ("hint\t#25\t// paciasp", "hint\t#29\t// autiasp") : ();

my @out;
sub emit { push @out, map { /^[.\w]+:$/ || /^\./ && !/^\.L/ ? $_ : "\t$_" } @_ }
my $labels = 0;
sub label { return '.L' . shift() . '_' . $labels++ }

# Frame: a frame record, then `bytes` (a register holding 16 num + 16, the
# 2 num + 2 limbs of t) below it; x10 = t, zeroed.
sub enter {
	my ($num) = @_;
	my $zero = label('zero');
	emit($pac[0]) if @pac;                                    # sign x30 before it is stored
	emit("stp\tx29, x30, [sp, #-16]!", "mov\tx29, sp",
	     "lsl\tx9, $num, #4", "add\tx9, x9, #16", "sub\tsp, sp, x9", "mov\tx10, sp",
	     "mov\tx11, x10", "$zero:", "stp\txzr, xzr, [x11], #16", "subs\tx9, x9, #16",
	     "b.ne\t$zero");
}

# Wipe t (the bytes recomputed from num) and return.
sub leave {
	my ($num) = @_;
	my $wipe = label('wipe');
	emit("lsl\tx9, $num, #4", "add\tx9, x9, #16", "mov\tx11, x10",
	     "$wipe:", "stp\txzr, xzr, [x11], #16", "subs\tx9, x9, #16", "b.ne\t$wipe",
	     "mov\tsp, x29", "ldp\tx29, x30, [sp], #16");
	emit($pac[1]) if @pac;                                    # a forged x30 faults here
	emit("ret");
}

# One multiply-accumulate row: for j < count,
#   (c, t[j]) = t[j] + x[j] * m + c         (t at tp, x at xp, both advanced)
# c (register $c) starts as given; lo/hi in x6/x16, t[j] in x17.
sub mac_row {
	my ($tp, $xp, $m, $c, $count) = @_;
	my $loop = label('mac');
	emit("$loop:", "ldr\tx16, [$xp], #8", "ldr\tx17, [$tp]",
	     "mul\tx6, x16, $m", "umulh\tx16, x16, $m",          # hi:lo = x[j] * m
	     "adds\tx6, x6, x17", "adc\tx16, x16, xzr",          # + t[j]
	     "adds\tx6, x6, $c", "adc\t$c, x16, xzr",            # + c; c = the high word
	     "str\tx6, [$tp], #8", "sub\t$count, $count, #1", "cbnz\t$count, $loop");
}

# r = t - n when t >= n, else t, for t = top*2^(64 num) + t[0..num-1] < 2n
# (top 0 or 1, in a register), masked: both are computed, one is kept.
sub final_sub {
	my ($r, $t, $n, $num, $top) = @_;
	my ($sub, $pick) = (label('sub'), label('pick'));
	# r = t - n (borrow chain in C: set means no borrow)
	emit("mov\tx12, $t", "mov\tx13, $n", "mov\tx14, $r", "mov\tx15, $num", "cmp\txzr, xzr",
	     "$sub:", "ldr\tx16, [x12], #8", "ldr\tx17, [x13], #8", "sbcs\tx16, x16, x17",
	     "str\tx16, [x14], #8", "sub\tx15, x15, #1", "cbnz\tx15, $sub",
	     # top - borrow < 0: t < n, keep t (mask all ones)
	     "sbcs\txzr, $top, xzr", "csetm\tx9, lo",
	     # r[j] = t[j] & mask | r[j] & ~mask
	     "mov\tx12, $t", "mov\tx14, $r", "mov\tx15, $num",
	     "$pick:", "ldr\tx16, [x12], #8", "ldr\tx17, [x14]", "and\tx16, x16, x9",
	     "bic\tx17, x17, x9", "orr\tx16, x16, x17", "str\tx16, [x14], #8",
	     "sub\tx15, x15, #1", "cbnz\tx15, $pick");
}

sub function {
	my ($name, $body) = @_;
	my $sym = $fl->{prefix} . $name;
	emit($fl->{head}->($sym), ".p2align\t4", "$sym:");
	emit("hint\t#34\t// bti c") if $build{bti};              # the dispatch calls through a pointer
	$body->();
	emit($fl->{tail}->($sym));
}

emit("// Generated by perlasm/aarch64-mont.pl ($arg): do not edit.", ".text");

# montk_mul_a64(x0 r, x1 a, x2 b, x3 n, x4 n0, x5 num): word-by-word (CIOS).
# For each limb b[i]:
#   t += a * b[i]                              t: num + 2 limbs
#   m  = t[0] * n0 mod 2^64                    so t + m*n = 0 mod 2^64
#   t  = (t + m * n) / 2^64
# t < 2n stays true, so t[num] is the top bit at the end.
function('montk_mul_a64', sub {
	enter('x5');
	my $outer = label('outer');
	my $single = label('single');
	emit("mov\tx7, x5", "mov\tx8, x2", "$outer:",
	     "ldr\tx11, [x8], #8",                               # b[i]
	     "mov\tx12, x1", "mov\tx13, x10", "mov\tx14, x5", "mov\tx15, xzr");
	mac_row('x13', 'x12', 'x11', 'x15', 'x14');              # t[0..num-1] += a * b[i]
	emit("ldp\tx16, x17, [x13]", "adds\tx16, x16, x15",     # t[num..num+1] += c
	     "adc\tx17, x17, xzr", "stp\tx16, x17, [x13]",
	     "ldr\tx17, [x10]", "mul\tx11, x17, x4",              # m = t[0] * n0
	     # j = 0: t[0] + n[0] * m = 0 mod 2^64; only its carry c goes on
	     "mov\tx12, x3", "ldr\tx16, [x12], #8", "mul\tx6, x16, x11", "umulh\tx16, x16, x11",
	     "adds\tx6, x6, x17", "adc\tx15, x16, xzr",
	     "mov\tx13, x10", "subs\tx14, x5, #1", "b.eq\t$single",
	     "add\tx13, x10, #8");
	# t[j-1] = t[j] + n[j] * m + c for j = 1..num-1 (reads t[j], writes one
	# limb lower: the division by 2^64)
	my $loop = label('red');
	emit("$loop:", "ldr\tx16, [x12], #8", "ldr\tx17, [x13]",
	     "mul\tx6, x16, x11", "umulh\tx16, x16, x11",
	     "adds\tx6, x6, x17", "adc\tx16, x16, xzr", "adds\tx6, x6, x15", "adc\tx15, x16, xzr",
	     "stur\tx6, [x13, #-8]", "add\tx13, x13, #8", "sub\tx14, x14, #1", "cbnz\tx14, $loop",
	     "sub\tx13, x13, #8",
	     "$single:",
	     # x13 = &t[num-1]: t[num-1] = t[num] + c, t[num] = t[num+1] + carry, t[num+1] = 0
	     "ldp\tx16, x17, [x13, #8]", "adds\tx16, x16, x15", "adc\tx17, x17, xzr",
	     "stp\tx16, x17, [x13]", "str\txzr, [x13, #16]",
	     "sub\tx7, x7, #1", "cbnz\tx7, $outer",
	     "ldr\tx9, [x10, x5, lsl #3]");                       # the top bit t[num]
	final_sub('x0', 'x10', 'x3', 'x5', 'x9');
	leave('x5');
});

# montk_sqr_a64(x0 r, x1 a, x2 n, x3 n0, x4 num): the square first, then
# the reduction of all 2 num limbs.
#   t  = sum over i < j of a[i] a[j] 2^(64(i+j))     (num(num-1)/2 products)
#   t  = 2 t + sum of a[i]^2 2^(128 i)               (num products)
#   for i < num: m = t[i] n0; t += m n 2^(64 i)      (t[i] becomes 0)
#   result: t[num..2num-1] plus the carry out of the last column, < 2n
function('montk_sqr_a64', sub {
	enter('x4');
	my ($rows, $rows_done) = (label('rows'), label('rows_done'));
	# row i (i = 0..num-2): t[i+1..i+num-1] += a[i] * a[i+1..num-1]; t[i+num] = c
	emit("subs\tx7, x4, #1", "b.eq\t$rows_done",
	     "mov\tx8, x1",                                       # &a[i]
	     "add\tx13, x10, #8",                                 # &t[2i+1]
	     "$rows:", "ldr\tx11, [x8], #8",                      # a[i]
	     "mov\tx12, x8", "mov\tx5, x13", "mov\tx14, x7", "mov\tx15, xzr");
	mac_row('x5', 'x12', 'x11', 'x15', 'x14');
	emit("str\tx15, [x5]",                                    # t[i+num] (untouched so far)
	     "add\tx13, x13, #16", "sub\tx7, x7, #1", "cbnz\tx7, $rows", "$rows_done:");
	# t = 2t: from the top, t[j] = t[j] << 1 | t[j-1] >> 63
	my $dbl = label('double');
	emit("lsl\tx14, x4, #1", "sub\tx14, x14, #1",            # j = 2num-1 .. 1
	     "add\tx13, x10, x14, lsl #3",
	     "$dbl:", "ldp\tx16, x17, [x13, #-8]", "extr\tx17, x17, x16, #63", "str\tx17, [x13], #-8",
	     "sub\tx14, x14, #1", "cbnz\tx14, $dbl",
	     "ldr\tx16, [x10]", "lsl\tx16, x16, #1", "str\tx16, [x10]");
	# t += a[i]^2 at limb 2i, the carry between columns in x15 (0 or 1)
	my $diag = label('diag');
	emit("mov\tx8, x1", "mov\tx13, x10", "mov\tx14, x4", "mov\tx15, xzr",
	     "$diag:", "ldr\tx11, [x8], #8", "mul\tx6, x11, x11", "umulh\tx11, x11, x11",
	     "adds\tx6, x6, x15", "adc\tx11, x11, xzr",          # hi <= 2^64 - 2: no overflow
	     "ldp\tx16, x17, [x13]", "adds\tx16, x16, x6", "adcs\tx17, x17, x11", "cset\tx15, cs",
	     "stp\tx16, x17, [x13], #16", "sub\tx14, x14, #1", "cbnz\tx14, $diag");
	# reduce: for i < num, m = t[i] n0, t[i..i+num-1] += m n, then
	# t[i+num] += c + x7 (the carry out of the previous column, 0 or 1)
	my $red = label('reduce');
	emit("mov\tx7, xzr", "mov\tx8, x10", "mov\tx9, x4",
	     "$red:", "ldr\tx17, [x8]", "mul\tx11, x17, x3",     # m = t[i] * n0
	     "mov\tx12, x2", "mov\tx13, x8", "mov\tx14, x4", "mov\tx15, xzr");
	mac_row('x13', 'x12', 'x11', 'x15', 'x14');
	emit("ldr\tx16, [x13]", "subs\txzr, x7, #1",             # C = the previous carry
	     "adcs\tx16, x16, x15", "cset\tx7, cs", "str\tx16, [x13]",
	     "add\tx8, x8, #8", "sub\tx9, x9, #1", "cbnz\tx9, $red",
	     "add\tx8, x10, x4, lsl #3");                         # &t[num]
	final_sub('x0', 'x8', 'x2', 'x4', 'x7');
	leave('x4');
});

emit($fl->{notes}) if $fl->{notes};
# NT_GNU_PROPERTY_TYPE_0 "GNU": GNU_PROPERTY_AARCH64_FEATURE_1_AND, BTI 1 | PAC 2 | GCS 4
my $prop = ($build{bti} ? 1 : 0) | (@pac ? 2 : 0) | ($build{gcs} ? 4 : 0);
emit(".section\t.note.gnu.property,\"a\"", ".p2align\t3",
     ".word\t4", ".word\t16", ".word\t5", ".asciz\t\"GNU\"",
     ".word\t0xc0000000", ".word\t4", ".word\t$prop", ".word\t0") if $prop && $arg eq 'elf';
print "$_\n" for @out;
