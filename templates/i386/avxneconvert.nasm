	{vex} vbcstnesh2ps	ymm0, [eax]
