# SPDX-License-Identifier: MIT
# asmcap.m4 — verified assembler and compiler capabilities for autoconf.
#
# ASMCAP_CHECK([FEATURES], [ACTION-IF-ALL-YES], [ACTION-IF-NOT], [TEMPLATE-DIRS])
# ASMCAP_CC_PROBE([PROBES], [ACTION-IF-ALL-YES], [ACTION-IF-NOT])
# ASMCAP_CC_FLAG([FLAGS], [ACTION-IF-ALL-YES], [ACTION-IF-NOT])
#
# Put m4_pattern_forbid([^ASMCAP_(CHECK|CC_FLAG|CC_PROBE)$]) in configure.ac
# before the first use: when aclocal cannot find this file, autoreconf then
# stops ("possibly undefined macro") instead of writing a configure that
# dies at the literal macro name.
#
# ASMCAP_CHECK probes the configured $CC with $CPPFLAGS $CFLAGS (`asmcap
# --format sh', one run for all FEATURES not already cached), ASMCAP_CC_PROBE
# the C-level probes (`asmcap cc-probe'), ASMCAP_CC_FLAG whether $CC accepts
# each flag (`asmcap cc-flag').  For each answer it sets the cache variable
# asmcap_cv_NAME to yes or no (`./configure -C' and command-line overrides
# such as `./configure asmcap_cv_adx=no' work like any cache variable), the
# shell variable of `asmcap --format sh' to the same answer, and AC_DEFINEs
# that variable when yes.  Names, upper case with punctuation as '_':
#   ASMCAP_CHECK([adx sha3])          asmcap_cv_adx        ASMCAP_ADX
#   ASMCAP_CC_PROBE([adx-inline])     asmcap_cv_c_adx_inline   ASMCAP_C_ADX_INLINE
#   ASMCAP_CC_FLAG([-mavx2])          asmcap_cv_cflag_mavx2    ASMCAP_CFLAG_MAVX2
# A feature with a second answer (aarch64, arm, riscv64: the build's own
# -march enables it without its directive) also gets asmcap_cv_NAME_flags,
# $ASMCAP_NAME_FLAGS and the define ASMCAP_NAME_FLAGS.  ASMCAP_CHECK keeps
# $ASMCAP_ARCH (asmcap_cv_arch; empty only when no probe ever ran because
# every answer was given on the command line).  A feature of another
# architecture is "no", and configure says "skipped"; the reason asmcap gives
# for any other "no" is printed beside it.  The command and its output go
# to config.log.  When asmcap itself fails (toolchain unusable, exit 3)
# configure stops with asmcap's own message: that is an error, not a "no".
#
# TEMPLATE-DIRS: the project's own catalog additions (DIR/x86_64/NAME.s, the
# catalog's format), e.g. [$srcdir/asm-templates]: a new NAME adds a
# feature, a catalog name replaces it.  They are passed to asmcap after any
# the user gives in $ASMCAP_ADD_TEMPLATES (':'-separated), and win over them.
#
# Cross builds (--host) work the same: the configured $CC (e.g.
# CC="clang-19 --target=aarch64-linux-gnu") is what is probed.
#
# Set ASMCAP to the program to use (default: asmcap from PATH).

m4_pattern_forbid([^ASMCAP_(CHECK|CC_FLAG|CC_PROBE)$])

AC_DEFUN([_ASMCAP_PROG],
[AC_REQUIRE([AC_PROG_CC])dnl
AC_ARG_VAR([ASMCAP], [asmcap, the assembler capability probe])dnl
AC_ARG_VAR([ASMCAP_ADD_TEMPLATES], [directories of templates asmcap adds to its catalog (':'-separated)])dnl
AC_PATH_PROG([ASMCAP], [asmcap], [no])
AS_IF([test "x$ASMCAP" = xno],
  [AC_MSG_ERROR([asmcap not found in PATH; install it or set ASMCAP=/path/to/asmcap])])
])

# _ASMCAP_ID(NAME): NAME as asmcap spells it in a variable (leading dashes
# dropped, upper case, other punctuation as '_').
m4_define([_ASMCAP_ID],
[m4_toupper(m4_translit(m4_bpatsubst([$1], [^-*]), [-=,+./:], [_______]))])

