	rdrand	eax
