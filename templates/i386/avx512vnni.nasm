	vpdpwssds	zmm7{k1}{z}, zmm5, zmm4
