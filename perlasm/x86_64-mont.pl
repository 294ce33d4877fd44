#!/usr/bin/env perl
# SPDX-License-Identifier: MIT
# Montgomery multiplication and squaring kernels for x86_64.
#
#   perl perlasm/x86_64-mont.pl FLAVOUR CAPS.json > build/mont-x86_64.s
#   perl perlasm/x86_64-mont.pl --header CAPS.json > build/mont-kernels.h
#
# Kernels (hidden symbols, called by mont/dispatch.c through struct
# mont_backend in mont/internal.h; this is their contract):
#   montk_mul_mulq(r, a, b, n, n0, num)  r = a*b*R^-1 mod n      MUL/ADC
#   montk_sqr_mulq(r, a, n, n0, num)     r = a*a*R^-1 mod n      MUL/ADC
#   montk_mul_adx, montk_sqr_adx         the same with MULX/ADCX/ADOX,
#                                        generated only if caps has adx
#   montk_sqr_adx8                       montk_sqr_adx in 8-limb blocks
# R = 2^(64*num), n odd, a, b < n, n0 = -n^-1 mod 2^64, $MINNUM <= num <=
# $MAXNUM below (the header states both: mont/dispatch.c sends smaller
# sizes to the C code and asserts that $MAXNUM covers MONT_MAX_NUM).
# r may alias a or b: everything is computed in the frame and r is
# written only by the final subtraction.
# Constant time: every branch and address depends on num only; the final
# "subtract n if t >= n" is a masked select. The frame is wiped on exit.
#
# Both multiply row by row (CIOS, see mont_kernel); a row walks the limbs
# in groups of 8 (then 4, then 1). In the ADX kernels every group runs two
# carry chains, CF for the accumulator and OF for the high halves of the
# products; at the end of a group both are folded into a carry word, so
# the loop control may clobber the flags. Squaring computes each cross
# product once (n(n+1)/2 + n^2 + n products, against 2n^2 + n). The MUL
# squaring with num % 8 == 0 (every RSA/DH size) squares first and then
# reduces, in 8x8-limb blocks held in registers (square_then_reduce8); the
# ADX one does so in 16x16-limb blocks where num % 16 == 0, in 8x8 ones
# for the other multiples of 8 up to 32 limbs (see sq8 in adx_set); the
# ADX multiplication with num % 16 == 0 likewise multiplies first and then
# reduces, in 16x16-limb blocks (mul_then_reduce8).
#
# The text below is our perlasm dialect (AT&T, Unix calling convention,
# `.type f,@function,NARGS`, general-purpose registers only, prologue =
# pushes + one `sub $N,%rsp`); Xlate.pm turns it into the flavour.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use Asmcap;
use Xlate;
use Montk;

my $usage = "usage: $0 FLAVOUR CAPS.json > mont-x86_64.s\n"
          . "       $0 --header CAPS.json > mont-kernels.h\n";
die $usage unless @ARGV == 2;
my ($flavour, $capsfile) = @ARGV;
my $caps = Asmcap->load($capsfile);
my $adx = $caps->has('adx');

# The sizes the kernels take: the first group of a row is 4 limbs wide
# (8 from num = 8), and the scratch area is a fixed frame sized for $MAXNUM
# that stays below one page, so Windows needs no stack probing.
my ($MINNUM, $MAXNUM) = (4, 128);

# The C side's one view of the kernels: which exist, and their prototypes
# (the contract at the top of this file).
if ($flavour eq '--header') {
	print Montk::header('perlasm/x86_64-mont.pl from the caps: which kernels exist.',
	                    $adx ? "#define MONT_HAVE_ADX 1\n" : "/* #undef MONT_HAVE_ADX */\n",
	                    $MINNUM, $MAXNUM, <<'EOT');
montk_mul_fn montk_mul_mulq;
montk_sqr_fn montk_sqr_mulq;
#ifdef MONT_HAVE_ADX
montk_mul_fn montk_mul_adx;
montk_sqr_fn montk_sqr_adx;
montk_sqr_fn montk_sqr_adx8;
#endif
EOT
	exit 0;
}

# Frame layout (offsets from %rsp after the prologue).
# The loops walk a pointer p = %rsp + 8*limb; NE16, NE8, NE4, NE: where its
# groups of 16, 8, 4 and 1 limbs end; BI, MI: the multipliers of the current
# row; squaring: VI = &V[i], PN: where the groups without a_i*V products end.
my ($R, $B, $N, $N0, $NUM, $ROWS, $NE16, $NE8, $NE4, $NE, $BI, $MI, $VI, $PN)
	= map { 8 * $_ } 0 .. 13;
my $T = 112;	# t (num + 1 limbs), then V or a copy of a, then a copy of n

sub frame_size {	# bytes for $limbs scratch limbs; keeps %rsp 16-aligned
	my ($limbs) = @_;
	my $f = $T + 8 * $limbs;
	$f += 8 if $f % 16 == 0;	# 6 pushes + return address = 56 bytes
	return $f;
}

my @SAVED = qw(%rbp %rbx %r12 %r13 %r14 %r15);

sub prologue {
	my ($name, $nargs, $frame) = @_;
	my $s = "\n.globl\t$name\n.hidden\t$name\n.type\t$name,\@function,$nargs\n"
	      . ".align\t32\n$name:\n";
	$s .= "\tpush\t$_\n" for @SAVED;
	$s .= "\tsub\t\$$frame,%rsp\n";
	return $s;
}

sub epilogue {
	my ($name, $frame) = @_;
	my $s = "\tadd\t\$$frame,%rsp\n";
	$s .= "\tpop\t$_\n" for reverse @SAVED;
	return $s . "\tret\n";
}

sub reg32 {	# %rbp -> %ebp, %r8 -> %r8d
	my ($r) = @_;
	return $r =~ /^%r(\d+)$/ ? "%r$1d" : $r =~ s/^%r/%e/r;
}

# ---------------------------------------------------------------------------
# The two instruction sets, built for the registers a kernel hands them:
# @$X the limbs of a group (the accumulator window); ADX also takes $Z, a
# register it keeps zero, and $H, its second register for high halves.
# Each provides:
#   bi, m        where a row of the kernel keeps b_i and m
#   setm($reg)   m = $reg * n0, and make it the multiplier
#   mult($op)    make $op (bi or m) the multiplier of the following products
#   clear        CF = OF = 0 before a group
#   madd(W, src, acc, C, cin, out)
#                x_k = lo(M*src_k) + acc_k + hi(M*src_{k-1}) for k < W,
#                hi(M*src_{-1}) being the carry word C (absent if !cin),
#                C = hi(M*src_{W-1}) + carries; x_k goes to out->(k)
#                (a memory operand, or nowhere if undef) or, if out is
#                undef, to $X->[k].
#   nadd(W, src, C, cin, out)
#                y_k = $X->[k] + lo(M*src_k) + hi(M*src_{k-1}), carry in C as
#                above; y_k stored to out->(k) unless that is undef.
# Both keep every carry inside the group, in the word C: the sum of a
# W-limb accumulator, a W-limb by 1-limb product and a carry word is below
# 2^(64(W+1)), so C never overflows and the flags are free between groups.
# ---------------------------------------------------------------------------

