	tilezero	tmm0
	tilerelease
