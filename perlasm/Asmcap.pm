# SPDX-License-Identifier: MIT
package Asmcap;
# The caps file (build/caps.json, schema 1, written by `asmcap --format json`)
# as seen by code generators. Every generator takes its decisions from here,
# so two generators cannot disagree about a feature.
#
#   my $caps = Asmcap->load('build/caps.json');   # dies with the fix on error
#   $caps->has('adx')        # 1 only if adx is "yes" and everything it
#                            # requires (recursively) is "yes"; else 0:
#                            # asmcap's own "usable", recomputed here so a
#                            # status edited by hand (tests) is followed
#   $caps->level('avx+xop', 'avx2', 'avx512f+avx512vl')
#                            # a level such as OpenSSL's $avx: how many leading
#                            # steps hold, a step being features joined by +
#   $caps->status('adx')     # yes|no|broken|skipped|disabled|unprobed
#                            # (another architecture's feature: skipped)
#   $caps->known('adx')      # is the feature in the file at all
#   $caps->enable('dotprod') # the directive spelling that enabled it here
#                            # ('' when it needs none, undef when not has())
#   $caps->build('cet_ibt')  # the build section: cet_ibt cet_shstk pic ilp32 apple win64
#   $caps->arch              # x86_64|i386
#   $caps->flavour           # elf|macosx|mingw64|nasm|masm
#   $caps->format            # elf64|elf32|coff-x86-64|coff-i386|macho64
#   $caps->file              # where it was loaded from
#
# Asking for a feature or build key the file does not have dies: a typo in a
# generator must not read as "no".  A feature of another architecture's
# catalog is the exception: has() 0, status "skipped".
use strict;
use warnings;
use File::Basename ();
use File::Glob ();
use File::Spec ();
use JSON::PP ();

my %STATUS = map { $_ => 1 } qw(yes no broken skipped disabled unprobed);

# The catalog (templates/ARCH/NAME.s): the source tree's, beside this file;
# `make install` writes the installed one's path here.  It tells another
# architecture's feature (skipped) from a typo (an error).
our $TEMPLATES = File::Spec->catdir(File::Basename::dirname(__FILE__), File::Spec->updir, 'templates');

# The command that makes a caps file: the user's own build runs it, so the
# message names it rather than any build's target.
sub _fix {
	my ($file) = @_;
	return "asmcap --cc \"\$CC\" --cflags \"\$CFLAGS\" --format json -o $file";
}

sub _bad {
	my ($file, $what) = @_;
	die "Asmcap: $file: $what; regenerate it: " . _fix($file) . "\n";
}

sub load {
	my ($class, $file) = @_;
	die "Asmcap: no caps file given; create one with `" . _fix('caps.json') . "` and pass caps.json\n"
		unless defined $file && length $file;
	open(my $fh, '<', $file) or die "Asmcap: cannot read $file: $!; create it: " . _fix($file) . "\n";
	my $text = do { local $/; <$fh> };
	close $fh;
	my $caps = eval { JSON::PP->new->decode($text) };
	unless (defined $caps) {
		(my $why = $@) =~ s/\s+\z//;
		_bad($file, "not valid JSON ($why)");
	}
	_bad($file, 'top level is not a JSON object') unless ref $caps eq 'HASH';
	_bad($file, 'no "schema" (not a caps file?)') unless defined $caps->{schema};
	_bad($file, "schema $caps->{schema}, this Asmcap.pm reads schema 1")
		unless $caps->{schema} eq '1';
	for my $sec (qw(toolchain build features)) {
		_bad($file, "\"$sec\" missing or not an object") unless ref $caps->{$sec} eq 'HASH';
	}
	my $feat = $caps->{features};
	for my $name (sort keys %$feat) {
		my $f = $feat->{$name};
		_bad($file, "feature \"$name\" is not an object") unless ref $f eq 'HASH';
		my $st = $f->{status};
		_bad($file, "feature \"$name\" has status " . (defined $st ? "\"$st\"" : '(none)')
			. ' (expected yes|no|broken|skipped|disabled|unprobed)')
			unless defined $st && !ref $st && $STATUS{$st};
		_bad($file, "feature \"$name\": \"usable\" is not true or false")
			if exists $f->{usable} && !JSON::PP::is_bool($f->{usable});
		my $req = $f->{requires} // [];
		_bad($file, "feature \"$name\": \"requires\" is not a list") unless ref $req eq 'ARRAY';
		for my $r (@$req) {
			_bad($file, "feature \"$name\" requires \"$r\", which the file does not list")
				unless defined $r && !ref $r && exists $feat->{$r};
		}
	}
	return bless { file => $file, caps => $caps }, $class;
}