sub mulq_set {	# MUL/ADC: product in %rdx:%rax, multiplier in a register
	my ($X) = @_;
	my $M;
	return {
		name  => 'mulq',
		bi    => '%rbp',
		m     => '%rbx',
		setm  => sub { $M = '%rbx'; "\tmov\t$_[0],%rbx\n\timul\t$N0(%rsp),%rbx\n" },
		mult  => sub { $M = $_[0]; return '' },
		clear => sub { '' },
		madd  => sub {
			my ($W, $src, $acc, $C, $cin, $out) = @_;
			my $s = '';
			die "madd: $W limbs do not fit in registers\n" if !$out && $W > @$X;
			for my $k (0 .. $W - 1) {
				# %rdx:%rax = M*src_k + acc_k + C
				$s .= "\tmov\t" . $src->($k) . ",%rax\n\tmulq\t$M\n"
				    . "\tadd\t" . $acc->($k) . ",%rax\n\tadc\t\$0,%rdx\n";
				$s .= "\tadd\t$C,%rax\n\tadc\t\$0,%rdx\n" if $k || $cin;
				my $o = $out ? $out->($k) : $X->[$k];
				$s .= "\tmov\t%rax,$o\n" if defined $o;
				$s .= "\tmov\t%rdx,$C\n";
			}
			return $s;
		},
		nadd  => sub {
			my ($W, $src, $C, $cin, $out) = @_;
			my $s = '';
			for my $k (0 .. $W - 1) {
				# %rdx:%rax = M*src_k + x_k + C
				$s .= "\tmov\t" . $src->($k) . ",%rax\n\tmulq\t$M\n"
				    . "\tadd\t$X->[$k],%rax\n\tadc\t\$0,%rdx\n";
				$s .= "\tadd\t$C,%rax\n\tadc\t\$0,%rdx\n" if $k || $cin;
				my $o = $out->($k);
				$s .= "\tmov\t%rax,$o\n" if defined $o;
				$s .= "\tmov\t%rdx,$C\n";
			}
			return $s;
		},
		# square_then_reduce8: the multiplier M_k in %rbx, one carry
		# chain; the carry word c = %rcx goes from product to product.
		sq8     => [[8, $MAXNUM]],
		sq8mult => sub { "\tmov\t$_[0],%rbx\n" },
		sq8m    => sub { "\tmov\t$N0(%rsp),%rbx\n\timul\t$_[0],%rbx\n\tmov\t%rbx,$_[1]\n" },
		sq8step => { 8 => sub {
			my ($x, $k, $jmin, $tadd, $st) = @_;
			my $s = '';
			for my $j ($jmin .. 7) {
				# c:x[k+j] = x[k+j] + M_k*src_j + c (or + t limb k
				# for the first product); below 2^128, no carry out
				my $in = $j > $jmin ? '%rcx' : $tadd ? 8 * $k . "(%rdi)" : undef;
				$s .= "\tmov\t" . 8 * $j . "(%rsi),%rax\n\tmulq\t%rbx\n"
				    . "\tadd\t%rax," . $x->($k + $j) . "\n\tadc\t\$0,%rdx\n";
				$s .= "\tadd\t$in," . $x->($k + $j) . "\n\tadc\t\$0,%rdx\n" if $in;
				$s .= $st if $j == 0;
				$s .= "\tmov\t%rdx," . ($j == 7 ? $x->($k) : '%rcx') . "\n";
			}
			return $s;
		} },
		# 2t + a_i^2 for t limbs p, q: the doubling's carry in %rbp, the
		# squares' in %rbx, as 0 or -1 (MUL clobbers the flags)
		sq8dbl0 => "\txor\t%ebp,%ebp\n\txor\t%ebx,%ebx\n",
		sq8dbl  => sub {
			my ($a, $p, $q) = @_;
			return "\tmov\t$a,%rax\n\tmulq\t%rax\n"
			     . "\tbt\t\$0,%rbp\n\tadc\t$p,$p\n\tadc\t$q,$q\n\tsbb\t%rbp,%rbp\n"
			     . "\tbt\t\$0,%rbx\n\tadc\t%rax,$p\n\tadc\t%rdx,$q\n\tsbb\t%rbx,%rbx\n";
		},
	};
}

# The ADX carry chains, for a group whose kernel keeps $Z zero and gives
# $H as the second register for high halves. The hi half of product k of
# W goes to C or $H alternately, ending in C; product 0 never writes C
# while the incoming carry is still unread.
sub adx_hi {
	my ($H, $W, $k, $C) = @_;
	return $H if $W == 1;
	return (($W - 1 - $k) % 2) ? $H : $C;
}

# One carry chain over limbs [src, lo, add, sum, out]:
#   lo:hi = M*src; sum += add (CF); sum += previous hi (OF); out = sum
# the previous hi of limb 0 being the carry word C (absent if !cin).
sub adx_chain {
	my ($Z, $H, $C, $cin, @limbs) = @_;
	my $W = @limbs;
	my $s = '';
	for my $k (0 .. $W - 1) {
		my ($src, $lo, $add, $sum, $out) = @{ $limbs[$k] };
		my $h = adx_hi($H, $W, $k, $C);
		my $prev = $k ? adx_hi($H, $W, $k - 1, $C) : $cin ? $C : undef;
		$s .= "\tmulx\t$src,$lo,$h\n\tadcx\t$add,$sum\n";
		$s .= "\tadox\t$prev,$sum\n" if defined $prev;
		$s .= "\tmov\t$sum,$out\n" if $out;
	}
	return $s . adx_close($Z, $H, $W, $C);
}

# C = hi(M*src_{W-1}) + CF + OF: below 2^64, the group's sum being below
# 2^(64(W+1)) (see above)
sub adx_close {
	my ($Z, $H, $W, $C) = @_;
	my $h = adx_hi($H, $W, $W - 1, $C);
	my $s = "\tadcx\t$Z,$h\n\tadox\t$Z,$h\n";
	$s .= "\tmov\t$h,$C\n" if $h ne $C;
	return $s;
}

# 16 limbs of a row, x_0..7 in the registers @$X, x_8..15 back in t:
#   x_k = t_k + lo(b_i*V_k) + hi(b_i*V_{k-1}), carry word %rcx
#   t_{k-1} = x_k + lo(m*N_k) + hi(m*N_{k-1}), carry word %rsi
sub adx_both16 {
	my ($X, $Z, $H, $V, $Nm, $t, $tdown) = @_;
	return "\tmov\t$BI(%rsp),%rdx\n" . "\txor\t" . reg32($Z) . "," . reg32($Z) . "\n"
	     . adx_chain($Z, $H, '%rcx', 1, map { $_ < 8
		? [$V->($_), $X->[$_], $t->($_), $X->[$_], undef]
		: [$V->($_), '%rax', $t->($_), '%rax', $t->($_)] } 0 .. 15)
	     . "\tmov\t$MI(%rsp),%rdx\n"
	     . adx_chain($Z, $H, '%rsi', 1, map { $_ < 8
		? [$Nm->($_), '%rax', '%rax', $X->[$_], $tdown->($_)]
		: [$Nm->($_), $X->[$_ - 8], $t->($_), $X->[$_ - 8], $tdown->($_)] } 0 .. 15);
}

