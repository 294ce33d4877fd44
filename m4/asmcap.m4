# asmcap.m4 — verified assembler capabilities for autoconf.
#
# ASMCAP_CHECK([FEATURES], [ACTION-IF-ALL-YES], [ACTION-IF-NOT], [TEMPLATE-DIRS])
#
# TEMPLATE-DIRS: the project's own catalog additions (DIR/x86_64/NAME.s, the
# catalog's format), e.g. [$srcdir/asm-templates]: a new NAME adds a
# feature, a catalog name replaces it.  They are passed to asmcap after any
# the user gives in $ASMCAP_ADD_TEMPLATES (':'-separated), and win over them.
#
# Probes the configured $CC with $CPPFLAGS $CFLAGS (one asmcap run for all
# FEATURES not already cached), then for each feature sets the cache
# variable asmcap_cv_FEATURE to yes or no and AC_DEFINEs ASMCAP_FEATURE
# (upper case, '-' as '_') when yes.  `./configure -C` and command-line
# overrides (`./configure asmcap_cv_adx=no`) work like any cache variable.
# When asmcap itself fails (toolchain unusable, exit 3) configure stops with
# asmcap's own message: that is an error, not a "no".
#
# Cross builds (--host) work the same: the configured $CC (e.g.
# CC="clang-19 --target=aarch64-linux-gnu") is what is probed, and a
# feature of another architecture is "no" (asmcap says skipped).  The
# shell variables of `asmcap --format sh` stay set for configure.ac:
# $ASMCAP_ARCH, and $ASMCAP_FEATURE_FLAGS where a feature has the second
# answer (its directive not needed: the build's -march enables it).
#
# Set ASMCAP to the program to use (default: asmcap from PATH).

AC_DEFUN([ASMCAP_CHECK],
[AC_REQUIRE([AC_PROG_CC])dnl
AC_ARG_VAR([ASMCAP], [asmcap, the assembler capability probe])dnl
AC_ARG_VAR([ASMCAP_ADD_TEMPLATES], [directories of templates asmcap adds to its catalog (':'-separated)])dnl
AC_PATH_PROG([ASMCAP], [asmcap], [no])
AS_IF([test "x$ASMCAP" = xno],
  [AC_MSG_ERROR([asmcap not found in PATH; install it or set ASMCAP=/path/to/asmcap])])
asmcap_todo=
m4_foreach_w([asmcap_f], [$1],
[AS_VAR_SET_IF([asmcap_cv_]m4_translit(asmcap_f, [-], [_]), [],
  [asmcap_todo="$asmcap_todo,asmcap_f"])
])dnl
asmcap_add=$ASMCAP_ADD_TEMPLATES
m4_ifval([$4], [for asmcap_d in $4; do asmcap_add="$asmcap_add:$asmcap_d"; done
])dnl
AS_IF([test -n "$asmcap_todo"],
[AS_ECHO(["$as_me:$LINENO: ASMCAP_ADD_TEMPLATES=$asmcap_add $ASMCAP --cc $CC --cflags '$CPPFLAGS $CFLAGS' --features ${asmcap_todo#,} --format sh"]) >&AS_MESSAGE_LOG_FD
 AS_IF([asmcap_sh=`ASMCAP_ADD_TEMPLATES="$asmcap_add" "$ASMCAP" --cc "$CC" --cflags "$CPPFLAGS $CFLAGS" --features "${asmcap_todo#,}" --format sh 2>conftest.asmcap`],
   [],
   [asmcap_err=`cat conftest.asmcap`; rm -f conftest.asmcap
    AC_MSG_ERROR([asmcap failed: $asmcap_err])])
 rm -f conftest.asmcap
 eval "$asmcap_sh"])
asmcap_all=yes
m4_foreach_w([asmcap_f], [$1],
[m4_pushdef([asmcap_v], m4_translit(asmcap_f, [-], [_]))dnl
AC_CACHE_CHECK([whether $CC can assemble ]asmcap_f, [asmcap_cv_]asmcap_v,
  [asmcap_cv_[]asmcap_v=$ASMCAP_[]m4_toupper(asmcap_v)
   test "x$asmcap_cv_[]asmcap_v" = xyes || asmcap_cv_[]asmcap_v=no])
AS_IF([test "x$asmcap_cv_[]asmcap_v" = xyes],
  [AC_DEFINE([ASMCAP_]m4_toupper(asmcap_v), [1],
     [Define to 1 if the toolchain assembles ]asmcap_f[ (verified by asmcap).])],
  [asmcap_all=no])
m4_popdef([asmcap_v])dnl
])dnl
AS_IF([test "$asmcap_all" = yes], [$2], [$3])
])
