# SPDX-License-Identifier: MIT
# Test only: load before the generator (perl -MDropSave) to build kernels
# whose unwind codes miss their first register save, which the unwind test
# (unwind.c) must catch.
package DropSave;
use strict;
use warnings;
use Xlate;

my $unwind_info = \&Xlate::_unwind_info;
{
	no warnings 'redefine';
	*Xlate::_unwind_info = sub {
		my ($fl, $f) = @_;
		my @push = @{ $f->{seh_push} };
		return $unwind_info->($fl, { %$f, seh_push => [ @push[ 1 .. $#push ] ] });
	};
}
1;