sub file { $_[0]{file} }

# A feature the file lacks but the catalog has for another architecture:
# the one generator serves every target, and there it is skipped, as
# asmcap, the autoconf macro and CMake say.  None: undef.
sub _elsewhere {
	my ($self, $name) = @_;
	return undef unless $name =~ /^[a-z0-9][a-z0-9._-]*\z/;
	my $arch = $self->{caps}{toolchain}{arch} // '';
	my @in = grep { $_ ne $arch } map { (File::Spec->splitdir(File::Basename::dirname($_)))[-1] }
		File::Glob::bsd_glob(File::Spec->catfile($TEMPLATES, '*', "$name.s"));
	return undef unless @in;
	return { status => 'skipped', requires => [],
		reason => "not for this target (a feature of @in; $self->{file} is for $arch)" };
}

sub _feature {
	my ($self, $name) = @_;
	my $f = $self->{caps}{features}{$name // ''} // $self->_elsewhere($name // '');
	return $f if $f;
	die "Asmcap: feature \"" . ($name // '') . "\" is not in $self->{file} (known: "
		. join(' ', sort keys %{ $self->{caps}{features} }) . ") nor in the catalog $TEMPLATES\n";
}

sub known { exists $_[0]{caps}{features}{ $_[1] // '' } ? 1 : 0 }

sub status { $_[0]->_feature($_[1])->{status} }

# Each feature is decided once (%done): layered requires would otherwise
# be walked 2^depth times.
sub has {
	my ($self, $name) = @_;
	my (%on_path, @path, %done);
	my $ok;
	$ok = sub {
		my ($n) = @_;
		return $done{$n} if exists $done{$n};
		die "Asmcap: $self->{file}: \"requires\" loop: " . join(' -> ', @path, $n) . "\n"
			if $on_path{$n}++;
		push @path, $n;
		my $f = $self->_feature($n);
		my $r = $f->{status} eq 'yes';
		for my $req (@{ $f->{requires} // [] }) {
			$r = 0 unless $ok->($req);
		}
		pop @path;
		delete $on_path{$n};
		return $done{$n} = $r;
	};
	my $r = $ok->($name) ? 1 : 0;
	undef $ok;	# break the closure's reference to itself
	return $r;
}

# Every step's features are asked, so a typo in a later step dies even when
# an earlier step already fails.
sub level {
	my ($self, @steps) = @_;
	my @held = map { my @f = split /\+/; !grep { !$self->has($_) } @f } @steps;
	my $n = 0;
	$n++ while $n < @held && $held[$n];
	return $n;
}

# The build's own flags (-march) enable it, no directive needed: the
# feature's "flags" answer where it has one (aarch64/arm/riscv64 features
# with enable: directives), else the same as has().
sub has_flags {
	my ($self, $name) = @_;
	my $flags = $self->_feature($name)->{flags};
	return $self->has($name) && (!$flags || $flags->{status} eq 'yes') ? 1 : 0;
}

# The directive line(s) that enable the feature in this assembler, the
# spelling whose bytes asmcap saw (several are `;'-separated, one line in
# a .S file): '' for a feature that needs none, undef where has() is 0.
sub enable {
	my ($self, $name) = @_;
	my $f = $self->_feature($name);
	return undef unless $self->has($name);
	return exists $f->{enable} ? $f->{enable} // '' : '';
}

sub build {
	my ($self, $key) = @_;
	my $b = $self->{caps}{build};
	die "Asmcap: build key \"" . ($key // '') . "\" is not in $self->{file} (known: "
		. join(' ', sort keys %$b) . ")\n" unless defined $key && exists $b->{$key};
	my $v = $b->{$key};
	return JSON::PP::is_bool($v) ? ($v ? 1 : 0) : $v;
}

sub _toolchain {
	my ($self, $key) = @_;
	my $v = $self->{caps}{toolchain}{$key};
	_bad($self->{file}, "toolchain has no \"$key\"") unless defined $v;
	return $v;
}

sub arch    { $_[0]->_toolchain('arch') }
sub flavour { $_[0]->_toolchain('flavour') }
sub format  { $_[0]->_toolchain('format') }

1;
