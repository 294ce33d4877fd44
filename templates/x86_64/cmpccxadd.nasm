	cmpoxadd	[rdx], rcx, rax
