	tpause	ecx
	umwait	ecx
