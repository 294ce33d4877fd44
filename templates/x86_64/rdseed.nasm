	rdseed	rax