# _ASMCAP_ANSWERS(NAMES, INFIX, SEPARATOR, SUBCOMMAND, LIST-OPTION, QUESTION,
#                 IF-ALL-YES, IF-NOT, TEMPLATE-DIRS): what the three macros share.
AC_DEFUN([_ASMCAP_ANSWERS],
[AC_REQUIRE([_ASMCAP_PROG])dnl
asmcap_todo=
m4_foreach_w([asmcap_n], [$1],
[AS_VAR_SET_IF([asmcap_cv_]m4_tolower([$2]_ASMCAP_ID(asmcap_n)), [],
  [asmcap_todo="${asmcap_todo:+$asmcap_todo$3}asmcap_n"])
])dnl
asmcap_sh=
AS_IF([test -n "$asmcap_todo"],
[asmcap_add=$ASMCAP_ADD_TEMPLATES
m4_ifval([$9], [for asmcap_d in $9; do asmcap_add="${asmcap_add:+$asmcap_add:}$asmcap_d"; done
])dnl
 AS_ECHO(["$as_me:$LINENO: ASMCAP_ADD_TEMPLATES='$asmcap_add' $ASMCAP[]m4_ifval([$4], [ $4]) --cc '$CC' --cflags '$CPPFLAGS $CFLAGS' --format sh $5 $asmcap_todo"]) >&AS_MESSAGE_LOG_FD
 AS_IF([asmcap_sh=`ASMCAP_ADD_TEMPLATES="$asmcap_add" "$ASMCAP" m4_ifval([$4], [$4 ])--cc "$CC" --cflags "$CPPFLAGS $CFLAGS" --format sh $5 $asmcap_todo 2>conftest.asmcap`],
   [asmcap_rc=0], [asmcap_rc=$?])
 AS_ECHO(["$asmcap_sh"]) >&AS_MESSAGE_LOG_FD
 cat conftest.asmcap >&AS_MESSAGE_LOG_FD
 AS_IF([test $asmcap_rc != 0],
   [asmcap_err=`cat conftest.asmcap`; rm -f conftest.asmcap
    AC_MSG_ERROR([asmcap failed (exit $asmcap_rc): $asmcap_err])])
 rm -f conftest.asmcap])
asmcap_all=yes
m4_foreach_w([asmcap_n], [$1], [_ASMCAP_ANSWER(asmcap_n, [$2], [$6])
])dnl
AS_IF([test "$asmcap_all" = yes], [$7], [$8])
])

# _ASMCAP_ANSWER(NAME, INFIX, QUESTION): one answer from $asmcap_sh (or the
# cache) to the cache variables, the shell variables, config.h and the
# "checking" line.  The reason is the comment asmcap writes above the line.
# Only the answers asked for are read (an eval of the whole output would
# reset those of an earlier call to "unprobed").
# Only catalog features (no INFIX) can have the second answer.
AC_DEFUN([_ASMCAP_ANSWER],
[m4_pushdef([asmcap_V], [ASMCAP_$2]_ASMCAP_ID([$1]))dnl
m4_pushdef([asmcap_cv], [asmcap_cv_]m4_tolower([$2]_ASMCAP_ID([$1])))dnl
AC_MSG_CHECKING([$3 $1])
AC_CACHE_VAL([asmcap_cv],
  [asmcap_cv=`AS_ECHO(["$asmcap_sh"]) | sed -n 's/^asmcap_V=//p'`
   test "x$asmcap_cv" = xyes || asmcap_cv=no
   asmcap_cv[]_why=`AS_ECHO(["$asmcap_sh"]) | sed -n '/^asmcap_V=/{x;s/^@%:@ //p;};h'`
   asmcap_flags=`AS_ECHO(["$asmcap_sh"]) | sed -n 's/^asmcap_V[]_FLAGS=//p'`
   AS_IF([test -n "$asmcap_flags"], [asmcap_cv[]_flags=$asmcap_flags])])
asmcap_V=$asmcap_cv
AS_IF([test "x$asmcap_cv" = xyes],
  [AC_MSG_RESULT([yes])
   AC_DEFINE(asmcap_V, [1], [Define to 1 if the toolchain passes asmcap's check of $1.])],
  [asmcap_all=no
   AS_CASE([$asmcap_cv[]_why],
     [''], [AC_MSG_RESULT([no])],
     [skipped:*|disabled:*|broken:*|no:*], [AC_MSG_RESULT([$asmcap_cv[]_why])],
     [AC_MSG_RESULT([no ($asmcap_cv[]_why)])])])
m4_if([$2], [], [AS_VAR_SET_IF([asmcap_cv[]_flags],
  [AS_IF([test "x$asmcap_cv" = xyes && test "x$asmcap_cv[]_flags" = xyes],
     [asmcap_V[]_FLAGS=yes
      AC_DEFINE(asmcap_V[]_FLAGS, [1], [Define to 1 if the build's own flags enable $1 without its directive (asmcap).])],
     [asmcap_V[]_FLAGS=no])])
])dnl
m4_popdef([asmcap_cv])dnl
m4_popdef([asmcap_V])dnl
])

AC_DEFUN([ASMCAP_CHECK],
[_ASMCAP_ANSWERS([$1], [], [,], [], [--features], [whether $CC can assemble], [$2], [$3], [$4])
AS_IF([test -n "$asmcap_sh"],
  [asmcap_cv_arch=`AS_ECHO(["$asmcap_sh"]) | sed -n 's/^ASMCAP_ARCH=//p'`])
ASMCAP_ARCH=$asmcap_cv_arch
])

AC_DEFUN([ASMCAP_CC_PROBE],
[_ASMCAP_ANSWERS([$1], [C_], [,], [cc-probe], [--features], [whether $CC compiles], [$2], [$3])])

AC_DEFUN([ASMCAP_CC_FLAG],
[_ASMCAP_ANSWERS([$1], [CFLAG_], [ ], [cc-flag], [--], [whether $CC accepts], [$2], [$3])])
