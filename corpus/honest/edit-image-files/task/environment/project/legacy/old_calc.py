print("this legacy module must go")
