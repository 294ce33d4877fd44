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
#   $caps->known('adx')      # is the feature in the file at all
#   $caps->build('cet_ibt')  # the build section: cet_ibt cet_shstk pic ilp32 apple win64
#   $caps->arch              # x86_64|i386
#   $caps->flavour           # elf|macosx|mingw64|nasm
#   $caps->format            # elf64|elf32|coff-x86-64|coff-i386|macho64
#   $caps->file              # where it was loaded from
#
# Asking for a feature or build key the file does not have dies: a typo in a
# generator must not read as "no".
use strict;
use warnings;
use JSON::PP ();

my %STATUS = map { $_ => 1 } qw(yes no broken skipped disabled unprobed);
my $FIX = 'regenerate it with `make caps` (or `build/asmcap --format json -o FILE`)';

sub _bad {
	my ($file, $what) = @_;
	die "Asmcap: $file: $what; $FIX\n";
}

sub load {
	my ($class, $file) = @_;
	die "Asmcap: no caps file given; create one with `make caps` and pass build/caps.json\n"
		unless defined $file && length $file;
	open(my $fh, '<', $file) or die "Asmcap: cannot read $file: $!; create it with `make caps`\n";
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

sub _feature {
	my ($self, $name) = @_;
	my $f = $self->{caps}{features}{$name // ''};
	return $f if $f;
	die "Asmcap: feature \"" . ($name // '') . "\" is not in $self->{file} (known: "
		. join(' ', sort keys %{ $self->{caps}{features} }) . ")\n";
}

sub known { exists $_[0]{caps}{features}{ $_[1] // '' } ? 1 : 0 }

sub status { $_[0]->_feature($_[1])->{status} }

sub has {
	my ($self, $name) = @_;
	my %seen;
	my $ok;
	$ok = sub {
		my ($n, @path) = @_;
		die "Asmcap: $self->{file}: \"requires\" loop: " . join(' -> ', @path, $n) . "\n"
			if $seen{$n}++;
		my $f = $self->_feature($n);
		my $r = $f->{status} eq 'yes';
		for my $req (@{ $f->{requires} // [] }) {
			$r = 0 unless $ok->($req, @path, $n);
		}
		$seen{$n}--;
		return $r;
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
