	{vex} vpdpbssd	ymm0, ymm1, ymm2
