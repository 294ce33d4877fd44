# feature: mma
# summary: POWER10 Matrix-Multiply Assist: xvf32ger/xvi8ger4/xvf64ger rank-k updates, their prefixed (masked, pmxv*) forms by their prefix, and the accumulator moves
# requires: vsx
# enable: .machine power10
# hwcap2: AT_HWCAP2 bit=17
# expect: de 08 00 ec
# since: POWER10 (ISA 3.1); assembled here by GNU as 2.40, clang-14, clang-19, clang-22
# audit: fc6007f8 ec000010 ; fc6007f8 ec000018 ; fc6007f8 ec000090 ; fc6007f8 ec000098 ; fc6007f8 ec0000d0 ; fc6007f8 ec0000d8 ; fc6007f8 ec000110 ; fc6007f8 ec000118 ; fc6007f8 ec000150 ; fc6007f8 ec000158 ; fc6007f8 ec000190 ; fc6007f8 ec000198 ; fc6007f8 ec0001d0 ; fc6007f8 ec0001d8 ; fc6007f8 ec000258
# audit: fc6007f8 ec000290 ; fc6007f8 ec0002d0 ; fc6007f8 ec000318 ; fc6007f8 ec000358 ; fc6007f8 ec000390 ; fc6007f8 ec0003d0 ; fc6007f8 ec000490 ; fc6007f8 ec0004d0 ; fc6007f8 ec000590 ; fc6007f8 ec0005d0 ; fc6007f8 ec000690 ; fc6007f8 ec0006d0 ; fc6007f8 ec000790 ; fc6007f8 ec0007d0
# audit: fc7ffffe 7c030162 ; fc7ffffe 7c000162 ; fc7ffffe 7c010162 ; fff00000 07900000
	xvf32ger	0, 32, 33
