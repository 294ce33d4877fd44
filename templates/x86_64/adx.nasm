	adcx	rbx, rax
	adox	r8, r9
