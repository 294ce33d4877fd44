#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# OpenSSL 3.0's x86_64 perlasm toolchain gates, written here from the rules
# its generators state (crypto/*/asm/*-x86_64.pl): the same regexes and
# thresholds, run the way Perl runs them — over the whole `2>&1` output, no
# /m, numbers numified by Perl — so that asmcap's POSIX-regex model in
# probe/cmd/gates30.c is checked against Perl itself, not against itself.
#
# stdin: the `$CC -Wa,-v -c -o /dev/null -x assembler /dev/null` text, NUL,
# the `$CC -v` text, NUL, the `nasm -v` text (empty: not the Win64 nasm
# flavour), NUL, the `ml64` text (empty: not the Win64 masm flavour).  stdout: "gate level" per gate, the level capped at the number
# of code paths the gate chooses between (what asmcap prints as N/M).
use strict;
no warnings;

my ($as, $cc, $nasm, $ml64) = do { local $/; split /\0/, <STDIN>, -1 };
my $win64 = length($nasm // '') > 0 || length($ml64 // '') > 0;
my $masm = length($ml64 // '') > 0;
my $clang_avx = qr/((?:clang|LLVM) version|.*based on LLVM) ([0-9]+\.[0-9]+)/;

# x86_64-mont.pl, x86_64-mont5.pl, rsaz-x86_64.pl, ecp_nistz256, x25519
my $addx = 0;
if ($as =~ /GNU assembler version ([2-9]\.[0-9]+)/) { $addx = ($1>=2.23); }
if (!$addx && $win64 && $nasm =~ /NASM version ([2-9]\.[0-9]+)/) { $addx = ($1>=2.10); }
if (!$addx && $masm && $ml64 =~ /Version ([0-9]+)\./) { $addx = ($1>=12); }
if (!$addx && $cc =~ /((?:clang|LLVM) version|.*based on LLVM) ([0-9]+)\.([0-9]+)/) {
	my $ver = $2 + $3/100.0;
	$addx = ($ver>=3.03);
}

# The two-level $avx of sha*, aesni-sha*, *-mb, rsaz-avx2 ($g1 2.19) and
# of ghash, aesni-gcm ($g1 2.20).
sub avx2level {
	my ($g1) = @_;
	my $avx = 0;
	if ($as =~ /GNU assembler version ([2-9]\.[0-9]+)/) { $avx = ($1>=$g1) + ($1>=2.22); }
	if (!$avx && $win64 && $nasm =~ /NASM version ([2-9]\.[0-9]+)/) { $avx = ($1>=2.09) + ($1>=2.10); }
	if (!$avx && $masm && $ml64 =~ /Version ([0-9]+)\./) { $avx = ($1>=10) + ($1>=11); }
	if (!$avx && $cc =~ $clang_avx) { $avx = ($2>=3.0) + ($2>3.0); }
	return $avx;
}

# chacha-x86_64.pl
my $chacha = 0;
if ($as =~ /GNU assembler version ([2-9]\.[0-9]+)/) { $chacha = ($1>=2.19) + ($1>=2.22) + ($1>=2.25); }
if (!$chacha && $win64 && $nasm =~ /NASM version ([2-9]\.[0-9]+)(?:\.([0-9]+))?/) {
	$chacha = ($1>=2.09) + ($1>=2.10) + ($1>=2.12);
	$chacha += 1 if ($1==2.11 && $2>=8);
}
if (!$chacha && $masm && $ml64 =~ /Version ([0-9]+)\./) { $chacha = ($1>=10) + ($1>=11); }
if (!$chacha && $cc =~ $clang_avx) { $chacha = ($2>=3.0) + ($2>3.0); }

# poly1305-x86_64.pl (its fourth level, base 2^44 IFMA, is not for Win64)
my $poly = 0;
if ($as =~ /GNU assembler version ([2-9]\.[0-9]+)/) { $poly = ($1>=2.19) + ($1>=2.22) + ($1>=2.25) + ($1>=2.26); }
if (!$poly && $win64 && $nasm =~ /NASM version ([2-9]\.[0-9]+)(?:\.([0-9]+))?/) {
	$poly = ($1>=2.09) + ($1>=2.10) + 2 * ($1>=2.12);
	$poly += 2 if ($1==2.11 && $2>=8);
}
if (!$poly && $masm && $ml64 =~ /Version ([0-9]+)\./) { $poly = ($1>=10) + ($1>=12); }
if (!$poly && $cc =~ $clang_avx) { $poly = ($2>=3.0) + ($2>3.0); }

# rsaz-avx512.pl: its later rules test $avx512, which nothing sets, so
# they always run and the last match wins; it has no ml64 rule.
my ($ifma, $avx512) = (0, 0);
if ($as =~ /GNU assembler version ([2-9]\.[0-9]+)/) { $ifma = ($1>=2.26); }
if (!$avx512 && $win64 && $nasm =~ /NASM version ([2-9]\.[0-9]+)(?:\.([0-9]+))?/) {
	$ifma = ($1==2.11 && $2>=8) + ($1>=2.12);
}
if (!$avx512 && $cc =~ /(Apple)?\s*((?:clang|LLVM) version|.*based on LLVM) ([0-9]+)\.([0-9]+)\.([0-9]+)?/) {
	my $ver = $3 + $4/100.0 + $5/10000.0;
	if ($1) { $ifma = ($ver>=10.0001); } else { $ifma = ($3>=7.0); }
}

sub cap { my ($v, $max) = @_; $v = 0 + $v; return $v > $max ? $max : $v; }
print "addx ", cap($addx, 1), "\n";
print "avx ", cap(avx2level(2.19), 2), "\n";
print "avx-gcm ", cap(avx2level(2.20), 2), "\n";
print "avx-chacha ", cap($chacha, 3), "\n";
print "avx-poly1305 ", cap($poly, $win64 ? 3 : 4), "\n";
print "avx512ifma ", cap($ifma, 1), "\n";
print "shaext 1\n";      # sha1-x86_64.pl, sha512-x86_64.pl: $shaext=1