# square_then_reduce8's step k: window limbs k..k+8 += M_k*src_j for
# j >= jmin (and t limb k if tadd): lo(M_k*src_j) into limb k+j on OF,
# hi(M_k*src_j) (in %rbx) into limb k+j+1 on CF; both chains end in limb
# k+8, the register of limb k, adding %rbp = 0
sub adx_sq8step {
	my ($x, $k, $jmin, $tadd, $st) = @_;
	my $s = "\txor\t%ebp,%ebp\n";	# CF = OF = 0 (no wait for the last step's)
	$s .= "\tadcx\t" . 8 * $k . "(%rdi)," . $x->($k) . "\n" if $tadd;
	for my $j ($jmin .. 7) {
		my $hi = $j == 7 ? $x->($k) : '%rbx';
		$s .= "\tmulx\t" . 8 * $j . "(%rsi),%rax,$hi\n\tadox\t%rax," . $x->($k + $j) . "\n";
		$s .= $st if $j == 0;
		$s .= "\tadcx\t%rbx," . $x->($k + $j + 1) . "\n" if $j < 7;
	}
	return $s . "\tadcx\t%rbp," . $x->($k) . "\n\tadox\t%rbp," . $x->($k) . "\n";
}

# square_then_reduce8's step k, 16 limbs wide: window limbs k..k+16 +=
# M_k*src_j for j >= jmin (and t limb k if tadd): lo(M_k*src_j) into limb
# k+j on OF, hi(M_k*src_j) (in %rbx) into limb k+j+1 on CF. Limbs up to
# k+8 are registers (limb k+8 takes limb k's, loaded from the ring by $st
# once limb k is stored), the others ring slots, each loaded into %rcx,
# added to and stored. Both chains end in limb k+16, a fresh ring slot,
# adding %rbp = 0 to hi(M_k*src_15). Steps 16 limbs wide close the chains
# half as often as 8-limb ones: a loop of 8-limb steps ran 1.40 cycles per
# product here, of 16-limb ones 1.14 (Intel, model 167).
sub adx_sq16step {
	my ($x, $k, $jmin, $tadd, $st) = @_;
	my $s = "\txor\t%ebp,%ebp\n";	# CF = OF = 0 (no wait for the last step's)
	$s .= "\tadcx\t" . 8 * $k . "(%rdi)," . $x->($k) . "\n" if $tadd;
	$s .= "\tmov\t" . ring($k + $jmin) . ",%rcx\n" if $jmin > 8;
	for my $j ($jmin .. 15) {
		my $L = $k + $j;
		$s .= "\tmulx\t" . 8 * $j . "(%rsi),%rax,%rbx\n";
		$s .= $j <= 8 ? "\tadox\t%rax," . $x->($L) . "\n"
		    : "\tadox\t%rax,%rcx\n\tmov\t%rcx," . ring($L) . "\n";
		$s .= $st if $j == 0;
		next if $j == 15;
		$s .= $j < 8 ? "\tadcx\t%rbx," . $x->($L + 1) . "\n"
		    : "\tmov\t" . ring($L + 1) . ",%rcx\n\tadcx\t%rbx,%rcx\n";
	}
	return $s . "\tadcx\t%rbp,%rbx\n\tadox\t%rbp,%rbx\n\tmov\t%rbx," . ring($k + 16) . "\n";
}

sub adx_set {	# MULX/ADCX/ADOX: multiplier in %rdx, two carry chains
	my ($X, $Z, $H) = @_;
	return {
		name  => 'adx',
		bi    => "$BI(%rsp)",
		m     => "$MI(%rsp)",
		setm  => sub { "\tmov\t$_[0],%rdx\n\timul\t$N0(%rsp),%rdx\n\tmov\t%rdx,$MI(%rsp)\n" },
		mult  => sub { "\tmov\t$_[0],%rdx\n" },
		clear => sub { "\txor\t" . reg32($Z) . "," . reg32($Z) . "\n" },
		madd  => sub {
			my ($W, $src, $acc, $C, $cin, $out) = @_;
			die "madd: $W limbs do not fit in registers\n" if !$out && $W > @$X;
			# x_k = lo(M*src_k) +CF acc_k +OF hi(M*src_{k-1})
			return adx_chain($Z, $H, $C, $cin, map { my $x = $X->[$_ % @$X];
				[$src->($_), $x, $acc->($_), $x, $out && $out->($_)] } 0 .. $W - 1);
		},
		nadd  => sub {
			my ($W, $src, $C, $cin, $out) = @_;
			# y_k = x_k +CF lo(M*src_k) +OF hi(M*src_{k-1})
			return adx_chain($Z, $H, $C, $cin, map {
				[$src->($_), '%rax', '%rax', $X->[$_], $out->($_)] } 0 .. $W - 1);
		},
		both16  => sub { adx_both16($X, $Z, $H, @_) },
		# square_then_reduce8 in blocks of [w limbs, up to num limbs]:
		# 16 where num % 16 == 0, 8 for the other multiples of 8 up to 32,
		# the rows for the rest. Measured (Intel, model 167, shared 2-core
		# VM): ns per montk_sqr_adx, chained, best of 15 timed loops, beside
		# the same with 8-limb blocks up to 32 limbs and the rows above (8
		# and 24: 16-limb blocks do not fit; ns for 8-limb blocks vs rows):
		#   num      8    16    24    32    48    64    96   128
		#   w=16     -   156     -   557  1202  2166  4807  8653
		#   before  49   184   351   660  1347  2248  5183  8930
		#   rows    71     -   365     -     -     -     -     -
		sq8     => [[16, $MAXNUM], [8, 32]],
		# mul_then_reduce8 in 16-limb blocks where num % 16 == 0, the rows
		# elsewhere. Measured as above, ns per montk_mul_adx, chained, the
		# best of three runs of 15 loops (32 and 64 limbs: six), beside the
		# rows:
		#   num      16    32    48    64   128
		#   w=16    184   674  1493  2767 11307
		#   rows    195   703  1556  2805 11425
		mul8    => [[16, $MAXNUM]],
		# square_then_reduce8: M_k in %rdx, %rbp = 0
		sq8mult => sub { "\tmov\t$_[0],%rdx\n" },
		sq8m    => sub { "\tmov\t$N0(%rsp),%rdx\n\tmulx\t$_[0],%rdx,%rax\n\tmov\t%rdx,$_[1]\n" },
		sq8step => { 8 => \&adx_sq8step, 16 => \&adx_sq16step },
		# 2t + a_i^2 for t limbs p, q (CF: doubling, OF: squares)
		sq8dbl0 => "\txor\t%ebp,%ebp\n",
		sq8dbl  => sub {
			my ($a, $p, $q) = @_;
			return "\tmov\t$a,%rdx\n\tmulx\t%rdx,%rax,%rbx\n"
			     . "\tadcx\t$p,$p\n\tadcx\t$q,$q\n\tadox\t%rax,$p\n\tadox\t%rbx,$q\n";
		},
	};
}

# montk_sqr_adx8: montk_sqr_adx with square_then_reduce8 in 8-limb blocks
# wherever num % 8 == 0. Which of the two squares faster depends on the
# core: ns per call, chained, the two in one program alternating (medians
# of 401 x 16 calls, three runs), AMD Zen 5 (family 26): num 16 0.86-0.95
# of montk_sqr_adx's time, 32 0.76-0.80, 48 0.84-0.87, 64 0.85-0.89; on
# Intel (model 167, see sq8 above) 16-limb blocks were 16% faster at 32.
# mont/dispatch.c times both once and keeps the faster.
sub adx8_set {
	return { %{ adx_set(@_) }, name => 'adx8', sq8 => [[8, $MAXNUM]] };
}

