# SPDX-License-Identifier: MIT
package Xlate;
# Translate our perlasm dialect to the assembly one flavour's assembler takes.
#
#   use Xlate; my $text = Xlate::translate($dialect, $flavour, $caps);
#   perl perlasm/Xlate.pm FLAVOUR CAPS.json [IN.s] > OUT     (same, from a shell)
#
# $caps is an Asmcap object (perlasm/Asmcap.pm): elf flavours read
# build('cet_ibt') / build('cet_shstk'), gas flavours has('cfi'); caps of an
# i386 or ILP32 (x32) build are refused (the dialect is x86_64, 64-bit pointers).
#
# Flavours
#   elf        GNU as / clang, ELF64, SysV ABI. .note.GNU-stack; with cet_ibt an
#              endbr64 (as .byte, so the assembler need not know it) at every
#              .globl function; with cet_ibt or cet_shstk the .note.gnu.property
#              note (GNU_PROPERTY_X86_FEATURE_1_AND, IBT=1 SHSTK=2).
#   macosx     clang/Mach-O: _prefix on symbols, L local labels,
#              .private_extern for .hidden, no .type/.size.
#   mingw64    GNU as, PE/COFF, Win64 ABI (see below), SEH unwind data.
#   nasm       nasm -f win64 (Intel syntax), Win64 ABI, SEH unwind data.
#   masm       ml64 (/Cp: it keeps the symbols' case) or llvm-ml -m64, COFF,
#              Win64 ABI: every function a NAME PROC FRAME ... NAME ENDP whose
#              prologue carries .pushreg/.allocstack and .endprolog, so the
#              assembler writes .pdata/.xdata itself. The dialect's prologue
#              (pushes, one sub) needs no .savereg/.savexmm128/.setframe.
#              Hex as 0NNh; a RIP-relative operand always has its size
#              (llvm-ml reads an unsized [symbol] as an absolute address); a
#              function without .globl is public all the same (llvm-ml 19
#              has no PROC PRIVATE).
#   nasm-elf   nasm or yasm -f elf64 (Intel syntax), SysV ABI: the elf flavour's
#              code, `global NAME:function [hidden] (size)`, .note.GNU-stack and
#              CET as in elf; no DWARF CFI (nasm has no directives for it).
#              yasm 1.3 knows no `note` section type (it warns): its
#              .note.gnu.property is PROGBITS, which ld ignores.
#   elf-win64  test only: the Win64 ABI code in an ELF64 object, no unwind
#              data, so C can call it through __attribute__((ms_abi)).
#
# The dialect (anything else dies naming the line)
#   AT&T syntax, SysV calling convention: arguments in rdi rsi rdx rcx r8 r9.
#   Comments: '#' to end of line (whole-line comments are kept in the output).
#   Labels: NAME: for functions, .Lname: for local labels (one namespace per
#   file; L..., L$... in macosx, nasm).
#   Directives:
#     .text                           the only section
#     .align N | .balign N | .p2align K   N bytes = 2^K, at most 4096
#     .globl NAME  .hidden NAME       (functions only)
#     .type NAME,@function,NARGS      every function; NARGS 0..6 (Win64 moves
#                                     that many arguments into SysV registers)
#     .size NAME,.-NAME               optional; ends the function (otherwise the
#                                     next function or the end of the file does)
#     .byte .short .value .long .quad constants (numbers or label differences)
#   Numbers: decimal or 0x hex (a leading 0 is refused: gas reads it as octal,
#   nasm as decimal). Immediates ($expr) are numeric; symbols appear only as
#   jump targets or as disp(%rip).
#   Instructions: GPR integer ops (mov add adc sub sbb and or xor cmp test not
#   neg inc dec mul imul div idiv lea shifts/rotates shld shrd bt* bswap xchg
#   mulx adcx adox andn bzhi shlx shrx sarx rorx lzcnt tzcnt popcnt jcc/jmp/loop
#   cmovcc setcc movz/movs*), with an AT&T size suffix where the operands do not
#   give the size. No call, no prefixes, no indirect jumps.
#   The AVX-512 instructions of the IFMA kernels (%VEC below: vpmadd52luq/huq,
#   vpbroadcastq, vbroadcasti64x2, vshufi64x2, vpunpcklqdq, vpunpckhqdq,
#   valignq, vpsrlq, vpandq, vpaddq, vpcmpuq, vmovdqu64, vmovq, vpxorq, kmovw,
#   vzeroupper, vpternlogq, vpermq, vpmovzxbq; and movups)
#   take vector registers xmm/ymm/zmm 0-31 and mask registers %k0-%k7; a
#   destination may carry an opmask, %ymm1{%k1} or {%k1}{z} (nasm:
#   ymm1{k1}{z}). Anything else with a vector register dies. xmm6-xmm15
#   are callee-saved on Win64: a function using any of 6-15 needs the
#   prologue's sub (see Win64 ABI below).
#
# Prologue/epilogue: the only forms that may move %rsp (unwind data is derived
# from them; anything else touching %rsp dies):
#     f:  push %reg64 ...               any number, nothing in between
#         sub $N,%rsp                   at most one, right after the pushes,
#                                       N a multiple of 8, N < 4096 (Windows
#                                       grows the stack one guard page at a time)
#     every ret is preceded directly by the exact reverse:
#         add $N,%rsp                   (when the prologue allocated N; the
#                                       Win64 unwinder knows no lea form
#                                       without a frame register)
#         pop %reg64 ...                (reverse order of the pushes)
#         ret
#   No red zone: memory below %rsp (negative displacement off %rsp) dies.
#
# Win64 ABI (mingw64, nasm, masm, elf-win64), inserted at each function entry:
#     push %rdi; push %rsi            (callee-saved on Win64, not in SysV)
#     mov %rcx,%rdi; mov %rdx,%rsi; mov %r8,%rdx; mov %r9,%rcx   (first NARGS)
#     mov 56(%rsp),%r8; mov 64(%rsp),%r9     (5th/6th: 40/48(%rsp) at entry)
#   and before each ret: pop %rsi; pop %rdi. A function using vector
#   registers 6-15 gets its sub enlarged by a 16-byte slot per register
#   (above its own N bytes, %rsp 16-aligned after it), the low 128 bits
#   saved there right after the sub (movups) and restored right before the
#   epilogue's add (the upper bits are volatile on Win64 too); the SysV
#   flavours change nothing. SEH: one .pdata RUNTIME_FUNCTION
#   per function and an UNWIND_INFO (version 1, no handler, no frame register)
#   in .xdata with UWOP_PUSH_NONVOL for rdi, rsi and each push,
#   UWOP_ALLOC_SMALL/ALLOC_LARGE for the sub and UWOP_SAVE_XMM128 for each
#   vector save (masm: .pushreg, .allocstack, .savexmm128); code offsets are
#   label differences the assembler resolves, so one description serves GNU
#   as and nasm. The epilogue form above is the one the Windows unwinder
#   recognises.
#
# DWARF CFI (elf, macosx, elf-win64) from the same prologue/epilogue analysis,
# when the caps say the assembler takes it ($caps->has('cfi')): the CFA
# offset after every push/sub/add/pop, .cfi_offset/.cfi_restore per saved
# register, remember/restore_state around each epilogue.
#
# Generated files always contain code: a dialect without instructions gets a
# lone `ret` under a local label (nasm -f win64 -g crashes on files without).
use strict;
use warnings;

