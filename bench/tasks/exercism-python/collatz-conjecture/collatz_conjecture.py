def steps(number):
    pass
