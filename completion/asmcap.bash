# SPDX-License-Identifier: MIT
# bash completion for asmcap(1): subcommands, each one's options and the
# values its usage lists for them (read from the subcommand's own --help,
# so they follow the tool), feature names (from `asmcap list`), and files,
# directories or commands where an option or argument takes one.
# make install puts it in share/bash-completion/completions/asmcap, where
# bash-completion loads it the first time asmcap is completed.

# The usage text of subcommand $2 of the asmcap at $1 (probe's is the global one).
_asmcap_help()
{
	if [ "$2" = probe ]; then
		"$1" --help 2>/dev/null
	else
		"$1" "$2" --help 2>/dev/null
	fi
}

# Every feature name of every architecture's catalog.
_asmcap_features()
{
	"$1" list 2>/dev/null | awk '/^  [a-z0-9]/ { print $1 }' | sort -u
}

_asmcap()
{
	local tool=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local cmd=probe subs help w values
	COMPREPLY=()
	# --opt=value: bash splits at the `=' (COMP_WORDBREAKS)
	[ "$cur" = = ] && cur=
	[ "$prev" = = ] && prev=${COMP_WORDS[COMP_CWORD-2]}
	# the subcommands the global usage names: `asmcap [probe]', `asmcap list ...',
	# `asmcap cpu | audit | ...'
	subs=$("$tool" --help 2>/dev/null | sed -n -e 's/^usage: asmcap \[\([a-z]*\)\].*/\1/p' \
		-e 's/^ *asmcap \([a-z][a-z| -]*\).*/\1/p' | tr '|' ' ')
	if [ "$COMP_CWORD" -eq 1 ] && [[ $cur != -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$subs" -- "$cur")
		return
	fi
	for w in $subs; do
		[ "${COMP_WORDS[1]}" = "$w" ] && cmd=$w
	done
	# after `--' every word is data (cc-flag's flags under test), never an option
	for w in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
		[ "$w" = -- ] && return
	done
	help=$(_asmcap_help "$tool" "$cmd")
	case $prev in
	--features|--require|--disable|--expect)
		# a comma list: complete its last name
		local last=${cur##*,}
		mapfile -t COMPREPLY < <(compgen -P "${cur%"$last"}" -W "$(_asmcap_features "$tool")" -- "$last")
		return ;;
	--cc|--as|--nasm|--masm)
		mapfile -t COMPREPLY < <(compgen -c -- "$cur")
		return ;;
	--templates|--add-templates)
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		return ;;
	-o|--cache|--log|--baseline)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return ;;
	esac
	if [[ $prev == -* ]]; then
		# an option whose usage lists its values: `[--format text|json]', `[--mode S|s]'
		values=$(printf '%s\n' "$help" | grep -oE -- "[[ ]$prev [^] ]+" | head -n 1)
		values=${values#*"$prev "}
		if [[ $values == *"|"* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "${values//|/ }" -- "$cur")
			return
		fi
		# another option that takes a value (a count, seconds): nothing to offer
		[[ $values == [A-Z]* ]] && return
	fi
	if [[ $cur == -* ]]; then
		# the options of the usage lines (the first and those that go on
		# with `[' or `-'), not words of the description below them
		mapfile -t COMPREPLY < <(compgen -W "$(printf '%s\n' "$help" |
			awk 'NR == 1 || (go && /^ +[[-]/) { print; next } { go = 0 }' go=1 |
			grep -oE -- '(^|[[ ])--?[a-z][a-z-]*' | tr -d '[ ' | sort -u) --help" -- "$cur")
		return
	fi
	case $cmd in
	explain) mapfile -t COMPREPLY < <(compgen -W "$(_asmcap_features "$tool")" -- "$cur") ;;
	audit|diff|frame|choose) mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
	esac
}
complete -F _asmcap asmcap