sub mem {	# operand: limb k of a group at base + 8*k + disp
	my ($disp, $base) = @_;
	return sub { ($disp + 8 * $_[0]) . "($base)" };
}

# Row loops: for each [W, end] in @$groups, groups of W limbs while
# $cmp < end; $body->(W) emits one group, then the pointers @$ptrs advance
# by W limbs. Pointers, not indexed operands: MULX and ADCX with an index
# register cost about twice as many cycles per group.
my $seq = 0;
sub row_loops {
	my ($ptrs, $cmp, $groups, $body) = @_;
	my $l = '.Lmont' . $seq++;
	my $s = '';
	for my $g (@$groups) {
		my ($W, $end) = @$g;
		$s .= "\tjmp\t${l}_t$W\n${l}_$W:\n" . $body->($W);
		$s .= "\tlea\t" . 8 * $W . "($_),$_\n" for @$ptrs;
		$s .= "${l}_t$W:\n\tcmp\t$end,$cmp\n\tjb\t${l}_$W\n";
	}
	return $s;
}

# The end of both kernels. In: %rsi = &t[num] (t is num limbs plus a top
# bit in t[num], t < 2n), %rcx = n. r = t - n if that does not borrow,
# else t; selected with a mask. t[0..num] and the num limbs at $wipe bytes
# from t are zeroed.
sub final_reduce {
	my ($wipe) = @_;
	my $l = '.Lmont' . $seq++;
	return <<___;
	mov	$NUM(%rsp),%r9
	mov	$R(%rsp),%rdi
	lea	(%rdi,%r9,8),%rdi
	lea	(%rcx,%r9,8),%rcx
	mov	%r9,%rbx
	neg	%rbx
	xor	%eax,%eax		# CF = 0
${l}_sub:				# r = t - n, borrow in CF
	mov	(%rsi,%rbx,8),%rax
	sbb	(%rcx,%rbx,8),%rax
	mov	%rax,(%rdi,%rbx,8)
	inc	%rbx
	jnz	${l}_sub
	mov	(%rsi),%rax
	sbb	\$0,%rax		# t[num] - borrow: -1 keeps t, 0 keeps t - n
	mov	%r9,%rbx
	neg	%rbx
${l}_sel:				# r ^= (r ^ t) & mask; t = 0
	mov	(%rsi,%rbx,8),%rdx
	mov	(%rdi,%rbx,8),%r10
	xor	%r10,%rdx
	and	%rax,%rdx
	xor	%rdx,%r10
	mov	%r10,(%rdi,%rbx,8)
	movq	\$0,(%rsi,%rbx,8)
	movq	\$0,$wipe(%rsi,%rbx,8)
	inc	%rbx
	jnz	${l}_sel
	movq	\$0,(%rsi)
___
}

# The 8 limbs a kernel keeps in registers: a group of a row, or the window
# of a square_then_reduce8 pass (window limb w in $WINDOW[w % 8]).
my @WINDOW = map { "%r$_" } 8 .. 15;
sub window_reg { return $WINDOW[ $_[0] % 8 ] }

# Squaring when num % w == 0 (w = 8 or 16, the set's sq8): square first,
# then reduce, in a frame
# t of 2 num limbs (the carry above them in PC), instead of the rows above:
#  1. t = sum_{i<j} a_i*a_j * 2^(64(i+j))   (each cross product once)
#  2. t = 2t + sum_i a_i^2 * 2^(128i)        (= a^2, below 2^(128 num))
#  3. for each i: m_i = t_i*n0, t += m_i*n * 2^(64i)   (t_i becomes 0)
#     then PC:t[num..2num-1] = (a^2 + M*n)/R < 2n; r = that - n if no borrow.
# 1 and 3 go in passes of w rows i0..i0+w-1 (multipliers a_{i0+k} or m_k
# in the frame at MS). A pass keeps w limbs of t, the window (see ring
# below), and walks the source (a or n) in blocks of w limbs: block step k
# adds M_k * src[0..w-1] to window limbs k..k+w (the instruction set's
# sq8step for w), the carries ending in limb k+w, which takes the place
# of limb k, final by then and stored. The (w+1)-limb sum of a w-limb
# window and a w x 1-limb product cannot overflow, so no carry is left
# after a step. A pass loads the first w limbs of t into the window; in
# later blocks step k also adds t limb k (the window + one limb + the
# product still fit in w+1 limbs), so no carry leaves a step and the
# flags are free between steps.
# Products: n(n-1)/2 + n + n^2 (+ n for the m_i), nearly all of them in
# w x w-limb blocks.
my ($SA, $A0, $SEND, $ST, $TEND, $PC, $PHASE) = ($B, $PN, $ROWS, $NE16, $NE8, $NE4, $NE);
my $MS = $T + 8 * (2 * $MAXNUM + 1);	# the multipliers of a pass (up to 16)
my $RING = $MS + 8 * 16;		# window limbs above the registers' 8

# The window of a pass is sq8w limbs wide (w = 8 or 16; blocks of w limbs,
# w rows a pass). In step k limbs k..k+7 are registers, limb L in
# $WINDOW[L % 8]; limbs k+8..k+15 of a 16-limb window are ring slots, limb
# L in slot L % 16. So at a pass's start and end (k = 0) window limb u is
# $WINDOW[u] or, from 8, slot u.
sub ring { return $RING + 8 * ($_[0] % 16) . "(%rsp)" }

# Window limb u to or from memory (a ring slot through %rax); keeps the flags.
sub win_store {
	my ($u, $mem) = @_;
	return $u < 8 ? "\tmov\t$WINDOW[$u],$mem\n" : "\tmov\t" . ring($u) . ",%rax\n\tmov\t%rax,$mem\n";
}
sub win_load {
	my ($u, $mem) = @_;
	return $u < 8 ? "\tmov\t$mem,$WINDOW[$u]\n" : "\tmov\t$mem,%rax\n\tmov\t%rax," . ring($u) . "\n";
}

sub square_then_reduce8 {
	my ($I, $l) = @_;
	return sq8_setup($l, '%rsi') . sq8_cross($I, $l) . sq8_double($I, $l) . sq8_reduce($I, $l)
	     . sq8_result($I, $l);
}

# r = a*b*R^-1 mod n the same way (the set's mul8: num % w == 0): t = a*b
# in passes of w rows b_{i0..i0+w-1} (multipliers at MS), then the
# reduction and the result of square_then_reduce8.
sub mul_then_reduce8 {
	my ($I, $l) = @_;
	return sq8_setup($l, '%rdx') . mul8_passes($I, $l) . sq8_reduce($I, $l) . sq8_result($I, $l);
}

