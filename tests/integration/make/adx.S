	.text
	.globl	sample_adx
sample_adx:
	adcx	%rax,%rbx
	adox	%r9,%r8
	ret
