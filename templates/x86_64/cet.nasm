	endbr64