# Pass i0: t[i0..] += b_{i0+k} * a * 2^(64k). The window starts at 0 and
# every block adds t, so each window limb gets its t limb once, when it is
# the bottom of a step; the window's last w limbs go to t[i0+num..], which
# no pass has written yet.
sub mul8_passes {
	my ($I, $l) = @_;
	my $w = $I->{sq8w};
	my $s = <<___;
${l}_mp:				# pass i0: t[i0..] += b_{i0+k} * a << 64k
	mov	$SA(%rsp),%rsi		# &b[i0]
	mov	$ST(%rsp),%rdi		# &t[i0]
___
	$s .= "\tmov\t" . 8 * $_ . "(%rsi),%rax\n\tmov\t%rax," . ($MS + 8 * $_) . "(%rsp)\n" for 0 .. $w - 1;
	$s .= "\txor\t" . reg32($WINDOW[$_]) . "," . reg32($WINDOW[$_]) . "\n" for 0 .. 7;
	$s .= "\tmovq\t\$0," . ring($_) . "\n" for 8 .. $w - 1;
	$s .= "\tmov\t$A0(%rsp),%rsi\n" . sq8_blocks($I, $l) . "\t# t[i0+num..] = x\n";
	$s .= win_store($_, 8 * $_ . "(%rdi)") for 0 .. $w - 1;
	return $s . "\tmov\t$SA(%rsp),%rsi\n\tlea\t" . 8 * $w . "(%rsi),%rsi\n\tmov\t%rsi,$SA(%rsp)\n"
	     . sq8_pass_end($w, '%rax', "${l}_mp");
}

# ST on by w limbs (through $reg); the next pass at $label while ST < TEND.
sub sq8_pass_end {
	my ($w, $reg, $label) = @_;
	return <<___;
	mov	$ST(%rsp),$reg
	lea	@{[8 * $w]}($reg),$reg
	mov	$reg,$ST(%rsp)
	cmp	$TEND(%rsp),$reg
	jb	$label
___
}

# Step k of a pass: window limbs k+j += M_k * src_j (src_j = 8j(%rsi)) for
# j = jmin..w-1, and limb k += t limb k if $tadd; limb k is stored, its
# register becomes limb k+8 (loaded from the ring when w = 16). The sum
# fits in limbs k..k+w, so no carry leaves the step and the flags are
# free after it.
sub sq8_step {
	my ($I, $k, $jmin, $tadd) = @_;
	my $w = $I->{sq8w};
	my $st = "\tmov\t" . window_reg($k) . "," . 8 * $k . "(%rdi)\n";
	$st .= "\tmov\t" . ring($k + 8) . "," . window_reg($k) . "\n" if $w > 8;	# limb k+8
	my $s = $jmin ? $st : '';	# the diagonal adds nothing to limb k
	# no products: the new top limb k+w is 0
	return $s . ($w > 8 ? "\tmovq\t\$0," . ring($k + $w) . "\n"
	                    : "\txor\t" . reg32(window_reg($k)) . "," . reg32(window_reg($k)) . "\n") if $jmin >= $w;
	return $s . "\t# x[" . ($k + $jmin) . ".." . ($k + $w) . "] += M_$k * src[$jmin.." . ($w - 1) . "]"
	     . ($tadd ? " + t[$k]" : '') . "\n" . $I->{sq8step}->(\&window_reg, $k, $jmin, $tadd, $st);
}

# The blocks of a pass after the first, while %rsi < SEND: the w steps
# with the multipliers at MS, adding t: x[k..k+w] += M_k * src[0..w-1] + t[k].
# One copy serves both steps: the squaring's passes fall through it (PHASE
# = 0), the reduction's jump to its test and return (PHASE = 1), which
# keeps the 16-limb code a block smaller.
sub sq8_blocks {
	my ($I, $l) = @_;
	my $w = $I->{sq8w};
	my $s = "\tjmp\t${l}_blkt\n${l}_blk:\n";
	$s .= $I->{sq8mult}->($MS + 8 * $_ . "(%rsp)") . sq8_step($I, $_, 0, 1) for 0 .. $w - 1;
	return $s . sq8_next($w) . "${l}_blkt:\n\tcmp\t$SEND(%rsp),%rsi\n\tjb\t${l}_blk\n"
	     . "\tcmpq\t\$0,$PHASE(%rsp)\n\tjne\t${l}_rdblk\n";
}

# %rdi and %rsi on by a block of w limbs.
sub sq8_next { return "\tlea\t" . 8 * $_[0] . "(%rdi),%rdi\n\tlea\t" . 8 * $_[0] . "(%rsi),%rsi\n" }

# The window = t[0..w-1] from %rdi.
sub sq8_load { return join '', map { win_load($_, 8 * $_ . "(%rdi)") } 0 .. $_[0] - 1 }

# Frame slots filled in order, each [slot, from]: a register is stored, an
# address goes through %rax.
sub to_frame {
	return join '', map {
		my ($slot, $from) = @$_;
		$from =~ /^%/ ? "\tmov\t$from,$slot(%rsp)\n" : "\tlea\t$from,%rax\n\tmov\t%rax,$slot(%rsp)\n"
	} @_;
}

# The arguments into the frame (the pointers a pass walks: SA = &a[i0]
# (from $msrc: a, or b for mul_then_reduce8), ST = &t[2 i0]; their ends
# SEND, TEND) and t[0..num-1] = 0.
sub sq8_setup {
	my ($l, $msrc) = @_;
	my $s = "${l}_sqr8:\n"
	    . to_frame([$R, '%rdi'], [$SA, $msrc], [$A0, '%rsi'], [$N, '%rcx'], [$N0, '%r8'], [$NUM, '%r9'],
	               [$SEND, '(%rsi,%r9,8)'], [$ST, "$T(%rsp)"], [$TEND, "$T(%rsp,%r9,8)"]) . <<___;
	lea	$T(%rsp),%rdi
${l}_zero:				# t[0..num-1] = 0
___
	$s .= "\tmovq\t\$0," . 8 * $_ . "(%rdi)\n" for 0 .. 7;
	return $s . <<___;
	lea	64(%rdi),%rdi
	cmp	$TEND(%rsp),%rdi
	jb	${l}_zero
	movq	\$0,$PHASE(%rsp)		# the squaring's passes (sq8_blocks)
___
}

# Step 1, one pass per 8 rows i0..i0+7: the diagonal block adds
# a_{i0+k} * a_{i0+j} for k < j < 8 to t[2 i0 + k + j], the blocks after it
# a_{i0+k} * a[i0+8..num-1]; the window's last 8 limbs go to t[i0+num..],
# which no pass has written yet.
sub sq8_cross {
	my ($I, $l) = @_;
	my $s = <<___;
${l}_sq:				# pass i0: t[2i0..] += sum a_{i0+k}*a_j, j > i0+k
	mov	$SA(%rsp),%rsi		# &a[i0]
	mov	$ST(%rsp),%rdi		# &t[2i0]
___
	my $w = $I->{sq8w};
	$s .= "\tmov\t" . 8 * $_ . "(%rsi),%rax\n\tmov\t%rax," . ($MS + 8 * $_) . "(%rsp)\n" for 0 .. $w - 1;
	$s .= sq8_load($w) . "\t# the diagonal block: a_{i0+k} * a_{i0+j}, k < j < $w\n";
	$s .= ($_ < $w - 1 ? $I->{sq8mult}->(8 * $_ . "(%rsi)") : '') . sq8_step($I, $_, $_ + 1) for 0 .. $w - 1;
	$s .= sq8_next($w) . sq8_blocks($I, $l) . "\t# t[i0+num..] = x (no pass wrote there yet)\n";
	$s .= win_store($_, 8 * $_ . "(%rdi)") for 0 .. $w - 1;
	return $s . "\tmov\t$SA(%rsp),%rsi\n\tlea\t" . 8 * $w . "(%rsi),%rsi\n" . <<___;
	mov	%rsi,$SA(%rsp)
	addq	\$@{[16 * $w]},$ST(%rsp)
	cmp	$SEND(%rsp),%rsi
	jb	${l}_sq
___
}

