	rdseed	eax