# ---- registers: name => [bits, number 0-15 | 'rip', class] -----------------
my %REG;
{
	my @b64 = qw(rax rcx rdx rbx rsp rbp rsi rdi);
	my @b32 = qw(eax ecx edx ebx esp ebp esi edi);
	my @b16 = qw(ax cx dx bx sp bp si di);
	my @b8  = qw(al cl dl bl spl bpl sil dil);
	for my $i (0 .. 7) {
		$REG{ $b64[$i] } = [ 64, $i, 'gpr' ];
		$REG{ $b32[$i] } = [ 32, $i, 'gpr' ];
		$REG{ $b16[$i] } = [ 16, $i, 'gpr' ];
		$REG{ $b8[$i] }  = [ 8,  $i, 'gpr' ];
	}
	for my $i (8 .. 15) {
		$REG{"r$i"}  = [ 64, $i, 'gpr' ];
		$REG{"r${i}d"} = [ 32, $i, 'gpr' ];
		$REG{"r${i}w"} = [ 16, $i, 'gpr' ];
		$REG{"r${i}b"} = [ 8,  $i, 'gpr' ];
	}
	$REG{rip} = [ 64, 'rip', 'rip' ];
	$REG{"k$_"} = [ 16, $_, 'mask' ] for 0 .. 7;
	for my $i (0 .. 31) {
		$REG{"xmm$i"} = [ 128, $i, 'vec' ];
		$REG{"ymm$i"} = [ 256, $i, 'vec' ];
		$REG{"zmm$i"} = [ 512, $i, 'vec' ];
	}
}
my @R64 = qw(rax rcx rdx rbx rsp rbp rsi rdi r8 r9 r10 r11 r12 r13 r14 r15);

# ---- mnemonics ---------------------------------------------------------------
my @CC = qw(o no b c nae ae nb nc e z ne nz be na a nbe s ns p pe np po l nge ge nl le ng g nle);
my %PLAIN = map { $_ => 1 } qw(mov add adc sub sbb and or xor cmp test not neg inc dec
	mul imul div idiv lea push pop ret nop shl shr sar sal rol ror rcl rcr shld shrd
	bt bts btr btc bswap xchg mulx adcx adox andn bzhi shlx shrx sarx rorx lzcnt tzcnt
	popcnt lfence mfence sfence clc stc cmc cqo cdq cdqe cwde jmp loop jrcxz),
	(map { ("j$_", "cmov$_", "set$_") } @CC);
# The vector instructions (the IFMA kernels' AVX-512 ones, and movups for the
# Win64 vector saves): only these take vector and
# mask registers (EVEX forms; the caps decide whether they are emitted).
my %VEC = map { $_ => 1 } qw(vpmadd52luq vpmadd52huq vpbroadcastq vbroadcasti64x2
	vshufi64x2 vpunpcklqdq vpunpckhqdq valignq vpsrlq vpandq vpaddq vpcmpuq vmovdqu64 vmovq vpxorq
	kmovw vzeroupper vpternlogq vpermq vpmovzxbq movups);
my %SIZE = (b => 8, w => 16, l => 32, q => 64);
my %WORD = (8 => 'byte', 16 => 'word', 32 => 'dword', 64 => 'qword');
# AT&T names with no plain Intel twin: [intel, operand size, memory operand size]
my %ATT = (
	cqto => ['cqo'], cltq => ['cdqe'], cltd => ['cdq'], cwtl => ['cwde'],
	movabs => ['mov'], movabsq => ['mov', 64], retq => ['ret'],
	movzbw => ['movzx', 16, 8], movzbl => ['movzx', 32, 8], movzbq => ['movzx', 64, 8],
	movzwl => ['movzx', 32, 16], movzwq => ['movzx', 64, 16],
	movsbw => ['movsx', 16, 8], movsbl => ['movsx', 32, 8], movsbq => ['movsx', 64, 8],
	movswl => ['movsx', 32, 16], movswq => ['movsx', 64, 16], movslq => ['movsxd', 64, 32],
);
# Instructions that read, but never write, all their operands.
my %READONLY = map { $_ => 1 } qw(cmp test bt push), (map { "j$_" } @CC), qw(jmp loop jrcxz);

our $LINE;	# the statement being worked on, for error messages
our $VECTOR;	# the instruction is one of %VEC: vector and mask registers allowed

sub _die {
	my ($msg, $st) = @_;
	$st //= $LINE;
	die $st ? "Xlate: line $st->{line}: $msg: $st->{src}\n" : "Xlate: $msg\n";
}

