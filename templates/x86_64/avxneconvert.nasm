	{vex} vbcstnesh2ps	ymm0, [rax]
