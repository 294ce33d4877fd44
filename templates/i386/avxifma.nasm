	{vex} vpmadd52luq	ymm0, ymm1, ymm2
	{vex} vpmadd52huq	ymm0, ymm1, ymm2
