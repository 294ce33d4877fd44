# feature: zfa
# summary: Additional floating point FLI/FMINM/FMAXM/FROUND(NX)/FLEQ/FLTQ/FCVTMOD.W.D (FMVH.X.D/FMVP.D.X are RV32-only)
# enable: .option arch, +zfa
# hwprobe: key=4 bit=32
# expect: 53 a5 c5 2a
# since: ratified RISC-V extension; assembled here by clang-19, clang-22
# audit: f9f0707f f0100053 ; f800607f 28002053 ; f9e0007f 40400053 ; f800607f a0004053 ; fff0707f c2801053
	fminm.d	fa0, fa1, fa2
