/* Subcommands.  main.c parses nothing but the subcommand name and hands
 * the remaining argv to one of these; each returns the process exit code
 * (0 ok, 1 a requirement failed, 2 usage or output, 3 toolchain
 * unusable, 4 out of memory).  Each lives in probe/cmd/. */
#ifndef ASMCAP_CMDS_H
#define ASMCAP_CMDS_H

int cmd_probe(int argc, char **argv);     /* probe.c: the default */
int cmd_list(int argc, char **argv);      /* probe.c */
int cmd_explain(int argc, char **argv);   /* probe.c */
int cmd_cpu(int argc, char **argv);       /* cpu.c */
int cmd_audit(int argc, char **argv);     /* audit.c */
int cmd_legacy(int argc, char **argv);    /* legacy.c */
int cmd_cc_flag(int argc, char **argv);   /* cc-flag.c */
int cmd_cc_probe(int argc, char **argv);  /* cc-probe.c */
int cmd_frame(int argc, char **argv);     /* frame.c */
int cmd_choose(int argc, char **argv);    /* choose.c */

#endif