# Step 2: t[2i..2i+1] = 2 t[2i..2i+1] + a_i^2 + the carries of the limbs
# below (the doubling's, the squares'), which the loop keeps in the
# instruction set's way (sq8dbl) from one pair of limbs to the next.
sub sq8_double {
	my ($I, $l) = @_;
	my $s = <<___;
	mov	$A0(%rsp),%rsi		# t = 2t + a_i^2 * 2^(128i), 4 limbs of a per loop
	lea	$T(%rsp),%rdi
	mov	$NUM(%rsp),%rcx
	shr	\$2,%rcx
$I->{sq8dbl0}${l}_dbl:
___
	for my $u (0 .. 3) {
		my ($p, $q) = @WINDOW[2 * $u, 2 * $u + 1];
		my $o = 16 * $u;
		$s .= "\t# t[2i+" . 2 * $u . "..2i+" . (2 * $u + 1) . "] = 2t + a_{i+$u}^2\n"
		    . "\tmov\t$o(%rdi),$p\n\tmov\t" . ($o + 8) . "(%rdi),$q\n"
		    . $I->{sq8dbl}->(8 * $u . "(%rsi)", $p, $q)
		    . "\tmov\t$p,$o(%rdi)\n\tmov\t$q," . ($o + 8) . "(%rdi)\n";
	}
	return $s . <<___;
	lea	32(%rsi),%rsi		# the loop keeps both flags
	lea	64(%rdi),%rdi
	lea	-1(%rcx),%rcx
	jrcxz	${l}_red
	jmp	${l}_dbl
___
}

# Step 3, one pass per 8 limbs i0..i0+7 of t: m_k = t[i0+k]*n0 makes
# t[i0+k] zero, t += m_k * n << 64(i0+k); the window's last 8 limbs are
# added to t[i0+num..] with the carry out of the previous pass (PC, 0 or 1),
# and this pass's carry goes to PC.
sub sq8_reduce {
	my ($I, $l) = @_;
	my $s = <<___;
${l}_red:
	mov	$NUM(%rsp),%r9
	mov	$N(%rsp),%rax
	lea	(%rax,%r9,8),%rax
	mov	%rax,$SEND(%rsp)
	lea	$T(%rsp),%rax
	mov	%rax,$ST(%rsp)
	movq	\$0,$PC(%rsp)
	movq	\$1,$PHASE(%rsp)		# the reduction's passes (sq8_blocks)
${l}_rd:				# pass i0: m_k = t_{i0+k}*n0, t += m_k*n << 64(i0+k)
	mov	$ST(%rsp),%rdi		# &t[i0]
	mov	$N(%rsp),%rsi
___
	my $w = $I->{sq8w};
	$s .= sq8_load($w);
	$s .= "\t# M_$_ = m_$_ = x[$_]*n0; x[$_] becomes 0\n"
	    . $I->{sq8m}->(window_reg($_), $MS + 8 * $_ . "(%rsp)") . sq8_step($I, $_, 0) for 0 .. $w - 1;
	$s .= sq8_next($w) . "\tjmp\t${l}_blkt\n${l}_rdblk:\n"
	    . "\t# t[i0+num..] = x + t[i0+num..] + the carry of the last pass (0 or 1)\n"
	    . "\tmov\t$PC(%rsp),%rax\n\tneg\t%rax\t\t\t# CF = that carry\n";
	$s .= $_ < 8 ? "\tadc\t" . 8 * $_ . "(%rdi),$WINDOW[$_]\n\tmov\t$WINDOW[$_]," . 8 * $_ . "(%rdi)\n"
	    : "\tmov\t" . ring($_) . ",%rax\n\tadc\t" . 8 * $_ . "(%rdi),%rax\n\tmov\t%rax," . 8 * $_ . "(%rdi)\n"
		for 0 .. $w - 1;
	return $s . "\tmov\t\$0,%eax\n\tadc\t\$0,%rax\n\tmov\t%rax,$PC(%rsp)\n"
	     . sq8_pass_end($w, '%rdi', "${l}_rd");
}

# r = PC:t[num..2num-1] - n if that does not borrow, else t[num..]: the
# difference into r, then a masked select; t and the multipliers at MS
# are wiped.
sub sq8_result {
	my ($I, $l) = @_;
	my $s = <<___;
	# r = t[num..2num-1] - n, 8 limbs per loop; t[0..num-1] are 0 by now
	mov	$R(%rsp),%rdi
	mov	$N(%rsp),%rbp
	mov	$TEND(%rsp),%rsi
	mov	$NUM(%rsp),%rcx
	shr	\$3,%rcx
	xor	%ebx,%ebx		# CF = 0
${l}_sub:
___
	$s .= "\tmov\t" . 8 * $_ . "(%rsi),$WINDOW[$_]\n\tsbb\t" . 8 * $_ . "(%rbp),$WINDOW[$_]\n"
	    . "\tmov\t$WINDOW[$_]," . 8 * $_ . "(%rdi)\n" for 0 .. 7;
	$s .= <<___;
	lea	64(%rsi),%rsi		# the loop keeps CF
	lea	64(%rdi),%rdi
	lea	64(%rbp),%rbp
	lea	-1(%rcx),%rcx
	jrcxz	${l}_subd
	jmp	${l}_sub
${l}_subd:
	sbb	\$0,%rax		# top - borrow: -1 keeps t, 0 keeps t - n
	movq	\$0,$PC(%rsp)
	mov	%rdi,%rbp		# r + 8num
	mov	$R(%rsp),%rdi
	mov	$TEND(%rsp),%rsi
${l}_sel:				# r ^= (r ^ t) & mask; t = 0
___
	for my $k (0 .. 7) {
		my ($p, $q) = @WINDOW[2 * ($k % 4), 2 * ($k % 4) + 1];
		my $o = 8 * $k;
		$s .= "\tmov\t$o(%rsi),$p\n\tmov\t$o(%rdi),$q\n\txor\t$q,$p\n\tand\t%rax,$p\n"
		    . "\txor\t$p,$q\n\tmov\t$q,$o(%rdi)\n\tmovq\t\$0,$o(%rsi)\n";
	}
	$s .= <<___;
	lea	64(%rsi),%rsi
	lea	64(%rdi),%rdi
	cmp	%rbp,%rdi
	jb	${l}_sel
___
	$s .= "\tmovq\t\$0," . ($MS + 8 * $_) . "(%rsp)\n" for 0 .. $I->{sq8w} - 1;
	$s .= "\tmovq\t\$0," . ring($_) . "\n" for $I->{sq8w} > 8 ? 0 .. 15 : ();
	return $s;
}

