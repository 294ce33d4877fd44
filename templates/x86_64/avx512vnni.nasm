	vpdpwssds	zmm31{k1}{z}, zmm29, zmm28
