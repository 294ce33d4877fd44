	wrussd	[ebx], eax