# ---- expressions ---------------------------------------------------------------
# Tokens: identifiers, decimal or 0x numbers, + - * / ( ); returns the symbols.
sub _check_expr {
	my ($e, $what) = @_;
	my @syms;
	my $s = $e;
	_die("empty $what") if $s !~ /\S/;
	while (length $s) {
		if ($s =~ s/^\s+//) { }
		elsif ($s =~ s/^(\.L\w+|[A-Za-z_]\w*)//) { push @syms, $1; }
		elsif ($s =~ s/^(0[xX][0-9a-fA-F]+|[1-9][0-9]*|0)(?![\w.])//) { }
		elsif ($s =~ /^0[0-9]/) { _die("number with a leading 0 in $what '$e' (octal in gas, decimal in nasm): write it in decimal or 0x") }
		elsif ($s =~ s/^[-+*\/()]//) { }
		else { _die("cannot read $what '$e'") }
	}
	_die("'$_' in $what '$e' is a register; write registers as %$_") for grep { $REG{$_} } @syms;
	return @syms;
}

# Value of a numeric expression (checked first: digits, hex and operators only).
sub _value {
	my ($e, $what) = @_;
	_die("$what '$e' must be a number") if _check_expr($e, $what);
	(my $p = $e) =~ s/(0[xX][0-9a-fA-F]+)/hex($1)/ge;
	my $v = eval $p;	## no critic: $p holds only digits and + - * \/ ( )
	_die("cannot evaluate $what '$e'") unless defined $v;
	return $v;
}

# ---- parsing ---------------------------------------------------------------------
sub _reg {
	my ($name) = @_;
	my $r = $REG{$name} or _die("unknown register %$name");
	_die("%$name: vector registers are not part of the dialect outside its vector"
		. " instructions (" . join(' ', sort keys %VEC) . ")")
		if $r->[2] ne 'gpr' && $r->[2] ne 'rip' && !$VECTOR;
	return { k => 'reg', r => $name, bits => $r->[0], num => $r->[1], class => $r->[2] };
}

sub _operand {
	my ($s) = @_;
	$s =~ s/^\s+|\s+$//g;
	# EVEX: a destination under an opmask, {%k1}..{%k7}, optionally {z}eroing
	if ($VECTOR && $s =~ s/\{%(k[1-7])\}(\{z\})?$//) {
		my ($k, $z) = ($1, $2);
		my $o = _operand($s);
		_die("opmask {%$k} on something other than a vector register") unless ($o->{class} // '') eq 'vec';
		return { %$o, kmask => $k, zero => $z ? 1 : 0 };
	}
	return _reg($1) if $s =~ /^%(\w+)$/;
	if ($s =~ /^\$(.+)$/) {
		my $e = $1;
		_die("immediate \$$e names a symbol; take addresses with lea SYM(%rip)")
			if _check_expr($e, 'immediate');
		return { k => 'imm', e => $e };
	}
	if ($s =~ /^(.*?)\(\s*(?:%(\w+))?\s*(?:,\s*%(\w+)\s*(?:,\s*(\w+))?)?\s*\)$/) {
		my ($disp, $base, $index, $scale) = ($1, $2, $3, $4);
		my $m = { k => 'mem' };
		$disp =~ s/^\s+|\s+$//g;
		if (length $disp) {
			my @syms = _check_expr($disp, 'displacement');
			_die("symbol in a displacement needs %rip as base (position independence)")
				if @syms && !(defined $base && $base eq 'rip');
			$m->{disp} = $disp;
		}
		_die("memory operand without a base or index") unless defined $base || defined $index;
		if (defined $base) {
			my $b = _reg($base);
			_die("base %$base of a memory operand must be a 64-bit register")
				unless $b->{bits} == 64;
			$m->{base} = $base;
		}
		if (defined $index) {
			my $x = _reg($index);
			_die("index %$index must be a 64-bit register other than %rsp and %rip")
				unless $x->{bits} == 64 && $x->{class} eq 'gpr' && $index ne 'rsp';
			_die("%rip cannot be combined with an index") if ($base // '') eq 'rip';
			$scale //= 1;
			_die("scale $scale is not 1, 2, 4 or 8") unless $scale =~ /^[1248]$/;
			$m->{index} = $index;
			$m->{scale} = $scale;
		}
		return $m;
	}
	_die("indirect jumps/calls are not part of the dialect") if $s =~ /^\*/;
	if ($s =~ /^[A-Za-z_.]/) {
		_check_expr($s, 'operand');
		return { k => 'sym', e => $s };
	}
	_die("cannot read operand '$s'");
}

sub _split_operands {
	my ($s) = @_;
	my (@ops, $depth, $cur);
	($depth, $cur) = (0, '');
	for my $c (split //, $s) {
		$depth++ if $c eq '(';
		$depth-- if $c eq ')';
		if ($c eq ',' && $depth == 0) { push @ops, $cur; $cur = ''; next }
		$cur .= $c;
	}
	push @ops, $cur;
	_die('unbalanced parentheses') if $depth;
	return @ops;
}

# Resolve a mnemonic: (intel name, operand size or undef, memory size or undef).
sub _mnemonic {
	my ($mn) = @_;
	return @{ $ATT{$mn} } if $ATT{$mn};
	return ($mn) if $PLAIN{$mn} || $VEC{$mn};
	if ($mn =~ /^(\w+)([bwlq])$/ && $PLAIN{$1}) {
		return ($1, $SIZE{$2});
	}
	_die("unknown mnemonic '$mn'");
}

sub _insn {
	my ($st, $text) = @_;
	$text =~ /^([a-z][a-z0-9]*)(?:\s+(.*))?$/ or _die("cannot read instruction");
	my ($mn, $rest) = ($1, $2);
	local $VECTOR = $VEC{$mn};
	_die("call is not part of the dialect (the callee's ABI differs per flavour)") if $mn =~ /^call/;
	# operands first: a forbidden register is the better message
	$st->{ops} = [ defined $rest && $rest =~ /\S/ ? map { _operand($_) } _split_operands($rest) : () ];
	my ($intel, $size, $msize) = _mnemonic($mn);
	$st->{k} = 'insn';
	$st->{mn} = $mn;
	$st->{intel} = $intel;
	$st->{size} = $size;
	$st->{msize} = $msize;
	for my $o (@{ $st->{ops} }[0 .. $#{ $st->{ops} } - 1]) {
		_die("an opmask goes on the destination (the last operand)") if $o->{kmask};
	}
	for my $o (@{ $st->{ops} }) {
		_die("%rip is only a base register") if $o->{k} eq 'reg' && $o->{r} eq 'rip';
		_die("memory below %rsp: Win64 has no red zone, allocate with sub in the prologue")
			if $o->{k} eq 'mem' && $intel ne 'lea' && ($o->{base} // '') eq 'rsp'
			&& defined $o->{disp} && _value($o->{disp}, 'displacement') < 0;
		_die("symbol operand '$o->{e}' outside a jump") if $o->{k} eq 'sym' && $intel !~ /^(j|loop)/;
	}
	return $st;
}

my %DATA = (byte => 1, short => 2, value => 2, word => 2, long => 4, quad => 8);

sub _directive {
	my ($st, $name, $args) = @_;
	$args =~ s/\s+$//;
	my $sym = qr/[A-Za-z_]\w*/;
	if ($name eq 'text' && $args eq '') { $st->{k} = 'text' }
	elsif ($name eq 'align' || $name eq 'balign' || $name eq 'p2align') {
		my $v = _value($args, ".$name argument");
		my $bytes = $name eq 'p2align' ? 2**$v : $v;
		_die("alignment $bytes is not a power of 2 up to 4096")
			unless $bytes >= 1 && $bytes <= 4096 && ($bytes & ($bytes - 1)) == 0;
		@$st{qw(k bytes)} = ('align', $bytes);
	}
	elsif (($name eq 'globl' || $name eq 'global') && $args =~ /^($sym)$/) { @$st{qw(k name)} = ('globl', $1) }
	elsif ($name eq 'hidden' && $args =~ /^($sym)$/) { @$st{qw(k name)} = ('hidden', $1) }
	elsif ($name eq 'type') {
		$args =~ /^($sym)\s*,\s*\@function\s*,\s*(\d+)$/
			or _die('expected .type NAME,@function,NARGS (NARGS: integer arguments, 0..6)');
		_die("NARGS $2 > 6: stack arguments beyond the 6th are not translated") if $2 > 6;
		@$st{qw(k name nargs)} = ('type', $1, $2);
	}
	elsif ($name eq 'size') {
		$args =~ /^($sym)\s*,\s*\.\s*-\s*(\w+)$/ && $1 eq $2 or _die('expected .size NAME,.-NAME');
		@$st{qw(k name)} = ('size', $1);
	}
	elsif ($DATA{$name}) {
		my @e = map { s/^\s+|\s+$//gr } split /,/, $args;
		_check_expr($_, ".$name value") for @e;
		@$st{qw(k bytes exprs)} = ('data', $DATA{$name}, \@e);
	}
	else {
		_die("directive .$name is not part of the dialect (.text .align .balign .p2align .globl"
			. " .hidden .type .size .byte .short .value .long .quad)");
	}
	return $st;
}

sub parse {
	my ($text) = @_;
	my @st;
	my $n = 0;
	for my $src (split /\n/, $text) {
		$n++;
		$src =~ s/\s+$//;
		if ($src =~ /^\s*#\s?(.*)$/) {
			push @st, { k => 'comment', text => $1, line => $n, src => $src };
			next;
		}
		(my $line = $src) =~ s/#.*//;
		$line =~ s/^\s+|\s+$//g;
		next if $line eq '';
		$LINE = { line => $n, src => $src };
		_die("';' is not a statement separator in the dialect") if $line =~ /;/;
		while ($line =~ s/^(\.L\w+|[A-Za-z_]\w*):\s*//) {
			push @st, { k => 'label', name => $1, line => $n, src => $src };
		}
		next if $line eq '';
		my $st = { line => $n, src => $src };
		$LINE = $st;
		if ($line =~ /^\.(\w+)\s*(.*)$/) { push @st, _directive($st, $1, $2) }
		else { push @st, _insn($st, $line) }
	}
	undef $LINE;
	return \@st;
}

# ---- analysis: functions, prologues, epilogues --------------------------------------
sub _is_rsp { my ($o) = @_; $o->{k} eq 'reg' && $o->{class} eq 'gpr' && $o->{num} == 4 }

sub _is_push { my ($s) = @_; $s->{k} eq 'insn' && $s->{intel} eq 'push' }
sub _is_pop  { my ($s) = @_; $s->{k} eq 'insn' && $s->{intel} eq 'pop' }

# The N of `sub $N,%rsp` (sign 1) or `add $N,%rsp` (sign -1); undef otherwise.
sub _rsp_adjust {
	my ($s, $sign) = @_;
	return undef unless $s->{k} eq 'insn' && $s->{intel} eq ($sign > 0 ? 'sub' : 'add')
		&& @{ $s->{ops} } == 2 && $s->{ops}[0]{k} eq 'imm'
		&& _is_rsp($s->{ops}[1]) && $s->{ops}[1]{bits} == 64;
	return _value($s->{ops}[0]{e}, 'stack adjustment');
}

sub _writes_rsp {
	my ($s) = @_;
	my @ops = @{ $s->{ops} };
	return 0 if $READONLY{ $s->{intel} } || !@ops;
	my @dst = $s->{intel} eq 'xchg' ? @ops : $s->{intel} eq 'mulx' ? @ops[1, 2] : ($ops[-1]);
	return scalar grep { _is_rsp($_) } @dst;
}

sub analyse {
	my ($st) = @_;
	my (%fn, @order, %globl, %hidden);
	for my $s (@$st) {
		$LINE = $s;
		if ($s->{k} eq 'type') {
			_die("function $s->{name} declared twice") if $fn{ $s->{name} };
			$fn{ $s->{name} } = { name => $s->{name}, nargs => $s->{nargs} };
		}
		$globl{ $s->{name} } = $s if $s->{k} eq 'globl';
		$hidden{ $s->{name} } = $s if $s->{k} eq 'hidden';
	}
	for my $n (sort keys %globl, sort keys %hidden) {
		my $s = $globl{$n} // $hidden{$n};
		_die("$n is not a function (.type $n,\@function,NARGS)", $s) unless $fn{$n};
	}
	my %label;
	for my $i (0 .. $#$st) {
		my $s = $st->[$i];
		next unless $s->{k} eq 'label';
		_die("label $s->{name} defined twice", $s) if exists $label{ $s->{name} };
		$label{ $s->{name} } = $i;
	}
	for my $f (values %fn) {
		defined($f->{start} = $label{ $f->{name} })
			or die "Xlate: function $f->{name} has a .type but no label\n";
		$f->{globl} = $globl{ $f->{name} } ? 1 : 0;
		$f->{hidden} = $hidden{ $f->{name} } ? 1 : 0;
	}
	@order = sort { $a->{start} <=> $b->{start} } values %fn;
	for my $k (0 .. $#order) {
		my $f = $order[$k];
		my $end = $k < $#order ? $order[ $k + 1 ]{start} : scalar @$st;
		for my $i ($f->{start} + 1 .. $end - 1) {
			my $s = $st->[$i];
			if ($s->{k} eq 'size') {
				_die(".size $s->{name} inside function $f->{name}", $s) if $s->{name} ne $f->{name};
				$end = $i;
				last;
			}
			_die("section change inside function $f->{name}", $s) if $s->{k} eq 'text';
		}
		$f->{end} = $end;
	}
	my %owner;
	for my $f (@order) { $owner{$_} = $f for $f->{start} .. $f->{end} - 1 }
	for my $i (0 .. $#$st) {
		my $s = $st->[$i];
		$LINE = $s;
		_die(".size $s->{name}: no such function, or not at its end")
			if $s->{k} eq 'size' && !($fn{ $s->{name} } && $fn{ $s->{name} }{end} == $i);
		_die('instruction outside a function (.type NAME,@function,NARGS and NAME:)')
			if $s->{k} eq 'insn' && !$owner{$i};
	}
	_analyse_frame($st, $_) for @order;
	undef $LINE;
	return \@order;
}

sub _analyse_frame {
	my ($st, $f) = @_;
	my @code = grep { $st->[$_]{k} ne 'comment' } $f->{start} + 1 .. $f->{end} - 1;
	my (@push, %role);
	my $alloc = 0;
	my $j = 0;
	while ($j < @code && _is_push($st->[ $code[$j] ])) {
		my $s = $st->[ $code[$j] ];
		$LINE = $s;
		my $o = $s->{ops}[0];
		_die('prologue push takes one 64-bit general register other than %rsp')
			unless @{ $s->{ops} } == 1 && $o->{k} eq 'reg' && $o->{bits} == 64 && !_is_rsp($o);
		push @push, [ $o->{r}, $code[$j] ];
		_die('more than 16 pushes in a prologue') if @push > 16;	# SizeOfProlog is one byte
		$role{ $code[$j++] } = 'prologue';
	}
	if ($j < @code && defined(my $n = _rsp_adjust($st->[ $code[$j] ], 1))) {
		$LINE = $st->[ $code[$j] ];
		_die("stack allocation $n is not a positive multiple of 8") unless $n > 0 && $n % 8 == 0;
		_die("stack allocation $n >= 4096 would need stack probes on Windows") if $n >= 4096;
		$alloc = $n;
		$f->{alloc_at} = $code[$j];
		$f->{alloc_stmt} = $st->[ $code[$j] ];
		$role{ $code[$j++] } = 'prologue';
	}
	$f->{push} = \@push;
	$f->{alloc} = $alloc;
	$f->{xmm} = _win64_vectors($st, \@code);
	_die("$f->{name} uses %xmm" . join(', %xmm', @{ $f->{xmm} }) . " (callee-saved on Win64): its"
		. " prologue needs a sub \$N,%rsp, above which the Win64 flavours save them", $st->[ $f->{start} ])
		if @{ $f->{xmm} } && !$alloc;
	for my $k (0 .. $#code) {
		my $s = $st->[ $code[$k] ];
		next unless $s->{k} eq 'insn' && $s->{intel} eq 'ret';
		$LINE = $s;
		my $expect = join('; ', ($alloc ? "add \$$alloc,%rsp" : ()),
			(map { "pop %$_->[0]" } reverse @push), 'ret');
		my $p = $k - 1;
		$f->{epi_first}{ $code[$k] } = 1 unless @push || $alloc;
		for my $r (@push) {
			my $q = $p >= 0 ? $st->[ $code[$p] ] : undef;
			_die("epilogue does not undo the prologue (expected: $expect)")
				unless $q && _is_pop($q) && @{ $q->{ops} } == 1 && $q->{ops}[0]{k} eq 'reg'
				&& $q->{ops}[0]{r} eq $r->[0];
			$role{ $code[$p] } = 'epilogue';
			$f->{epi_first}{ $code[$p] } = 1 if !$alloc && $r == $push[-1];
			$p--;
		}
		if ($alloc) {
			my $q = $p >= 0 ? $st->[ $code[$p] ] : undef;
			my $n = $q ? _rsp_adjust($q, -1) : undef;
			_die("epilogue does not undo the prologue (expected: $expect)")
				unless defined $n && $n == $alloc;
			$role{ $code[$p] } = 'epilogue';
			$f->{epi_first}{ $code[$p] } = 1;
			push @{ $f->{free_at} }, $code[$p];
		}
	}
	$f->{role} = \%role;
	for my $i (@code) {
		my $s = $st->[$i];
		next if $s->{k} ne 'insn' || $role{$i};
		$LINE = $s;
		_die("push/pop outside the prologue/epilogue (unwind data could not describe it)")
			if _is_push($s) || _is_pop($s);
		_die("%rsp changed outside the prologue/epilogue (unwind data could not describe it)")
			if _writes_rsp($s);
	}
}

# The vector registers 6-15 (callee-saved on Win64) the instructions at
# indices @$code use, in order.
sub _win64_vectors {
	my ($st, $code) = @_;
	my %used;
	for my $s (map { $st->[$_] } @$code) {
		next unless $s->{k} eq 'insn';
		$_->{k} eq 'reg' && $_->{class} eq 'vec' && $_->{num} >= 6 && $_->{num} <= 15
			and $used{ $_->{num} } = 1 for @{ $s->{ops} };
	}
	return [ sort { $a <=> $b } keys %used ];
}

# Win64: f's frame with its vector saves (see the header): the slots' offsets
# from %rsp after the sub, the sub grown to cover them with %rsp 16-aligned.
sub _win64_frame {
	my ($f) = @_;
	return unless @{ $f->{xmm} };
	my $at = ($f->{alloc} + 15) & ~15;
	$f->{xmm_at} = [ map { [ $f->{xmm}[$_], $at + 16 * $_ ] } 0 .. $#{ $f->{xmm} } ];
	my $n = $at + 16 * @{ $f->{xmm} };
	# at entry %rsp = 8 mod 16; rdi, rsi and the pushes: 8 bytes each
	$n += 8 if (8 + 8 * (2 + @{ $f->{push} }) + $n) % 16;
	local $LINE = $f->{alloc_stmt};
	_die("stack allocation $n with the xmm saves >= 4096 would need stack probes on Windows")
		if $n >= 4096;
	$f->{alloc} = $n;
}

# ---- output -------------------------------------------------------------------------
# Name of a symbol in the flavour's syntax (.Lname is a local label).
sub _sym {
	my ($fl, $name) = @_;
	return $name =~ /^\.L(\w+)$/ ? "$fl->{local}$1" : "$fl->{global}$name";
}

sub _expr {
	my ($fl, $e) = @_;
	$e =~ s/(?<![\w.])(\.L\w+|[A-Za-z_]\w*)/_sym($fl, $1)/ge;
	$e =~ s/\b0[xX]([0-9a-fA-F]+)\b/0$1h/g if $fl->{hex_h};
	$e =~ s/\s+//g;
	return $e;
}

# {%k1}{z} after an EVEX destination, in the flavour's syntax.
sub _opmask {
	my ($o, $pct) = @_;
	return '' unless $o->{kmask};
	return "{$pct$o->{kmask}}" . ($o->{zero} ? '{z}' : '');
}

sub _gas_operand {
	my ($fl, $o) = @_;
	return "%$o->{r}" . _opmask($o, '%') if $o->{k} eq 'reg';
	return '$' . _expr($fl, $o->{e}) if $o->{k} eq 'imm';
	return _expr($fl, $o->{e}) if $o->{k} eq 'sym';
	my $s = defined $o->{disp} ? _expr($fl, $o->{disp}) : '';
	$s .= '(' . (defined $o->{base} ? "%$o->{base}" : '');
	$s .= ",%$o->{index},$o->{scale}" if defined $o->{index};
	return "$s)";
}

sub _nasm_operand {
	my ($fl, $o, $s) = @_;
	return $o->{r} . _opmask($o, '') if $o->{k} eq 'reg';
	return _expr($fl, $o->{e}) if $o->{k} eq 'imm' || $o->{k} eq 'sym';
	my $disp = defined $o->{disp} ? _expr($fl, $o->{disp}) : undef;
	my $m;
	my $rip = ($o->{base} // '') eq 'rip';
	if ($rip) {
		$m = $fl->{rel} . ($disp // 0);
	} else {
		my @t;
		push @t, $o->{base} if defined $o->{base};
		push @t, "$o->{index}*$o->{scale}" if defined $o->{index};
		$m = join('+', @t);
		$m .= $disp =~ /^-/ ? $disp : "+$disp" if defined $disp;
	}
	# The size keyword goes where the operands do not fix the size.
	my $bits = $s->{msize} // $s->{size};
	my $sized = $rip && $fl->{rip_sized};
	$bits = 64 if $s->{intel} eq 'lea' && $sized;
	if ($s->{intel} ne 'lea' || $sized) {
		my @regs = grep { $_->{k} eq 'reg' } @{ $s->{ops} };
		my $needs = !@regs || $s->{msize} || $s->{intel} =~ /^(sh|sa|ro|rc)[lr]$/;
		_die("operand size of a memory operand is unknown: add a size suffix (b/w/l/q)", $s)
			if $needs && !$bits;
		_die("a RIP-relative operand of unknown size (llvm-ml would read it as an absolute"
			. " address): the masm flavour takes one only with a size suffix", $s) if $sized && !$bits;
		return "$WORD{$bits}$fl->{ptr} [$m]" if $bits;
	}
	return "[$m]";
}

sub _gas_insn {
	my ($fl, $s) = @_;
	my $ops = join(',', map { _gas_operand($fl, $_) } @{ $s->{ops} });
	return "\t$s->{mn}" . (length $ops ? "\t$ops" : '');
}

sub _nasm_insn {
	my ($fl, $s) = @_;
	my $ops = join(', ', map { _nasm_operand($fl, $_, $s) } reverse @{ $s->{ops} });
	return "\t$s->{intel}" . (length $ops ? "\t$ops" : '');
}

sub _data_text {
	my ($fl, $bytes, @e) = @_;
	return "\t$fl->{data}{$bytes}\t" . join(',', map { _expr($fl, $_) } @e);
}

# The flavours: a syntax (gas or nasm) and an object format each. The
# entries hold everything that differs, so the output code below asks the
# entry and never the flavour's name:
#   local, global      prefixes of local labels (.Lname) and other symbols
#   comment, data      the comment character; the data directive per size
#   insn(S)            an instruction's text
#   section(A)         the lines that open the code (A: its largest .align)
#   align(N)           an alignment of N bytes
#   globl(NAME, F), hidden(NAME, F), type(NAME, F)   the directives' lines
#                      (F: the function NAME)
#   end_label(F)       F needs a label at its end (.pdata; nasm's ELF global)
#   size(F)            the lines after F's end label
#   fn_label(F)        the line that opens F (default: its label)
#   close              the lines that end the file
#   rel, ptr, rip_sized, hex_h   memory operands: what precedes a RIP-relative
#                      displacement, what follows the size word, whether a
#                      RIP-relative operand always has its size; 0NNh hex
#   seh_directives     Win64 unwind data from the assembler's prologue
#                      directives (_seh_directive) instead of tables
#   win64              Win64 ABI: arguments moved at entry, rdi/rsi saved
#   seh                Win64 unwind tables, written with rva (a format),
#                      pdata and xdata (the sections' opening lines) and
#                      xdata_align (before each UNWIND_INFO)
#   cfi                DWARF CFI where the caps say the assembler takes it
#   notes              ELF: the .note.GNU-stack line and the opening lines
#                      of .note.gnu.property; its presence also means CET
#                      (endbr64, the property) follows the build
# Every sub gets the entry first.
my %GAS = (
	local   => '.L', global => '', comment => '#',
	data    => { 1 => '.byte', 2 => '.short', 4 => '.long', 8 => '.quad' },
	insn    => \&_gas_insn,
	section => sub { "\t.text" },
	align   => sub { sprintf("\t.p2align\t%d", log($_[1]) / log(2) + 0.5) },
	globl   => sub { "\t.globl\t" . _sym($_[0], $_[1]) },
	hidden  => sub { () },
	type    => sub { () },
	end_label => sub { 0 },
	size    => sub { () },
	rva     => "\t.rva\t%s",
	pdata   => ["\t.section\t.pdata,\"dr\"", "\t.p2align\t2"],
	xdata   => ["\t.section\t.xdata,\"dr\""],
	xdata_align => "\t.p2align\t2",
);
my %GAS_ELF = (%GAS,
	cfi     => 1,
	hidden  => sub { "\t.hidden\t$_[1]" },
	type    => sub { "\t.type\t$_[1],\@function" },
	size    => sub { "\t.size\t$_[1]{name},.-$_[1]{name}" },
	notes   => { stack => "\t.section\t.note.GNU-stack,\"\",\@progbits",
	             property => ["\t.section\t.note.gnu.property,\"a\"", "\t.p2align\t3"] },
);
my %NASM = (
	local   => 'L$', global => '', comment => ';',
	data    => { 1 => 'db', 2 => 'dw', 4 => 'dd', 8 => 'dq' },
	insn    => \&_nasm_insn,
	rel     => 'rel ', ptr => '',
	align   => sub { "align\t$_[1]" },
	globl   => sub { "global\t$_[1]" },
	hidden  => sub { () },
	type    => sub { () },
	end_label => sub { 1 },
	size    => sub { () },
	rva     => "\tdd\t%s wrt ..imagebase",
	pdata   => ['section .pdata rdata align=4'],
	xdata   => ['section .xdata rdata align=4'],
	xdata_align => 'align 4',
);
my %FLAVOUR = (
	'elf'       => { %GAS_ELF },
	'elf-win64' => { %GAS_ELF, win64 => 1 },
	'macosx'    => { %GAS, local => 'L', global => '_', cfi => 1,
		section => sub { "\t.section\t__TEXT,__text,regular,pure_instructions" },
		hidden  => sub { "\t.private_extern\t" . _sym($_[0], $_[1]) } },
	'mingw64'   => { %GAS, win64 => 1, seh => 1,
		type    => sub { "\t.def\t$_[1];\t.scl\t" . ($_[2]{globl} ? 2 : 3) . ";\t.type\t32;\t.endef" },
		end_label => sub { 1 } },
	'nasm'      => { %NASM, win64 => 1, seh => 1,
		section => sub { ('default rel', "section .text code align=$_[1]") } },
	'nasm-elf'  => { %NASM,
		section => sub { ('default rel', "section .text align=$_[1]") },
		# nasm's ELF global carries type, visibility and size (up to an end label)
		globl   => sub { my ($fl, $name, $f) = @_;
			"global\t$name:function" . ($f->{hidden} ? ' hidden' : '')
			. ' (' . _sym($fl, ".Lxlate_${name}_end") . " - $name)" },
		end_label => sub { $_[1]{globl} },
		notes   => { stack => 'section .note.GNU-stack noalloc noexec nowrite progbits',
		             property => ['section .note.gnu.property note alloc noexec nowrite align=8'] } },
	'masm'      => { %NASM, win64 => 1, seh_directives => 1,
		rel     => '', ptr => ' PTR', rip_sized => 1, hex_h => 1,
		data    => { 1 => 'DB', 2 => 'DW', 4 => 'DD', 8 => 'DQ' },
		section => sub { "_TEXT\tSEGMENT ALIGN($_[1]) 'CODE'" },
		align   => sub { "ALIGN\t$_[1]" },
		globl   => sub { "PUBLIC\t$_[1]" },
		fn_label => sub { "$_[1]{name}\tPROC FRAME" },
		end_label => sub { 0 },
		size    => sub { "$_[1]{name}\tENDP" },
		close   => [ "_TEXT\tENDS", 'END' ] },
);

# AT&T text -> a statement, for what the translator inserts.
sub _make {
	my ($text) = @_;
	my $s = { line => 0, src => "(inserted) $text" };
	local $LINE = $s;
	return _insn($s, $text);
}

# Win64 entry: save rdi/rsi, move the arguments to the SysV registers.
sub _win64_entry {
	my ($nargs) = @_;
	my @move = ('movq %rcx,%rdi', 'movq %rdx,%rsi', 'movq %r8,%rdx', 'movq %r9,%rcx',
		'movq 56(%rsp),%r8', 'movq 64(%rsp),%r9');	# 40/48(%rsp) before the two pushes
	return (_make('pushq %rdi'), _make('pushq %rsi'), map { _make($_) } @move[ 0 .. $nargs - 1 ]);
}

# UNWIND_INFO bytes for one function: list of expressions, one per byte.
sub _unwind_info {
	my ($fl, $f) = @_;
	my $base = _sym($fl, $f->{name});
	my @ops;	# prologue order: [label, byte(s)]
	my %num;
	@num{@R64} = 0 .. 15;
	for my $p (@{ $f->{seh_push} }) { push @ops, [ $p->[1], [ $num{ $p->[0] } << 4 | 0 ] ] }
	if (my $n = $f->{alloc}) {
		# UWOP_ALLOC_SMALL up to 128; ALLOC_LARGE (op info 0: size/8 in the next
		# slot) covers the rest of the < 4096 the analysis allows
		my $codes = $n <= 128 ? [ ($n / 8 - 1) << 4 | 2 ] : [ 0 << 4 | 1, ($n / 8) & 0xff, ($n / 8) >> 8 ];
		push @ops, [ $f->{seh_alloc}, $codes ];
	}
	# UWOP_SAVE_XMM128: op info the register, its offset/16 in the next slot
	push @ops, [ $_->[2], [ $_->[0] << 4 | 8, ($_->[1] / 16) & 0xff, ($_->[1] / 16) >> 8 ] ]
		for @{ $f->{seh_xmm} // [] };
	my @slots;
	for my $op (reverse @ops) {
		my ($label, $b) = @$op;
		my $off = _sym($fl, $label) . "-$base";
		push @slots, [ $off, $b->[0] ];
		push @slots, [ $b->[$_], $b->[ $_ + 1 ] ] for grep { $_ % 2 } 1 .. $#$b;
	}
	my $count = @slots;
	push @slots, [ 0, 0 ] if $count % 2;
	my $prolog = _sym($fl, $f->{seh_end_prologue}) . "-$base";
	return (1, $prolog, $count, 0, map { @$_ } @slots);
}

# The .pdata RUNTIME_FUNCTION and the .xdata UNWIND_INFO of every function.
sub _seh_tables {
	my ($fl, $fns) = @_;
	my @out = @{ $fl->{pdata} };
	for my $f (@$fns) {
		push @out, map { sprintf($fl->{rva}, _sym($fl, $_)) }
			$f->{name}, $f->{seh_fn_end}, ".Lxlate_$f->{name}_info";
	}
	push @out, @{ $fl->{xdata} };
	for my $f (@$fns) {
		push @out, $fl->{xdata_align}, _sym($fl, ".Lxlate_$f->{name}_info") . ':',
			"\t$fl->{data}{1}\t" . join(',', _unwind_info($fl, $f));
	}
	return @out;
}

# The ELF sections after the code: .note.GNU-stack (no executable stack) and,
# when CET is on, the .note.gnu.property note.
sub _elf_notes {
	my ($fl, $bits) = @_;
	my @out = ($fl->{notes}{stack});
	return @out unless $bits;
	# psABI: n_namesz 4, n_descsz 16 (one 4-byte property padded to 8),
	# NT_GNU_PROPERTY_TYPE_0, "GNU\0", then pr_type GNU_PROPERTY_X86_FEATURE_1_AND,
	# pr_datasz 4, the feature bits, a zero word padding to 8.
	return (@out, @{ $fl->{notes}{property} },
		_data_text($fl, 4, 4, 16, 5), _data_text($fl, 1, qw(0x47 0x4e 0x55 0)),
		_data_text($fl, 4, '0xc0000002', 4, sprintf('0x%x', $bits), 0));
}

# ---- translation: one emitter per statement kind ------------------------------------
# They share the state $x of one translation: fl (the flavour's entry), out
# (the lines so far), cfi, cet (the GNU property bits), fnat (function by
# the index of its label), byname, prologue_at (statement index => [f,
# what, register]), cur (the function being emitted), cfa (its CFA offset
# from %rsp), body_cfa, seq (unwind labels so far), ncode (instructions).

# A prologue instruction's MASM unwind directive (what: push REG, alloc N or
# savexmm [REGNUM, OFFSET]).
sub _seh_directive {
	my ($what, $arg) = @_;
	return $what eq 'push' ? "\t.pushreg\t$arg" : $what eq 'alloc' ? "\t.allocstack\t$arg"
	     : "\t.savexmm128\txmm$arg->[0], $arg->[1]";
}

# A local label for unwind offsets: (its name, its definition).
sub _mark {
	my ($x, $f, $what) = @_;
	my $name = ".Lxlate_$f->{name}_$what";
	return ($name, _sym($x->{fl}, $name) . ':');
}

# After a prologue or epilogue instruction (push REG, alloc N, savexmm
# [REGNUM, OFFSET], pop REG, free N): the label SEH codes point at, and the
# CFI (a vector save moves no %rsp).
sub _frame_op {
	my ($x, $what, $arg) = @_;
	my $cur = $x->{cur};
	my $prologue = $what eq 'push' || $what eq 'alloc' || $what eq 'savexmm';
	if ($x->{fl}{seh_directives} && $prologue) {
		push @{ $x->{out} }, _seh_directive($what, $arg);
		push @{ $x->{out} }, "\t.endprolog" if ++$x->{nprologue} == $cur->{nprologue};
	}
	if ($x->{fl}{seh} && $prologue) {
		my ($l, $t) = _mark($x, $cur, 'p' . ++$x->{seq});
		push @{ $x->{out} }, $t;
		push @{ $cur->{seh_push} }, [ $arg, $l ] if $what eq 'push';
		$cur->{seh_alloc} = $l if $what eq 'alloc';
		push @{ $cur->{seh_xmm} }, [ @$arg, $l ] if $what eq 'savexmm';
		$cur->{seh_end_prologue} = $l;
	}
	return unless $x->{cfi} && $what ne 'savexmm';
	$x->{cfa} += { push => 8, pop => -8, alloc => $arg, free => -$arg }->{$what};
	push @{ $x->{out} }, "\t.cfi_def_cfa_offset\t$x->{cfa}";
	push @{ $x->{out} }, "\t.cfi_offset\t%$arg,-$x->{cfa}" if $what eq 'push';
	push @{ $x->{out} }, "\t.cfi_restore\t%$arg" if $what eq 'pop';
}

sub _end_function {
	my ($x, $f) = @_;
	my $fl = $x->{fl};
	push @{ $x->{out} }, "\t.cfi_endproc" if $x->{cfi};
	undef $x->{cur};
	if ($fl->{end_label}->($fl, $f)) {
		my ($l, $t) = _mark($x, $f, 'end');
		$f->{seh_fn_end} = $l;
		push @{ $x->{out} }, $t;
	}
	push @{ $x->{out} }, $fl->{size}->($fl, $f);
}

# A label; at a function's: CFI start, endbr64, the Win64 entry.
sub _emit_label {
	my ($x, $s, $i) = @_;
	my $fl = $x->{fl};
	my $f = $x->{fnat}{$i};
	push @{ $x->{out} }, $f && $fl->{fn_label} ? $fl->{fn_label}->($fl, $f) : _sym($fl, $s->{name}) . ':';
	return unless $f;
	@$x{qw(cur seq cfa nprologue)} = ($f, 0, 8, 0);
	# the Win64 entry's two pushes, the function's own, its allocation and
	# vector saves
	$f->{nprologue} = 2 + @{ $f->{push} } + (defined $f->{alloc_at} ? 1 : 0) + @{ $f->{xmm_at} // [] };
	push @{ $x->{out} }, "\t.cfi_startproc" if $x->{cfi};
	push @{ $x->{out} }, _data_text($fl, 1, qw(0xf3 0x0f 0x1e 0xfa)) . "\t$fl->{comment} endbr64"
		if $x->{cet} & 1 && $f->{globl};
	return unless $fl->{win64};
	$f->{seh_push} = [];
	for my $e (_win64_entry($f->{nargs})) {
		push @{ $x->{out} }, $fl->{insn}->($fl, $e);
		_frame_op($x, 'push', $e->{ops}[0]{r}) if _is_push($e);
	}
}

# An instruction, with the Win64 exit before a ret and the unwind data of
# prologue and epilogue instructions.
sub _emit_insn {
	my ($x, $s, $i) = @_;
	my ($fl, $cur) = @$x{qw(fl cur)};
	$x->{ncode}++;
	my $ret = $s->{intel} eq 'ret';
	if ($x->{cfi} && $cur->{epi_first}{$i}) {
		push @{ $x->{out} }, "\t.cfi_remember_state";
		$x->{body_cfa} = $x->{cfa};
	}
	if ($cur->{epi_first}{$i} && $cur->{xmm_at}) {	# Win64: the vector saves back
		push @{ $x->{out} }, $fl->{insn}->($fl, _make("movups $_->[1](%rsp),%xmm$_->[0]"))
			for @{ $cur->{xmm_at} };
	}
	if ($fl->{win64} && $ret) {
		for my $reg (qw(rsi rdi)) {
			push @{ $x->{out} }, $fl->{insn}->($fl, _make("popq %$reg"));
			_frame_op($x, 'pop', $reg);
		}
	}
	push @{ $x->{out} }, $fl->{insn}->($fl, $s);
	if (my $p = $x->{prologue_at}{$i}) {
		_frame_op($x, $p->[1], $p->[1] eq 'push' ? $p->[2] : $cur->{alloc});
		for my $v ($p->[1] eq 'alloc' ? @{ $cur->{xmm_at} // [] } : ()) {
			push @{ $x->{out} }, $fl->{insn}->($fl, _make("movups %xmm$v->[0],$v->[1](%rsp)"));
			_frame_op($x, 'savexmm', $v);
		}
	}
	elsif (($cur->{role}{$i} // '') eq 'epilogue') {
		if (_is_pop($s)) { _frame_op($x, 'pop', $s->{ops}[0]{r}) }
		else { _frame_op($x, 'free', $cur->{alloc}) }
	}
	if ($x->{cfi} && $ret) {
		push @{ $x->{out} }, "\t.cfi_restore_state";
		$x->{cfa} = $x->{body_cfa};
	}
}

# A directive naming a function: the flavour's lines for it.
sub _directive_emitter {
	my ($what) = @_;
	return sub {
		my ($x, $s) = @_;
		push @{ $x->{out} }, $x->{fl}{$what}->($x->{fl}, $s->{name}, $x->{byname}{ $s->{name} });
	};
}

my %EMIT = (
	comment => sub { my ($x, $s) = @_; push @{ $x->{out} }, "$x->{fl}{comment} $s->{text}" },
	text    => sub { },	# the only section; opened at the start
	size    => sub { },	# its lines come at the function's end
	align   => sub { my ($x, $s) = @_; push @{ $x->{out} }, $x->{fl}{align}->($x->{fl}, $s->{bytes}) },
	data    => sub { my ($x, $s) = @_; push @{ $x->{out} }, _data_text($x->{fl}, $s->{bytes}, @{ $s->{exprs} }) },
	globl   => _directive_emitter('globl'),
	hidden  => _directive_emitter('hidden'),
	type    => _directive_emitter('type'),
	label   => \&_emit_label,
	insn    => \&_emit_insn,
);

sub translate {
	my ($text, $flavour, $caps) = @_;
	my $fl = $FLAVOUR{ $flavour // '' }
		or die "Xlate: unknown flavour '" . ($flavour // '') . "' (" . join(' ', sort keys %FLAVOUR) . ")\n";
	die "Xlate: translate needs the Asmcap object (Asmcap->load(FILE)) as third argument\n"
		unless ref $caps && $caps->can('build');
	die "Xlate: " . $caps->file . " describes an " . $caps->arch . " toolchain; the dialect is x86_64\n"
		unless $caps->arch eq 'x86_64';
	die "Xlate: " . $caps->file . " describes an ILP32 (x32) build; the dialect assumes 64-bit pointers\n"
		if $caps->build('ilp32');
	my $st = parse($text);
	my $fns = analyse($st);
	my $x = { fl => $fl, out => [], ncode => 0,
		cfi => $fl->{cfi} && $caps->known('cfi') && $caps->has('cfi'),
		cet => $fl->{notes} ? ($caps->build('cet_ibt') ? 1 : 0) | ($caps->build('cet_shstk') ? 2 : 0) : 0,
		fnat => { map { $_->{start} => $_ } @$fns }, byname => { map { $_->{name} => $_ } @$fns } };
	my %endat;
	push @{ $endat{ $_->{end} } }, $_ for @$fns;
	for my $f (@$fns) {
		if ($fl->{win64} && _win64_frame($f)) {	# the sub and adds grown
			$st->[ $f->{alloc_at} ] = _make("subq \$$f->{alloc},%rsp");
			$st->[$_] = _make("addq \$$f->{alloc},%rsp") for @{ $f->{free_at} };
		}
		$x->{prologue_at}{ $_->[1] } = [ $f, 'push', $_->[0] ] for @{ $f->{push} };
		$x->{prologue_at}{ $f->{alloc_at} } = [ $f, 'alloc' ] if defined $f->{alloc_at};
	}
	my $maxalign = 16;
	$_->{k} eq 'align' && $_->{bytes} > $maxalign and $maxalign = $_->{bytes} for @$st;
	push @{ $x->{out} }, $fl->{section}->($fl, $maxalign);
	for my $i (0 .. $#$st) {
		$LINE = $st->[$i];
		_end_function($x, $_) for @{ $endat{$i} // [] };
		my $emit = $EMIT{ $st->[$i]{k} } or _die("internal: statement kind $st->[$i]{k}");
		$emit->($x, $st->[$i], $i);
	}
	_end_function($x, $_) for @{ $endat{ scalar @$st } // [] };
	undef $LINE;
	# every generated file holds code (see the header)
	push @{ $x->{out} }, _sym($fl, '.Lxlate_empty') . ':', "\tret" unless $x->{ncode};
	push @{ $x->{out} }, _seh_tables($fl, $fns) if $fl->{seh} && @$fns;
	push @{ $x->{out} }, _elf_notes($fl, $x->{cet}) if $fl->{notes};
	push @{ $x->{out} }, @{ $fl->{close} } if $fl->{close};
	return join("\n", @{ $x->{out} }) . "\n";
}

# perl perlasm/Xlate.pm FLAVOUR CAPS.json [IN] > OUT
unless (caller) {
	require File::Basename;
	unshift @INC, File::Basename::dirname(__FILE__);
	require Asmcap;
	die "usage: perl Xlate.pm FLAVOUR CAPS.json [DIALECT.s] > OUT\n" unless @ARGV == 2 || @ARGV == 3;
	my ($flavour, $file, $in) = @ARGV;
	my $caps = Asmcap->load($file);
	my $fh = \*STDIN;
	if (defined $in) { open($fh, '<', $in) or die "Xlate: cannot read $in: $!\n" }
	my $text = do { local $/; <$fh> };
	print translate($text, $flavour, $caps);
}

1;
