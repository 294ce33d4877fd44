# feature: gcs
# summary: Guarded Control Stack GCSPUSHM/GCSPOPM/GCSSS1/GCSSS2/GCSSTR/GCSSTTR (FEAT_GCS)
# enable: .arch_extension gcs
# hwcap: AT_HWCAP bit=32
# expect: 00 77 0b d5
# since: Armv9.4-A (optional); assembled here by clang-19, clang-22
# audit: ffdfff80 d50b7700 ; ffffec00 d91f0c00
	gcspushm	x0