# r = a*b*R^-1 mod n, one row per limb b_i (CIOS, the reduction fused
# into the row):  t = (t + a*b_i + m*n) / 2^64,  m = (t_0 + a_0*b_i)*n0.
# a and n are copied into the frame next to t, so one pointer %rdi walks
# all three (t_j = $T(%rdi), a_j = $VC(%rdi), n_j = $NC(%rdi)) and a group
# of 8 limbs stays in %r8..%r15. %rcx / %rsi: carry words of the a*b_i /
# m*n products. The ends of the loops over %rdi: NE8, NE4, NE.
#
# Squaring is the same loop with b = a and a row-dependent V in place of a:
# row i adds a_i * V_i with V_i = a_i*2^(64i) + 2*sum_{j>i} a_j*2^(64j), so
# each cross product a_i*a_j is computed once, doubled, and
# sum_i a_i*V_i = a^2. V starts as d = 2a (n limbs, and the top bit
# V[n] = d_n = a_{n-1} >> 63 added at the end of each row as a_i & -V[n]);
# before row i: V[i-1] = 0, V[i] = a_i, V[i+1] = d_{i+1} without bit 0
# (= a_{i+1} << 1; for i = n-1 that clears V[n]). Groups of 8 limbs below
# i skip the a_i*V products: n(n+1)/2 + n^2 + n products in all, plus
# at most 7 multiplications by zero per row. The bound t < 2n may not hold
# between rows (row 0 adds up to 2*a_0*a), but t stays below 4*2^(64n), so
# t[num] holds it, and the result (a^2 + M*n)/R < 2n as for any product.
#
# The steps below: kernel_setup fills the frame; per row, row_start loads
# b_i, row_head computes the first group (and m), row_groups the others,
# row_end folds the two carry words into t[num-1..num]; then
# final_reduce. $A names the multiplicand in the output's comments: a, or
# V when squaring.
my $VC = $T + 8 * ($MAXNUM + 2);	# V or a copy of a; V[-1] is free
my $NC = $VC + 8 * ($MAXNUM + 1);
my $TP = mem($T, '%rdi');		# t_j of a group at p = %rdi
my $TDOWN = mem($T - 8, '%rdi');	# t_{j-1}: where a row's result goes
sub mont_kernel {
	my ($set, $sqr) = @_;
	my $I = $set->(\@WINDOW, qw(%rbp %rbx));
	my $name = "montk_" . ($sqr ? 'sqr' : 'mul') . "_$I->{name}";
	my $frame = frame_size(3 * $MAXNUM + 3);
	my $l = '.Lmont' . $seq++;
	my $A = $sqr ? 'V' : 'a';
	my $s = prologue($name, $sqr ? 5 : 6, $frame);
	$s .= <<___ if $sqr;
	mov	%r8,%r9			# the arguments of a*a*R^-1
	mov	%rcx,%r8
	mov	%rdx,%rcx
	mov	%rsi,%rdx
___
	# square_then_reduce8 (mul_then_reduce8) in blocks of w limbs for each
	# [w, max] of the set's sq8 (mul8), the first where num % w == 0 and
	# num <= max; else the rows
	my @sq8 = @{ $I->{ $sqr ? 'sq8' : 'mul8' } // [] };
	for (@sq8) {
		my ($w, $max) = @$_;
		$s .= "\tcmp\t\$$max,%r9\n\tja\t${l}_not$w\n" if $max < $MAXNUM;
		$s .= "\ttest\t\$" . ($w - 1) . ",%r9\n\tjz\t${l}w${w}_sqr8\n${l}_not$w:\n";
	}
	$s .= kernel_setup($sqr, $l) . row_start($I, $sqr, $l) . row_head($I, $sqr, $l, $A)
	    . row_groups($I, $sqr, $A) . row_end($I, $sqr, $l);
	# V[-1] and V[n] are 0 by now, V[0..n-1] (or a) are wiped here, and
	# b_i and m where the frame holds them.
	$s .= join '', map { "\tmovq\t\$0,$_\n" } grep { /%rsp/ } $I->{bi}, $I->{m};
	return $s . final_reduce($VC - $T) . epilogue($name, $frame)
	     . join('', map { ($sqr ? \&square_then_reduce8 : \&mul_then_reduce8)->(
		{ %$I, sq8w => $_->[0], sq8step => $I->{sq8step}{ $_->[0] } }, "${l}w$_->[0]")
		. epilogue($name, $frame) } @sq8)
	     . ".size\t$name,.-$name\n";
}

# Comments in the output: what a group of W limbs at p = j computes.
sub limbs_text {	# limbs j+d .. j+d+W-1, j = 0 in the first group
	my ($W, $j, $d) = @_;
	my @r = map { $j ? ($_ ? "j+$_" : 'j') =~ s/\+-/-/r : $_ } $d, $d + $W - 1;
	return $W == 1 ? "[$r[0]]" : "[$r[0]..$r[1]]";
}
sub carry_text { my ($j, $c) = @_; return $j ? " + carry $c" : '' }
sub amath {	# x = t + A*b_i (+ the a*b_i carry word %rcx after the first group)
	my ($A, $W, $j) = @_;
	return "\t# x" . limbs_text($W, $j, 0) . " = t" . limbs_text($W, $j, 0) . " + $A"
	     . limbs_text($W, $j, 0) . "*b_i" . carry_text($j, '%rcx') . "\n";
}
sub nmath {	# t, one limb down = x (or t) + n*m (+ the m*n carry word %rsi)
	my ($W, $j, $from) = @_;
	return "\t# t" . limbs_text($W, $j, -1) . " = $from" . limbs_text($W, $j, 0) . " + n"
	     . limbs_text($W, $j, 0) . "*m" . carry_text($j, '%rsi') . "\n";
}

# The frame: the arguments; where a row's groups of 16, 8, 4 and 1 limbs
# end; V = 2a (squaring) or a copy of a, a copy of n, t = 0.
sub kernel_setup {
	my ($sqr, $l) = @_;
	my $s = to_frame([$R, '%rdi'], [$B, '%rdx'], [$N, '%rcx'], [$N0, '%r8'], [$NUM, '%r9'], [$ROWS, '%r9'])
	    . <<___;
	lea	-8(%r9),%rax		# from limb 8: groups of 16, 8, 4, 1
	and	\$-16,%rax
	lea	64(%rsp,%rax,8),%rax
	mov	%rax,$NE16(%rsp)
	mov	%r9,%rax
	and	\$-8,%rax
	lea	(%rsp,%rax,8),%rax
	mov	%rax,$NE8(%rsp)
	mov	%r9,%rax
	and	\$-4,%rax
	lea	(%rsp,%rax,8),%rax
	mov	%rax,$NE4(%rsp)
___
	$s .= to_frame([$NE, '(%rsp,%r9,8)'], [$VI, "$VC(%rsp)"], [$PN, '0(%rsp)']) . <<___;
	xor	%ebx,%ebx
	xor	%edx,%edx
${l}_copy:				# V = 2a (squaring) or a copy of a; copy n; t = 0
	mov	(%rsi,%rbx,8),%rax
___
	$s .= $sqr ? <<___ : "\tmov\t%rax,$VC(%rsp,%rbx,8)\n";
	lea	(%rdx,%rax,2),%r10	# d_j = a_j << 1 | a_{j-1} >> 63
	shr	\$63,%rax
	mov	%rax,%rdx
	mov	%r10,$VC(%rsp,%rbx,8)
___
	return $s . <<___;
	mov	(%rcx,%rbx,8),%rax
	mov	%rax,$NC(%rsp,%rbx,8)
	movq	\$0,$T(%rsp,%rbx,8)
	inc	%rbx
	cmp	%r9,%rbx
	jb	${l}_copy
	movq	\$0,$T(%rsp,%rbx,8)
	mov	%rdx,$VC(%rsp,%rbx,8)	# V[n] = d_n (0 when multiplying)
___
}

# A row starts: b_i where the instruction set keeps it; squaring moves V
# on (V[i-1] = 0, V[i] = a_i, V[i+1] loses bit 0) and leaves i in %rax;
# p = %rdi = 0.
sub row_start {
	my ($I, $sqr, $l) = @_;
	my $s = <<___;
${l}_row:
	mov	$B(%rsp),%rax		# b_i, and advance b
	mov	(%rax),%rdx
	lea	8(%rax),%rax
	mov	%rax,$B(%rsp)
	mov	%rdx,$I->{bi}
___
	$s .= <<___ if $sqr;
	mov	$VI(%rsp),%rax		# V[i-1] = 0, V[i] = a_i, V[i+1] &= ~1
	movq	\$0,-8(%rax)
	mov	%rdx,(%rax)
	andq	\$-2,8(%rax)
	lea	8(%rax),%rax
	mov	%rax,$VI(%rsp)
	mov	$NUM(%rsp),%rax		# i
	sub	$ROWS(%rsp),%rax
___
	return $s . "\tlea\t0(%rsp),%rdi\n";
}

# The first group, limbs 0..W-1 (W = 8, or 4 when num < 8):
# x = t + A*b_i; m = x_0*n0; t = x + m*n shifted down a limb.
# Without $both (squaring rows i >= 8, where V[0..7] = 0): m = t_0*n0,
# t + m*n only.
sub first_group {
	my ($I, $A, $W, $both) = @_;
	my $tfirst = sub { $_[0] ? $TDOWN->($_[0]) : undef };	# x_0 + lo(m*n_0) = 0 is not stored
	return $both
	     ? amath($A, $W, 0) . $I->{mult}->($I->{bi}) . $I->{clear}->()
	     . $I->{madd}->($W, mem($VC, '%rdi'), $TP, '%rcx', 0, undef)
	     . "\t# m = x[0]*n0\n" . nmath($W, 0, 'x')
	     . $I->{setm}->($WINDOW[0]) . $I->{clear}->()
	     . $I->{nadd}->($W, mem($NC, '%rdi'), '%rsi', 0, $tfirst)
	     . "\tlea\t" . 8 * $W . "(%rdi),%rdi\n"
	     : "\t# m = t[0]*n0\n" . nmath($W, 0, 't')
	     . $I->{setm}->("$T(%rsp)") . $I->{clear}->()
	     . $I->{madd}->($W, mem($NC, '%rdi'), $TP, '%rsi', 0, $tfirst)
	     . "\txor\t%ecx,%ecx\n\tlea\t" . 8 * $W . "(%rdi),%rdi\n";
}

# The head of a row: the first group at its width. Squaring rows i >= 8
# also set where their groups of 8 without A*b_i end (PN: i & ~7) and
# where the groups of 16 from there end (NE16); rows i < 8 keep the
# values of the setup: none, and the multiplication's NE16.
sub row_head {
	my ($I, $sqr, $l, $A) = @_;
	my $s = "\tcmpq\t\$8,$NUM(%rsp)\n\tjb\t${l}_head4\n";
	$s .= "\tcmp\t\$8,%rax\n\tjb\t${l}_head8\n" . <<___ . ($I->{both16} ? <<___ : '')
	and	\$-8,%rax
	lea	(%rsp,%rax,8),%rdx
	mov	%rdx,$PN(%rsp)
___
	mov	$NUM(%rsp),%rdx
	sub	%rax,%rdx
	and	\$-16,%rdx
	add	%rax,%rdx
	lea	(%rsp,%rdx,8),%rdx
	mov	%rdx,$NE16(%rsp)
___
	    . first_group($I, $A, 8, 0) . "\tjmp\t${l}_body\n" if $sqr;
	return $s . "${l}_head8:\n" . first_group($I, $A, 8, 1) . "\tjmp\t${l}_body\n"
	     . "${l}_head4:\n" . first_group($I, $A, 4, 1) . "${l}_body:\n";
}

# A group of W limbs at p = j, carries in: x = t + A*b_i + %rcx (the
# a*b_i carry word), then t one limb down = x + n*m + %rsi (the m*n one).
sub group {
	my ($I, $A, $W) = @_;
	return amath($A, $W, 1) . $I->{mult}->($I->{bi}) . $I->{clear}->()
	     . $I->{madd}->($W, mem($VC, '%rdi'), $TP, '%rcx', 1, undef)
	     . nmath($W, 1, 'x') . $I->{mult}->($I->{m})
	     . $I->{nadd}->($W, mem($NC, '%rdi'), '%rsi', 1, $TDOWN);
}

# The rest of a row. Squaring: first the groups of 8 below limb i & ~7,
# t + m*n only. Then groups as above, of 16 first where the instruction
# set has them (two carry closings fewer), then of 8, 4 and 1.
sub row_groups {
	my ($I, $sqr, $A) = @_;
	my $s = '';
	$s .= row_loops(['%rdi'], '%rdi', [[8, "$PN(%rsp)"]], sub {
		return nmath(8, 1, 't') . $I->{clear}->()
		     . $I->{madd}->(8, mem($NC, '%rdi'), $TP, '%rsi', 1, $TDOWN);
	}) if $sqr;
	return $s . row_loops(['%rdi'], '%rdi', [$I->{both16} ? [16, "$NE16(%rsp)"] : (),
	                [8, "$NE8(%rsp)"], [4, "$NE4(%rsp)"], [1, "$NE(%rsp)"]], sub {
		my ($W) = @_;
		return group($I, $A, $W) if $W < 16;
		return amath($A, 16, 1) . nmath(16, 1, 'x')
		     . $I->{both16}->(mem($VC, '%rdi'), mem($NC, '%rdi'), $TP, $TDOWN);
	});
}

# The end of a row: t[num-1] = t[num] + %rcx + %rsi (+ a_i * V[n] when
# squaring), its carries into t[num]; the next row, or %rsi = &t[num] and
# %rcx = n for final_reduce.
sub row_end {
	my ($I, $sqr, $l) = @_;
	my $s = <<___;
	xor	%eax,%eax		# t[num-1], t[num] = t[num] + both carry words
	add	%rcx,%rsi
	adc	\$0,%rax
	add	$T(%rdi),%rsi
	adc	\$0,%rax
___
	$s .= <<___ if $sqr;
	mov	$NUM(%rsp),%rdx		# + a_i * V[n]
	mov	$VC(%rsp,%rdx,8),%rdx
	neg	%rdx
	and	$I->{bi},%rdx
	add	%rdx,%rsi
	adc	\$0,%rax
___
	return $s . <<___;
	mov	%rsi,$T-8(%rdi)
	mov	%rax,$T(%rdi)
	decq	$ROWS(%rsp)
	jnz	${l}_row
	lea	$T(%rdi),%rsi
	mov	$N(%rsp),%rcx
___
}

my $code = "# Generated by perlasm/x86_64-mont.pl; do not edit.\n.text\n";
for my $set (\&mulq_set, $adx ? (\&adx_set) : ()) {
	$code .= mont_kernel($set, 0) . mont_kernel($set, 1);
}
$code .= mont_kernel(\&adx8_set, 1) if $adx;
print Xlate::translate($code, $flavour, $caps);
