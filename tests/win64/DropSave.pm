# SPDX-License-Identifier: MIT
# Test only: load before the generator (perl -MDropSave) to build kernels
# whose unwind codes miss their first register save, which the unwind test
# (unwind.c) must catch: the tables Xlate writes (mingw64, nasm) lose their
# first push code, and in the masm flavour the first .pushreg is left out.
package DropSave;
use strict;
use warnings;
use Xlate;

my $unwind_info = \&Xlate::_unwind_info;
my $seh_directive = \&Xlate::_seh_directive;
{
	no warnings 'redefine';
	*Xlate::_unwind_info = sub {
		my ($fl, $f) = @_;
		my @push = @{ $f->{seh_push} };
		return $unwind_info->($fl, { %$f, seh_push => [ @push[ 1 .. $#push ] ] });
	};
	# every function's first save is the Win64 entry's push %rdi
	*Xlate::_seh_directive = sub {
		my ($what, $arg) = @_;
		return $what eq 'push' && $arg eq 'rdi' ? () : $seh_directive->(@_);
	};
}
1;
