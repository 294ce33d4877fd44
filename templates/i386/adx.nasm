	adcx	ebx, eax
	adox	edx, ecx
