	endbr32
