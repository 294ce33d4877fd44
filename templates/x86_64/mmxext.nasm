	pmaxub	mm1, mm0
