/* Subcommands.  main.c parses nothing but the subcommand name and hands
 * the remaining argv to one of these; each returns the process exit code
 * (0 ok, 1 a requirement failed, 2 usage, 3 toolchain unusable). */
#ifndef ASMCAP_CMDS_H
#define ASMCAP_CMDS_H

int cmd_probe(int argc, char **argv);     /* default; also list, explain */
int cmd_list(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_cpu(int argc, char **argv);
int cmd_audit(int argc, char **argv);     /* audit.c */
int cmd_legacy(int argc, char **argv);    /* legacy.c */
int cmd_cc_flag(int argc, char **argv);   /* ccprobe.c */
int cmd_cc_probe(int argc, char **argv);  /* cprobe.c */
int cmd_frame(int argc, char **argv);     /* frame.c */
int cmd_choose(int argc, char **argv);    /* choose.c */

#endif
